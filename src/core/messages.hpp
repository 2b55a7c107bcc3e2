#pragma once
// The texts more than one stage writes, in one place: every diagnostic code's example message
// (core/diagnostic_codes.cpp, which sits below the stages, calls them, so the documented
// example is what `check` prints), the "did you mean" search, and the texts of core's own values.
// Each stage's other texts are in its own messages.hpp (load/, check/, evaluate/, ...); tests
// assert them exactly. Messages that reproduce the reference (rationale, ValueError texts) are
// not here: they are data in the rule file.

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::messages {
// ---- rule file: YAML shape -----------------------------------------------------------------
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
inline std::string cannot_read(std::string_view path, std::string_view why) {
  return fmt::format("cannot read rule file '{}': {}", path, why);
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
inline std::string unsupported_version(std::string_view got, int supported) {
  return fmt::format("unsupported rule format version {} (this snnplan reads version {})", got,
                     supported);
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

// ---- uses: rule files calling other rule files ----------------------------------------------
inline std::string uses_cycle(std::string_view path) {
  return fmt::format("rule files use each other in a cycle: {}", path);
}
/// A used file that is not a rule file at all; said without quoting any of its content.
inline std::string not_a_rule_file(std::string_view file) {
  return fmt::format(
      "'{}' is not a rule file (not YAML, or not a mapping with the key snnplan); its content is "
      "not shown",
      file);
}

// ---- expressions ---------------------------------------------------------------------------
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

// ---- names and types -----------------------------------------------------------------------
inline std::string unknown_name(std::string_view kind, std::string_view name,
                                std::string_view suggestion) {
  if (suggestion.empty()) return fmt::format("unknown {} '{}'", kind, name);
  return fmt::format("unknown {} '{}' (did you mean '{}'?)", kind, name, suggestion);
}
inline std::string duplicate_name(std::string_view kind, std::string_view name,
                                  std::string_view first) {
  return fmt::format("duplicate {} '{}' (first declared at {})", kind, name, first);
}
inline std::string let_cycle(std::string_view path) {
  return fmt::format("derived values depend on each other in a cycle: {}", path);
}
inline std::string table_cycle(std::string_view path) {
  return fmt::format("tables call each other in a cycle, which could loop forever: {}", path);
}
inline std::string wrong_arity(std::string_view builtin, std::string_view expected,
                               std::size_t got) {
  // "1", "at least 1" -> argument; "2", "1 to 3" -> arguments
  const bool one = expected.size() >= 1 && expected.back() == '1' &&
                   (expected.size() == 1 || expected[expected.size() - 2] == ' ');
  return fmt::format("{}() takes {} argument{}, got {}", builtin, expected, one ? "" : "s", got);
}
inline std::string type_mismatch(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format("{} must be {}, but it is {}", what, expected, got);
}
inline std::string rationale_field_set(std::string_view name) {
  return fmt::format("'{}' collects rationale lines; use `because` instead of setting it", name);
}
inline std::string because_needs_rationale_field() {
  return "`because` needs a record field of type rationale to collect its lines";
}
inline std::string table_calls_too_deep(std::size_t depth, int limit, std::string_view path) {
  return fmt::format(
      "table calls can nest {} levels deep, beyond the limit of {}: an evaluation that follows {} "
      "fails",
      depth, limit, path);
}
inline std::string unreachable_table(std::string_view table, std::string_view start) {
  return fmt::format("table '{}' is never used: no path from the start table '{}' reaches it",
                     table, start);
}
inline std::string unused(std::string_view kind, std::string_view name) {
  return fmt::format("{} '{}' is never used", kind, name);
}
/// A value (or a part of one) whose kinds only partly fit its place: the checker cannot
/// prove that no input gives it a kind the place refuses (a `type-unproven` warning).
inline std::string type_unproven(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format(
      "{} must be {}, but it may be {}, which the checker cannot rule out: evaluation fails for "
      "inputs where it is not {}",
      what, expected, got, expected);
}
// A literal a value's input can never accept: "the default 'fast' of input 'prefer' is not one
// of the values its one_of allows (speed, memory)".
inline std::string not_one_of(std::string_view what, std::string_view value,
                              std::string_view input, std::string_view options) {
  return fmt::format("{} {} of input '{}' is not one of the values its one_of allows ({})", what,
                     value, input, options);
}
// A `set` or `with` text that is exactly the name of an input or derived value.
inline std::string expression_meant(std::string_view name) {
  return fmt::format("did you mean '= {}'?", name);
}
inline std::string literal_names_value(std::string_view name, std::string_view kind) {
  return fmt::format("the text '{}' is the name of {} '{}', but without '=' it is only text ({})",
                     name, kind, name, expression_meant(name));
}
inline std::string overwritten_by_next(std::string_view field, std::string_view rule,
                                       std::string_view table) {
  return fmt::format(
      "rule '{}' sets '{}', but every rule of table '{}' (reached through next) that returns a "
      "record sets it again, so this value is never used",
      rule, field, table);
}
inline std::string overlapping_rule(std::string_view rule, std::string_view earlier,
                                    std::string_view inputs, std::string_view first) {
  return fmt::format(
      "rule '{}' partly overlaps earlier {}: for {} it matches, but '{}' fires first", rule,
      earlier, inputs, first);
}
inline std::string call_missing_input(std::string_view rules, std::string_view input) {
  return fmt::format("the call of '{}' does not give its required input '{}'", rules, input);
}
inline std::string unreachable_rule(std::string_view rule, std::string_view table) {
  return fmt::format("rule '{}' follows a catch-all rule in table '{}' and can never fire", rule,
                     table);
}

// ---- table analysis (`check`): why a table is not fully analysed, and what it found ---------
inline std::string analysis_incomplete(std::string_view subject, std::string_view what) {
  return fmt::format("{} not fully analysed: {}; shadowed rules and gaps may go unreported",
                     subject, what);
}
inline std::string analysis_float_condition() {
  return "the condition compares a float value that depends on inputs";
}
inline std::string shadowed_by(std::string_view rule, std::string_view earlier) {
  return fmt::format("rule '{}' can never fire: every input it matches is matched earlier by {}",
                     rule, earlier);
}
inline std::string table_gap(std::string_view table, std::string_view inputs) {
  return fmt::format("table '{}' has a gap: no rule matches {}", table, inputs);
}
inline std::string invariant_violated(std::string_view name, std::string_view inputs,
                                      std::string_view message, std::string_view path) {
  return fmt::format("invariant '{}' does not hold for {}: {} (rule path: {})", name, inputs,
                     message, path);
}

// ---- check: diagnostic codes, `allow:` and the warning policy --------------------------------
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
inline std::string unused_allow(std::string_view code) {
  return fmt::format(
      "'{}' is allowed here but nothing here is reported with it; remove it from allow", code);
}

// ---- values of the public API ----------------------------------------------------------------
inline std::string value_int_out_of_range(std::uint64_t value) {
  return fmt::format("snnplan::Value: {} does not fit in a 64-bit signed integer", value);
}

// ---- did you mean ------------------------------------------------------------------------------
/// The candidate closest to `name` by edit distance, or "" when none is close enough to be
/// a plausible typo. Used for every "did you mean" hint.
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace snnplan::messages
