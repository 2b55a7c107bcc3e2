#pragma once
// The texts of the load stage (load/): YAML shape, expressions, literals and rule-test files,
// in one place; tests assert them exactly. The diagnostic-code reference (rules_reference/code_examples.cpp)
// shows some of them as its examples.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/messages.hpp"

namespace snnplan::messages {
// ---- rule file: YAML shape ----------------------------------------------------------------------
inline std::string rule_file_too_large(std::size_t limit) {
  return fmt::format("rule file is larger than the limit of {} bytes", limit);
}
/// yaml-cpp's text, explained for the two commonest slips.
inline std::string yaml_syntax(std::string_view what) {
  if (what == "illegal map value")
    return "YAML syntax error: a ': ' inside an unquoted text starts a mapping here; quote the "
           "text (because: \"... : ...\")";
  if (what == "end of map not found" || what == "end of sequence not found")
    return "YAML syntax error: this line is indented differently from the keys above it; line a "
           "key up with the keys of its own mapping";
  return fmt::format("YAML syntax error: {}", what);
}
inline std::string yaml_unclosed_flow(bool is_map) {
  return is_map ? "the flow mapping '{' that starts here is not closed with '}'"
                : "the flow sequence '[' that starts here is not closed with ']'";
}
inline std::string yaml_too_deep(int limit) {
  return fmt::format("YAML nesting is deeper than {} levels", limit);
}
inline std::string yaml_too_many_nodes(std::size_t limit) {
  return fmt::format(
      "the rule file has more than {} YAML nodes once aliases are expanded "
      "(each use of an alias counts in full)",
      limit);
}
inline std::string unknown_key(std::string_view key, std::string_view where,
                               std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown key '{}' in {}", key, where);
  return fmt::format("unknown key '{}' in {} (did you mean '{}'?)", key, where, suggestion);
}
inline std::string duplicate_key(std::string_view key) {
  return fmt::format("duplicate key '{}'", key);
}
inline std::string missing_key(std::string_view key, std::string_view where) {
  return fmt::format("missing required key '{}' in {}", key, where);
}
inline std::string expected_kind(std::string_view what, std::string_view expected) {
  return fmt::format("{} must be {}", what, expected);
}
inline std::string unsupported_version(std::string_view got, int oldest, int newest) {
  return fmt::format("unsupported rule format version {} (this snnplan reads versions {} to {})",
                     got, oldest, newest);
}
inline std::string unknown_type(std::string_view got) {
  return fmt::format(
      "unknown type '{}' (expected string, int, bool, float, list[int], list[string], "
      "rationale; add '?' to allow null)",
      got);
}
inline std::string unbalanced_brace(std::string_view text) {
  return fmt::format(
      "unbalanced '{{' or '}}' in template \"{}\" (write '{{{{' or '}}}}' for a brace)", text);
}
inline std::string rule_needs_outcome(std::string_view rule) {
  return fmt::format("rule '{}' does nothing: give it set, because, error, next or fallback", rule);
}
inline std::string conflicting_actions(std::string_view rule) {
  return fmt::format("rule '{}' may have only one of error, next and fallback", rule);
}
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
inline std::string expression_syntax(std::string_view what) {
  return fmt::format("expression: {}", what);
}
inline std::string expression_trailing(std::string_view token) {
  return fmt::format("unexpected '{}' after the expression", token);
}
inline std::string integer_literal_too_large(std::string_view text) {
  return fmt::format("integer {} does not fit in 64 bits", text);
}
// A number as a message shows it: whole when short, else its head and length (a float
// literal beyond the largest double may have 309 digits).
inline std::string shown_number(std::string_view text) {
  constexpr std::size_t kShown = 24;
  if (text.size() <= kShown) return std::string(text);
  return fmt::format("{}... ({} characters)", text.substr(0, kShown), text.size());
}
inline std::string float_out_of_range(std::string_view text) {
  return fmt::format("float {} is beyond the range of a 64-bit float", shown_number(text));
}
inline std::string expression_too_long(std::size_t limit) {
  return fmt::format("expression is longer than {} characters", limit);
}
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

// ---- `allow:`: the diagnostic codes it names -----------------------------------------------------
inline std::string unknown_code(std::string_view code, std::string_view suggestion) {
  if (suggestion.empty())
    return fmt::format("unknown diagnostic code '{}' (the codes are listed in docs/rules.md)",
                       code);
  return fmt::format("unknown diagnostic code '{}' (did you mean '{}'?)", code, suggestion);
}
inline std::string allow_error(std::string_view code) {
  return fmt::format("'{}' is an error and cannot be allowed (allow accepts warnings and notes)",
                     code);
}

}  // namespace snnplan::messages
