#pragma once
// The texts of the load stage (load/): YAML shape, expressions, literals and rule-test files,
// in one place; tests assert them exactly. Texts of load's diagnostics that the diagnostic-code
// table shows as examples are in core/messages.hpp.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/messages.hpp"

namespace snnplan::messages {
// ---- rule file: YAML shape ----------------------------------------------------------------------
inline std::string text_made_a_mapping(std::string_view what, std::string_view key) {
  return fmt::format(
      "{} must be a string, but the ': ' after '{}' made it a mapping; quote the text", what, key);
}
inline std::string yaml_unclosed_quote(char quote) {
  return fmt::format("the quoted string that starts here is not closed with {}",
                     quote == '"' ? "'\"'" : "\"'\"");
}
inline std::string yaml_second_document() {
  return "a second YAML document starts here (a rule file holds one; remove the '---' or '...' and "
         "what follows)";
}
inline std::string version_not_a_number(std::string_view got) {
  return fmt::format("the format version must be a number (write snnplan: 1), got the string '{}'",
                     got);
}
inline std::string unknown_match_op(std::string_view got, std::string_view suggestion) {
  std::string base = fmt::format(
      "unknown matcher '{}' (expected eq, ne, lt, le, gt, ge, one_of, not_one_of)", got);
  if (!suggestion.empty()) base += fmt::format("; did you mean '{}'?", suggestion);
  return base;
}
inline std::string template_conversion(std::string_view conversion) {
  return fmt::format("template conversion '{}' is not supported (only '!r', Python's repr())",
                     conversion);
}

// ---- expressions --------------------------------------------------------------------------------
inline std::string expression_unterminated_string() {
  return "unterminated string literal";
}
inline std::string expression_unknown_escape(char escape) {
  return fmt::format("unknown escape '\\{}' in string literal", escape);
}
inline std::string expression_not_an_operator(std::string_view written, std::string_view meant,
                                              std::string_view why = {}) {
  return fmt::format("'{}' is not an operator; write '{}'{}", written, meant, why);
}
inline std::string expression_unexpected_character(std::string_view c) {
  return fmt::format("unexpected character '{}'", c);
}
inline std::string expression_expected(std::string_view what, std::string_view found) {
  return fmt::format("expected {}, found '{}'", what, found);
}
inline std::string expression_chained_comparison() {
  return "comparisons do not chain; combine them with '&&'";
}
inline std::string expression_too_deep(int limit) {
  return fmt::format("expression nests deeper than {} levels", limit);
}

// ---- matcher operands ---------------------------------------------------------------------------
/// "a list", or "a list of 2 items" for a matcher whose list has a fixed length.
inline std::string a_list_of(std::size_t items) {
  return items == 0 ? std::string("a list") : fmt::format("a list of {} items", items);
}

// ---- rule-test files: expected outcomes ---------------------------------------------------------
inline std::string test_expect_error_kind() {
  return expected_kind("expect_error", "a string (the expected error message)");
}
inline std::string test_expect_and_error() {
  return "a test may have expect or expect_error, not both";
}

// ---- rule-test files: their keys ----------------------------------------------------------------
inline std::string test_unnamed(std::uint32_t line) {
  return fmt::format("test at line {}", line);
}
/// The allowed keys are listed because a test file has few and a typo is common.
inline std::string test_unknown_key(std::string_view key, std::string_view where, std::string_view suggestion,
                                    std::string_view allowed) {
  if (suggestion.empty()) return fmt::format("unknown key '{}' in {}; allowed: {}", key, where, allowed);
  return fmt::format("unknown key '{}' in {} (did you mean '{}'?); allowed: {}", key, where, suggestion, allowed);
}
inline std::string test_exact_with_error() { return "exact applies to expect, not to expect_error"; }

}  // namespace snnplan::messages
