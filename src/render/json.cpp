#include "render/render.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "render/yaml_scalars.hpp"

namespace snnplan::render {

nlohmann::ordered_json to_json(const Value& value) {
  if (value.is_null()) return nullptr;
  if (value.is_bool()) return value.as_bool();
  if (value.is_int()) return value.as_int();
  if (value.is_float()) return value.as_float();
  if (value.is_string()) return value.as_string();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Value& item : value.as_list()) list.push_back(to_json(item));
  return list;
}

nlohmann::ordered_json to_json(const Record& record) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < record.names().size(); ++k) out[record.names()[k]] = to_json(record.values()[k]);
  return out;
}

std::string json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

namespace {

// A string JSON needs no escapes for: printable ASCII without quote or backslash.
// A string JSON needs no escapes for: printable ASCII without quote or backslash. Eight bytes
// at a time (a record's rationale lines are most of a JSON line's bytes); the word test may
// flag a plain string as not plain, never the reverse, and a flagged string only takes the
// library's exact path.
bool is_plain(std::string_view s) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
  auto has_zero_byte = [](std::uint64_t w) { return ((w - kOnes) & ~w & kHighs) != 0; };
  std::size_t k = 0;
  for (; k + 8 <= s.size(); k += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + k, 8);
    const bool control = ((w - kOnes * 0x20) & ~w & kHighs) != 0;  // a byte below 0x20
    const bool high = ((w | (w + kOnes)) & kHighs) != 0;           // a byte of 0x7F or more
    if (control || high || has_zero_byte(w ^ (kOnes * '"')) || has_zero_byte(w ^ (kOnes * '\\'))) return false;
  }
  for (; k < s.size(); ++k) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  }
  return true;
}

void append_json_string(std::string& out, std::string_view s) {
  if (is_plain(s)) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  // Escapes, non-ASCII and invalid UTF-8: exactly as nlohmann's serializer writes them.
  out += json_line(nlohmann::ordered_json(std::string(s)));
}

// For a Value (a Record's field) or a ValueView (an Evaluation's): the same accessors.
template <typename V>
void append_json_value(std::string& out, const V& value) {
  if (value.is_null()) {
    out += "null";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "true" : "false";
  } else if (value.is_int()) {
    const fmt::format_int digits(value.as_int());
    out.append(digits.data(), digits.size());
  } else if (value.is_float()) {
    // The JSON library's own float format: null for NaN and infinities, else its shortest
    // round-trip digits (the function its serializer calls, so the bytes are the same).
    const double x = value.as_float();
    if (!std::isfinite(x)) {
      out += "null";
      return;
    }
    std::array<char, 64> digits{};
    char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), x);
    out.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
  } else if (value.is_string()) {
    append_json_string(out, value.as_string());
  } else {
    out += '[';
    bool first = true;
    for (const auto& item : value.as_list()) {
      if (!first) out += ',';
      first = false;
      append_json_value(out, item);
    }
    out += ']';
  }
}

template <typename Names, typename Values>
void append_json_object(std::string& out, const Names& names, const Values& values) {
  out += '{';
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k) out += ',';
    append_json_string(out, names[k]);
    out += ':';
    append_json_value(out, values[k]);
  }
  out += '}';
}

}  // namespace

void append_json_line(std::string& out, const Record& record) { append_json_object(out, record.names(), record.values()); }

void append_json_line(std::string& out, const Evaluation& evaluation) {
  append_json_object(out, evaluation.names(), evaluation.values());
}

static void emit(YAML::Emitter& out, const Value& value) {
  if (value.is_null()) out << YAML::Null;
  else if (value.is_bool()) out << value.as_bool();
  else if (value.is_int()) out << value.as_int();
  else if (value.is_float()) emit_float(out, value.as_float());
  else if (value.is_string()) emit_string(out, value.as_string());
  else {
    const bool scalars = std::none_of(value.as_list().begin(), value.as_list().end(),
                                      [](const Value& v) { return v.is_string() || v.is_list(); });
    out << (scalars ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const Value& item : value.as_list()) emit(out, item);
    out << YAML::EndSeq;
  }
}

std::string to_yaml(const Record& record) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    out << YAML::Key;
    emit_string(out, record.names()[k]);
    out << YAML::Value;
    emit(out, record.values()[k]);
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string to_text(const Record& record) {
  std::size_t width = 0;
  for (const std::string& name : record.names()) width = std::max(width, name.size());
  std::string fields;
  std::string lines;
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    const Value& v = record.values()[k];
    const bool is_lines = v.is_list() && !v.as_list().empty() &&
                          std::all_of(v.as_list().begin(), v.as_list().end(), [](const Value& x) { return x.is_string(); });
    if (is_lines) {
      lines += fmt::format("{}:\n", record.names()[k]);
      for (const Value& line : v.as_list()) lines += fmt::format("  - {}\n", line.as_string());
    } else {
      fields += fmt::format("{:<{}}  {}\n", record.names()[k], width, to_display_string(v));
    }
  }
  return fields + lines;
}

std::string render(const Record& record, Format format) {
  switch (format) {
    case Format::json: return to_json(record).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    case Format::yaml: return to_yaml(record);
    case Format::text: return to_text(record);
  }
  return {};
}

}  // namespace snnplan::render
