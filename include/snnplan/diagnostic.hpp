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

/// "note", "warning" or "error", as diagnostics print it.
const char* to_string(Severity severity) noexcept;

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

/// The text of a file that diagnostics point into, under the name they give it.
struct SourceText {
  std::string file;
  std::string text;
};

/// The text of `file` among `sources`; empty when there is none.
std::string_view find_source(const std::vector<SourceText>& sources, std::string_view file) noexcept;

/// True when any diagnostic has error severity.
bool has_errors(const std::vector<Diagnostic>& diagnostics);

/// Thrown by RuleSet::from_file / from_string when a rule file cannot be used.
/// what() is the first error formatted as "file:line:column: message"; all diagnostics
/// (errors and warnings) are kept, with the texts of the files they name as they were read,
/// so the lines they point at can be shown after the files changed or went away.
class LoadError : public std::runtime_error {
 public:
  explicit LoadError(std::vector<Diagnostic> diagnostics, std::vector<SourceText> sources = {});
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const noexcept {
    return diagnostics_;
  }
  /// The texts of the files the diagnostics name (those that were read), one per file.
  /// Example: `format_with_source(d, find_source(e.sources(), d.location.file))`.
  [[nodiscard]] const std::vector<SourceText>& sources() const noexcept { return sources_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::vector<SourceText> sources_;
};

}  // namespace snnplan
