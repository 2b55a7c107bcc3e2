#pragma once
// The texts of the evaluator (evaluate/): inputs it refuses and what stops an evaluation, in
// one place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- searches without their own failure messages ------------------------------------------------
inline std::string search_none_valid(std::string_view search) {
  return fmt::format("no candidate of search '{}' meets its constraints", search);
}
inline std::string search_none_fits(std::string_view search) {
  return fmt::format("no candidate of search '{}' fits", search);
}

// ---- inputs, tables and records -----------------------------------------------------------------
inline std::string missing_input(std::string_view name) {
  return fmt::format("missing required input '{}'", name);
}
inline std::string unknown_input(std::string_view name, std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown input '{}'", name);
  return fmt::format("unknown input '{}' (did you mean '{}'?)", name, suggestion);
}
inline std::string input_named_twice(std::string_view name) {
  return fmt::format("input '{}' is named twice in the input layout", name);
}
inline std::string input_refused(std::string_view name, std::string_view value) {
  return fmt::format("input '{}' = {} is not one of the values its one_of allows", name, value);
}
inline std::string input_type(std::string_view name, std::string_view expected,
                              std::string_view got) {
  return fmt::format("input '{}' must be {}, got {}", name, expected, got);
}
inline std::string input_list_item(std::string_view name, std::string_view element,
                                   std::string_view got) {
  return fmt::format("input '{}' must be list[{}], got a list holding {}", name, element, got);
}
inline std::string input_too_long(std::string_view name, std::size_t length, std::size_t limit) {
  return fmt::format("input '{}' has a string of {} bytes, longer than the limit of {} bytes", name,
                     length, limit);
}
inline std::string not_allowed(std::string_view name, std::string_view value) {
  return fmt::format("input '{}' has a value that is not allowed: '{}'", name, value);
}
inline std::string no_rule_matched(std::string_view table) {
  return fmt::format("no rule of table '{}' matched these inputs", table);
}
inline std::string chain_too_deep(int limit) {
  return fmt::format("table calls nest deeper than {} levels", limit);
}
inline std::string out_of_64_bits(std::string_view what) {
  return fmt::format("{} does not fit in a 64-bit integer", what);
}
inline std::string record_in_output(std::string_view field) {
  return fmt::format("record field '{}' holds a record; records cannot be output", field);
}

}  // namespace snnplan::messages
