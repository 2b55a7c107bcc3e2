#include "parity_check.hpp"

#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "snnplan/microbatches.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"

namespace bench {
namespace {

std::string describe(const Case& c) {
  auto flag = [](const std::optional<bool>& f) { return f ? (*f ? "true" : "false") : "unset"; };
  return "model='" + c.model + "' world_size=" + std::to_string(c.world_size) + " prefer='" + c.prefer +
         "' batch_size=" + std::to_string(c.batch_size) + " backend='" + c.options.backend +
         "' zero=" + flag(c.options.zero_redundancy_optimizer_available) +
         " pipelining=" + flag(c.options.pipelining_available) + " fsdp2=" + flag(c.options.fsdp2_available) +
         " tp=" + flag(c.options.tensor_parallel_available);
}

std::string show(const snnplan::Recommendation& r) {
  auto ints = [](const std::optional<std::vector<std::int64_t>>& v) {
    if (!v) return std::string("None");
    std::string out = "(";
    for (std::size_t k = 0; k < v->size(); ++k) out += (k ? ", " : "") + std::to_string((*v)[k]);
    return out + ")";
  };
  auto opt = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string("None"); };
  std::string out = "prefer=" + r.prefer + " model=" + r.model + " world_size=" + std::to_string(r.world_size) +
                    " mode=" + r.mode + " optimizer_sharding=" + r.optimizer_sharding +
                    " memopt_level=" + std::to_string(r.memopt_level) + " mesh_shape=" + ints(r.mesh_shape) +
                    " tp_mesh_dim=" + std::to_string(r.tp_mesh_dim) + " dp_mesh_dim=" + opt(r.dp_mesh_dim) +
                    " pp_microbatches=" + opt(r.pp_microbatches) +
                    " pp_memopt_stage_budget_ratio=" + std::to_string(r.pp_memopt_stage_budget_ratio) +
                    " pp_schedule=" + r.pp_schedule + " pp_virtual_stages=" + std::to_string(r.pp_virtual_stages) +
                    " pp_layout=" + ints(r.pp_layout) + " pp_delay_wgrad=" + (r.pp_delay_wgrad ? "True" : "False");
  for (const std::string& line : r.rationale) out += "\n      | " + line;
  return out;
}

Case make(std::string name, std::string model, std::int64_t world, std::string prefer, std::int64_t batch,
          baseline::Options options = {}) {
  return Case{std::move(name), std::move(model), world, std::move(prefer), batch, std::move(options)};
}

baseline::Options flags(std::optional<bool> zero, std::optional<bool> pipelining, std::optional<bool> fsdp2,
                        std::optional<bool> tp) {
  baseline::Options o;
  o.zero_redundancy_optimizer_available = zero;
  o.pipelining_available = pipelining;
  o.fsdp2_available = fsdp2;
  o.tensor_parallel_available = tp;
  return o;
}

}  // namespace

snnplan::Inputs Case::inputs() const {
  snnplan::Inputs in = {{"model", model}, {"world_size", world_size}, {"prefer", prefer}, {"batch_size", batch_size}};
  if (options.backend != "inductor") in.emplace_back("backend", options.backend);
  auto add = [&](const char* key, const std::optional<bool>& f) {
    if (f) in.emplace_back(key, *f);
  };
  add("zero_redundancy_optimizer_available", options.zero_redundancy_optimizer_available);
  add("pipelining_available", options.pipelining_available);
  add("fsdp2_available", options.fsdp2_available);
  add("tensor_parallel_available", options.tensor_parallel_available);
  return in;
}

PositionalInputs by_position(const snnplan::RuleSet& rules, const snnplan::Inputs& inputs) {
  std::vector<std::string_view> names;
  std::vector<snnplan::Value> values;
  for (const auto& [name, value] : inputs) {
    names.push_back(name);
    values.push_back(value);
  }
  return PositionalInputs{rules.input_layout(names), std::move(values)};
}

baseline::Result Case::run_baseline() const { return baseline::recommend(model, world_size, prefer, batch_size, options); }

const std::vector<Case>& branch_cases() {
  static const std::vector<Case> cases = {
      make("single_rank_speed", "spikformer_8_384", 1, "speed", 64),
      make("speed_dp", "spikformer_8_384", 8, "speed", 64),
      make("speed_fsdp2_tp", "cifar10dvs_vgg", 8, "speed", 64),
      make("memory_fsdp2_tp", "spikformer_8_384", 8, "memory", 64),
      make("memory_tp", "spikformer_8_384", 7, "memory", 64),
      make("memory_fsdp2", "spikformer_8_384", 8, "memory", 64, flags({}, {}, {}, false)),
      make("memory_dp", "spikformer_8_384", 8, "memory", 64, flags({}, {}, false, false)),
      make("capacity_pp_interleaved", "spikformer_8_384", 4, "capacity", 64),
      make("capacity_pp_1f1b", "spikformer_8_384", 4, "capacity", 6),
      make("capacity_fallback", "spikformer_8_384", 8, "capacity", 4),
      make("error_bogus_prefer", "spikformer_8_384", 8, "bogus", 64),
  };
  return cases;
}

const Case& branch_case(const std::string& name) {
  for (const Case& c : branch_cases())
    if (c.name == name) return c;
  throw std::out_of_range("no benchmark case named '" + name + "'");
}

std::vector<Case> parity_cases(int random_count) {
  std::vector<Case> cases = branch_cases();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  // 64-bit extremes: products such as world_size * 2 must not wrap.
  for (const char* prefer : {"speed", "memory", "capacity"}) {
    cases.push_back(make("extreme", "cifar10dvs_vgg", kMax, prefer, kMax));
    cases.push_back(make("extreme", "spikformer", kMax - 1, prefer, kMax));
    cases.push_back(make("extreme", "vgg", kMax / 2 + 1, prefer, kMax));
    cases.push_back(make("extreme", "vgg", kMin, prefer, kMin));
    cases.push_back(make("extreme", "vgg", 3, prefer, kMax));
    cases.push_back(make("extreme", "vgg", 2, prefer, 97));  // no microbatch count divides: an error
  }

  const std::vector<std::string> models = {"cifar10dvs_vgg", "spikformer", "spikformer_8_384", "Spikformer",
                                           "spikforme", "sew_resnet18", "", "a'b", "cifar10dvs_vgg2"};
  const std::vector<std::string> prefers = {"speed", "memory", "capacity", "SPEED", "Capacity",
                                            "MeMoRy", "bogus", "", "fast"};
  const std::vector<std::string> backends = {"inductor", "eager", "aot_eager"};
  std::mt19937_64 rng(20240611);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto flag = [&]() -> std::optional<bool> {
    switch (pick(0, 3)) {
      case 0: return std::nullopt;
      case 1: return false;
      default: return true;
    }
  };
  for (int k = 0; k < random_count; ++k) {
    std::int64_t world = 0;
    switch (pick(0, 2)) {
      case 0: world = pick(-3, 9); break;
      case 1: world = pick(1, 4096); break;
      default: world = std::int64_t{1} << pick(0, 20); break;
    }
    std::int64_t batch = 0;
    switch (pick(0, 3)) {
      case 0: batch = pick(-3, 64); break;
      case 1: batch = pick(1, 1 << 16); break;
      case 2: batch = world * pick(1, 9); break;
      default: batch = pick(1, 9) * 4 * std::max<std::int64_t>(world, 1) + pick(-2, 2); break;
    }
    baseline::Options options = flags(flag(), flag(), flag(), flag());
    options.backend = backends[static_cast<std::size_t>(pick(0, 2))];
    cases.push_back(make("random", models[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(models.size()) - 1))],
                         world, prefers[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(prefers.size()) - 1))],
                         batch, std::move(options)));
  }
  return cases;
}

int count_mismatches(const std::vector<Case>& cases, std::ostream& err) {
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  int bad = 0;
  for (const Case& c : cases) {
    const baseline::Result want = c.run_baseline();
    const snnplan::EvaluationResult got = rules.evaluate(c.inputs());
    std::string problem;
    if (!got.ok()) {
      if (want.ok()) problem = "engine error '" + got.error().message + "', baseline: " + show(*want.value);
      else if (got.error().kind != snnplan::EvaluationErrorKind::rule_error) problem = "engine error is not a rule error";
      else if (got.error().message != want.error)
        problem = "errors differ:\n    engine:   " + got.error().message + "\n    baseline: " + want.error;
    } else if (!want.ok()) {
      problem = "baseline error '" + want.error + "', engine gives a record";
    } else {
      const snnplan::Recommendation engine = snnplan::to_recommendation(got.record());
      if (!(engine == *want.value))
        problem = "records differ:\n    engine:   " + show(engine) + "\n    baseline: " + show(*want.value);
    }
    if (!problem.empty()) {
      if (++bad <= 5) err << "baseline/engine mismatch for " << describe(c) << ": " << problem << '\n';
    }
  }
  return bad;
}

int count_microbatch_mismatches(std::int64_t max_batch, std::int64_t max_stages, std::ostream& err) {
  int bad = 0;
  for (std::int64_t b = -2; b <= max_batch; ++b) {
    for (std::int64_t s = -2; s <= max_stages; ++s) {
      if (snnplan::pipeline_microbatches(b, s) == baseline::pipeline_microbatches_scan(b, s)) continue;
      if (++bad <= 5) err << "pipeline_microbatches(" << b << ", " << s << ") differs from the scan\n";
    }
  }
  return bad;
}

}  // namespace bench
