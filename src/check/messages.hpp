#pragma once
// The texts of the checker (check/): names, types and the parts of values they report, in one
// place; tests assert them exactly. Texts of check's diagnostics that the diagnostic-code table
// shows as examples are in core/messages.hpp, and the language's texts the checker reports too
// (operands and builtin arguments) in language/messages.hpp: this header includes both, so one
// include gives a file of check/ every text it writes.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "core/messages.hpp"
#include "language/messages.hpp"

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

}  // namespace snnplan::messages
