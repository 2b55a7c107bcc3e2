#pragma once
// How literal text becomes a value, the same way on every input path: plain YAML scalars in
// rule files and rule-test files, float literals in expressions, float inputs on the command
// line. (JSON lines are read by nlohmann-json, which refuses the same overflows.)
//
// Numbers never change silently: an integer beyond 64 bits or a float beyond the range of a
// double is an error, never a wrap, a float or infinity. A float below the smallest double
// reads as the nearest double (maybe 0.0), as Python reads it.

#include <string>
#include <string_view>
#include <variant>

#include "snnplan/value.hpp"

namespace snnplan {

struct DecimalFloat {
  enum class Status { ok, not_decimal, out_of_range };
  Status status = Status::not_decimal;
  double value = 0.0;  // when status == ok
};

/// Reads text made only of digits, signs, '.' and 'e'/'E' (at least one digit) as a whole;
/// "inf", "nan", hex and surrounding spaces are not decimal floats.
DecimalFloat read_decimal_float(std::string_view text);

/// Why a plain scalar cannot be a value: a diagnostic code and its message.
struct LiteralError {
  const char* code;  // "integer-range" or "float-range"
  std::string message;
};

/// A plain (unquoted) YAML scalar as YAML's core schema reads it: empty, "~" and null
/// spellings are null; true/false spellings are booleans; optionally signed decimal digits
/// are a 64-bit integer ("08" is 8: no octal); decimal floats are floats; anything else is
/// a string. Quoted scalars are always strings and do not come here.
std::variant<Value, LiteralError> read_plain_scalar(std::string_view text);

}  // namespace snnplan
