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

}  // namespace snnplan::messages
