#pragma once
// `snnplan test --mutate`: mutation testing of rule tests. Every mutant of the rule file
// (analyse/mutants.hpp) is compiled once and run against the tests, in parallel on every
// core (the compiled original and mutants are immutable, so threads share them); a mutant no
// test tells apart from the original survives, and the analysis looks for an input that does
// (the missing test) or shows that none exists (an equivalent mutant, left out of the score).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyse/mutants.hpp"
#include "cli/rule_tests.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

struct MutantOutcome {
  enum class Status : std::uint8_t { killed, survived, equivalent };
  analyse::MutationOperator op = analyse::MutationOperator::threshold_up;
  SourceLocation location;
  std::string owner;
  std::string description;
  Status status = Status::killed;
  std::string killed_by;                 ///< killed: the first test that failed on it
  std::optional<Inputs> distinguishing;  ///< survived: an input on which it answers otherwise
};

struct MutationReport {
  std::vector<MutantOutcome> mutants;  // in analyse::MutantFactory order
  std::size_t killed = 0, survived = 0, equivalent = 0;
  double seconds = 0;
  unsigned threads = 1;

  /// killed / (mutants - equivalent), in percent; 100 when every mutant is equivalent.
  [[nodiscard]] double score() const;
};

/// Runs `cases` against every mutant of `rules` (which must pass them all) on `threads`
/// threads (0: one per core).
MutationReport run_mutation_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases,
                                  unsigned threads = 0);

/// "survived", "killed", "equivalent".
const char* to_string(MutantOutcome::Status status);

}  // namespace snnplan::cli
