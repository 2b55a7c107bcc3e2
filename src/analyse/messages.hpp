#pragma once
// The texts of the analysis (analyse/): why a table is not fully analysed, what it found,
// invariants and `snnplan diff`, in one place; tests assert them exactly. The diagnostic-code
// reference (rules_reference/code_examples.cpp) shows some of them as its examples.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
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
// ---- search constraints the declared domain decides (analyse/search_constraints.cpp) ---------
inline std::string search_constraint_subject(std::string_view constraint, std::string_view search,
                                             std::string_view tier) {
  return tier.empty() ? fmt::format("constraint '{}' of search '{}'", constraint, search)
                      : fmt::format("constraint '{}' of tier '{}' of search '{}'", constraint, tier,
                                    search);
}
inline std::string search_fit_subject(std::string_view search) {
  return fmt::format("the fit test of search '{}'", search);
}
/// `subject`: search_constraint_subject or search_fit_subject.
inline std::string constraint_never_holds(std::string_view subject, bool fit_test) {
  return fmt::format(
      "{} never holds, for any input the file declares: {}", subject,
      fit_test ? "no candidate ever fits, so the search always fails"
               : "it removes every candidate it sees (check its condition)");
}
inline std::string constraint_never_fails(std::string_view subject, bool fit_test) {
  return fmt::format(
      "{} never fails, for any input the file declares: {}", subject,
      fit_test ? "every candidate that meets the constraints fits, so the none_fits error is never "
                 "raised"
               : "it removes no candidate (remove it, or check its condition)");
}

inline std::string invariant_violated(std::string_view name, std::string_view inputs,
                                      std::string_view message, std::string_view path) {
  return fmt::format("invariant '{}' does not hold for {}: {} (rule path: {})", name, inputs,
                     message, path);
}
inline std::string overlapping_rule(std::string_view rule, std::string_view earlier,
                                    std::string_view inputs, std::string_view first) {
  return fmt::format(
      "rule '{}' partly overlaps earlier {}: for {} it matches, but '{}' fires first", rule,
      earlier, inputs, first);
}
inline std::string analysis_too_many_alternatives() {
  return "the expression has too many alternative values";
}
inline std::string analysis_searches(std::string_view let) {
  return fmt::format("derived value '{}' is chosen by a search", let);
}
inline std::string analysis_calls_rule_set(std::string_view let) {
  return fmt::format("derived value '{}' calls another rule set", let);
}
inline std::string analysis_list_input(std::string_view input) {
  return fmt::format("input '{}' is a list", input);
}
inline std::string analysis_three_inputs(std::string_view names) {
  return fmt::format("the condition relates more than two integer inputs ({})", names);
}
inline std::string analysis_period_too_large(std::string_view limit) {
  return fmt::format("the divisors of the condition multiply to more than {}", limit);
}
inline std::string analysis_divides_by_input() {
  return "the condition divides by a value that depends on inputs";
}
inline std::string analysis_multiplies_inputs() {
  return "the condition multiplies two values that depend on integer inputs";
}
inline std::string analysis_orders_strings() {
  return "the condition orders strings that depend on inputs";
}
inline std::string analysis_two_string_inputs() {
  return "the condition compares two string inputs with each other";
}
inline std::string analysis_record_field(std::string_view let, std::string_view field) {
  return fmt::format(
      "'{}.{}' is a field of another rule set's record, which the analysis does not evaluate", let,
      field);
}
inline std::string analysis_unsupported_expression() {
  return "the analysis does not support this kind of expression";
}
inline std::string analysis_builds_string() {
  return "the condition builds a string from an input";
}
inline std::string analysis_prefix_from_input(std::string_view builtin) {
  return fmt::format("{}() is given a prefix that depends on inputs", builtin);
}
inline std::string analysis_unsupported_builtin(std::string_view builtin) {
  return fmt::format("{}() is not supported by the analysis", builtin);
}
inline std::string analysis_overflow() {
  return "an integer condition overflows 128 bits";
}
inline std::string analysis_not_affine() {
  return "an integer condition is not periodic-affine (internal)";
}
inline std::string analysis_residues(std::string_view inputs, std::string_view limit) {
  return fmt::format("the divisors in the conditions on {} need more than {} residue classes",
                     inputs, limit);
}
inline std::string analysis_coefficients(std::string_view x, std::string_view y) {
  return fmt::format("the coefficients relating '{}' and '{}' are too large", x, y);
}
inline std::string analysis_lowered_options(std::string_view input) {
  return fmt::format("input '{}' is lowered and has non-ASCII options", input);
}
inline std::string analysis_lowered_constants(std::string_view input) {
  return fmt::format("input '{}' is lowered and compared with non-ASCII strings", input);
}
inline std::string analysis_no_representative(std::string_view input) {
  return fmt::format("no representative string found for input '{}'", input);
}
inline std::string analysis_chain(std::string_view names) {
  return fmt::format("the conditions relate the integer inputs {} in a chain", names);
}
inline std::string analysis_fallback_expression(std::string_view rule, std::string_view input) {
  return fmt::format("rule '{}' falls back to it with '{}' set to an expression", rule, input);
}
inline std::string analysis_fallback_overrides_condition(std::string_view rule,
                                                         std::string_view input) {
  return fmt::format(
      "rule '{}' falls back to it overriding '{}', which its own conditions depend on", rule,
      input);
}
inline std::string analysis_fallback_too_many(std::string_view rule) {
  return fmt::format("rule '{}' falls back to it overriding inputs with too many values", rule);
}
inline std::string analysis_too_many_points(std::size_t limit) {
  return fmt::format("its conditions depend on more than {} combinations of input values", limit);
}
inline std::string analysis_entry_too_many_points(std::size_t limit) {
  return fmt::format(
      "whether the inputs it is entered with reach a gap depends on more than {} combinations of "
      "input "
      "values",
      limit);
}
inline std::string analysis_blocked_rule(std::string_view rule, std::string_view where) {
  return fmt::format(
      "whether rule '{}' can fire depends on an earlier condition that fails to evaluate for some "
      "inputs "
      "({})",
      rule, where);
}
inline std::string shadowed_unsatisfiable(std::string_view rule) {
  return fmt::format("rule '{}' can never fire: no input satisfies all of its conditions", rule);
}
inline std::string table_may_have_gap(std::string_view table, std::string_view inputs,
                                      std::string_view why) {
  return fmt::format(
      "table '{}' may have a gap: no rule matches {}; the condition under which the table is "
      "entered "
      "was not modelled ({}), so such inputs may never reach it",
      table, inputs, why);
}
inline std::string any_input_reaching_it() {
  return "any input that reaches it";
}
inline std::string any_input() {
  return "any input";
}
inline std::string invariant_not_proved(std::string_view name, std::string_view what) {
  return fmt::format(
      "invariant '{}' checked only at representatives: {}; a violation between them may go "
      "unreported",
      name, what);
}
inline std::string invariant_compares_field_with_inputs() {
  return "it compares a record field with a value computed from the inputs";
}
inline std::string invariant_reads_computed_field(std::string_view field) {
  return fmt::format("it reads record field '{}', which a rule computes from the inputs here",
                     field);
}

// ---- snnplan diff and map ----
inline std::string diff_inputs_differ(std::string_view old_file, std::string_view only_old,
                                      std::string_view new_file, std::string_view only_new) {
  std::string out = "the two rule files declare different inputs:";
  if (!only_old.empty()) out += fmt::format(" only {} has {}", old_file, only_old);
  if (!only_old.empty() && !only_new.empty()) out += ";";
  if (!only_new.empty()) out += fmt::format(" only {} has {}", new_file, only_new);
  return out;
}
inline std::string diff_too_many_defaults(std::size_t limit) {
  return fmt::format(
      "more than {} inputs have different defaults in the two files: only the first {} are also "
      "tried left out",
      limit, limit);
}
inline std::string diff_partial_region(std::string_view region) {
  return fmt::format(
      "values computed from the inputs change at some sampled inputs and not at others, or not in "
      "the same way, where {}: there they are compared at sampled inputs only",
      region);
}
inline std::string diff_dense_values(std::string_view rule, std::string_view why) {
  return fmt::format("what rule '{}' sets is beyond the regions ({})", rule, why);
}
inline std::string diff_dense_sampling(std::string_view inputs, std::string_view lo,
                                       std::string_view hi) {
  return fmt::format(
      "where such a rule fires, {} are also sampled densely ({}..{} each) besides the regions' own "
      "points",
      inputs, lo, hi);
}
inline std::string diff_condition_not_computable(std::string_view term) {
  return fmt::format("{} cannot be computed", term);
}
inline std::string diff_unknown_input(std::string_view name) {
  return fmt::format("--input {}: not an input of the rule files", name);
}
inline std::string diff_wrong_kind() {
  return "the rule files do not take this value for it (its type)";
}
inline std::string diff_not_allowed() {
  return "not one of its allowed values (one_of)";
}
inline std::string diff_input_refused(std::string_view name, std::string_view why) {
  return fmt::format("--input {}: {}", name, why);
}

// ---- coverage (`snnplan test --coverage`): what a search goal asks a test to see -----------
inline std::string goal_tier_chose(std::string_view tier) {
  return fmt::format("tier '{}' chose the plan", tier);
}
inline std::string goal_constraint_removed(std::string_view constraint, std::string_view tier) {
  if (tier.empty()) return fmt::format("constraint '{}' removed a candidate", constraint);
  return fmt::format("constraint '{}' of tier '{}' removed a candidate", constraint, tier);
}
inline std::string goal_too_big() {
  return "a candidate did not fit";
}
inline std::string goal_search_failed(std::string_view failure) {
  return fmt::format("the search failed with {}", failure);
}

}  // namespace snnplan::messages
