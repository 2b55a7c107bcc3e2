#include "load/literals.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <locale.h>  // newlocale (POSIX)
#include <stdlib.h>  // strtod_l (glibc)

#include "load/messages.hpp"

namespace snnplan {

DecimalFloat read_decimal_float(std::string_view text) {
  if (text.find_first_of("0123456789") == std::string_view::npos ||
      text.find_first_not_of("0123456789+-.eE") != std::string_view::npos)
    return {};
  // strtod needs a terminated string; the character check above already excluded the
  // spellings it would take beyond decimal ones (inf, nan, 0x..., leading spaces). It reads
  // in the "C" locale whatever locale an embedding program set: with a comma as the decimal
  // separator, plain strtod would stop at the '.' of "0.5".
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", locale_t{});  // kept for the process
  const std::string terminated(text);
  char* end = nullptr;
  errno = 0;
  const double value = strtod_l(terminated.c_str(), &end, c_locale);
  if (end != terminated.c_str() + terminated.size()) return {};
  if (errno == ERANGE && std::isinf(value)) return {DecimalFloat::Status::out_of_range, 0.0};
  return {DecimalFloat::Status::ok, value};
}

std::variant<Value, LiteralError> read_plain_scalar(std::string_view s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value();
  if (s == "true" || s == "True" || s == "TRUE") return Value(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value(false);
  const bool has_sign = s.front() == '-' || s.front() == '+';
  const std::string_view digits = s.substr(has_sign ? 1 : 0);
  if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
    std::int64_t value = 0;
    // from_chars takes a '-' but not a '+'.
    const std::string_view number = s.front() == '+' ? digits : s;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || ptr != number.data() + number.size())
      return LiteralError{"integer-range", messages::integer_literal_too_large(s)};
    return Value(value);
  }
  switch (const DecimalFloat read = read_decimal_float(s); read.status) {
    case DecimalFloat::Status::ok: return Value(read.value);
    case DecimalFloat::Status::out_of_range: return LiteralError{"float-range", messages::float_out_of_range(s)};
    case DecimalFloat::Status::not_decimal: break;
  }
  return Value(std::string(s));
}

}  // namespace snnplan
