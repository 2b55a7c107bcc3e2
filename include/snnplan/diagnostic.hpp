#pragma once
/// \file
/// Problems found in a rule file are values, collected so one run reports all of them.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/source_location.hpp"

namespace snnplan {

enum class Severity { note, warning, error };

/// One problem in a rule file. `code` is a stable kebab-case identifier (e.g. "unknown-key")
/// for tools; `message` is the text a person reads.
struct Diagnostic {
  Severity severity = Severity::error;
  SourceLocation location;
  std::string code;
  std::string message;
};

/// "file:line:column: error: message".
std::string format(const Diagnostic& diagnostic);

/// format(), then the source line the diagnostic points at and a caret under its column.
/// `source` is the whole text of the file the diagnostic refers to.
std::string format_with_source(const Diagnostic& diagnostic, std::string_view source);

/// True when any diagnostic has error severity.
bool has_errors(const std::vector<Diagnostic>& diagnostics);

/// Thrown by RuleSet::from_file / from_string when a rule file cannot be used.
/// what() is the first error formatted as "file:line:column: message"; all diagnostics
/// (errors and warnings) are kept.
class LoadError : public std::runtime_error {
 public:
  explicit LoadError(std::vector<Diagnostic> diagnostics);
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const noexcept {
    return diagnostics_;
  }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace snnplan
