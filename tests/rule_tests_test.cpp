// `snnplan test`: the test-file format, coverage kinds, mutation testing and generated tests.
// Golden cases are tests/data/rule_tests/<case>.args (the arguments, one a line, {data} for
// that folder) beside <case>.expected (the exit code, standard output and standard error).
// SNNPLAN_UPDATE_GOLDEN=1 rewrites the .expected files from what the CLI prints (review the
// diff before committing it).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using snnplan::testing::CliRun;
using snnplan::testing::run_cli;
using snnplan::testing::TempFile;

const std::string kData = std::string(SNNPLAN_TEST_DATA) + "/rule_tests";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// What a run prints, with the data folder written as {data} so the file holds no local path,
// and the time and thread count of a mutation run (which vary) as {time}.
std::string transcript(const CliRun& run) {
  std::string text = replaced(
      "exit " + std::to_string(run.code) + "\n--- stdout\n" + run.out + "--- stderr\n" + run.err,
      kData, "{data}");
  text = std::regex_replace(text, std::regex(R"(in [0-9.]+ s on [0-9]+ threads?)"), "in {time}");
  text = std::regex_replace(text, std::regex(R"("seconds": [0-9.e+-]+)"), R"("seconds": "{time}")");
  return std::regex_replace(text, std::regex(R"("threads": [0-9]+)"), R"("threads": "{threads}")");
}

void check_golden(const std::string& name) {
  std::vector<std::string> args;
  std::istringstream lines(read(kData + "/" + name + ".args"));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) args.push_back(replaced(line, "{data}", kData));
  const std::string got = transcript(run_cli(args));
  const std::string expected_path = kData + "/" + name + ".expected";
  if (std::getenv("SNNPLAN_UPDATE_GOLDEN")) {
    std::ofstream(expected_path, std::ios::binary) << got;
    return;
  }
  CHECK(got == read(expected_path));
}

const std::string kRules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";

}  // namespace

TEST_SUITE("rule tests") {
  TEST_CASE("golden: rule and condition coverage list what no test covers, with covering inputs") {
    check_golden("coverage_conditions");
  }

  TEST_CASE(
      "golden: boundary coverage finds the moved threshold whose boundary tests were dropped") {
    check_golden("coverage_boundary");
  }

  TEST_CASE("golden: a comparison inside a let value is a boundary, taken at each test's inputs") {
    check_golden("coverage_let_boundary");
  }

  TEST_CASE("golden: a suite at the boundaries has full rule, condition and boundary coverage") {
    check_golden("coverage_full");
  }

  TEST_CASE(
      "golden: a surviving mutant of the moved threshold comes with the input that kills it") {
    check_golden("mutate_threshold");
  }

  TEST_CASE("golden: every mutation operator, each mutant killed, surviving or equivalent (JSON)") {
    check_golden("mutate_operators");
  }

  TEST_CASE(
      "the ge 8 -> ge 6 edit is caught three ways: boundary coverage, a survivor, a generated "
      "test") {
    const std::string before = kData + "/threshold.yaml";
    const std::string after = kData + "/threshold_ge6.yaml";
    const std::string tests = kData + "/threshold_ge6.test.yaml";
    // The story's starting point: every test passes and every rule fires.
    const CliRun plain =
        run_cli({"test", after, tests, "--min-coverage", "rule=100,condition=100"});
    CHECK(plain.code == 0);
    // 1. Boundary coverage is below 100 %.
    const CliRun boundary =
        run_cli({"test", after, tests, "--min-coverage", "boundary=100", "--coverage"});
    CHECK(boundary.code == 1);
    CHECK(boundary.err == "error: boundary coverage 0.0% is below the minimum 100%\n");
    CHECK(boundary.out.find("covered by input: {model: vgg, world_size: 6}") != std::string::npos);
    // 2. A mutant of the threshold survives, with an input that tells it apart.
    const CliRun mutate = run_cli({"test", after, tests, "--mutate", "--min-score", "100"});
    CHECK(mutate.code == 1);
    CHECK(mutate.out.find("threshold+1 main/big-vgg (" + after +
                          ":13:43): world_size ge 6 -> world_size ge 7\n"
                          "    killed by input: {model: vgg, world_size: 6}\n") !=
          std::string::npos);
    // 3. Tests generated with --boundaries from the rules before the edit fail on it.
    const CliRun generated = run_cli({"test", "--generate", before, "--boundaries"});
    REQUIRE(generated.code == 0);
    const TempFile file("generated.test.yaml", generated.out);
    CHECK(run_cli({"test", before, file.path()}).code == 0);
    const CliRun caught = run_cli({"test", after, file.path()});
    CHECK(caught.code == 1);
    CHECK(caught.out.find("    input: {model: vgg, world_size: 7}") == std::string::npos);
    CHECK(caught.out.find("  mode:\n    expected: dp\n    got:      fsdp2_tp\n") !=
          std::string::npos);
  }

  TEST_CASE("generated tests pass and cover every reachable rule, condition and boundary") {
    for (const std::string& rules :
         // snn_plan.yaml has its own case below: its let calls another rule set, beyond
         // what the analysis enumerates exactly.
         {kRules, kData + "/threshold.yaml", kData + "/conditions.yaml",
          kData + "/let_boundary.yaml", kData + "/mutants.yaml"}) {
      CAPTURE(rules);
      const CliRun generated = run_cli({"test", "--generate", rules, "--boundaries"});
      REQUIRE(generated.code == 0);
      CHECK(generated.out.rfind("# yaml-language-server: $schema=/", 0) == 0);
      CHECK(generated.out.find("/snnplan/schema/tests.schema.json\n# Generated by `snnplan test "
                               "--generate ") != std::string::npos);
      const TempFile file("generated.test.yaml", generated.out);
      const CliRun run = run_cli(
          {"test", rules, file.path(), "--min-coverage", "rule=100,condition=100,boundary=100"});
      CHECK(run.err == "");
      CHECK(run.code == 0);
      // Without --boundaries: every rule and condition still.
      const TempFile regions("regions.test.yaml", run_cli({"test", "--generate", rules}).out);
      CHECK(run_cli({"test", rules, regions.path(), "--min-coverage", "rule=100,condition=100"})
                .code == 0);
    }
  }

  TEST_CASE("the generated tests of the plan rules reach full rule, condition and boundary coverage") {
    // snn_plan.yaml finds its topology's dimensions with index_of over the list input dims:
    // the analysis enumerates lists holding 'dp' and 'tp' in every order, so every goal,
    // has_dp_and_tp false included, has a generated input.
    const std::string plan_rules = std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml";
    const CliRun generated = run_cli({"test", "--generate", plan_rules, "--boundaries"});
    REQUIRE(generated.code == 0);
    CHECK(generated.out.find("# Not covered") == std::string::npos);
    const TempFile file("plan.test.yaml", generated.out);
    const CliRun run = run_cli({"test", plan_rules, file.path(), "--coverage", "--min-coverage",
                                "rule=100,condition=100,boundary=100"});
    CHECK(run.err == "");
    CHECK(run.code == 0);
    CHECK(run.out.find("rule coverage 100.0% (8 of 8), condition coverage 100.0% (18 of 18), "
                       "boundary coverage 100.0%") != std::string::npos);
  }

  TEST_CASE("generated tests name, in the file's header, the goals no generated input reaches") {
    // ends_with is beyond the analysis: no string it tries ends with '_big', so the rule and
    // its condition are listed for a hand-written test.
    const TempFile rules("ends_with.yaml", R"yaml(snnplan: 1
inputs:
  model: {type: string}
let:
  big: "ends_with(model, '_big')"
record:
  out: {type: string, default: none}
start: main
tables:
  main:
    - name: big
      when: {big: true}
      set: {out: big}
    - name: rest
      set: {out: rest}
)yaml");
    const CliRun generated = run_cli({"test", "--generate", rules.path(), "--boundaries"});
    REQUIRE(generated.code == 0);
    const std::string header = generated.out.substr(0, generated.out.find("tests:\n"));
    CHECK(header.find("# Not covered: no input the analysis tries reaches these goals") !=
          std::string::npos);
    CHECK(header.find("#   condition: main/big: big eq true is true\n") != std::string::npos);
    // A file the analysis covers exactly has no such list.
    const CliRun exact = run_cli({"test", "--generate", kData + "/threshold.yaml"});
    CHECK(exact.out.find("# Not covered") == std::string::npos);
  }

  TEST_CASE("--generate takes no test files, and --boundaries and --min-score need their flags") {
    CHECK(run_cli({"test", "--generate", kRules, kRules}).code == 2);
    CHECK(run_cli({"test", kRules, "--boundaries"}).code == 2);
    const std::string tests = kData + "/threshold.test.yaml";
    const std::string rules = kData + "/threshold.yaml";
    CHECK(run_cli({"test", rules, tests, "--min-score", "50"}).code == 2);
    for (const std::string bad : {"101", "-1", "nan", "abc"}) {
      const CliRun run = run_cli({"test", rules, tests, "--mutate", "--min-score", bad});
      CHECK(run.code == 2);
      CHECK(run.err == "error: --min-score: expected a number from 0 to 100, got '" + bad +
                           "'\nRun with --help for usage.\n");
    }
    CHECK(run_cli({"test", rules, tests, "--mutate", "--min-score", "100"}).code == 0);
  }

  TEST_CASE("expect_rules compares the fired rule path and shows both paths when it differs") {
    const TempFile tests("rules.test.yaml", R"(tests:
  - name: speed on 8 GPUs
    input: {model: cifar10dvs_vgg, world_size: 8, prefer: speed, batch_size: 64}
    expect_rules: [recommend/by-preference-speed, speed/fsdp2-tp-for-cifar10dvs-vgg]
  - name: the wrong path
    input: {model: resnet, world_size: 8, prefer: speed, batch_size: 64}
    expect_rules: [recommend/by-preference-speed, speed/fsdp2-tp-for-cifar10dvs-vgg]
)");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.code == 1);
    CHECK(run.out.find(
              "FAIL the wrong path (" + tests.path() +
              ":5:5)\n  rules:\n    expected: [recommend/by-preference-speed, "
              "speed/fsdp2-tp-for-cifar10dvs-vgg]\n    got:      [recommend/by-preference-speed, "
              "speed/data-parallel]\n") != std::string::npos);
    CHECK(run.out.find("1 passed, 1 failed") != std::string::npos);
  }

  TEST_CASE("exact: true fails on every field the test leaves out; values are written as YAML") {
    const TempFile tests("exact.test.yaml", R"(tests:
  - name: only the mode
    input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
    exact: true
    expect: {mode: "1", memopt_level: 0, pp_schedule: "1f1b", world_size: 1}
)");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.code == 1);
    // A string that reads as a number is quoted.
    CHECK(run.out.find("  mode:\n    expected: \"1\"\n    got:      none\n") != std::string::npos);
    CHECK(run.out.find(
              "  optimizer_sharding:\n    expected: (no such field in expect, and the test is "
              "exact)\n    got:      none\n") != std::string::npos);
    CHECK(run.out.find("  pp_schedule:") == std::string::npos);
    CHECK(run.out.find("  world_size:") == std::string::npos);
  }

  TEST_CASE("a test file naming what the rules do not have is refused with positions, exit 2") {
    const TempFile tests("unknown.test.yaml", R"(tests:
  - name: a
    input: {model: x, wrld_size: 1, prefer: speed, batch_size: "8"}
    expect: {mode: none, memopt: 0, memopt_level: "0"}
    expect_rules: [recommend/single-rank-sped]
  - name: a
    input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
    expect: {mode: none}
)");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    const std::string& p = tests.path();
    CHECK(run.err ==
          p + ":3:23: error: unknown input 'wrld_size' (did you mean 'world_size'?)\n" + p +
              ":3:52: error: input 'batch_size' must be int, got string\n" + p +
              ":4:26: error: the record has no field 'memopt' (did you mean 'memopt_level'?)\n" +
              p + ":4:37: error: field 'memopt_level' is int, but the test expects string\n" + p +
              ":5:20: error: no rule 'recommend/single-rank-sped' in the rule file (did you mean "
              "'recommend/single-rank-speed'?)\n" +
              p + ":6:11: error: a test named 'a' already exists (at " + p +
              ":2:11); test names must be unique\n");
  }

  TEST_CASE("a test that expects an error may give an input of the wrong type on purpose") {
    const TempFile tests("wrong_type.test.yaml", R"(tests:
  - name: a string world size is refused
    input: {model: x, world_size: eight, prefer: speed, batch_size: 8}
    expect_error: "input 'world_size' must be int, got string"
)");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.err == "");
    CHECK(run.code == 0);
  }

  TEST_CASE(
      "a test file with keys of the wrong shape or an unknown key is refused, the allowed keys "
      "listed") {
    const TempFile tests("shapes.test.yaml", R"(tests:
  - name: a
    input: {model: x, world_size: 1, prefer: speed, batch_size: 8}
    expect: {mode: none}
    exact: yes
    tags: speed
    expect_rule: [recommend/single-rank-speed]
)");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.code == 2);
    const std::string& p = tests.path();
    CHECK(run.err ==
          p +
              ":7:5: error: unknown key 'expect_rule' in a test (did you mean 'expect_rules'?); "
              "allowed: "
              "name, description, tags, input, expect, exact, expect_rules, expect_error\n" +
              p + ":6:11: error: tags must be a list of strings\n" + p +
              ":5:12: error: exact must be true or false\n");
  }

  TEST_CASE("a test file that is not YAML is refused at the position of the error, exit 2") {
    const TempFile tests("broken.test.yaml", "tests:\n  - name: [unclosed\n");
    const CliRun run = run_cli({"test", kRules, tests.path()});
    CHECK(run.code == 2);
    CHECK(run.err.rfind(tests.path() + ":3:1: error: YAML syntax error: ", 0) == 0);
  }

  TEST_CASE("--min-coverage names kinds; each minimum not met is an error line and exit 1") {
    const std::string rules = kData + "/threshold_ge6.yaml";
    const std::string tests = kData + "/threshold_ge6.test.yaml";
    CHECK(run_cli({"test", rules, tests, "--min-coverage", "rule=100,condition=100"}).code == 0);
    const CliRun low = run_cli({"test", rules, tests, "--min-coverage", "rule=100,boundary=90"});
    CHECK(low.code == 1);
    CHECK(low.err == "error: boundary coverage 0.0% is below the minimum 90%\n");
    CHECK(run_cli({"test", rules, tests, "--min-coverage", "100"}).code == 0);
    CHECK(run_cli({"test", rules, tests, "--min-coverage", "boundary=101"}).code == 2);
  }

  TEST_CASE(
      "the shipped rule tests of both default tables cover every rule, condition and boundary") {
    for (const char* name : {"snn_distributed", "snn_plan"}) {
      CAPTURE(name);
      const std::string base = std::string(SNNPLAN_RULES_DIR) + "/" + name;
      const CliRun run = run_cli({"test", base + ".yaml", base + ".test.yaml", "--min-coverage",
                                  "rule=100,condition=100,boundary=100"});
      CHECK(run.err == "");
      CHECK(run.code == 0);
    }
  }
}
