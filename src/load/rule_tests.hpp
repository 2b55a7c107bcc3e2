#pragma once
// Rule-test files (`snnplan test RULES TESTFILE...`, snnplan::run_rule_tests) read into cases,
// through the same YAML reader as rule files (load/yaml_document.hpp) and with literals read
// as rule files read them (load/literals.hpp). The format is documented in docs/testing.md;
// its keys are rows of load/keys.cpp.
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
//
// Only the file's shape is checked here; what the cases say about a rule file (inputs and
// fields it declares, rule paths it has) is checked by testing/rule_tests.hpp.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/value.hpp"

namespace snnplan::load {

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

/// Parses a test file; problems come back as diagnostics (code "test-file", positions
/// `file_name:line:column`). A case with a problem is left out of the result.
std::vector<RuleTestCase> load_rule_tests(std::string_view text, const std::string& file_name,
                                          std::vector<Diagnostic>& diagnostics);

}  // namespace snnplan::load
