#pragma once
// The texts of reading a request (request/): JSON lines and plan requests, in one place;
// tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- plan requests and JSON lines ---------------------------------------------------------------
inline std::string feature_not_bool(std::string_view name, std::string_view got) {
  return fmt::format("feature '{}' must be true or false, got {}", name, got);
}
inline std::string integer_input_too_large(std::string_view key, std::string_view got) {
  return fmt::format("input '{}': {} does not fit in a 64-bit integer", key, got);
}
inline std::string integer_input_range(std::string_view key, std::string_view got) {
  return fmt::format("input '{}' must be an integer that fits in 64 bits, got {}", key, got);
}
inline std::string batch_empty_line() {
  return "empty line (expected a JSON object)";
}
/// `column` counts from 1. JSON text never holds a raw NUL byte (a string may hold \u0000).
inline std::string batch_nul_byte(std::size_t column) {
  return fmt::format(
      "a NUL byte at column {} (JSON text cannot contain one; inside a string write \\u0000)",
      column);
}
inline std::string not_a_plan_key(std::string_view key) {
  return fmt::format("'{}' is not a field of a plan request", key);
}
inline std::string batch_not_json(std::string_view what) {
  return fmt::format("not valid JSON: {}", what);
}
inline std::string batch_line_not_object(std::string_view got) {
  return fmt::format("a batch line must be a JSON object, got {}", got);
}
inline std::string batch_value_kind(std::string_view key, std::string_view got) {
  return fmt::format(
      "input '{}' must be a string, number, boolean, null or an array of those, got {}", key, got);
}
inline std::string array_holding(std::string_view kind) {
  return fmt::format("an array holding {}", kind);
}
inline std::string batch_duplicate_key(std::string_view key) {
  return fmt::format("duplicate key '{}' in a JSON object", key);
}

}  // namespace snnplan::messages
