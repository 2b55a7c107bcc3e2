#pragma once
/// \file
/// Library version and the rule-file format versions it understands.

namespace snnplan {

inline constexpr const char* version = "0.1.0";
/// The newest value of the `snnplan:` key this library reads: 2, where `/` is Python 3's
/// true division (a float) and `//` floor division. Version 1 (`/` of two integers rounds
/// toward negative infinity) is read as well.
inline constexpr int rule_format_version = 2;
/// The oldest value of the `snnplan:` key this library reads.
inline constexpr int oldest_rule_format_version = 1;

}  // namespace snnplan
