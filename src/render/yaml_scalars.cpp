#include "render/yaml_scalars.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace snnplan::render {
namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == '/';
}

// Plain only for identifier-like text that no resolver turns into another type: it starts
// with a letter or '_' (so no number, date, indicator or ".inf"), has no spaces, ':' or '#',
// and is not a boolean or null spelling of either schema.
bool safe_plain(std::string_view text) {
  if (text.empty()) return false;
  const char first = text.front();
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) return false;
  for (const char c : text)
    if (!is_word_char(c)) return false;
  std::string lower;
  for (const char c : text) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* word : {"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
    if (lower == word) return false;
  return true;
}

// yaml-cpp escapes control characters and C1 controls in double quotes, but writes DEL and
// the line and paragraph separators U+2028/U+2029 as they are; YAML 1.1 readers break lines
// at the latter. Such strings are written with every non-ASCII character escaped.
bool needs_escaping_beyond_yaml_cpp(std::string_view text) {
  return text.find('\x7F') != std::string_view::npos || text.find("\xE2\x80\xA8") != std::string_view::npos ||
         text.find("\xE2\x80\xA9") != std::string_view::npos;
}

}  // namespace

void emit_string(YAML::Emitter& out, std::string_view text) {
  const std::string value(text);
  if (safe_plain(text)) {
    out << value;
    return;
  }
  if (needs_escaping_beyond_yaml_cpp(text)) out << YAML::EscapeNonAscii;
  out << YAML::DoubleQuoted << value;
}

void emit_float(YAML::Emitter& out, double value) {
  if (std::isnan(value)) {
    out << ".nan";
  } else if (std::isinf(value)) {
    out << (value > 0 ? ".inf" : "-.inf");
  } else {
    // The JSON output's shortest round-trip digits ("1.0", "0.1", "1e+20"); YAML 1.1 wants a
    // '.' in a float with an exponent, so "1e+20" becomes "1.0e+20".
    std::array<char, 64> digits{};
    char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), value);
    std::string text(digits.data(), end);
    if (const auto e = text.find('e'); e != std::string::npos && text.find('.') == std::string::npos) text.insert(e, ".0");
    out << text;
  }
}

void emit_value(YAML::Emitter& out, const Value& value, bool always_flow) {
  if (value.is_null())
    out << YAML::Null;
  else if (value.is_bool())
    out << value.as_bool();
  else if (value.is_int())
    out << value.as_int();
  else if (value.is_float())
    emit_float(out, value.as_float());
  else if (value.is_string())
    emit_string(out, value.as_string());
  else {
    const bool scalars = std::none_of(value.as_list().begin(), value.as_list().end(),
                                      [](const Value& v) { return v.is_string() || v.is_list(); });
    out << (always_flow || scalars ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const Value& item : value.as_list()) emit_value(out, item, always_flow);
    out << YAML::EndSeq;
  }
}

std::string flow_yaml(const Value& value) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);  // "null", as test files write it, not "~"
  out << YAML::Flow;
  emit_value(out, value, true);
  return out.c_str();
}

}  // namespace snnplan::render
