#include "snnplan/source_location.hpp"

#include <fmt/format.h>

namespace snnplan {

const std::string& FileName::empty_name() noexcept {
  static const std::string empty;
  return empty;
}

std::string to_string(const SourceLocation& location) {
  if (!location.known()) return location.file;
  return fmt::format("{}:{}:{}", location.file.str(), location.line, location.column);
}

}  // namespace snnplan
