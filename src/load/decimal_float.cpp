#include "load/decimal_float.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace snnplan {

DecimalFloat read_decimal_float(std::string_view text) {
  if (text.find_first_of("0123456789") == std::string_view::npos ||
      text.find_first_not_of("0123456789+-.eE") != std::string_view::npos)
    return {};
  // strtod needs a terminated string; the character check above already excluded the
  // spellings it would take beyond decimal ones (inf, nan, 0x..., leading spaces).
  const std::string terminated(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(terminated.c_str(), &end);
  if (end != terminated.c_str() + terminated.size()) return {};
  if (errno == ERANGE && std::isinf(value)) return {DecimalFloat::Status::out_of_range, 0.0};
  return {DecimalFloat::Status::ok, value};
}

}  // namespace snnplan
