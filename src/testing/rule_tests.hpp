#pragma once
// The rule-test runner behind snnplan::run_rule_tests (include/snnplan/rule_tests.hpp) and
// `snnplan test`: the cases of load/rule_tests.hpp checked against a rule set, run with the
// coverage of analyse/coverage.hpp, and generated test files (`snnplan test --generate`).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load/rule_tests.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"

namespace snnplan::testing {

/// What the cases say about the rule file, checked before any runs: names given twice (across
/// every file), inputs the rules do not declare, values of the wrong type for an input or a
/// field, record fields the rules do not have, rule paths that name no rule.
void check_rule_tests(const RuleSet& rules, const std::vector<load::RuleTestCase>& cases,
                      std::vector<Diagnostic>& diagnostics);

/// What differs between what `c` expects and what the rules did (`explanation`: the result
/// with its trace); empty when the case passes. Values compare as the rules' `eq` does.
std::vector<TestDifference> differences_of(const load::RuleTestCase& c,
                                           const Explanation& explanation);

/// Runs checked `cases` against `rules`, recording what they cover, looks for inputs that
/// cover what no case does, and with `options.mutate` (every case passing) runs the mutants.
RuleTestReport run_cases(const RuleSet& rules, const std::vector<load::RuleTestCase>& cases,
                         const RuleTestOptions& options);

/// How `snnplan test --generate` picks the inputs of its tests.
struct GenerateOptions {
  bool boundaries = false;  ///< also one test on each side of every threshold (--boundaries)
  /// Where the decision's regions cannot be enumerated (a search, too many combinations):
  /// whether to sample (--corpus given), the requests to draw the sample around (--corpus,
  /// named `corpus_name`; none: every input drawn from its declared type), how many inputs to
  /// draw besides them and the seed. Without `sampled` such a file cannot be generated.
  bool sampled = false;
  std::vector<Inputs> corpus;
  std::string corpus_name;
  std::size_t samples = 2000;
  std::uint64_t seed = 1;
};

/// A starter test file for `rules` (`snnplan test --generate`): one test per region of the
/// decision (analyse::decision_regions), then one per rule and condition goal those leave
/// uncovered and, with `boundaries`, one per boundary goal, each at the plainest input that
/// covers it and expecting what the rules answer today (the whole record, exact, and the
/// fired path). Running it covers every reachable rule, condition (and boundary) by
/// construction. Where the regions cannot be enumerated, the tests are picked from the corpus
/// and a sample drawn around it: one per decision path (fired rules, and whether it ended in
/// an error) the sample reaches, then one per goal (search goals included) the tests so far
/// leave uncovered; the file says that it sampled and lists what it did not reach.
/// std::nullopt with `why` when the regions cannot be enumerated and `sampled` is not set.
std::optional<std::string> generated_tests(const RuleSet& rules, const std::string& rules_name,
                                           const GenerateOptions& options, std::string& why);

/// Inputs as a YAML flow mapping, ready to paste under `input:`.
std::string flow_inputs(const Inputs& inputs);

/// A fired rule path as a YAML flow list.
std::string rule_list(const std::vector<std::string>& paths);

/// "field:\n    expected: X\n    got:      Y" (indented for a FAIL block).
std::string describe(const TestDifference& difference);

}  // namespace snnplan::testing
