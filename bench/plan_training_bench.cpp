// plan_training per call: the built-in planning rules (rules/snn_llm_planning.yaml, a search)
// on the requests of bench/plan_training_cases.json, which bench/plan_training_speed.py also
// runs through upstream's Python plan_training() in the same run to give the ratio.
//
// Benchmark names:
//   plan_training/evaluate/CASE   RuleSet::evaluate(inputs, evaluation) into a reused Evaluation
//   plan_training/explain/CASE    RuleSet::explain(inputs): the whole search as trace steps
//
// Usage: plan_training_bench CASES.json [Google Benchmark flags]

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace {

struct Case {
  std::string name;
  snnplan::Inputs inputs;
};

snnplan::Value value_of(const nlohmann::json& v) {
  if (v.is_null()) return {};
  if (v.is_boolean()) return snnplan::Value(v.get<bool>());
  if (v.is_number_integer()) return snnplan::Value(v.get<std::int64_t>());
  if (v.is_number_float()) return snnplan::Value(v.get<double>());
  return snnplan::Value(v.get<std::string>());
}

const snnplan::RuleSet& planning_rules() {
  static const snnplan::RuleSet rules =
      snnplan::RuleSet::from_string(snnplan::RuleSet::builtin_text("snn_llm_planning.yaml").value(),
                                    "snn_llm_planning.yaml");
  return rules;
}

void evaluate(benchmark::State& state, const Case* c) {
  snnplan::Evaluation evaluation;
  for (auto _ : state) {
    const bool ok = planning_rules().evaluate(c->inputs, evaluation);
    benchmark::DoNotOptimize(ok);
  }
}

void explain(benchmark::State& state, const Case* c) {
  std::size_t steps = 0;
  for (auto _ : state) {
    const snnplan::Explanation e = planning_rules().explain(c->inputs);
    steps = e.steps.size();
    benchmark::DoNotOptimize(steps);
  }
  state.counters["steps"] = static_cast<double>(steps);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: plan_training_bench CASES.json [benchmark flags]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json cases = nlohmann::json::parse(in);
  static std::vector<Case> loaded;
  for (const auto& c : cases) {
    Case one{c["name"].get<std::string>(), {}};
    for (const auto& [key, v] : c["request"].items()) one.inputs.emplace_back(key, value_of(v));
    loaded.push_back(std::move(one));
  }
  for (const Case& c : loaded) {
    benchmark::RegisterBenchmark(("plan_training/evaluate/" + c.name).c_str(), evaluate, &c);
    benchmark::RegisterBenchmark(("plan_training/explain/" + c.name).c_str(), explain, &c)
        ->Unit(benchmark::kMillisecond);
  }
  argv[1] = argv[0];
  int rest = argc - 1;
  benchmark::Initialize(&rest, argv + 1);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
