#pragma once
// The value type of compiled constants and of evaluation. Integers are 128 bits wide so that
// any sum or product of two 64-bit inputs is exact (`world_size * 2` with world_size = 2^62+1
// compares correctly); anything beyond 128 bits is an overflow error, never a wrap.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "snnplan/value.hpp"

namespace snnplan::detail {

__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UnsignedWide;

struct RecordValue;

struct RValue {
  enum class Kind : std::uint8_t { null, boolean, integer, floating, string, list, record };
  using List = std::vector<RValue>;

  Kind kind = Kind::null;
  bool b = false;
  Wide i = 0;
  double f = 0;
  std::string s;
  std::shared_ptr<const List> list;
  std::shared_ptr<const RecordValue> record;

  static RValue of_bool(bool v) { RValue r; r.kind = Kind::boolean; r.b = v; return r; }
  static RValue of_int(Wide v) { RValue r; r.kind = Kind::integer; r.i = v; return r; }
  static RValue of_float(double v) { RValue r; r.kind = Kind::floating; r.f = v; return r; }
  static RValue of_string(std::string v) { RValue r; r.kind = Kind::string; r.s = std::move(v); return r; }
  static RValue of_list(List v) {
    RValue r;
    r.kind = Kind::list;
    r.list = std::make_shared<const List>(std::move(v));
    return r;
  }
};

/// The record another rule set returned (a `let` with `call`): field names and values.
struct RecordValue {
  std::shared_ptr<const std::vector<std::string>> names;
  std::vector<RValue> values;
};

/// Bit of syntax::KindSet for a value's kind.
std::uint8_t kind_bit(const RValue& value);
const char* kind_name(const RValue& value);

RValue from_public(const Value& value);
bool fits_int64(Wide value);
std::string wide_to_string(Wide value);
/// Python-like text for `{name}` placeholders: strings raw, lists "[2, 4]".
std::string display(const RValue& value);
/// Exact comparison of an integer with a float, as Python does it (no rounding of the
/// integer to a double): negative, zero or positive. NaN compares unordered (returns 2).
int compare_int_float(Wide i, double f);

/// Equality used by `==`, `eq` and `one_of`: ints and floats compare numerically; values of
/// different kinds are unequal.
bool values_equal(const RValue& a, const RValue& b);

}  // namespace snnplan::detail
