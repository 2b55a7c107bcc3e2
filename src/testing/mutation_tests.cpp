#include "testing/mutation_tests.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "analyse/mutants.hpp"
#include "api/rule_set_access.hpp"
#include "testing/rule_tests.hpp"

namespace snnplan {

double MutationResults::score() const noexcept {
  const std::size_t counted = mutants.size() - equivalent;
  return counted == 0 ? 100.0 : 100.0 * static_cast<double>(killed) / static_cast<double>(counted);
}

const char* to_string(MutantStatus status) noexcept {
  switch (status) {
    case MutantStatus::killed:
      return "killed";
    case MutantStatus::survived:
      return "survived";
    case MutantStatus::equivalent:
      return "equivalent";
  }
  return "?";
}

}  // namespace snnplan

namespace snnplan::testing {

MutationResults run_mutation_tests(const RuleSet& rules,
                                   const std::vector<load::RuleTestCase>& cases,
                                   unsigned threads) {
  const auto start = std::chrono::steady_clock::now();
  const detail::CompiledRules& original = RuleSetAccess::compiled(rules);
  const analyse::MutantFactory factory(original);
  const std::vector<analyse::Mutant>& mutants = factory.mutants();
  MutationResults report;
  report.mutants.resize(mutants.size());
  std::vector<Inputs> inputs;
  for (const load::RuleTestCase& c : cases) inputs.push_back(c.inputs());

  // Each thread takes the next mutant until none is left; every outcome has its own slot.
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t k = next++; k < mutants.size(); k = next++) {
      const analyse::Mutant& mutant = mutants[k];
      MutantOutcome& out = report.mutants[k];
      out.mutation = analyse::mutation_operator(mutant.op).name;
      out.location = mutant.location;
      out.owner = mutant.owner;
      out.description = mutant.description;
      const RuleSet changed = RuleSetAccess::wrap(factory.build(mutant));
      out.status = MutantStatus::survived;
      for (std::size_t c = 0; c < cases.size(); ++c)
        if (!differences_of(cases[c], changed.explain(inputs[c])).empty()) {
          out.status = MutantStatus::killed;
          out.killed_by = cases[c].name;
          break;
        }
      if (out.status == MutantStatus::killed) continue;
      if (mutant.proved_equivalent) {
        out.status = MutantStatus::equivalent;
        continue;
      }
      bool complete = false;
      out.distinguishing =
          analyse::distinguishing_input(original, RuleSetAccess::compiled(changed), complete);
      if (!out.distinguishing && complete) out.status = MutantStatus::equivalent;
    }
  };
  report.threads = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  try {
    for (unsigned t = 1; t < report.threads; ++t) pool.emplace_back(work);
  } catch (...) {  // a thread that cannot start: the started ones finish their mutant and stop
    next = mutants.size();
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  work();
  for (std::thread& thread : pool) thread.join();

  for (const MutantOutcome& m : report.mutants) {
    if (m.status == MutantStatus::killed) ++report.killed;
    if (m.status == MutantStatus::survived) ++report.survived;
    if (m.status == MutantStatus::equivalent) ++report.equivalent;
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace snnplan::testing
