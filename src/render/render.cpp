#include "render/render.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

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

static void emit(YAML::Emitter& out, const Value& value) {
  if (value.is_null()) out << YAML::Null;
  else if (value.is_bool()) out << value.as_bool();
  else if (value.is_int()) out << value.as_int();
  else if (value.is_float()) out << value.as_float();
  else if (value.is_string()) out << value.as_string();
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
    out << YAML::Key << record.names()[k] << YAML::Value;
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
