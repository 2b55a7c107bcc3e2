#include "language/python_repr.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "language/messages.hpp"
#include "language/operations.hpp"

namespace snnplan::language {
namespace {

using detail::RValue;
using Kind = RValue::Kind;

struct CodePointRange {
  char32_t first;
  char32_t last;
};

// What Python's str.isprintable() refuses, generated from Python itself.
constexpr CodePointRange kUnprintable[] = {
#include "language/unprintable.inc"
};

bool printable(char32_t c) {
  const auto* it =
      std::upper_bound(std::begin(kUnprintable), std::end(kUnprintable), c,
                       [](char32_t v, const CodePointRange& r) { return v < r.first; });
  return it == std::begin(kUnprintable) || c > std::prev(it)->last;
}

// The code point encoded at text[at], and its length in bytes; length 0 for a byte that does
// not start a valid (shortest, non-surrogate) UTF-8 sequence.
std::pair<char32_t, std::size_t> decode(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  char32_t c = 0;
  if (lead < 0x80) return {lead, 1};
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    c = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    c = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    c = lead & 0x07;
  } else {
    return {0, 0};
  }
  if (at + length > text.size()) return {0, 0};
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return {0, 0};
    c = (c << 6) | (byte(k) & 0x3F);
  }
  constexpr std::array<char32_t, 5> kSmallest = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kSmallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return {0, 0};
  return {c, length};
}

void check_length(const std::string& out) {
  if (out.size() > kMaxReprBytes) rule_failure(messages::repr_too_long(kMaxReprBytes));
}

// Python's str.__repr__: single quotes unless the text holds ' and no ", then double quotes.
void append_string(std::string& out, std::string_view text) {
  // At least the text and its quotes: refused before writing (escapes are checked after).
  if (out.size() + text.size() + 2 > kMaxReprBytes)
    rule_failure(messages::repr_too_long(kMaxReprBytes));
  const bool double_quoted =
      text.find('\'') != std::string_view::npos && text.find('"') == std::string_view::npos;
  const char quote = double_quoted ? '"' : '\'';
  out += quote;
  for (std::size_t at = 0; at < text.size();) {
    const auto [c, length] = decode(text, at);
    if (length == 0) {  // not UTF-8: the byte itself
      fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned char>(text[at]));
      ++at;
      continue;
    }
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (printable(c)) {
      out.append(text.substr(at, length));
    } else if (c <= 0xFF) {
      fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<std::uint32_t>(c));
    } else if (c <= 0xFFFF) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<std::uint32_t>(c));
    } else {
      fmt::format_to(std::back_inserter(out), "\\U{:08x}", static_cast<std::uint32_t>(c));
    }
    at += length;
  }
  out += quote;
  check_length(out);
}

// Python's float.__repr__: the shortest digits that read back as the same double, in fixed
// notation when the decimal exponent is in [-4, 16), else as d.ddde+XX (two exponent digits
// at least); a whole number in fixed notation keeps ".0".
void append_float(std::string& out, double f) {
  if (std::isnan(f)) {
    out += "nan";
    return;
  }
  if (std::isinf(f)) {
    out += f < 0 ? "-inf" : "inf";
    return;
  }
  std::array<char, 64> buffer{};
  const auto result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), f, std::chars_format::scientific);
  const std::string_view text(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data()));
  const std::size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(),
                  exponent);
  const bool negative = mantissa.front() == '-';
  if (negative) {
    out += '-';
    mantissa.remove_prefix(1);
  }
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  if (exponent < -4 || exponent >= 16) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    fmt::format_to(std::back_inserter(out), "e{}{:02d}", exponent < 0 ? '-' : '+',
                   std::abs(exponent));
    return;
  }
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-exponent - 1), '0');
    out += digits;
    return;
  }
  const auto whole = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= whole) {
    out += digits;
    out.append(whole - digits.size(), '0');
    out += ".0";
  } else {
    out.append(digits, 0, whole);
    out += '.';
    out.append(digits, whole);
  }
}

}  // namespace

void append_python_repr(std::string& out, const RValue& value, Brackets brackets) {
  switch (value.kind) {
    case Kind::null:
      out += "None";
      return;
    case Kind::boolean:
      out += value.b ? "True" : "False";
      return;
    case Kind::integer:
      out += detail::wide_to_string(value.i);
      return;
    case Kind::floating:
      append_float(out, value.f);
      return;
    case Kind::string:
      append_string(out, value.s());
      return;
    case Kind::list: {
      const bool tuple = brackets == Brackets::tuple;
      out += tuple ? '(' : '[';
      for (std::size_t k = 0; k < value.items.size; ++k) {
        if (k) out += ", ";
        append_python_repr(out, value.items.data[k]);  // items inside are lists again
        check_length(out);
      }
      if (tuple && value.items.size == 1) out += ',';
      out += tuple ? ')' : ']';
      return;
    }
    case Kind::record:
      detail::append_display(out, value);
      return;
  }
}

}  // namespace snnplan::language
