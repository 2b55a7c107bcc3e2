#pragma once
// The texts of the decision log and its replay (decisions/), in one place; tests assert them
// exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- the decision log and replay ----------------------------------------------------------------
/// Decision logs (snnplan/decision_log.hpp) and `snnplan replay`.
inline std::string decision_log_cannot_open(std::string_view path) {
  return fmt::format("cannot open decision log {}", path);
}
inline std::string decision_log_not_opened(std::string_view path, std::string_view why) {
  return fmt::format("snnplan: cannot open decision log {} (SNNPLAN_DECISION_LOG): {}; decisions are not logged",
                     path, why);
}
inline std::string decision_log_short_write(std::ptrdiff_t written, std::size_t size) {
  return fmt::format("only {} of {} bytes written", written, size);
}
inline std::string decision_log_write_failed(std::string_view path, std::string_view why) {
  return fmt::format("snnplan: cannot write decision log {}: {} (the decision stands; further failures are "
                     "counted, not reported)", path, why);
}
inline std::string replay_not_json(std::string_view why) { return fmt::format("not JSON ({})", why); }
inline std::string replay_not_a_record() { return "not a decision record (a JSON object)"; }
inline std::string replay_other_format(std::string_view format) {
  return fmt::format("a record of another log format ({})", format);
}
inline std::string replay_missing_key(std::string_view key) {
  return fmt::format("the record has no valid \"{}\"", key);
}
inline std::string replay_masked(std::string_view names) {
  return fmt::format("inputs masked or dropped when logged: {}", names);
}
inline std::string replay_file_gone(std::string_view file, std::string_view why) {
  return fmt::format("its rule file {} cannot be loaded: {}", file, why);
}
inline std::string replay_undeclared_input(std::string_view name, std::string_view file) {
  return fmt::format("input '{}' is not declared by {}", name, file);
}
inline std::string replay_bad_inputs(std::string_view why) { return fmt::format("its inputs: {}", why); }

}  // namespace snnplan::messages
