// JSON: the JSON values of records, plans, traces and diagnostics, and the json format's
// renderers (render/format.hpp).

#include "render/json.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "render/format.hpp"
#include "snnplan/json.hpp"

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
  for (std::size_t k = 0; k < record.names().size(); ++k)
    out[record.names()[k]] = to_json(record.values()[k]);
  return out;
}

std::string json_line(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string error_line(const std::string& message) {
  return json_line(nlohmann::ordered_json{{"error", message}});
}

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

// Indented by two, as the CLI prints one document.
std::string pretty(const json& value) {
  return value.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

json to_json(const Topology& topology) {
  json dims = json::object();
  for (const Topology::Dimension& d : topology.dims()) dims[d.name] = d.size;
  return json{{"world_size", topology.world_size()},
              {"dims", std::move(dims)},
              {"mesh_shape", topology.mesh_shape()}};
}

json to_json(const FeatureSet& features) {
  json out = json::object();
  for (const FeatureSet::Flag& flag : features.flags()) out[flag.name] = flag.value;
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

json to_json(const std::vector<TraceStep>& steps) {
  json out = json::array();
  for (const TraceStep& step : steps) {
    json j = {{"step", to_string(step.kind)}, {"depth", step.depth}};
    if (!step.table.empty()) j["table"] = step.table;
    if (!step.rule.empty()) j["rule"] = step.rule;
    if (step.location.known()) j["at"] = to_string(step.location);
    if (!step.detail.empty()) j["detail"] = step.detail;
    out.push_back(std::move(j));
  }
  return out;
}

json to_json(const Diagnostic& d) {
  return json{
      {"file", d.location.file},           {"line", d.location.line}, {"column", d.location.column},
      {"severity", to_string(d.severity)}, {"code", d.code},          {"message", d.message}};
}

namespace json_format {

std::string recommendation(const Record& record) { return snnplan::to_json(record, JsonLayout::indented); }

std::string traced_recommendation(const Explanation& explanation) {
  json j = render::to_json(explanation.result.record());  // (ADL would find snnplan::to_json too)
  j["trace"] = to_json(explanation.steps);
  return pretty(j);
}

std::string explanation(const Explanation& explanation) {
  json j = {{"trace", to_json(explanation.steps)}};
  if (explanation.result.ok()) j["result"] = render::to_json(explanation.result.record());
  else j["error"] = explanation.result.error().message;
  return pretty(j);
}

std::string plan(const Plan& plan) {
  return pretty(to_json(plan));
}

std::string diagnostics(const std::vector<Diagnostic>& diagnostics,
                        const std::vector<SourceText>&) {
  json all = json::array();
  for (const Diagnostic& d : diagnostics) all.push_back(to_json(d));
  return json_line(all) + "\n";
}

std::string microbatches(std::int64_t count) {
  return json{{"pp_microbatches", count}}.dump() + "\n";
}

}  // namespace json_format

namespace {

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
    if (control || high || has_zero_byte(w ^ (kOnes * '"')) || has_zero_byte(w ^ (kOnes * '\\')))
      return false;
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

void append_json_line(std::string& out, const Record& record) {
  append_json_object(out, record.names(), record.values());
}

void append_json_line(std::string& out, const Evaluation& evaluation) {
  append_json_object(out, evaluation.names(), evaluation.values());
}

}  // namespace snnplan::render

namespace snnplan {

std::string to_json(const Record& record, JsonLayout layout) {
  if (layout == JsonLayout::indented) return render::pretty(render::to_json(record));
  std::string line;
  render::append_json_line(line, record);
  return line;
}

}  // namespace snnplan
