#pragma once
/// \file
/// Library version and the rule-file format versions it understands.

namespace snnplan {

inline constexpr const char* version = "0.1.0";
/// The value of the `snnplan:` key this library reads.
inline constexpr int rule_format_version = 1;

}  // namespace snnplan
