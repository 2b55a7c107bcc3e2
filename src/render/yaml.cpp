// YAML: the yaml format's renderers (render/format.hpp), written with yaml-cpp's emitter and
// scalars that YAML readers read back as meant (render/yaml_scalars.hpp).

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <type_traits>

#include "render/format.hpp"
#include "render/yaml_scalars.hpp"

namespace snnplan::render::yaml_format {
namespace {

void emit(YAML::Emitter& out, const Value& value) {
  emit_value(out, value, false);
}

template <typename T>
void emit_flow(YAML::Emitter& out, const std::vector<T>& items) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const T& item : items) {
    if constexpr (std::is_same_v<T, std::string>)
      emit_string(out, item);
    else
      out << item;
  }
  out << YAML::EndSeq;
}

template <typename T>
void emit_optional(YAML::Emitter& out, const std::optional<std::vector<T>>& items) {
  if (items)
    emit_flow(out, *items);
  else
    out << YAML::Null;
}

void emit_optional(YAML::Emitter& out, const std::optional<std::int64_t>& value) {
  if (value)
    out << *value;
  else
    out << YAML::Null;
}

void emit_lines(YAML::Emitter& out, const std::vector<std::string>& lines) {
  if (lines.empty()) {
    out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
    return;
  }
  out << YAML::Block << YAML::BeginSeq;
  for (const std::string& line : lines) emit_string(out, line);
  out << YAML::EndSeq;
}

std::string document(const YAML::Emitter& out) {
  return std::string(out.c_str()) + "\n";
}

}  // namespace

std::string recommendation(const Record& record) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    out << YAML::Key;
    emit_string(out, record.names()[k]);
    out << YAML::Value;
    emit(out, record.values()[k]);
  }
  out << YAML::EndMap;
  return document(out);
}

std::string plan(const Plan& p) {
  YAML::Emitter out;
  auto key = [&](const char* name) -> YAML::Emitter& {
    return out << YAML::Key << name << YAML::Value;
  };
  out << YAML::BeginMap;
  emit_string(key("mode"), p.mode);
  emit_string(key("objective"), p.objective);
  key("topology") << YAML::BeginMap;
  key("world_size") << p.topology.world_size();
  key("dims") << YAML::BeginMap;
  for (const Topology::Dimension& d : p.topology.dims()) {
    out << YAML::Key;
    emit_string(out, d.name);
    out << YAML::Value << d.size;
  }
  out << YAML::EndMap;
  key("mesh_shape");
  emit_flow(out, p.topology.mesh_shape());
  out << YAML::EndMap;
  emit_string(key("model_family"), p.model_family);
  emit_string(key("backend"), p.backend);
  key("batch_size") << p.batch_size;
  emit_string(key("optimizer_strategy"), p.optimizer_strategy);
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
  emit_optional(out, p.dp_mesh_dim);
  key("pp_microbatches");
  emit_optional(out, p.pp_microbatches);
  emit_string(key("pp_schedule"), p.pp_schedule);
  key("pp_virtual_stages") << p.pp_virtual_stages;
  key("pp_layout");
  emit_optional(out, p.pp_layout);
  key("pp_delay_wgrad") << p.pp_delay_wgrad;
  key("experimental_features") << YAML::BeginMap;
  for (const FeatureSet::Flag& flag : p.experimental_features.flags())
    out << YAML::Key << flag.name << YAML::Value << flag.value;
  out << YAML::EndMap;
  out << YAML::EndMap;
  return document(out);
}

}  // namespace snnplan::render::yaml_format
