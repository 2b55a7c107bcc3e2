#include "cli/json_inputs.hpp"

#include <fmt/format.h>

#include <limits>
#include <map>

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

namespace {

// nlohmann's DOM builder, plus the spelling of each top-level number that arrived as a float:
// an integer too long for 64 bits is reported with the digits the user wrote, not 1e+20.
class RawNumbers : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
 public:
  using Base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  explicit RawNumbers(nlohmann::json& result) : Base(result, true) {}

  bool start_object(std::size_t size) {
    ++depth_;
    return Base::start_object(size);
  }
  bool end_object() {
    --depth_;
    return Base::end_object();
  }
  bool key(string_t& name) {
    if (depth_ == 1) key_ = name;
    return Base::key(name);
  }
  bool number_float(number_float_t value, const string_t& spelling) {
    if (depth_ == 1) spelling_[key_] = spelling;
    return Base::number_float(value, spelling);
  }
  const std::map<std::string, std::string>& spellings() const { return spelling_; }

 private:
  int depth_ = 0;
  std::string key_;
  std::map<std::string, std::string> spelling_;
};

}  // namespace

std::variant<Inputs, std::string> inputs_from_json_line(const std::string& line, const RuleSet& rules) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return std::string("empty line (expected a JSON object)");
  nlohmann::json parsed;
  RawNumbers builder(parsed);
  try {
    nlohmann::json::sax_parse(line, &builder);
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for a number like 1e400
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix: operators need the rest.
    if (auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos) what.erase(0, close + 2);
    return fmt::format("not valid JSON: {}", what);
  }
  for (const auto& [key, spelling] : builder.spellings()) {
    const bool integer = spelling.find_first_not_of("-0123456789") == std::string::npos;
    if (integer && declared_type(rules, key) == "int") return fmt::format("input '{}': {} does not fit in a 64-bit integer", key, spelling);
  }
  return inputs_from_json(parsed, rules);
}

}  // namespace snnplan::cli
