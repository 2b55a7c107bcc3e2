// Google Benchmark programs for snnplan (see bench/run.sh, which turns the JSON output into
// bench/results.md). Before anything is timed, the hand-written baseline is checked against the
// engine (a few hundred inputs, plus the microbatch search on a grid); the program aborts if
// they disagree, so every ratio compares two implementations of the same function.
//
// Benchmark names (a script pairs them by the part after the first '/'):
//   branch/engine/CASE      RuleSet::builtin().evaluate(inputs), inputs built outside the loop
//   branch/views/CASE       RuleSet::builtin().evaluate(inputs, evaluation): one reused
//                           snnplan::Evaluation, fields as views (no copies)
//   branch/baseline/CASE    baseline::recommend(...)
//   branch/recommend/CASE   snnplan::recommend(...): the engine plus the typed Recommendation
//   ratio/CASE              engine (record), engine (views), engine (views, inputs by position:
//                           RuleSet::evaluate(layout, values, evaluation)) and baseline timed in
//                           alternating blocks inside one loop; counters engine_ns, views_ns,
//                           positional_ns, baseline_ns, ratio (record / baseline), views_ratio,
//                           positional_ratio (robust on a busy machine)
//   load/from_file, load/builtin_text        load + check + compile of the default rules
//   scaling/load/N, scaling/eval/N/WHERE     generated tables of N rules; WHERE = top, middle,
//                                            end (rule N-1) or miss (only the catch-all fires)
//   microbatches/engine/K, microbatches/scan/K  num_stages = first prime >= 2^K, batch = 5 *
//                                            num_stages: the only divisor in range is the bottom
//   microbatches/{engine,scan}/worst         batch a prime near 2^40, num_stages 2^19: no divisor

#include <benchmark/benchmark.h>

#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parity_check.hpp"
#include "scaling_rules.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"

namespace {

// ---- per-branch ----------------------------------------------------------------------------

void engine_branch(benchmark::State& state, const bench::Case* c) {
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  const snnplan::Inputs inputs = c->inputs();
  for (auto _ : state) {
    snnplan::EvaluationResult result = rules.evaluate(inputs);
    benchmark::DoNotOptimize(result);
  }
}

void views_branch(benchmark::State& state, const bench::Case* c) {
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  const snnplan::Inputs inputs = c->inputs();
  snnplan::Evaluation evaluation;
  for (auto _ : state) {
    const bool ok = rules.evaluate(inputs, evaluation);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(evaluation.values().data());
  }
}

void baseline_branch(benchmark::State& state, const bench::Case* c) {
  for (auto _ : state) {
    baseline::Result result = baseline::recommend(c->model, c->world_size, c->prefer, c->batch_size, c->options);
    benchmark::DoNotOptimize(result);
  }
}

snnplan::RecommendOptions recommend_options(const baseline::Options& o) {
  return snnplan::RecommendOptions{o.backend, o.zero_redundancy_optimizer_available, o.pipelining_available,
                                   o.fsdp2_available, o.tensor_parallel_available};
}

void recommend_branch(benchmark::State& state, const bench::Case* c) {
  const snnplan::RecommendOptions options = recommend_options(c->options);
  for (auto _ : state) {
    try {
      snnplan::Recommendation r = snnplan::recommend(c->model, c->world_size, c->prefer, c->batch_size, options);
      benchmark::DoNotOptimize(r);
    } catch (const snnplan::RuleError& e) {
      benchmark::DoNotOptimize(e.what());
    }
  }
}

// Thread CPU time in ns: immune to the time other processes take on a busy machine.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Engine and baseline in alternating blocks of kBlock calls inside one timed loop, so both see
// the same machine state (caches, frequency, neighbours); each block is timed in thread CPU
// time. kBlock is large enough that the clock's own cost (a system call) stays below ~1%.
void ratio_branch(benchmark::State& state, const bench::Case* c) {
  constexpr int kBlock = 256;
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  const snnplan::Inputs inputs = c->inputs();
  snnplan::Evaluation evaluation;
  // The same inputs by position: the layout made once, outside the loop.
  const auto [layout, values] = bench::by_position(rules, inputs);
  std::int64_t engine = 0, views = 0, positional = 0, base = 0;
  for (auto _ : state) {
    const std::int64_t t0 = thread_cpu_ns();
    for (int k = 0; k < kBlock; ++k) {
      snnplan::EvaluationResult result = rules.evaluate(inputs);
      benchmark::DoNotOptimize(result);
    }
    const std::int64_t t1 = thread_cpu_ns();
    for (int k = 0; k < kBlock; ++k) {
      const bool ok = rules.evaluate(inputs, evaluation);
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(evaluation.values().data());
    }
    const std::int64_t t2 = thread_cpu_ns();
    for (int k = 0; k < kBlock; ++k) {
      baseline::Result result = baseline::recommend(c->model, c->world_size, c->prefer, c->batch_size, c->options);
      benchmark::DoNotOptimize(result);
    }
    const std::int64_t t3 = thread_cpu_ns();
    for (int k = 0; k < kBlock; ++k) {
      const bool ok = rules.evaluate(layout, values, evaluation);
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(evaluation.values().data());
    }
    const std::int64_t t4 = thread_cpu_ns();
    engine += t1 - t0;
    views += t2 - t1;
    base += t3 - t2;
    positional += t4 - t3;
  }
  const double calls = static_cast<double>(state.iterations()) * kBlock;
  const double engine_ns = static_cast<double>(engine) / calls;
  const double views_ns = static_cast<double>(views) / calls;
  const double base_ns = static_cast<double>(base) / calls;
  const double positional_ns = static_cast<double>(positional) / calls;
  state.counters["engine_ns"] = engine_ns;
  state.counters["views_ns"] = views_ns;
  state.counters["baseline_ns"] = base_ns;
  state.counters["ratio"] = base_ns > 0 ? engine_ns / base_ns : 0;
  state.counters["views_ratio"] = base_ns > 0 ? views_ns / base_ns : 0;
  state.counters["positional_ns"] = positional_ns;
  state.counters["positional_ratio"] = base_ns > 0 ? positional_ns / base_ns : 0;
}

// ---- loading the default rules -------------------------------------------------------------

void load_from_file(benchmark::State& state) {
  for (auto _ : state) {
    snnplan::RuleSet rules = snnplan::RuleSet::from_file(SNNPLAN_DEFAULT_RULES_FILE);
    benchmark::DoNotOptimize(rules);
  }
}

void load_builtin_text(benchmark::State& state) {
  const std::string_view text = snnplan::RuleSet::builtin_text();
  for (auto _ : state) {
    snnplan::RuleSet rules = snnplan::RuleSet::from_string(text, "rules/snn_distributed.yaml");
    benchmark::DoNotOptimize(rules);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

// ---- scaling: generated tables of N rules (scaling_rules.hpp) ------------------------------

using bench::input_for_rule;
using bench::ScalingInput;
using bench::scaling_rules;

const std::string& scaling_text(int n) {
  static std::map<int, std::string> texts;
  auto it = texts.find(n);
  if (it == texts.end()) it = texts.emplace(n, scaling_rules(n)).first;
  return it->second;
}

std::map<int, snnplan::RuleSet>& scaling_sets() {
  static std::map<int, snnplan::RuleSet> sets;
  return sets;
}

const snnplan::RuleSet& scaling_rule_set(int n) {
  auto& sets = scaling_sets();
  auto it = sets.find(n);
  if (it == sets.end()) it = sets.emplace(n, snnplan::RuleSet::from_string(scaling_text(n), "scaling.yaml")).first;
  return it->second;
}

void scaling_load(benchmark::State& state, int n) {
  const std::string& text = scaling_text(n);
  for (auto _ : state) {
    snnplan::RuleSet rules = snnplan::RuleSet::from_string(text, "scaling.yaml");
    benchmark::DoNotOptimize(rules);
    // Keep one for the evaluation benchmarks: loading 10,000 rules is slow.
    if (!scaling_sets().count(n)) scaling_sets().emplace(n, std::move(rules));
  }
  state.counters["rules"] = n;
  state.counters["bytes"] = static_cast<double>(text.size());
}

// where: the rule index that must fire, or -1 for the catch-all.
void scaling_eval(benchmark::State& state, int n, int where) {
  const snnplan::RuleSet& rules = scaling_rule_set(n);
  const ScalingInput in = where >= 0 ? input_for_rule(n, where) : ScalingInput{"unknown_model", "speed", 8, 64};
  const snnplan::Inputs inputs = {
      {"model", in.model}, {"prefer", in.prefer}, {"world_size", in.world_size}, {"batch_size", in.batch_size}};
  // The input must reach the rule it is named after.
  const snnplan::EvaluationResult check = rules.evaluate(inputs);
  if (!check.ok() || check.record().find("rule_id")->as_int() != where) {
    state.SkipWithError("scaling input does not fire the intended rule");
    return;
  }
  for (auto _ : state) {
    snnplan::EvaluationResult result = rules.evaluate(inputs);
    benchmark::DoNotOptimize(result);
  }
  state.counters["rules_walked"] = where >= 0 ? where + 1 : n + 1;
}

// ---- pipeline_microbatches on large inputs -------------------------------------------------

__extension__ typedef unsigned __int128 U128;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<U128>(a) * b % m);
}

std::uint64_t pow_mod(std::uint64_t b, std::uint64_t e, std::uint64_t m) {
  std::uint64_t r = 1;
  for (b %= m; e; e >>= 1, b = mul_mod(b, b, m))
    if (e & 1) r = mul_mod(r, b, m);
  return r;
}

// Deterministic Miller-Rabin for 64-bit n.
bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % p == 0) return n == p;
  std::uint64_t d = n - 1;
  int s = 0;
  for (; d % 2 == 0; d /= 2) ++s;
  for (std::uint64_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    std::uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s && composite; ++r) {
      x = mul_mod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

std::int64_t next_prime(std::int64_t n) {
  while (!is_prime(static_cast<std::uint64_t>(n))) ++n;
  return n;
}

struct MicrobatchCase {
  std::int64_t batch_size, num_stages;
};

// num_stages = p, the first prime >= 2^k, and batch = 5p: the divisors of 5p are 1, 5, p and 5p,
// so in [p, 4p] only p divides: the reference's scan walks the whole range (3p + 1 steps).
MicrobatchCase bottom_case(int k) {
  const std::int64_t p = next_prime(std::int64_t{1} << k);
  return {5 * p, p};
}

// A prime batch near 2^40 with num_stages 2^19 ~ sqrt(batch) / 2: no count divides, and both
// ways of searching take their longest walk (about 1.5 * 2^20 steps).
MicrobatchCase worst_case() { return {next_prime((std::int64_t{1} << 40) + 1), std::int64_t{1} << 19}; }

void microbatches_engine(benchmark::State& state, MicrobatchCase c) {
  for (auto _ : state) {
    auto r = snnplan::pipeline_microbatches(c.batch_size, c.num_stages);
    benchmark::DoNotOptimize(r);
  }
  state.counters["num_stages"] = static_cast<double>(c.num_stages);
}

void microbatches_scan(benchmark::State& state, MicrobatchCase c) {
  for (auto _ : state) {
    auto r = baseline::pipeline_microbatches_scan(c.batch_size, c.num_stages);
    benchmark::DoNotOptimize(r);
  }
  state.counters["num_stages"] = static_cast<double>(c.num_stages);
}

// ---- registration --------------------------------------------------------------------------

void register_benchmarks() {
  for (const bench::Case& c : bench::branch_cases()) {
    benchmark::RegisterBenchmark(("branch/engine/" + c.name).c_str(), engine_branch, &c);
    benchmark::RegisterBenchmark(("branch/views/" + c.name).c_str(), views_branch, &c);
    benchmark::RegisterBenchmark(("branch/baseline/" + c.name).c_str(), baseline_branch, &c);
    benchmark::RegisterBenchmark(("branch/recommend/" + c.name).c_str(), recommend_branch, &c);
    benchmark::RegisterBenchmark(("ratio/" + c.name).c_str(), ratio_branch, &c)->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("load/from_file", load_from_file)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("load/builtin_text", load_builtin_text)->Unit(benchmark::kMicrosecond);

  for (int n : {10, 100, 1000, 10000}) {
    auto* load = benchmark::RegisterBenchmark(("scaling/load/" + std::to_string(n)).c_str(), scaling_load, n);
    load->Unit(benchmark::kMillisecond);
    // Loading 10,000 rules can take a minute: once is enough.
    if (n >= 10000) load->Repetitions(1)->Iterations(1);
    const std::pair<const char*, int> places[] = {{"top", 0}, {"middle", n / 2}, {"end", n - 1}, {"miss", -1}};
    for (const auto& [where, index] : places) {
      benchmark::RegisterBenchmark(("scaling/eval/" + std::to_string(n) + "/" + where).c_str(), scaling_eval, n, index)
          ->Unit(benchmark::kMicrosecond);
    }
  }

  for (int k : {10, 16, 20, 30, 40}) {
    const MicrobatchCase c = bottom_case(k);
    benchmark::RegisterBenchmark(("microbatches/engine/2^" + std::to_string(k)).c_str(), microbatches_engine, c);
    // The scan takes 3 * num_stages steps: only where that finishes quickly.
    if (k <= 20) {
      benchmark::RegisterBenchmark(("microbatches/scan/2^" + std::to_string(k)).c_str(), microbatches_scan, c)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RegisterBenchmark("microbatches/engine/worst", microbatches_engine, worst_case())->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("microbatches/scan/worst", microbatches_scan, worst_case())->Unit(benchmark::kMicrosecond);
}

// The microbatch cases must mean what their names say.
bool check_microbatch_cases() {
  bool ok = true;
  for (int k : {10, 16, 20, 30, 40}) {
    const MicrobatchCase c = bottom_case(k);
    const auto r = snnplan::pipeline_microbatches(c.batch_size, c.num_stages);
    if (r != std::variant<std::int64_t, std::string>(c.num_stages)) {
      std::cerr << "engine_bench: microbatch case 2^" << k << " does not answer num_stages\n";
      ok = false;
    }
    if (k <= 20 && baseline::pipeline_microbatches_scan(c.batch_size, c.num_stages) != r) {
      std::cerr << "engine_bench: microbatch case 2^" << k << ": scan and engine differ\n";
      ok = false;
    }
  }
  const MicrobatchCase w = worst_case();
  const auto r = snnplan::pipeline_microbatches(w.batch_size, w.num_stages);
  if (!std::holds_alternative<std::string>(r) || baseline::pipeline_microbatches_scan(w.batch_size, w.num_stages) != r) {
    std::cerr << "engine_bench: the worst microbatch case is not an error in both\n";
    ok = false;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  // The baseline must be the same function as the engine, or no ratio means anything.
  const auto cases = bench::parity_cases(500);
  const int bad = bench::count_mismatches(cases, std::cerr);
  const int bad_microbatches = bench::count_microbatch_mismatches(300, 80, std::cerr);
  if (bad != 0 || bad_microbatches != 0 || !check_microbatch_cases()) {
    std::cerr << "engine_bench: the baseline disagrees with the engine (" << bad << " of " << cases.size()
              << " inputs, " << bad_microbatches << " microbatch pairs); refusing to benchmark\n";
    std::abort();
  }
  std::cerr << "engine_bench: baseline agrees with the engine on " << cases.size()
            << " inputs and the microbatch grid\n";

  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
