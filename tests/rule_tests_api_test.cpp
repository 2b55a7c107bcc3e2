// snnplan::run_rule_tests (include/snnplan/rule_tests.hpp): rule tests as values, called from
// C++ without the CLI -- outcomes with positions, differences, exact equality of expected
// values, problems as diagnostics, coverage, mutation testing, and the JSON of `snnplan test`.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"

namespace {

using snnplan::CoverageKind;
using snnplan::RuleSet;
using snnplan::RuleTestReport;
using snnplan::SourceText;
using snnplan::testing::TempFile;

// main/big fires from n = 8 on; `ratio` is the float 2.0**62 and `count` the int 2**62.
const std::string kRulesFile = std::string(SNNPLAN_TEST_DATA) + "/rule_tests/api_rules.yaml";

const std::string kPassing = R"(tests:
  - name: eight is big
    description: the threshold itself
    tags: [threshold, big]
    input: {n: 8}
    expect: {mode: big}
    expect_rules: [main/big]
  - name: seven is small
    input: {n: 7}
    expect: {mode: small}
)";

RuleSet rules() { return RuleSet::from_file(kRulesFile); }

RuleTestReport run(const std::string& tests, const snnplan::RuleTestOptions& options = {}) {
  return snnplan::run_rule_tests_from_strings(rules(), {SourceText{"t.test.yaml", tests}}, options);
}

}  // namespace

TEST_SUITE("rule tests api") {
  TEST_CASE("passing tests come back in file order with their positions, descriptions and tags") {
    const RuleTestReport report = run(kPassing);
    CHECK(report.ok());
    CHECK(report.problems.empty());
    CHECK(report.passed == 2);
    CHECK(report.failed == 0);
    REQUIRE(report.tests.size() == 2);
    CHECK(report.tests[0].name == "eight is big");
    CHECK(report.tests[0].location.file == "t.test.yaml");
    CHECK(report.tests[0].location.line == 2);
    CHECK(report.tests[0].location.column == 5);
    CHECK(report.tests[0].description == "the threshold itself");
    CHECK(report.tests[0].tags == std::vector<std::string>{"threshold", "big"});
    CHECK(report.tests[0].passed());
    CHECK(report.tests[1].name == "seven is small");
    CHECK(report.tests[1].location.line == 8);
    CHECK_FALSE(report.mutation);
  }

  TEST_CASE("a failed expectation gives the field with the expected and the actual value") {
    const RuleTestReport report = run(kPassing + R"(  - name: nine is small
    input: {n: 9}
    expect: {mode: small}
    expect_rules: [main/small]
)");
    CHECK_FALSE(report.ok());
    CHECK(report.passed == 2);
    CHECK(report.failed == 1);
    REQUIRE(report.tests.size() == 3);
    CHECK_FALSE(report.tests[2].passed());
    CHECK(report.tests[2].differences ==
          std::vector<snnplan::TestDifference>{{"mode", "small", "big"},
                                               {"rules", "[main/small]", "[main/big]"}});
  }

  TEST_CASE("an expected int beyond a double's precision differs from the value it rounds to") {
    // 2**62 + 1 is 2.0**62 as a double: compared through double, both tests would pass.
    const RuleTestReport report = run(R"(tests:
  - name: 2**62 + 1 is not the float 2.0**62
    input: {n: 1}
    expect: {ratio: 4611686018427387905}
  - name: 2**62 + 1 is not the int 2**62
    input: {n: 1}
    expect: {count: 4611686018427387905}
  - name: 2**62 is the float 2.0**62 and the int 2**62
    input: {n: 1}
    expect: {ratio: 4611686018427387904, count: 4611686018427387904}
)");
    REQUIRE(report.tests.size() == 3);
    CHECK(report.tests[0].differences ==
          std::vector<snnplan::TestDifference>{
              {"ratio", "4611686018427387905", "4.611686018427388e+18"}});
    CHECK(report.tests[1].differences ==
          std::vector<snnplan::TestDifference>{
              {"count", "4611686018427387905", "4611686018427387904"}});
    CHECK(report.tests[2].passed());
    CHECK(report.failed == 2);
  }

  TEST_CASE("problems in test files are diagnostics at file:line:column and no test runs") {
    const RuleTestReport report = snnplan::run_rule_tests_from_strings(
        rules(), {SourceText{"good.test.yaml", kPassing},
                  SourceText{"bad.test.yaml", "tests:\n  - name: typo\n    input: {m: 9}\n"
                                              "    expect: {mode: big}\n"}});
    CHECK_FALSE(report.ok());
    REQUIRE(report.problems.size() == 1);
    CHECK(snnplan::format(report.problems[0]) ==
          "bad.test.yaml:3:13: error: unknown input 'm' (did you mean 'n'?)");
    CHECK(report.problems[0].code == "test-file");
    CHECK(report.tests.empty());
    CHECK(report.coverage.goals.empty());
  }

  TEST_CASE("a test file that is not YAML is a diagnostic at the error's position") {
    const RuleTestReport report = run("tests:\n  - name: [unclosed\n");
    REQUIRE(report.problems.size() == 1);
    CHECK(report.problems[0].location.file == "t.test.yaml");
    CHECK(report.problems[0].location.line == 3);
    CHECK(report.problems[0].message.rfind("YAML syntax error: ", 0) == 0);
  }

  TEST_CASE("a test file that cannot be read throws TestFileError naming it") {
    const std::string missing = "/nonexistent/snnplan.test.yaml";
    try {
      (void)snnplan::run_rule_tests(rules(), {missing});
      FAIL("no exception");
    } catch (const snnplan::TestFileError& e) {
      CHECK(e.path() == missing);
      CHECK(std::string(e.what()).find(missing) != std::string::npos);
    }
  }

  TEST_CASE("test files are read from disk under the names they were given") {
    const TempFile tests("api.test.yaml", kPassing);
    const RuleTestReport report = snnplan::run_rule_tests(rules(), {tests.path()});
    CHECK(report.ok());
    REQUIRE(report.tests.size() == 2);
    CHECK(report.tests[0].location.file == tests.path());
  }

  TEST_CASE("coverage counts rules, conditions and boundaries and suggests inputs for the rest") {
    const RuleTestReport full = run(kPassing);
    CHECK(full.coverage.percent(CoverageKind::rule) == 100.0);
    CHECK(full.coverage.total(CoverageKind::rule) == 2);
    CHECK(full.coverage.covered(CoverageKind::boundary) == full.coverage.total(CoverageKind::boundary));
    CHECK(full.coverage.total(CoverageKind::boundary) == 2);

    const RuleTestReport half = run("tests:\n  - name: seven\n    input: {n: 7}\n    expect: {mode: small}\n");
    CHECK(half.coverage.covered(CoverageKind::rule) == 1);
    CHECK(half.coverage.percent(CoverageKind::rule) == 50.0);
    bool found = false;
    for (const snnplan::CoverageGoal& goal : half.coverage.goals)
      if (goal.kind == CoverageKind::rule && goal.owner == "main/big") {
        found = true;
        CHECK(goal.cases == 0);
        CHECK_FALSE(goal.unreachable);
        REQUIRE(goal.witness);
        REQUIRE(goal.witness->size() == 1);
        CHECK(goal.witness->front().first == "n");
        CHECK(goal.witness->front().second.as_int() >= 8);
      }
    CHECK(found);
    CHECK(half.coverage.witnesses_missing.empty());
    CHECK(std::string(snnplan::to_string(CoverageKind::boundary)) == "boundary");
  }

  TEST_CASE("a boundary no test reaches is suggested as a test moved onto it, with a value its input may take") {
    // `gpus >= limit` from {gpus: 8, limit: 3}: gpus = 3 is not one of its values, so the
    // threshold moves limit to 8 instead; one below it, gpus = 2 is allowed.
    const RuleSet moved = RuleSet::from_string(R"(snnplan: 1
inputs:
  gpus: {type: int, one_of: [1, 2, 4, 8]}
  limit: {type: int}
let:
  big: "gpus >= limit"
record:
  mode: {type: string, default: none}
start: main
tables:
  main:
    - name: big
      when: {big: true}
      set: {mode: big}
    - name: small
      set: {mode: small}
)", "moved.yaml");
    const RuleTestReport report = snnplan::run_rule_tests_from_strings(
        moved, {SourceText{"t.test.yaml", "tests:\n  - name: eight of three\n    input: {gpus: 8, limit: 3}\n"
                                         "    expect: {mode: big}\n"}});
    std::vector<std::string> suggested;
    for (const snnplan::CoverageGoal& goal : report.coverage.goals) {
      if (goal.kind != CoverageKind::boundary || goal.cases > 0) continue;
      REQUIRE(goal.witness);
      std::string text = goal.what + ":";
      for (const auto& [name, value] : *goal.witness) text += " " + name + "=" + std::to_string(value.as_int());
      suggested.push_back(text);
    }
    CHECK(suggested == std::vector<std::string>{"gpus >= limit at gpus = limit: gpus=8 limit=8",
                                                "gpus >= limit at gpus = limit - 1: gpus=2 limit=3"});
  }

  TEST_CASE("mutation testing runs when asked and every test passes, and scores the mutants") {
    const RuleTestReport report = run(kPassing, {.mutate = true, .threads = 2});
    REQUIRE(report.mutation);
    const snnplan::MutationResults& m = *report.mutation;
    CHECK(m.threads == 2);
    CHECK(!m.mutants.empty());
    CHECK(m.killed + m.survived + m.equivalent == m.mutants.size());
    bool threshold = false;
    for (const snnplan::MutantOutcome& mutant : m.mutants)
      if (mutant.mutation == "threshold+1" && mutant.owner == "main/big") {
        threshold = true;
        CHECK(mutant.status == snnplan::MutantStatus::killed);  // the test at n = 8 sees it
        CHECK(mutant.killed_by == "eight is big");
        CHECK(mutant.description == "n ge 8 -> n ge 9");
      }
    CHECK(threshold);
    CHECK(m.score() == doctest::Approx(100.0 * static_cast<double>(m.killed) /
                                       static_cast<double>(m.mutants.size() - m.equivalent)));

    const RuleTestReport failing = run(kPassing + "  - name: wrong\n    input: {n: 9}\n    expect: {mode: small}\n",
                                       {.mutate = true});
    CHECK(failing.failed == 1);
    CHECK_FALSE(failing.mutation);  // mutants are told apart by failing tests
  }

  TEST_CASE("to_json is the report snnplan test --format json writes") {
    const TempFile tests("api_json.test.yaml", kPassing);
    const RuleTestReport report = snnplan::run_rule_tests(rules(), {tests.path()});
    const auto cli =
        snnplan::testing::run_cli({"test", kRulesFile, tests.path(), "--format", "json"});
    CHECK(cli.code == 0);
    CHECK(snnplan::to_json(report) == cli.out);
    CHECK(snnplan::to_json(report).rfind("{\n  \"passed\": 2,\n  \"failed\": 0,\n", 0) == 0);
  }
}
