// A small driver for profiling one branch:
//   profile_driver CASE [N] [engine|views|positional|baseline|recommend]
// or loading (load + check + compile) a rule file:
//   profile_driver --load RULES [N]      RULES = builtin, or a number of generated rules
// evaluates the benchmark case CASE (see parity_check.cpp, e.g. speed_dp) N times (default
// 10000) through RuleSet::builtin().evaluate (engine: a Record; views: into one reused
// snnplan::Evaluation; positional: the same with the inputs by position through an
// InputLayout made before the loop), baseline::recommend (baseline) or
// snnplan::recommend (engine + typed result). Run it under
//   valgrind --tool=callgrind --toggle-collect='*run_loop*' profile_driver speed_dp 10000
// so that only the loop is counted, not the one-time rule loading (for --load: '*load_loop*').

#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "parity_check.hpp"
#include "scaling_rules.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"

// Counts heap allocations (operator new) while `g_counting` is set: allocations per call are
// a large part of the engine's cost.
namespace {
bool g_counting = false;
std::size_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// Not inlined: GCC would otherwise see free() of what `new` returned in callers and warn
// (-Wmismatched-new-delete), not knowing that this operator new is malloc.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

// Kept out of line so callgrind can restrict collection to it (--toggle-collect).
[[gnu::noinline]] std::size_t run_loop(const bench::Case& c, const snnplan::Inputs& inputs, long n,
                                       const std::string& mode, const snnplan::RuleSet& rules,
                                       const snnplan::InputLayout& layout,
                                       const std::vector<snnplan::Value>& values) {
  std::size_t sink = 0;
  snnplan::Evaluation evaluation;
  for (long k = 0; k < n; ++k) {
    if (mode == "views") {
      sink += rules.evaluate(inputs, evaluation) ? evaluation.values().size() : evaluation.error().message.size();
    } else if (mode == "positional") {
      sink += rules.evaluate(layout, values, evaluation) ? evaluation.values().size()
                                                         : evaluation.error().message.size();
    } else if (mode == "engine") {
      const snnplan::EvaluationResult r = rules.evaluate(inputs);
      sink += r.ok() ? r.record().values().size() : r.error().message.size();
    } else if (mode == "baseline") {
      const baseline::Result r = c.run_baseline();
      sink += r.ok() ? r.value->rationale.size() : r.error.size();
    } else {
      try {
        sink += snnplan::recommend(c.model, c.world_size, c.prefer, c.batch_size,
                                   snnplan::RecommendOptions{c.options.backend, c.options.zero_redundancy_optimizer_available,
                                                             c.options.pipelining_available, c.options.fsdp2_available,
                                                             c.options.tensor_parallel_available})
                    .rationale.size();
      } catch (const snnplan::RuleError& e) {
        sink += std::string(e.what()).size();
      }
    }
  }
  return sink;
}

[[gnu::noinline]] std::size_t load_loop(const std::string& text, long n) {
  std::size_t sink = 0;
  for (long k = 0; k < n; ++k) sink += snnplan::RuleSet::from_string(text, "profile.yaml").inputs().size();
  return sink;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--load") {
    const std::string which = argv[2];
    const std::string text =
        which == "builtin" ? std::string(snnplan::RuleSet::builtin_text()) : bench::scaling_rules(std::atoi(argv[2]));
    const long n = argc > 3 ? std::atol(argv[3]) : 1;
    const std::size_t sink = load_loop(text, n);
    std::cout << "load " << which << " x" << n << " (" << text.size() << " bytes, checksum " << sink << ")\n";
    return 0;
  }
  if (argc < 2) {
    std::cerr << "usage: profile_driver CASE [N] [engine|views|positional|baseline|recommend]\ncases:";
    for (const auto& c : bench::branch_cases()) std::cerr << ' ' << c.name;
    std::cerr << '\n';
    return 2;
  }
  const bench::Case& c = bench::branch_case(argv[1]);
  const long n = argc > 2 ? std::atol(argv[2]) : 10000;
  const std::string mode = argc > 3 ? argv[3] : "engine";
  if (mode != "engine" && mode != "views" && mode != "positional" && mode != "baseline" &&
      mode != "recommend") {
    std::cerr << "profile_driver: unknown mode '" << mode << "'\n";
    return 2;
  }
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();  // loaded outside the loop
  const snnplan::Inputs inputs = c.inputs();
  const auto [layout, values] = bench::by_position(rules, inputs);
  g_counting = true;
  const std::size_t sink = run_loop(c, inputs, n, mode, rules, layout, values);
  g_counting = false;
  std::cout << mode << " " << c.name << " x" << n << ": " << static_cast<double>(g_allocations) / static_cast<double>(n)
            << " allocations per call (checksum " << sink << ")\n";
  return 0;
}
