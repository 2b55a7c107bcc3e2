#pragma once
// Positions in a document's text. The protocol counts lines from 0 and characters in UTF-16
// code units; snnplan's SourceLocation counts lines and (byte) columns from 1. Every conversion
// between the two is here.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "snnplan/source_location.hpp"

namespace snnplan::lsp {

struct Position {
  std::size_t line = 0;
  std::size_t character = 0;  ///< UTF-16 code units from the line's start
  friend bool operator==(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
};

/// The byte offset of `p` in `text`; a position beyond its line's end is its line's end, one
/// beyond the last line the text's end.
std::size_t offset_of(std::string_view text, Position p);
/// The position of byte `offset` (clamped to the text).
Position position_of(std::string_view text, std::size_t offset);
/// The byte offset of a 1-based line and byte column (0 = unknown: the text's start).
std::size_t offset_of(std::string_view text, const SourceLocation& at);

/// Whether byte offset `at` of `text` is inside `range`.
bool contains(std::string_view text, const Range& range, std::size_t at);

/// The characters a name is made of: letters, digits, '_' and, for rule and table names, '-'.
bool is_name_char(char c, bool with_hyphen);

/// The extent [begin, end) of the name at byte offset `at` (a cursor just after a name counts);
/// begin == end when there is none.
struct Extent {
  std::size_t begin = 0;
  std::size_t end = 0;
  [[nodiscard]] bool empty() const { return begin == end; }
};
Extent name_at(std::string_view text, std::size_t at, bool with_hyphen);

/// The extent of `name` where a location points: the loader places names at their scalar, so
/// a quoted one starts one byte on, and expression names inside a quoted scalar may be a few
/// bytes off. Looks for `name` from `at` to the end of its line; nullopt when it is not there.
std::optional<Extent> name_from(std::string_view text, std::size_t at, std::string_view name);

/// `text` with the bytes [begin, end) replaced by `replacement`.
std::string replaced(std::string_view text, std::size_t begin, std::size_t end,
                     std::string_view replacement);

/// The line holding byte `at`, without its line break, and its first byte's offset.
std::string_view line_at(std::string_view text, std::size_t at, std::size_t* line_start = nullptr);

/// The number of spaces a line starts with.
std::size_t indentation(std::string_view line);

}  // namespace snnplan::lsp
