#pragma once
// The texts of the C API (capi/), in one place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- without allocating where memory may be short -----------------------------------------------
inline const char* c_null_out_rules() { return "out_rules must not be NULL"; }
inline const char* c_null_rule_root() {
  return "rule_roots must hold root_count directory names, none of them NULL";
}
inline const char* c_null_path() { return "path must not be NULL"; }
inline const char* c_null_text() { return "text must not be NULL"; }
inline const char* c_null_log_path() { return "log_path must not be NULL"; }
inline const char* c_null_rules() { return "rules must not be NULL"; }
inline const char* c_null_candidate() { return "candidate must not be NULL"; }
inline const char* c_log_options_not_object() {
  return "options_json must be a JSON object with labels, drop_inputs or mask_inputs";
}
inline std::string c_log_options_not_json(std::string_view why) {
  return fmt::format("options_json is not JSON: {}", why);
}
inline std::string c_log_option_unknown(std::string_view key) {
  return fmt::format("unknown decision-log option '{}' (known: labels, drop_inputs, mask_inputs)", key);
}
inline std::string c_log_option_wrong_type(std::string_view key, std::string_view expected) {
  return fmt::format("decision-log option '{}' must be {}", key, expected);
}
inline const char* c_out_of_memory() { return "out of memory"; }
inline const char* c_unknown_internal_error() { return "unknown internal error"; }
/// `what`: the exception's what(), or "" when there is none.
inline std::string c_internal_error(std::string_view what) {
  return what.empty() ? std::string("internal error") : fmt::format("internal error: {}", what);
}

}  // namespace snnplan::messages
