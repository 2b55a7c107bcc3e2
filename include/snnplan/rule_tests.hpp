#pragma once
/// \file
/// Rule tests: YAML test files run against a rule set, with rule, condition, boundary and search
/// coverage and, when asked, mutation testing -- what `snnplan test` prints, as values.
/// The test-file format is in docs/testing.md.
///
///     const auto rules = snnplan::RuleSet::from_file("rules/site.yaml");
///     const snnplan::RuleTestReport report =
///         snnplan::run_rule_tests(rules, {"rules/site.test.yaml"});
///     for (const auto& d : report.problems) std::cerr << snnplan::format(d) << '\n';
///     for (const auto& t : report.tests)
///       if (!t.passed()) std::cerr << "FAIL " << t.name << '\n';
///     bool good = report.ok() && report.coverage.percent(snnplan::CoverageKind::rule) == 100;

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/source_location.hpp"
#include "snnplan/value.hpp"

namespace snnplan {

/// One line of a failed test's difference: `what` is a record field, "rules" (the fired rule
/// path), "error" or "record"; `expected` and `got` are written as YAML writes them, so a
/// string that would read as a number is quoted.
struct TestDifference {
  std::string what;
  std::string expected;
  std::string got;

  friend bool operator==(const TestDifference&, const TestDifference&) = default;
};

/// The outcome of one test of a test file.
struct TestOutcome {
  std::string name;
  SourceLocation location;  ///< of the test's mapping in its file
  std::string description;
  std::vector<std::string> tags;
  std::vector<TestDifference> differences;  ///< empty when the test passed

  [[nodiscard]] bool passed() const noexcept { return differences.empty(); }
};

/// What coverage counts: each rule fired; each matcher seen true and false where its rule
/// was tried; each integer comparison seen at its boundary and just on the other side; in a
/// search, each tier choosing the plan, each constraint removing a candidate, a candidate too
/// big for `fits`, and each of its two failures (nothing valid, nothing fits).
enum class CoverageKind : std::uint8_t { rule, condition, boundary, search };
inline constexpr CoverageKind kCoverageKinds[] = {CoverageKind::rule, CoverageKind::condition,
                                                  CoverageKind::boundary, CoverageKind::search};

/// "rule", "condition", "boundary", "search".
const char* to_string(CoverageKind kind) noexcept;

/// One thing a test can cover.
struct CoverageGoal {
  CoverageKind kind = CoverageKind::rule;
  /// The rule it belongs to, "table/rule"; for a comparison outside rules "let NAME" or
  /// "record FIELD"; for a search "search NAME".
  std::string owner;
  /// "" for a rule; "world_size le 1 is true", "world_size >= 4 at world_size = 4 - 1".
  std::string what;
  SourceLocation location;  ///< of the rule, the matcher or the comparison
  std::size_t cases = 0;    ///< tests that covered it
  /// No input can cover it (the analysis tried every representative input, exactly); it does
  /// not count against coverage.
  bool unreachable = false;
  /// For a goal no test covered: an input that would cover it, when one was found.
  std::optional<Inputs> witness;
};

/// Every goal of the rule file (rules in file order, then conditions, then boundaries).
struct TestCoverage {
  std::vector<CoverageGoal> goals;
  /// Why no covering inputs are suggested (the domain is beyond the analysis); empty when
  /// they are, or when every goal is covered.
  std::string witnesses_missing;

  /// Goals of that kind, unreachable ones left out.
  [[nodiscard]] std::size_t total(CoverageKind kind) const noexcept;
  [[nodiscard]] std::size_t covered(CoverageKind kind) const noexcept;
  [[nodiscard]] std::size_t unreachable(CoverageKind kind) const noexcept;
  /// covered / total in percent; 100 when there is no goal of that kind.
  [[nodiscard]] double percent(CoverageKind kind) const noexcept;
};

/// What became of one mutant of the rules.
enum class MutantStatus : std::uint8_t {
  killed,      ///< some test failed on it
  survived,    ///< every test passed on it: a missing test
  equivalent,  ///< it answers like the rules on every input; left out of the score
};

/// "killed", "survived", "equivalent".
const char* to_string(MutantStatus status) noexcept;

struct MutantOutcome {
  std::string mutation;     ///< the operator, as docs/testing.md names it: "threshold+1", ...
  std::string owner;        ///< the rule (or let value) changed
  std::string description;  ///< "world_size ge 6 -> world_size ge 7"
  SourceLocation location;  ///< of what was changed
  MutantStatus status = MutantStatus::killed;
  std::string killed_by;  ///< killed: the name of the first test that failed on it
  /// survived: an input on which the mutant answers otherwise (the test to add), if found.
  std::optional<Inputs> distinguishing;
};

struct MutationResults {
  std::vector<MutantOutcome> mutants;  ///< in a fixed order: the same rules, the same list
  std::size_t killed = 0;
  std::size_t survived = 0;
  std::size_t equivalent = 0;
  double seconds = 0;    ///< wall-clock time of the mutation run
  unsigned threads = 1;  ///< threads it ran on

  /// killed / (mutants - equivalent) in percent; 100 when every mutant is equivalent.
  [[nodiscard]] double score() const noexcept;
};

struct RuleTestOptions {
  /// Also run every test against each mutant of the rules (docs/testing.md, "Mutation
  /// testing"). Done only when every test passes on the rules themselves.
  bool mutate = false;
  /// Threads for mutation testing; 0: one per core.
  unsigned threads = 0;
};

/// What a run found. When `problems` is not empty the test files were unusable and no test
/// ran (tests, coverage and mutation are then empty).
struct RuleTestReport {
  /// Errors in the test files, each at `file:line:column` (code "test-file"): not YAML, an
  /// unknown or repeated key, a name given twice, an input or field the rules do not have or
  /// a value of the wrong type for it, a rule path that names no rule.
  std::vector<Diagnostic> problems;
  std::vector<TestOutcome> tests;  ///< one per test, in the order of the files
  std::size_t passed = 0;
  std::size_t failed = 0;
  TestCoverage coverage;
  /// With RuleTestOptions::mutate, when every test passed.
  std::optional<MutationResults> mutation;

  /// The files were usable and every test passed.
  [[nodiscard]] bool ok() const noexcept { return problems.empty() && failed == 0; }
};

/// Thrown by run_rule_tests when a test file cannot be read (missing, a directory, no
/// permission). what() is "cannot read tests PATH: why".
class TestFileError : public std::runtime_error {
 public:
  TestFileError(std::string path, const std::string& message)
      : std::runtime_error(message), path_(std::move(path)) {}
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

/// Reads the test files at `paths` and runs them against `rules`. Expected values compare as
/// the rules' `eq` does: exactly, an integer equal to a float of the same value (so 2**62+1
/// differs from 2.0**62). Problems in the files come back in RuleTestReport::problems (every
/// file is read before any test runs). Throws TestFileError when a file cannot be read;
/// std::system_error when a mutation thread cannot start; std::bad_alloc.
[[nodiscard]] RuleTestReport run_rule_tests(const RuleSet& rules,
                                            const std::vector<std::string>& paths,
                                            const RuleTestOptions& options = {});

/// run_rule_tests for test files in memory: each SourceText's `file` is the name diagnostics
/// and test locations give it. Throws only what run_rule_tests throws besides TestFileError.
[[nodiscard]] RuleTestReport run_rule_tests_from_strings(const RuleSet& rules,
                                                         const std::vector<SourceText>& files,
                                                         const RuleTestOptions& options = {});

/// The report as `snnplan test --format json` writes it (docs/testing.md, "Reports for CI"):
/// an object with "passed", "failed", "tests", "coverage" and, after mutation testing,
/// "mutation"; indented by two, ending in a newline. The problems are not part of it.
[[nodiscard]] std::string to_json(const RuleTestReport& report);

}  // namespace snnplan
