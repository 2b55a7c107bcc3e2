#pragma once
// `snnplan test RULES TESTFILE...`: rule tests in YAML with coverage, like `opa test`.
// The format is documented in docs/testing.md; its keys are rows of load/keys.cpp.
//
// A test file:
//   tests:
//     - name: single-rank speed runs locally
//       description: one GPU never pays for a distributed strategy
//       tags: [single-rank]
//       input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
//       expect: {mode: none, memopt_level: 0}      # a subset of the record's fields
//       expect_rules: [recommend/single-rank-speed]
//     - name: unknown preference is refused
//       input: {model: x, world_size: 2, prefer: fast, batch_size: 8}
//       expect_error: "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity')."

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyse/coverage.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// A value of a test with where it is written.
struct TestEntry {
  std::string name;
  Value value;
  SourceLocation location;
};

struct RuleTestCase {
  std::string name;
  SourceLocation location;       // of the test's mapping
  SourceLocation name_location;  // of its name (of the mapping when it has none)
  std::string description;
  std::vector<std::string> tags;
  std::vector<TestEntry> input;
  std::vector<TestEntry> expect;  // field -> value
  bool exact = false;             // expect lists every field of the record
  /// The fired rule path, "table/rule" in firing order (snnplan::fired_rule_path).
  std::optional<std::vector<TestEntry>> expect_rules;  // value unused: name is the path
  std::optional<std::string> expect_error;

  [[nodiscard]] Inputs inputs() const;
};

/// Parses a test file; problems come back as diagnostics (positions included).
std::vector<RuleTestCase> load_rule_tests(const std::string& text, const std::string& file_name,
                                          std::vector<Diagnostic>& diagnostics);

/// What the cases say about the rule file, checked before any runs: names given twice (across
/// every file), inputs the rules do not declare, values of the wrong type for an input or a
/// field, record fields the rules do not have, rule paths that name no rule.
void check_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases,
                      std::vector<Diagnostic>& diagnostics);

/// One line of a failed case's difference: the field (or "rules", "error") and what was
/// expected and found, each as YAML would write it.
struct Difference {
  std::string what;
  std::string expected;
  std::string got;
};

/// What differs between what `c` expects and what the rules did (`explanation`: the result
/// with its trace); empty when the case passes.
std::vector<Difference> differences_of(const RuleTestCase& c, const Explanation& explanation);

/// The outcome of one case: passed when nothing differs.
struct RuleTestResult {
  std::string name;
  SourceLocation location;
  std::vector<std::string> tags;
  std::vector<Difference> differences;

  [[nodiscard]] bool passed() const { return differences.empty(); }
};

struct RuleTestReport {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::vector<RuleTestResult> results;  // one per case, in the order of the files
  analyse::Coverage coverage;           // rule, condition and boundary, over every case
  /// Why no inputs are suggested for what the cases miss (empty when they are).
  std::string witnesses_missing;
};

/// Runs `cases` against `rules`, recording what they cover, and looks for inputs that cover
/// what no case does (analyse::CoverageTracker::find_witnesses).
RuleTestReport run_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases);

/// A starter test file for `rules` (`snnplan test --generate`): one test per region of the
/// decision (analyse::decision_regions), then one per rule and condition goal those leave
/// uncovered and, with `boundaries`, one per boundary goal, each at the plainest input that
/// covers it and expecting what the rules answer today (the whole record, exact, and the
/// fired path). Running it covers every reachable rule, condition (and boundary) by
/// construction. std::nullopt with `why` when the representative inputs cannot be enumerated.
std::optional<std::string> generated_tests(const RuleSet& rules, const std::string& rules_name,
                                           bool boundaries, std::string& why);

/// Inputs as a YAML flow mapping, ready to paste under `input:`.
std::string flow_inputs(const Inputs& inputs);

/// "field:\n    expected: X\n    got:      Y" (indented for a FAIL block).
std::string describe(const Difference& difference);

}  // namespace snnplan::cli
