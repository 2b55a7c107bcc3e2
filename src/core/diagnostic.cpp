#include "snnplan/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>


namespace snnplan {

const char* to_string(Severity severity) noexcept {
  switch (severity) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::string format(const Diagnostic& d) {
  const std::string where = to_string(d.location);
  // A diagnostic about no file in particular (e.g. `--rules ''`) starts with its severity.
  if (where.empty()) return fmt::format("{}: {}", to_string(d.severity), d.message);
  return fmt::format("{}: {}: {}", where, to_string(d.severity), d.message);
}

std::string format_with_source(const Diagnostic& d, std::string_view source) {
  std::string out = format(d);
  if (!d.location.known() || source.empty()) return out;
  std::size_t begin = 0;
  for (std::uint32_t line = 1; line < d.location.line && begin != std::string_view::npos; ++line) {
    begin = source.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin == std::string_view::npos || begin > source.size()) return out;
  std::size_t end = source.find('\n', begin);
  std::string_view text = source.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  // Columns on the first line count from after a UTF-8 byte order mark, as YAML readers do.
  if (begin == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);  // CRLF line endings
  out += fmt::format("\n  {}\n  ", text);
  // Columns count bytes; the caret goes under the character, so a multi-byte UTF-8 character
  // takes one space (its continuation bytes none) and a tab stays a tab.
  for (std::uint32_t c = 1; c < d.location.column && c <= text.size(); ++c) {
    const auto byte = static_cast<unsigned char>(text[c - 1]);
    if ((byte & 0xC0) != 0x80) out += byte == '\t' ? '\t' : ' ';
  }
  out += '^';
  return out;
}

std::string_view find_source(const std::vector<SourceText>& sources, std::string_view file) noexcept {
  for (const SourceText& source : sources)
    if (source.file == file) return source.text;
  return {};
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::error) return true;
  return false;
}

static std::string first_error(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::error) {
      const std::string where = to_string(d.location);
      return where.empty() ? d.message : fmt::format("{}: {}", where, d.message);
    }
  return "rule file could not be loaded";
}

// Keeps only the texts of files the diagnostics name, each once.
static std::vector<SourceText> named_sources(const std::vector<Diagnostic>& diagnostics, std::vector<SourceText> sources) {
  std::vector<SourceText> kept;
  for (SourceText& source : sources) {
    const bool named = std::any_of(diagnostics.begin(), diagnostics.end(),
                                   [&](const Diagnostic& d) { return d.location.file == source.file; });
    const bool seen = std::any_of(kept.begin(), kept.end(), [&](const SourceText& k) { return k.file == source.file; });
    if (named && !seen) kept.push_back(std::move(source));
  }
  return kept;
}

LoadError::LoadError(std::vector<Diagnostic> diagnostics, std::vector<SourceText> sources)
    : std::runtime_error(first_error(diagnostics)),
      diagnostics_(std::move(diagnostics)),
      sources_(named_sources(diagnostics_, std::move(sources))) {}

}  // namespace snnplan
