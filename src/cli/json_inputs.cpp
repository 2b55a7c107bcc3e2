#include "cli/json_inputs.hpp"

#include <fmt/format.h>

#include <limits>

namespace snnplan::cli {
namespace {

const char* json_kind(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::number_float: return "a float";
    default: return "a number";
  }
}

std::string declared_type(const RuleSet& rules, const std::string& key) {
  for (const InputInfo& info : rules.inputs())
    if (info.name == key) return info.type;
  return "";
}

}  // namespace

std::variant<Inputs, std::string> inputs_from_json(const nlohmann::json& object, const RuleSet& rules) {
  if (!object.is_object()) return fmt::format("a batch line must be a JSON object, got {}", json_kind(object));
  Inputs inputs;
  inputs.reserve(object.size());
  for (const auto& [key, value] : object.items()) {
    switch (value.type()) {
      case nlohmann::json::value_t::string: inputs.emplace_back(key, value.get<std::string>()); break;
      case nlohmann::json::value_t::boolean: inputs.emplace_back(key, value.get<bool>()); break;
      case nlohmann::json::value_t::null: inputs.emplace_back(key, Value()); break;
      case nlohmann::json::value_t::number_integer: inputs.emplace_back(key, value.get<std::int64_t>()); break;
      case nlohmann::json::value_t::number_unsigned: {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          return fmt::format("input '{}': {} does not fit in a 64-bit integer", key, u);
        inputs.emplace_back(key, static_cast<std::int64_t>(u));
        break;
      }
      case nlohmann::json::value_t::number_float:
        if (declared_type(rules, key) == "int") {
          // JSON numbers beyond 64 bits arrive here as floats, so say both things.
          return fmt::format("input '{}' must be an integer that fits in 64 bits, got {}", key, value.dump());
        }
        inputs.emplace_back(key, value.get<double>());
        break;
      default:
        return fmt::format("input '{}' must be a string, number, boolean or null, got {}", key, json_kind(value));
    }
  }
  return inputs;
}

std::variant<Inputs, std::string> inputs_from_json_line(const std::string& line, const RuleSet& rules) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return std::string("empty line (expected a JSON object)");
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix: operators need the rest.
    if (auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos) what.erase(0, close + 2);
    return fmt::format("not valid JSON: {}", what);
  }
  return inputs_from_json(parsed, rules);
}

}  // namespace snnplan::cli
