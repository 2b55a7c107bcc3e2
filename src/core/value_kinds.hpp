#pragma once
// Sets of value kinds, so types can say "list or null" and the checker "unknown": one bit per
// kind of runtime value (in the order of RValue::Kind, checked in runtime_value.cpp).

#include <cstdint>
#include <string>

namespace snnplan::detail {

enum Kind : std::uint8_t {
  kNull = 1,
  kBool = 2,
  kInt = 4,
  kFloat = 8,
  kString = 16,
  kList = 32,
  kRecord = 64,  // the result of calling another rule set (a `let` with `call`)
  kAny = 127,
};
using KindSet = std::uint8_t;

/// "int", "string or null", "any value", ...
std::string describe(KindSet kinds);

}  // namespace snnplan::detail
