// snnplan::plan(): upstream's plan() at the seed's commit, its decisions made by the plan rules
// (rules/snn_plan.yaml) and read back as a Plan. This file orders the checks as upstream does
// and converts values both ways; every decision is in the rule file.

#include "snnplan/plan.hpp"

#include "api/rule_set_access.hpp"
#include "api/messages.hpp"

namespace snnplan {
namespace {

const Value& field(const Record& record, const char* name) {
  const Value* v = record.find(name);
  if (!v) throw InputError(messages::record_lacks_field("plan record", name));
  return *v;
}

[[noreturn]] void wrong_type(const char* name, const char* expected) {
  throw InputError(messages::record_field_kind("plan record", name, expected));
}

std::string text(const Record& r, const char* name) {
  const Value& v = field(r, name);
  if (!v.is_string()) wrong_type(name, "a string");
  return v.as_string();
}

std::int64_t integer(const Record& r, const char* name) {
  const Value& v = field(r, name);
  if (!v.is_int()) wrong_type(name, "an int");
  return v.as_int();
}

bool boolean(const Record& r, const char* name) {
  const Value& v = field(r, name);
  if (!v.is_bool()) wrong_type(name, "a bool");
  return v.as_bool();
}

std::optional<std::int64_t> optional_integer(const Record& r, const char* name) {
  const Value& v = field(r, name);
  if (v.is_null()) return std::nullopt;
  if (!v.is_int()) wrong_type(name, "an int or null");
  return v.as_int();
}

// The items of a list field, each read by `item` (false: not of the type `expected` names).
template <typename T, typename Read>
std::vector<T> items(const Value& list, const char* name, const char* expected, Read item) {
  if (!list.is_list()) wrong_type(name, expected);
  std::vector<T> out;
  for (const Value& v : list.as_list()) {
    std::optional<T> read = item(v);
    if (!read) wrong_type(name, expected);
    out.push_back(std::move(*read));
  }
  return out;
}

std::optional<std::vector<std::int64_t>> optional_ints(const Record& r, const char* name) {
  const Value& v = field(r, name);
  if (v.is_null()) return std::nullopt;
  return items<std::int64_t>(v, name, "a list of ints or null", [](const Value& item) {
    return item.is_int() ? std::optional(item.as_int()) : std::nullopt;
  });
}

std::vector<std::string> strings(const Record& r, const char* name) {
  return items<std::string>(field(r, name), name, "a list of strings", [](const Value& item) {
    return item.is_string() ? std::optional(item.as_string()) : std::nullopt;
  });
}

[[noreturn]] void throw_error(const EvaluationError& error) {
  if (error.kind == EvaluationErrorKind::rule_error) throw RuleError(error.message);
  throw InputError(error.message);
}

Value string_list(const std::vector<std::string>& items) {
  Value::List list(items.begin(), items.end());
  return Value(std::move(list));
}

}  // namespace

const RuleSet& plan_rules() {
  // Built on first use; thread-safe by the rules for function-local statics. The plan rules'
  // `uses: snn_distributed.yaml` resolves to the built-in recommendation rules.
  // Never destroyed, as RuleSet::builtin()'s table (src/api/rule_set.cpp says why).
  static const RuleSet& rules = *new RuleSet(RuleSetAccess::builtin("snn_plan.yaml"));
  return rules;
}

Inputs plan_inputs(const std::string& objective, const Topology& topology, std::int64_t batch_size,
                   const FeatureSet& features, const PlanOptions& options) {
  Value::List shape;
  for (std::int64_t size : topology.mesh_shape()) shape.emplace_back(size);
  Inputs inputs = {
      {"objective", objective},
      {"world_size", topology.world_size()},
      {"dims", string_list(topology.ordered_dim_names())},
      {"topology_mesh_shape", Value(std::move(shape))},
      {"backend", options.backend},
      {"batch_size", batch_size},
      {"model_family", options.model_family ? Value(*options.model_family) : Value()},
      {"mode", options.mode ? Value(*options.mode) : Value()},
      {"tp_candidates", options.tensor_parallel_candidates},
      {"notes", string_list(options.notes)},
  };
  for (const FeatureSet::Flag& flag : features.flags()) inputs.emplace_back(flag.name, flag.value);
  return inputs;
}

// The record's allow_* bool fields, in record order: the feature set the plan reports.
FeatureSet feature_fields(const Record& r) {
  FeatureSet out;
  for (std::size_t k = 0; k < r.names().size(); ++k)
    if (r.names()[k].starts_with(FeatureSet::kPrefix) && r.values()[k].is_bool())
      out.add(r.names()[k], r.values()[k].as_bool());
  return out;
}

Plan to_plan(const Record& r, const Topology& topology, const PlanOptions& options) {
  // Braced initialisation evaluates in order, so a missing field is reported in record order.
  return Plan{
      .mode = text(r, "mode"),
      .objective = text(r, "objective"),
      .topology = topology,
      .model_family = text(r, "model_family"),
      .backend = text(r, "backend"),
      .batch_size = integer(r, "batch_size"),
      .optimizer_strategy = text(r, "optimizer_strategy"),
      .memopt_level = integer(r, "memopt_level"),
      .rationale = strings(r, "rationale"),
      .notes = strings(r, "notes"),
      .tensor_parallel_roots = options.tensor_parallel_roots,
      .mesh_shape = optional_ints(r, "mesh_shape"),
      .tp_mesh_dim = integer(r, "tp_mesh_dim"),
      .dp_mesh_dim = optional_integer(r, "dp_mesh_dim"),
      .pp_microbatches = optional_integer(r, "pp_microbatches"),
      .pp_schedule = text(r, "pp_schedule"),
      .pp_virtual_stages = integer(r, "pp_virtual_stages"),
      .pp_layout = optional_ints(r, "pp_layout"),
      .pp_delay_wgrad = boolean(r, "pp_delay_wgrad"),
      .experimental_features = feature_fields(r),
  };
}

Plan plan(const std::string& objective, const std::variant<Topology, TopologyMapping>& topology,
          std::int64_t batch_size, const PlanOptions& options, const RuleSet& rules) {
  // Upstream's order: the caller builds DistributedFeatureSet(**flags) before calling plan();
  // plan() checks the objective, then builds the topology from a mapping, then decides.
  const FeatureSet features = FeatureSet::of(rules, options.features);
  const auto* mapping = std::get_if<TopologyMapping>(&topology);
  if (mapping) {
    if (std::optional<EvaluationError> refused = rules.check_inputs({{"objective", objective}}))
      throw_error(*refused);
  }
  const Topology checked =
      mapping ? Topology::from_mapping(*mapping) : std::get<Topology>(topology);
  EvaluationResult result =
      rules.evaluate(plan_inputs(objective, checked, batch_size, features, options));
  // A topology beyond 64 bits is decided on its stand-in sizes, so that the rules' refusals
  // (the mode and its dimensions, the candidates) come as upstream's do; a plan for it cannot
  // hold its world size and is refused instead.
  if (!result.ok()) throw_error(result.error());
  checked.require_64_bits();
  return to_plan(result.record(), checked, options);
}

}  // namespace snnplan
