#pragma once
// The texts of the public C++ API (api/): rule files named under `uses:` and records as the
// API reads them, in one place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- uses: rule files calling other rule files --------------------------------------------------
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
inline std::string uses_too_deep(std::size_t limit) {
  return fmt::format("rule files use each other more than {} levels deep", limit);
}
// `bare`: the name has no directory part, so a built-in rule file of that name was looked for.
inline std::string uses_not_found(std::string_view file, std::string_view directory, bool bare) {
  if (!bare && directory.empty())
    return fmt::format(
        "cannot find rule file '{}' (only a bare file name can name a built-in rule file)", file);
  if (!bare) return fmt::format("cannot find rule file '{}' in {}", file, directory);
  if (directory.empty())
    return fmt::format("cannot find rule file '{}' among the built-in rule files", file);
  return fmt::format("cannot find rule file '{}' in {} or among the built-in rule files", file,
                     directory);
}
/// `roots`: the rule roots, already joined for display ("/a, /b").
inline std::string uses_outside_root(std::string_view file, std::string_view roots) {
  return fmt::format(
      "rule file '{}' is outside the rule root ({}): a rule file may use only files under its root "
      "(--rules-root DIR adds one)",
      file, roots);
}
inline std::string uses_not_regular(std::string_view file, std::string_view what) {
  return fmt::format("cannot use '{}': it is {}, not a regular file", file, what);
}
inline std::string uses_has_errors(std::string_view file, std::string_view used_as) {
  return fmt::format("rule file '{}' (used as '{}') has errors", file, used_as);
}

// ---- inputs by position (RuleSet::input_layout) ------------------------------------------------
inline std::string layout_of_other_rules(std::string_view file) {
  return fmt::format("the input layout was made for another rule set than '{}'", file);
}
inline std::string layout_value_count(std::size_t given, std::size_t names) {
  return fmt::format("{} input values given for an input layout of {} names", given, names);
}

// ---- records as the C++ API reads them (Recommendation, Plan) -----------------------------------
// `record` is "record" or "plan record".
inline std::string record_lacks_field(std::string_view record, std::string_view name) {
  return fmt::format("the {} has no field '{}'", record, name);
}
inline std::string record_field_kind(std::string_view record, std::string_view name,
                                     std::string_view expected) {
  return fmt::format("{} field '{}' is not {}", record, name, expected);
}
inline std::string record_field_items(std::string_view name, std::string_view what) {
  return fmt::format("record field '{}' holds {}", name, what);
}

// ---- reading rule files ------------------------------------------------------------------------
inline std::string cannot_read(std::string_view path, std::string_view why) {
  return fmt::format("cannot read rule file '{}': {}", path, why);
}

}  // namespace snnplan::messages
