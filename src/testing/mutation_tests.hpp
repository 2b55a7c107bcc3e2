#pragma once
// Mutation testing of rule tests (snnplan::RuleTestOptions::mutate, `snnplan test --mutate`).
// Every mutant of the rule file (analyse/mutants.hpp) is compiled once and run against the
// tests, in parallel on every core (the compiled original and mutants are immutable, so
// threads share them); a mutant no test tells apart from the original survives, and the
// analysis looks for an input that does (the missing test) or shows that none exists (an
// equivalent mutant, left out of the score).

#include <vector>

#include "load/rule_tests.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"

namespace snnplan::testing {

/// Runs `cases` against every mutant of `rules` (which must pass them all) on `threads`
/// threads (0: one per core).
MutationResults run_mutation_tests(const RuleSet& rules,
                                   const std::vector<load::RuleTestCase>& cases,
                                   unsigned threads = 0);

}  // namespace snnplan::testing
