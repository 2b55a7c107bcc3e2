#include "snnplan/source_location.hpp"

#include <fmt/format.h>

namespace snnplan {

std::string to_string(const SourceLocation& location) {
  if (!location.known()) return location.file;
  return fmt::format("{}:{}:{}", location.file, location.line, location.column);
}

}  // namespace snnplan
