#include "frontends/lsp/text.hpp"

#include <algorithm>

namespace snnplan::lsp {
namespace {

// The byte offset where line `line` (from 0) starts; text.size() when there are fewer lines.
std::size_t line_start(std::string_view text, std::size_t line) {
  std::size_t at = 0;
  for (std::size_t k = 0; k < line; ++k) {
    const std::size_t newline = text.find('\n', at);
    if (newline == std::string_view::npos) return text.size();
    at = newline + 1;
  }
  return at;
}

std::size_t line_end(std::string_view text, std::size_t start) {
  const std::size_t newline = text.find('\n', start);
  std::size_t end = newline == std::string_view::npos ? text.size() : newline;
  if (end > start && text[end - 1] == '\r') --end;
  return end;
}

// The bytes of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte),
// and how many UTF-16 units its character takes.
std::size_t sequence_bytes(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

}  // namespace

std::size_t offset_of(std::string_view text, Position p) {
  const std::size_t start = line_start(text, p.line);
  if (start >= text.size()) return text.size();
  const std::size_t end = line_end(text, start);
  std::size_t at = start;
  std::size_t units = 0;
  while (at < end && units < p.character) {
    const std::size_t bytes = sequence_bytes(static_cast<unsigned char>(text[at]));
    units += bytes == 4 ? 2 : 1;
    at = std::min(end, at + bytes);
  }
  return at;
}

Position position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  Position p;
  std::size_t start = 0;
  for (std::size_t k = 0; k < offset; ++k)
    if (text[k] == '\n') {
      ++p.line;
      start = k + 1;
    }
  for (std::size_t at = start; at < offset;) {
    const std::size_t bytes = sequence_bytes(static_cast<unsigned char>(text[at]));
    p.character += bytes == 4 ? 2 : 1;
    at += bytes;
  }
  return p;
}

std::size_t offset_of(std::string_view text, const SourceLocation& at) {
  if (at.line == 0) return 0;
  const std::size_t start = line_start(text, at.line - 1);
  const std::size_t column = at.column == 0 ? 0 : at.column - 1;
  return std::min(start + column, line_end(text, std::min(start, text.size())));
}

bool contains(std::string_view text, const Range& range, std::size_t at) {
  return offset_of(text, range.start) <= at && at <= offset_of(text, range.end);
}

bool is_name_char(char c, bool with_hyphen) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (with_hyphen && c == '-');
}

Extent name_at(std::string_view text, std::size_t at, bool with_hyphen) {
  at = std::min(at, text.size());
  std::size_t begin = at;
  while (begin > 0 && is_name_char(text[begin - 1], with_hyphen)) --begin;
  std::size_t end = at;
  while (end < text.size() && is_name_char(text[end], with_hyphen)) ++end;
  return Extent{begin, end};
}

std::optional<Extent> name_from(std::string_view text, std::size_t at, std::string_view name) {
  if (name.empty()) return std::nullopt;
  const std::size_t end = line_end(text, std::min(at, text.size()));
  for (std::size_t k = std::min(at, text.size()); k + name.size() <= end; ++k) {
    if (text.compare(k, name.size(), name) != 0) continue;
    const bool starts = k == 0 || !is_name_char(text[k - 1], true);
    const std::size_t after = k + name.size();
    const bool ends = after >= text.size() || !is_name_char(text[after], true);
    if (starts && ends) return Extent{k, after};
  }
  return std::nullopt;
}

std::string replaced(std::string_view text, std::size_t begin, std::size_t end,
                     std::string_view replacement) {
  std::string out;
  out.reserve(text.size() - (end - begin) + replacement.size());
  out.append(text.substr(0, begin));
  out.append(replacement);
  out.append(text.substr(end));
  return out;
}

std::string_view line_at(std::string_view text, std::size_t at, std::size_t* line_start_out) {
  at = std::min(at, text.size());
  const std::size_t newline = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  if (line_start_out) *line_start_out = start;
  return text.substr(start, line_end(text, start) - start);
}

std::size_t indentation(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

}  // namespace snnplan::lsp
