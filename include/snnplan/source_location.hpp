#pragma once
/// \file
/// The one source-position type of snnplan: a file name with a 1-based line and column.

#include <cstdint>
#include <string>

namespace snnplan {

/// A position in a rule file. Lines and columns count from 1; 0 means "unknown".
/// yaml-cpp's 0-based marks are converted once, in the loader.
struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  [[nodiscard]] bool known() const noexcept { return line != 0; }
  /// The same location, `offset` columns further right (for positions inside a scalar).
  [[nodiscard]] SourceLocation shifted(std::uint32_t offset) const {
    return SourceLocation{file, line, column + offset};
  }
};

/// "file:line:column", or "file" when the position is unknown.
std::string to_string(const SourceLocation& location);

}  // namespace snnplan
