#pragma once
// The texts of the checker (check/): names, types and the parts of values they report, in one
// place; tests assert them exactly. The diagnostic-code reference (rules_reference/code_examples.cpp)
// shows some of them as its examples. The language's texts the checker reports too (operands,
// builtin arguments, types) are in language/messages.hpp, and load's it reports again (a missing
// key) in load/messages.hpp: this header includes both, so one include gives a file of check/
// every text it writes.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/messages.hpp"
#include "language/messages.hpp"
#include "load/messages.hpp"

namespace snnplan::messages {
// ---- the verdict on a file: `snnplan check`'s summary line, also the workbench's -------------
inline std::string count_of(std::size_t n, std::string_view what) {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}
/// `check`'s summary line of a file it accepts.
inline std::string check_ok(std::string_view file, std::size_t rules, std::size_t tables,
                            std::size_t warnings, std::size_t allowed) {
  std::string line = fmt::format("{}: ok \u2014 {} in {}, {}", file, count_of(rules, "rule"),
                                 count_of(tables, "table"), count_of(warnings, "warning"));
  if (allowed != 0) line += fmt::format(" ({} allowed)", allowed);
  return line;
}
/// `check`'s summary line of a file it refuses.
inline std::string check_failed(std::string_view file, std::size_t errors, std::size_t warnings,
                                bool strict) {
  return fmt::format("{}: failed \u2014 {}, {}{}", file, count_of(errors, "error"),
                     count_of(warnings, "warning"), strict && errors == 0 ? " (--strict)" : "");
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
// ---- searches ---------------------------------------------------------------------------------
inline std::string search_constraint(std::string_view name) {
  return fmt::format("constraint '{}'", name);
}
inline std::string search_enumeration(std::string_view name) {
  return fmt::format("the values of '{}' in `for`", name);
}
inline std::string tier_without_value(std::string_view tier, std::string_view name) {
  return fmt::format("tier '{}' does not give '{}', which another tier gives (every tier gives the same values)",
                     tier, name);
}
inline std::string aggregated_value(std::string_view aggregate) {
  return fmt::format("candidate value for {}()", aggregate);
}
inline std::string search_key() {
  return "the key of `minimize`";
}
inline std::string search_key_item() {
  return "an item of the key of `minimize`";
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
inline std::string call_missing_input(std::string_view rules, std::string_view input) {
  return fmt::format("the call of '{}' does not give its required input '{}'", rules, input);
}
inline std::string unreachable_rule(std::string_view rule, std::string_view table) {
  return fmt::format("rule '{}' follows a catch-all rule in table '{}' and can never fire", rule,
                     table);
}
inline std::string not_an_input(std::string_view name) {
  return fmt::format("'{}' is not an input; fallback `with` may only override inputs", name);
}
inline std::string one_rationale_field() {
  return "a record may have at most one field of type rationale";
}
// A part of a value (a branch of `?:`, an argument of try(), a list item) whose kind its place
// does not accept, reported at the part: "record field 'level' must be int, but the value
// after ':' is string".
inline std::string part_type_mismatch(std::string_view what, std::string_view expected,
                                      std::string_view part, std::string_view got) {
  return fmt::format("{} must be {}, but {} is {}", what, expected, part, got);
}
inline std::string part_type_unproven(std::string_view what, std::string_view expected,
                                      std::string_view part, std::string_view got) {
  return fmt::format(
      "{} must be {}, but {} may be {}, which the checker cannot rule out: evaluation fails for "
      "inputs where it is not {}",
      what, expected, part, got, expected);
}
inline std::string operands_of(std::string_view op) { return fmt::format("the operands of '{}'", op); }
inline std::string left_operand(std::string_view op) { return fmt::format("the left operand of '{}'", op); }
inline std::string right_operand(std::string_view op) { return fmt::format("the right operand of '{}'", op); }
/// What an ordering (and `+`, with lists) takes whatever the values are.
inline std::string operand_pairs(bool lists) {
  return lists ? "two numbers, two strings or two lists" : "two numbers or two strings";
}
inline std::string kinds_and(std::string_view left, std::string_view right) {
  return fmt::format("{} and {}", left, right);
}
inline std::string list_holding(std::string_view items) { return fmt::format("a list holding {}", items); }
/// The value of derived value `name`, as the part of a value that is reported.
inline std::string derived_value_part(std::string_view name) {
  return fmt::format("derived value '{}'", name);
}
inline std::string branch_after(char separator) {
  return fmt::format("the value after '{}'", separator);
}
inline std::string try_argument(std::size_t position) {
  return position == 1 ? "the value of try()" : "the fallback of try()";
}
inline std::string list_item(std::size_t position) {
  return fmt::format("item {} of the list", position);
}
inline std::string items_of(std::string_view what) {
  return fmt::format("the items of {}", what);
}
inline std::string template_placeholder(std::string_view name) {
  return fmt::format("the placeholder {{{}}}", name);
}
inline std::string template_value_kinds() { return "a string, int, float, bool, list or null"; }
inline std::string with_hint(std::string_view message, std::string_view hint) {
  return fmt::format("{} ({})", message, hint);
}
inline std::string overwritten_by_fallback(std::string_view field, std::string_view rule,
                                           std::string_view table) {
  return fmt::format(
      "rule '{}' sets '{}', but its fallback to table '{}' replaces it with that table's value "
      "(add it to keep to keep this one)",
      rule, field, table);
}


// ---- check: diagnostic codes, `allow:` and the warning policy --------------------------------
inline std::string unused_allow(std::string_view code) {
  return fmt::format(
      "'{}' is allowed here but nothing here is reported with it; remove it from allow", code);
}

}  // namespace snnplan::messages
