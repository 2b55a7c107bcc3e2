#include "snnplan/recommendation.hpp"

#include <fmt/format.h>

namespace snnplan {
namespace {

const Value& field(const Record& record, const char* name) {
  const Value* v = record.find(name);
  if (!v) throw InputError(fmt::format("the record has no field '{}'", name));
  return *v;
}

template <typename Check>
const Value& typed(const Record& record, const char* name, Check check, const char* expected) {
  const Value& v = field(record, name);
  if (!check(v)) throw InputError(fmt::format("record field '{}' is not {}", name, expected));
  return v;
}

std::string text(const Record& r, const char* name) { return typed(r, name, [](const Value& v) { return v.is_string(); }, "a string").as_string(); }
std::int64_t integer(const Record& r, const char* name) { return typed(r, name, [](const Value& v) { return v.is_int(); }, "an int").as_int(); }

std::optional<std::int64_t> optional_integer(const Record& r, const char* name) {
  const Value& v = typed(r, name, [](const Value& x) { return x.is_null() || x.is_int(); }, "an int or null");
  if (v.is_null()) return std::nullopt;
  return v.as_int();
}

std::optional<std::vector<std::int64_t>> optional_ints(const Record& r, const char* name) {
  const Value& v = typed(r, name, [](const Value& x) { return x.is_null() || x.is_list(); }, "a list or null");
  if (v.is_null()) return std::nullopt;
  std::vector<std::int64_t> out;
  for (const Value& item : v.as_list()) {
    if (!item.is_int()) throw InputError(fmt::format("record field '{}' holds a non-integer", name));
    out.push_back(item.as_int());
  }
  return out;
}

}  // namespace

Recommendation to_recommendation(const Record& r) {
  Recommendation out;
  out.prefer = text(r, "prefer");
  out.model = text(r, "model");
  out.world_size = integer(r, "world_size");
  out.mode = text(r, "mode");
  out.optimizer_sharding = text(r, "optimizer_sharding");
  out.memopt_level = integer(r, "memopt_level");
  out.mesh_shape = optional_ints(r, "mesh_shape");
  out.tp_mesh_dim = integer(r, "tp_mesh_dim");
  out.dp_mesh_dim = optional_integer(r, "dp_mesh_dim");
  out.pp_microbatches = optional_integer(r, "pp_microbatches");
  const Value& ratio = typed(r, "pp_memopt_stage_budget_ratio", [](const Value& v) { return v.is_float() || v.is_int(); }, "a number");
  out.pp_memopt_stage_budget_ratio = ratio.is_float() ? ratio.as_float() : static_cast<double>(ratio.as_int());
  out.pp_schedule = text(r, "pp_schedule");
  out.pp_virtual_stages = integer(r, "pp_virtual_stages");
  out.pp_layout = optional_ints(r, "pp_layout");
  out.pp_delay_wgrad = typed(r, "pp_delay_wgrad", [](const Value& v) { return v.is_bool(); }, "a bool").as_bool();
  for (const Value& line : typed(r, "rationale", [](const Value& v) { return v.is_list(); }, "a list").as_list()) {
    if (!line.is_string()) throw InputError("record field 'rationale' holds a non-string");
    out.rationale.push_back(line.as_string());
  }
  return out;
}

Recommendation recommend(const std::string& model, std::int64_t world_size, const std::string& prefer,
                         std::int64_t batch_size, const RecommendOptions& options, const RuleSet& rules) {
  auto flag = [](const std::optional<bool>& f) { return f ? Value(*f) : Value(); };
  const Inputs inputs = {
      {"model", model},
      {"world_size", world_size},
      {"prefer", prefer},
      {"batch_size", batch_size},
      {"backend", options.backend},
      {"zero_redundancy_optimizer_available", flag(options.zero_redundancy_optimizer_available)},
      {"pipelining_available", flag(options.pipelining_available)},
      {"fsdp2_available", flag(options.fsdp2_available)},
      {"tensor_parallel_available", flag(options.tensor_parallel_available)},
  };
  EvaluationResult result = rules.evaluate(inputs);
  if (!result.ok()) {
    if (result.error().kind == EvaluationErrorKind::rule_error) throw RuleError(result.error().message);
    throw InputError(result.error().message);
  }
  return to_recommendation(result.record());
}

}  // namespace snnplan
