#pragma once
// Every diagnostic code, defined once: one row per code with the severity it is reported at
// and what it means (its example message is rules_reference/code_examples.hpp's, written by the stage
// that reports it). `check --error/--ignore`, `allow:` in rule files and
// docs/rules.md's code table (rules_reference/tables.cpp) read these rows; a test holds every code
// the loader, checker and analysis emit to having a row here.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/diagnostic.hpp"

namespace snnplan::detail {

struct DiagnosticCodeInfo {
  std::string_view code;  ///< stable kebab-case identifier (Diagnostic::code)
  /// The most severe level the code is reported at. Only codes below `error` can be accepted
  /// by `allow:` or dropped by `check --ignore`: an error means the rules cannot be used.
  Severity severity;
  std::string_view summary;  ///< what the finding means, one line
};

/// Every code, errors first, then warnings, then notes; alphabetical within each.
std::span<const DiagnosticCodeInfo> diagnostic_codes();
/// The row of `code`, or nullptr.
const DiagnosticCodeInfo* find_diagnostic_code(std::string_view code);
/// Every code's name, for did-you-mean.
std::vector<std::string> diagnostic_code_names();

}  // namespace snnplan::detail
