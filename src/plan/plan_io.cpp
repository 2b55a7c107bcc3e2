#include "plan/plan_io.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <set>
#include <type_traits>
#include <vector>

#include "core/messages.hpp"
#include "render/yaml_scalars.hpp"

namespace snnplan::plan_io {
namespace {

using json = nlohmann::ordered_json;

template <typename T>
json optional_array(const std::optional<std::vector<T>>& items) {
  if (!items) return nullptr;
  return json(*items);
}

template <typename T>
json optional_value(const std::optional<T>& v) {
  if (!v) return nullptr;
  return json(*v);
}

// ---- YAML ----------------------------------------------------------------------------------

template <typename T>
void emit_flow(YAML::Emitter& out, const std::vector<T>& items) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const T& item : items) {
    if constexpr (std::is_same_v<T, std::string>) render::emit_string(out, item);
    else out << item;
  }
  out << YAML::EndSeq;
}

template <typename T>
void emit_optional(YAML::Emitter& out, const std::optional<std::vector<T>>& items) {
  if (items) emit_flow(out, *items);
  else out << YAML::Null;
}

void emit_lines(YAML::Emitter& out, const std::vector<std::string>& lines) {
  if (lines.empty()) {
    out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
    return;
  }
  out << YAML::Block << YAML::BeginSeq;
  for (const std::string& line : lines) render::emit_string(out, line);
  out << YAML::EndSeq;
}

// ---- text ----------------------------------------------------------------------------------

template <typename T>
std::string shown_list(const std::vector<T>& items) {
  std::string out = "[";
  for (std::size_t k = 0; k < items.size(); ++k) out += fmt::format("{}{}", k ? ", " : "", items[k]);
  return out + "]";
}

template <typename T>
std::string shown_optional(const std::optional<T>& v) {
  if (!v) return "null";
  if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(*v);
  else return shown_list(*v);
}

// ---- JSON input ----------------------------------------------------------------------------

const char* json_kind(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::null: return "null";
    case json::value_t::number_float: return "a float";
    default: return "a number";
  }
}

const std::vector<std::string>& input_keys() {
  static const std::vector<std::string> keys = {"objective", "topology", "world_size", "backend", "batch_size", "model_family",
                                                "mode", "features", "tp_roots", "tp_candidates", "notes"};
  return keys;
}

// A scalar JSON value as a Value for Topology::from_values, which words the refusals; only
// what a Value cannot hold is refused here.
Value topology_number(const json& v, const std::string& name, bool is_world_size) {
  auto refuse = [&](const std::string& got) -> Value {
    throw InputError(is_world_size ? messages::topology_world_size(got) : messages::topology_size(name, got));
  };
  switch (v.type()) {
    case json::value_t::number_integer: return v.get<std::int64_t>();
    case json::value_t::number_unsigned:
      if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return refuse(v.dump());
      return static_cast<std::int64_t>(v.get<std::uint64_t>());
    case json::value_t::number_float: return v.get<double>();
    case json::value_t::boolean: return v.get<bool>();
    case json::value_t::string: return v.get<std::string>();
    case json::value_t::null: return Value();
    default: return refuse(json_kind(v));
  }
}

std::string string_input(const json& v, const char* key) {
  if (!v.is_string()) throw InputError(messages::input_type(key, "a string", json_kind(v)));
  return v.get<std::string>();
}

std::vector<std::string> strings_input(const json& v, const char* key) {
  if (!v.is_array()) throw InputError(messages::input_type(key, "an array of strings", json_kind(v)));
  std::vector<std::string> out;
  for (const json& item : v) {
    if (!item.is_string()) throw InputError(messages::input_type(key, "an array of strings", fmt::format("an array holding {}", json_kind(item))));
    out.push_back(item.get<std::string>());
  }
  return out;
}

bool bool_input(const json& v, const char* key) {
  if (!v.is_boolean()) throw InputError(messages::input_type(key, "true or false", json_kind(v)));
  return v.get<bool>();
}

std::int64_t integer_input(const json& v, const char* key) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  if (v.is_number()) throw InputError(messages::integer_input_range(key, v.dump()));
  throw InputError(messages::input_type(key, "an integer", json_kind(v)));
}

}  // namespace

json to_json(const Topology& topology) {
  json dims = json::object();
  for (const Topology::Dimension& d : topology.dims()) dims[d.name] = d.size;
  return json{{"world_size", topology.world_size()}, {"dims", std::move(dims)}, {"mesh_shape", topology.mesh_shape()}};
}

json to_json(const FeatureSet& features) {
  json out = json::object();
  for (const std::string& name : FeatureSet::names()) out[name] = features.get(name);
  return out;
}

json to_json(const Plan& p) {
  json out = json::object();
  out["mode"] = p.mode;
  out["objective"] = p.objective;
  out["topology"] = to_json(p.topology);
  out["model_family"] = p.model_family;
  out["backend"] = p.backend;
  out["batch_size"] = p.batch_size;
  out["optimizer_strategy"] = p.optimizer_strategy;
  out["memopt_level"] = p.memopt_level;
  out["rationale"] = p.rationale;
  out["notes"] = p.notes;
  out["tensor_parallel_roots"] = optional_array(p.tensor_parallel_roots);
  out["mesh_shape"] = optional_array(p.mesh_shape);
  out["tp_mesh_dim"] = p.tp_mesh_dim;
  out["dp_mesh_dim"] = optional_value(p.dp_mesh_dim);
  out["pp_microbatches"] = optional_value(p.pp_microbatches);
  out["pp_schedule"] = p.pp_schedule;
  out["pp_virtual_stages"] = p.pp_virtual_stages;
  out["pp_layout"] = optional_array(p.pp_layout);
  out["pp_delay_wgrad"] = p.pp_delay_wgrad;
  out["experimental_features"] = to_json(p.experimental_features);
  return out;
}

std::string to_yaml(const Plan& p) {
  YAML::Emitter out;
  auto key = [&](const char* name) -> YAML::Emitter& { return out << YAML::Key << name << YAML::Value; };
  out << YAML::BeginMap;
  render::emit_string(key("mode"), p.mode);
  render::emit_string(key("objective"), p.objective);
  key("topology") << YAML::BeginMap;
  key("world_size") << p.topology.world_size();
  key("dims") << YAML::BeginMap;
  for (const Topology::Dimension& d : p.topology.dims()) {
    out << YAML::Key;
    render::emit_string(out, d.name);
    out << YAML::Value << d.size;
  }
  out << YAML::EndMap;
  key("mesh_shape");
  emit_flow(out, p.topology.mesh_shape());
  out << YAML::EndMap;
  render::emit_string(key("model_family"), p.model_family);
  render::emit_string(key("backend"), p.backend);
  key("batch_size") << p.batch_size;
  render::emit_string(key("optimizer_strategy"), p.optimizer_strategy);
  key("memopt_level") << p.memopt_level;
  key("rationale");
  emit_lines(out, p.rationale);
  key("notes");
  emit_lines(out, p.notes);
  key("tensor_parallel_roots");
  emit_optional(out, p.tensor_parallel_roots);
  key("mesh_shape");
  emit_optional(out, p.mesh_shape);
  key("tp_mesh_dim") << p.tp_mesh_dim;
  key("dp_mesh_dim");
  if (p.dp_mesh_dim) out << *p.dp_mesh_dim;
  else out << YAML::Null;
  key("pp_microbatches");
  if (p.pp_microbatches) out << *p.pp_microbatches;
  else out << YAML::Null;
  render::emit_string(key("pp_schedule"), p.pp_schedule);
  key("pp_virtual_stages") << p.pp_virtual_stages;
  key("pp_layout");
  emit_optional(out, p.pp_layout);
  key("pp_delay_wgrad") << p.pp_delay_wgrad;
  key("experimental_features") << YAML::BeginMap;
  for (const std::string& name : FeatureSet::names()) out << YAML::Key << name << YAML::Value << p.experimental_features.get(name);
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string to_text(const Plan& p) {
  std::string features;
  for (const std::string& name : FeatureSet::names())
    features += fmt::format("{}{}={}", features.empty() ? "" : ", ", name, p.experimental_features.get(name));
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"mode", p.mode},
      {"objective", p.objective},
      {"topology", fmt::format("{} (world_size {}, mesh_shape {})", p.topology.to_string(), p.topology.world_size(),
                               shown_list(p.topology.mesh_shape()))},
      {"model_family", p.model_family},
      {"backend", p.backend},
      {"batch_size", std::to_string(p.batch_size)},
      {"optimizer_strategy", p.optimizer_strategy},
      {"memopt_level", std::to_string(p.memopt_level)},
      {"tensor_parallel_roots", shown_optional(p.tensor_parallel_roots)},
      {"mesh_shape", shown_optional(p.mesh_shape)},
      {"tp_mesh_dim", std::to_string(p.tp_mesh_dim)},
      {"dp_mesh_dim", shown_optional(p.dp_mesh_dim)},
      {"pp_microbatches", shown_optional(p.pp_microbatches)},
      {"pp_schedule", p.pp_schedule},
      {"pp_virtual_stages", std::to_string(p.pp_virtual_stages)},
      {"pp_layout", shown_optional(p.pp_layout)},
      {"pp_delay_wgrad", p.pp_delay_wgrad ? "true" : "false"},
      {"experimental_features", features},
  };
  std::size_t width = 0;
  for (const auto& [name, value] : fields) width = std::max(width, name.size());
  std::string out;
  for (const auto& [name, value] : fields) out += fmt::format("{:<{}}  {}\n", name, width, value);
  for (const auto& [name, lines] : {std::pair{"rationale", &p.rationale}, std::pair{"notes", &p.notes}}) {
    if (lines->empty()) {
      out += fmt::format("{}: []\n", name);
      continue;
    }
    out += fmt::format("{}:\n", name);
    for (const std::string& line : *lines) out += fmt::format("  - {}\n", line);
  }
  return out;
}

std::variant<Request, std::string> request_from_json(const json& object) {
  if (!object.is_object()) return messages::batch_line_not_object(json_kind(object));
  try {
    for (const auto& [key, value] : object.items()) {
      if (std::find(input_keys().begin(), input_keys().end(), key) == input_keys().end())
        return messages::unknown_input(key, messages::closest_match(key, input_keys()));
    }
    // A key that is absent or null takes its default; the three without one are required.
    auto given = [&](const char* key) -> const json* {
      auto it = object.find(key);
      return it == object.end() || it->is_null() ? nullptr : &*it;
    };
    auto required = [&](const char* key) -> const json& {
      const json* v = given(key);
      if (!v) throw InputError(messages::missing_input(key));
      return *v;
    };
    PlanOptions options;
    const std::string objective = string_input(required("objective"), "objective");
    const json& dims = required("topology");
    if (!dims.is_object())
      throw InputError(messages::input_type("topology", "an object of dimension sizes such as {\"dp\": 4, \"tp\": 2}", json_kind(dims)));
    std::vector<std::pair<std::string, Value>> sizes;
    for (const auto& [name, size] : dims.items()) sizes.emplace_back(name, topology_number(size, name, false));
    const Value world_size = given("world_size") ? topology_number(*given("world_size"), "", true) : Value();
    Topology topology = Topology::from_values(sizes, world_size);
    const std::int64_t batch_size = integer_input(required("batch_size"), "batch_size");
    if (const json* v = given("backend")) options.backend = string_input(*v, "backend");
    if (const json* v = given("model_family")) options.model_family = string_input(*v, "model_family");
    if (const json* v = given("mode")) options.mode = string_input(*v, "mode");
    if (const json* v = given("features")) {
      if (!v->is_object()) throw InputError(messages::input_type("features", "an object of feature flags", json_kind(*v)));
      for (const auto& [name, flag] : v->items()) {
        if (!flag.is_boolean()) {
          (void)options.features.get(name);  // an unknown name is the first thing to report
          throw InputError(messages::feature_not_bool(name, flag.dump()));
        }
        options.features.set(name, flag.get<bool>());
      }
    }
    if (const json* v = given("tp_roots")) options.tensor_parallel_roots = strings_input(*v, "tp_roots");
    if (const json* v = given("tp_candidates")) options.tensor_parallel_candidates = bool_input(*v, "tp_candidates");
    if (const json* v = given("notes")) options.notes = strings_input(*v, "notes");
    return Request{objective, std::move(topology), batch_size, std::move(options)};
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

std::variant<Request, std::string> request_from_json_line(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return messages::batch_empty_line();
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{...}\0anything" would
  // parse as the object alone.
  if (const auto nul = line.find('\0'); nul != std::string::npos) return messages::batch_nul_byte(nul + 1);
  // The callback tracks the keys of each open object so a repeated key is refused rather
  // than silently replacing the first (a topology given as {"dp": 4, "dp": 2}).
  std::vector<std::set<std::string>> open;
  std::optional<std::string> repeated;
  json::parser_callback_t track = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) open.emplace_back();
    else if (event == json::parse_event_t::object_end && !open.empty()) open.pop_back();
    else if (event == json::parse_event_t::key && !open.empty() && !open.back().insert(parsed.get<std::string>()).second && !repeated)
      repeated = parsed.get<std::string>();
    return true;
  };
  json parsed;
  try {
    parsed = json::parse(line, track);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e400
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix: operators need the rest.
    if (auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos) what.erase(0, close + 2);
    return messages::batch_not_json(what);
  }
  if (repeated) return messages::batch_duplicate_key(*repeated);
  return request_from_json(parsed);
}

}  // namespace snnplan::plan_io
