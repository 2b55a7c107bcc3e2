#pragma once
// The texts of the use cases (usecases/): what a request the front ends pass on is refused
// with, in one place; tests assert them exactly. The texts of the stages a use case runs stay
// in those stages' headers.

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "load/messages.hpp"

namespace snnplan::messages {
// ---- checking a rule file: the warning policy ---------------------------------------------------
/// A code given to `--error` or `--ignore` (`flag`) that the code table does not have.
inline std::string unknown_policy_code(std::string_view flag, std::string_view code,
                                       std::string_view suggestion) {
  return fmt::format("{} {}: {}", flag, code, unknown_code(code, suggestion));
}
inline std::string ignore_error(std::string_view code) {
  return fmt::format(
      "--ignore {}: '{}' is an error and cannot be ignored (only warnings and notes can)", code,
      code);
}
/// A finding the rule file accepts with `allow:`, shown as a note (`--show-allowed`).
inline std::string allowed_finding(std::string_view severity, std::string_view message,
                                   std::string_view reason) {
  return fmt::format("allowed {}: {} (reason: {})", severity, message, reason);
}

// ---- the sampled diff ---------------------------------------------------------------------------
inline std::string corpus_line(std::size_t line, std::string_view problem) {
  return fmt::format("corpus line {}: {}", line, problem);
}
inline std::string sampled_summary(std::size_t compared, std::size_t from_corpus, std::size_t at_thresholds,
                                   std::uint64_t seed, std::size_t changed) {
  return fmt::format(
      "sampled, not every input: {} inputs compared ({} from the corpus, {} on a threshold of either file, "
      "{} drawn with seed {}); {} changed\n",
      compared, from_corpus, at_thresholds, compared - from_corpus - at_thresholds, seed, changed);
}
inline std::string sampled_group(std::size_t count) {
  return fmt::format("  {} input{} changed:\n", count, count == 1 ? "" : "s");
}
inline std::string sampled_floats(std::string_view fields) {
  return fmt::format("    and the value of {}\n", fields);
}
inline std::string sampled_numbers_changed(std::string_view field, std::string_view masked) {
  return fmt::format("{}: {} with other numbers (# marks them)", field, masked);
}
inline std::string sampled_corpus_from_tests(std::size_t requests, std::string_view file) {
  return fmt::format("the corpus is the {} requests of the old file's rule tests ({}); give --corpus FILE for others\n",
                     requests, file);
}
inline std::string sampled_errors_only() {
  return "every input that changed is one both files refuse: inputs drawn from the declared types alone "
         "are seldom ones the rules can answer; give --corpus FILE with requests like yours (JSON Lines) "
         "to compare answers\n";
}
inline std::string sampled_example(std::string_view example) {
  return fmt::format("    e.g. {}\n", example);
}

}  // namespace snnplan::messages
