#pragma once
// Decimal floats as every input path reads them: YAML literals in rule files, float literals
// in expressions and float inputs on the command line. JSON lines are read by nlohmann-json,
// which refuses the same overflow. One reading keeps the paths consistent: beyond the largest
// double is an error (never infinity), below the smallest is the nearest double (maybe 0.0),
// as Python reads it; "inf", "nan", hex and surrounding spaces are not decimal floats.

#include <string_view>

namespace snnplan {

struct DecimalFloat {
  enum class Status { ok, not_decimal, out_of_range };
  Status status = Status::not_decimal;
  double value = 0.0;  // when status == ok
};

/// Reads text made only of digits, signs, '.' and 'e'/'E' (at least one digit) as a whole.
DecimalFloat read_decimal_float(std::string_view text);

}  // namespace snnplan
