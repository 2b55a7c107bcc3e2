#pragma once
// The texts of the Python module (TypeError and ValueError texts), in one place; tests
// assert them exactly.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::messages {
// ---- plan() arguments ---------------------------------------------------------------------------
inline std::string topology_name_type(std::string_view type) {
  return fmt::format("Topology dimension names must be strings, but got {}.", type);
}

// ---- RuleSet ------------------------------------------------------------------------------------
/// RuleSet.builtin(name) for a name that is not a built-in rule file; `files` are those there are.
inline std::string py_unknown_builtin(std::string_view name, const std::vector<std::string_view>& files) {
  return fmt::format("no built-in rule file '{}' (there are: {})", name, fmt::join(files, ", "));
}

// ---- the drop-ins, records and decision logs ----------------------------------------------------
/// "batch_size must be int, not str": `got` is the Python type's name.
inline std::string py_wrong_type(std::string_view what, std::string_view expected,
                                 std::string_view got) {
  return fmt::format("{} must be {}, not {}", what, expected, got);
}
inline std::string py_int_too_large(std::string_view what, std::string_view value) {
  return fmt::format("{} = {} does not fit in a 64-bit integer", what, value);
}
/// The package's wrappers always pass every argument; another caller of the internal function gets this.
inline std::string py_positional_arguments(std::string_view function, int expected, std::ptrdiff_t given) {
  return fmt::format("{}() takes {} positional arguments but {} were given", function, expected, given);
}
/// snnplan/_types.py and the extension disagree about the record (a broken installation).
inline std::string py_record_class_mismatch(std::string_view what) {
  return fmt::format("snnplan: SNNDistributedRecommendation does not match the extension: {}", what);
}
/// snnplan/_drop_in.py and the extension disagree about the availability constants.
inline std::string py_availability_constants_mismatch() {
  return "snnplan: the *_AVAILABLE constants do not match the extension: expected a namespace dict and four names";
}
/// The probe ran but one of the package's constants is still not set.
inline std::string py_constant_missing(std::string_view name) {
  return fmt::format("module 'snnplan' has no attribute '{}' after probing PyTorch", name);
}
/// Decision logs from Python (snnplan.DecisionLog, RuleSet.with_decision_log).
inline std::string py_log_names_not_str(std::string_view what) {
  return fmt::format("{} must be an iterable of input names (str), such as ['model']", what);
}
inline const char* py_log_labels_not_str() { return "labels must map str to str, such as {'job': '42'}"; }
inline const char* py_log_options_with_log() {
  return "labels, drop_inputs and mask_inputs are a DecisionLog's own: give them when it is made";
}

}  // namespace snnplan::messages
