// Google Benchmark for `snnplan test` on the default table and its shipped tests: the tests with
// their coverage (rule, condition, boundary), and the whole mutation run (every mutant compiled
// and tested, survivors and equivalent mutants checked by the analysis) on one thread and on
// every core. The issue asks that the default table's mutation run take seconds, not minutes.
//
//   rule_tests/coverage           the tests of rules/snn_distributed.test.yaml with coverage
//                                 (testing::run_cases, what snnplan::run_rule_tests runs)
//   rule_tests/mutation/THREADS   run_mutation_tests with THREADS threads (0: one per core)

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "load/rule_tests.hpp"
#include "testing/mutation_tests.hpp"
#include "testing/rule_tests.hpp"

namespace {

struct Suite {
  snnplan::RuleSet rules = snnplan::RuleSet::from_file(SNNPLAN_DEFAULT_RULES_FILE);
  std::vector<snnplan::load::RuleTestCase> cases;

  Suite() {
    std::ifstream in(SNNPLAN_DEFAULT_TESTS_FILE);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<snnplan::Diagnostic> problems;
    cases = snnplan::load::load_rule_tests(text.str(), SNNPLAN_DEFAULT_TESTS_FILE, problems);
    if (!problems.empty() || cases.empty()) std::abort();
  }
};

const Suite& suite() {
  static const Suite s;
  return s;
}

void coverage(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(snnplan::testing::run_cases(suite().rules, suite().cases, {}));
}
BENCHMARK(coverage)->Name("rule_tests/coverage")->Unit(benchmark::kMillisecond);

void mutation(benchmark::State& state) {
  const auto threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const auto report = snnplan::testing::run_mutation_tests(suite().rules, suite().cases, threads);
    state.counters["mutants"] = static_cast<double>(report.mutants.size());
    state.counters["score"] = report.score();
  }
}
BENCHMARK(mutation)
    ->Name("rule_tests/mutation")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
