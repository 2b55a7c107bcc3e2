#pragma once
// `snnplan test RULES TESTFILE...`: rule tests in YAML with rule coverage, like `opa test`.
//
// A test file:
//   tests:
//     - name: single-rank speed runs locally
//       input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
//       expect: {mode: none, memopt_level: 0}      # a subset of the record's fields
//     - name: unknown preference is refused
//       input: {model: x, world_size: 2, prefer: fast, batch_size: 8}
//       expect_error: "Unsupported prefer='fast'. Expected one of ('speed', 'memory', 'capacity')."

#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

struct RuleTestCase {
  std::string name;
  SourceLocation location;
  Inputs input;
  std::vector<std::pair<std::string, Value>> expect;  // field -> value
  std::optional<std::string> expect_error;
};

/// Parses a test file; problems come back as diagnostics (positions included).
std::vector<RuleTestCase> load_rule_tests(const std::string& text, const std::string& file_name,
                                          std::vector<Diagnostic>& diagnostics);

/// The outcome of one case: passed when it has no problems.
struct RuleTestResult {
  std::string name;
  SourceLocation location;
  /// What differs, one line each ("mode: expected 'dp', got 'pp'"); empty when it passed.
  std::vector<std::string> problems;

  [[nodiscard]] bool passed() const { return problems.empty(); }
};

struct RuleTestReport {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::vector<RuleTestResult> results;  // one per case, in the order of the files
  /// (table, rule) -> number of cases in which the rule fired, for every rule of the file.
  std::vector<std::pair<std::pair<std::string, std::string>, std::size_t>> coverage;

  [[nodiscard]] double coverage_percent() const;
};

/// Runs `cases` against `rules`, recording which rules fire.
RuleTestReport run_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases);

}  // namespace snnplan::cli
