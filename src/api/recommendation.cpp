#include "snnplan/recommendation.hpp"

#include "snnplan/evaluation.hpp"
#include "api/messages.hpp"
#include "api/request_inputs.hpp"

namespace snnplan {
namespace {

// The conversion reads fields by name from a Record (owning Values) or from an Evaluation
// (ValueViews): both kinds of value answer is_*() and as_*() alike.
template <typename Fields>
class Converter {
 public:
  explicit Converter(const Fields& fields) : fields_(fields) {}

  Recommendation run() const {
    Recommendation out;
    out.prefer = text("prefer");
    out.model = text("model");
    out.world_size = integer("world_size");
    out.mode = text("mode");
    out.optimizer_sharding = text("optimizer_sharding");
    out.memopt_level = integer("memopt_level");
    out.mesh_shape = optional_ints("mesh_shape");
    out.tp_mesh_dim = integer("tp_mesh_dim");
    out.dp_mesh_dim = optional_integer("dp_mesh_dim");
    out.pp_microbatches = optional_integer("pp_microbatches");
    const auto& ratio = typed("pp_memopt_stage_budget_ratio", [](const auto& v) { return v.is_float() || v.is_int(); }, "a number");
    out.pp_memopt_stage_budget_ratio = ratio.is_float() ? ratio.as_float() : static_cast<double>(ratio.as_int());
    out.pp_schedule = text("pp_schedule");
    out.pp_virtual_stages = integer("pp_virtual_stages");
    out.pp_layout = optional_ints("pp_layout");
    out.pp_delay_wgrad = typed("pp_delay_wgrad", [](const auto& v) { return v.is_bool(); }, "a bool").as_bool();
    const auto& lines = typed("rationale", [](const auto& v) { return v.is_list(); }, "a list").as_list();
    out.rationale.reserve(lines.size());
    for (const auto& line : lines) {
      if (!line.is_string()) throw InputError(messages::record_field_items("rationale", "a non-string"));
      out.rationale.emplace_back(line.as_string());
    }
    return out;
  }

 private:
  template <typename Check>
  const auto& typed(const char* name, Check check, const char* expected) const {
    const auto* v = fields_.find(name);
    if (!v) throw InputError(messages::record_lacks_field("record", name));
    if (!check(*v)) throw InputError(messages::record_field_kind("record", name, expected));
    return *v;
  }

  std::string text(const char* name) const {
    return std::string(typed(name, [](const auto& v) { return v.is_string(); }, "a string").as_string());
  }
  std::int64_t integer(const char* name) const {
    return typed(name, [](const auto& v) { return v.is_int(); }, "an int").as_int();
  }
  std::optional<std::int64_t> optional_integer(const char* name) const {
    const auto& v = typed(name, [](const auto& x) { return x.is_null() || x.is_int(); }, "an int or null");
    if (v.is_null()) return std::nullopt;
    return v.as_int();
  }
  std::optional<std::vector<std::int64_t>> optional_ints(const char* name) const {
    const auto& v = typed(name, [](const auto& x) { return x.is_null() || x.is_list(); }, "a list or null");
    if (v.is_null()) return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& item : v.as_list()) {
      if (!item.is_int()) throw InputError(messages::record_field_items(name, "a non-integer"));
      out.push_back(item.as_int());
    }
    return out;
  }

  const Fields& fields_;
};

}  // namespace

Recommendation to_recommendation(const Record& r) { return Converter<Record>(r).run(); }

Recommendation recommend(const std::string& model, std::int64_t world_size, const std::string& prefer,
                         std::int64_t batch_size, const RecommendOptions& options, const RuleSet& rules) {
  // One input list and one Evaluation per thread, reused: after the first call a
  // recommendation allocates only the strings of the returned struct.
  thread_local Inputs inputs = [] {
    Inputs out;
    for (const RequestInput& input : kRecommendInputs) out.emplace_back(std::string(input.name), Value());
    return out;
  }();
  thread_local Evaluation evaluation;
  auto flag = [](const std::optional<bool>& f) { return f ? Value(*f) : Value(); };
  inputs[0].second = Value(model);
  inputs[1].second = Value(world_size);
  inputs[2].second = Value(prefer);
  inputs[3].second = Value(batch_size);
  inputs[4].second = Value(options.backend);
  inputs[5].second = flag(options.zero_redundancy_optimizer_available);
  inputs[6].second = flag(options.pipelining_available);
  inputs[7].second = flag(options.fsdp2_available);
  inputs[8].second = flag(options.tensor_parallel_available);
  if (!rules.evaluate(inputs, evaluation)) {
    if (evaluation.error().kind == EvaluationErrorKind::rule_error) throw RuleError(evaluation.error().message);
    throw InputError(evaluation.error().message);
  }
  return Converter<Evaluation>(evaluation).run();
}

}  // namespace snnplan
