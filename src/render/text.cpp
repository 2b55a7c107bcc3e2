// Text for people: the text format's renderers (render/format.hpp). Scalars are aligned one
// per line; lists of lines (rationale, notes) follow as bullet lists.

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "render/format.hpp"

namespace snnplan::render::text_format {
namespace {

template <typename T>
std::string shown_list(const std::vector<T>& items) {
  std::string out = "[";
  for (std::size_t k = 0; k < items.size(); ++k)
    out += fmt::format("{}{}", k ? ", " : "", items[k]);
  return out + "]";
}

template <typename T>
std::string shown_optional(const std::optional<T>& v) {
  if (!v) return "null";
  if constexpr (std::is_same_v<T, std::int64_t>)
    return std::to_string(*v);
  else
    return shown_list(*v);
}

std::string trace(const std::vector<TraceStep>& steps) {
  std::string out;
  std::string derived;
  for (const TraceStep& step : steps) {
    const std::string indent(static_cast<std::size_t>(step.depth) * 2, ' ');
    switch (step.kind) {
      case TraceStep::Kind::enter_table:
        out += fmt::format("{}table {}\n", indent, step.table);
        break;
      case TraceStep::Kind::rule_skipped:
        out += fmt::format("{}  - {}: skipped, {} ({})\n", indent, step.rule, step.detail,
                           to_string(step.location));
        break;
      case TraceStep::Kind::rule_fired:
        out += fmt::format("{}  * {}: fired ({})\n", indent, step.rule, to_string(step.location));
        break;
      case TraceStep::Kind::fallback:
        out += fmt::format("{}    fallback {}\n", indent, step.detail);
        break;
      case TraceStep::Kind::derived_value:
        derived += fmt::format("  {}\n", step.detail);
        break;
      case TraceStep::Kind::search_tier:
        out += fmt::format("{}search {}, tier {}\n", indent, step.table, step.rule.empty() ? "(one)" : step.rule);
        break;
      case TraceStep::Kind::candidate_removed:
        out += fmt::format("{}  - {}: removed by {}\n", indent, step.detail, step.rule);
        break;
      case TraceStep::Kind::candidate_fits:
        out += fmt::format("{}  + {}: fits\n", indent, step.detail);
        break;
      case TraceStep::Kind::candidate_too_big:
        out += fmt::format("{}  - {}: does not fit\n", indent, step.detail);
        break;
      case TraceStep::Kind::search_summary:
        out += fmt::format("{}  = {}\n", indent, step.detail);
        break;
      case TraceStep::Kind::search_chosen:
        out += fmt::format("{}  * chosen {}\n", indent, step.detail);
        break;
      case TraceStep::Kind::error:
        if (step.location.known())
          out += fmt::format("error: {} ({})\n", step.detail, to_string(step.location));
        else
          out += fmt::format("error: {}\n", step.detail);
        break;
    }
  }
  if (!derived.empty()) out += "derived values:\n" + derived;
  return out;
}

}  // namespace

std::string recommendation(const Record& record) {
  std::size_t width = 0;
  for (const std::string& name : record.names()) width = std::max(width, name.size());
  std::string fields;
  std::string lines;
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    const Value& v = record.values()[k];
    const bool is_lines = v.is_list() && !v.as_list().empty() &&
                          std::all_of(v.as_list().begin(), v.as_list().end(),
                                      [](const Value& x) { return x.is_string(); });
    if (is_lines) {
      lines += fmt::format("{}:\n", record.names()[k]);
      for (const Value& line : v.as_list()) lines += fmt::format("  - {}\n", line.as_string());
    } else {
      fields += fmt::format("{:<{}}  {}\n", record.names()[k], width, to_display_string(v));
    }
  }
  return fields + lines;
}

std::string explanation(const Explanation& explanation) {
  std::string out = trace(explanation.steps);
  if (explanation.result.ok()) out += "result:\n" + recommendation(explanation.result.record());
  return out;
}

std::string plan(const Plan& p) {
  std::string features;
  for (const FeatureSet::Flag& flag : p.experimental_features.flags())
    features += fmt::format("{}{}={}", features.empty() ? "" : ", ", flag.name, flag.value);
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"mode", p.mode},
      {"objective", p.objective},
      {"topology", fmt::format("{} (world_size {}, mesh_shape {})", p.topology.to_string(),
                               p.topology.world_size(), shown_list(p.topology.mesh_shape()))},
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
  for (const auto& [name, lines] :
       {std::pair{"rationale", &p.rationale}, std::pair{"notes", &p.notes}}) {
    if (lines->empty()) {
      out += fmt::format("{}: []\n", name);
      continue;
    }
    out += fmt::format("{}:\n", name);
    for (const std::string& line : *lines) out += fmt::format("  - {}\n", line);
  }
  return out;
}

std::string diagnostics(const std::vector<Diagnostic>& diagnostics,
                        const std::vector<SourceText>& sources) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    // The code at the end of the line: what `allow:`, --error and --ignore name.
    Diagnostic coded = d;
    if (!d.code.empty()) coded.message += fmt::format(" [{}]", d.code);
    out += format_with_source(coded, find_source(sources, d.location.file)) + "\n";
  }
  return out;
}

std::string microbatches(std::int64_t count) {
  return std::to_string(count) + "\n";
}

}  // namespace snnplan::render::text_format
