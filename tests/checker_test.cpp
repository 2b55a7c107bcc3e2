// `snnplan check` as a whole: the warning policy (codes, --strict, --error, --ignore, allow:,
// --show-allowed), its summary lines, and every code the loader, checker and analysis emit
// having its row in the code table.
//
// tests/data/checker/<case>.yaml sits beside <case>.expected, which holds one block per run of
// `check` on the case, blocks separated by an empty line. A block's first line is the command
// line after `snnplan check`, with `{}` for the case's file (`--strict {}`); the second the
// exit code (`exit 3`); then every line `check` prints that is not a source excerpt (excerpts
// are indented by two spaces), with the case's path written as its file name. To add a case,
// write the .yaml, run `snnplan check ARGS <case>.yaml` from that directory, check every
// finding by hand, and save the lines that do not start with two spaces.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "api/rule_set_access.hpp"
#include "check/checker.hpp"
#include "golden_cases.hpp"
#include "core/diagnostic_codes.hpp"
#include "rules_reference/code_examples.hpp"
#include "load/rule_file_loader.hpp"
#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::testing::default_rules_with;
using snnplan::testing::read_text;
using snnplan::testing::run_cli;

const fs::path kCases = fs::path(SNNPLAN_TEST_DATA) / "checker";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_arguments(const std::string& line) {
  std::vector<std::string> args;
  std::istringstream in(line);
  for (std::string arg; in >> arg;) args.push_back(arg);
  return args;
}

// The blocks of an .expected file.
std::vector<std::vector<std::string>> blocks_of(const std::string& text) {
  std::vector<std::vector<std::string>> blocks(1);
  for (const std::string& line : lines_of(text)) {
    if (line.empty()) {
      if (!blocks.back().empty()) blocks.emplace_back();
    } else {
      blocks.back().push_back(line);
    }
  }
  if (blocks.back().empty()) blocks.pop_back();
  return blocks;
}

// Runs `check` on tests/data/checker/<name>.yaml as one block says and compares.
void check_block(const std::string& name, const std::vector<std::string>& expected) {
  CAPTURE(name);
  CAPTURE(expected[0]);
  REQUIRE(expected.size() >= 2);
  const std::string path = (kCases / (name + ".yaml")).string();
  std::vector<std::string> args = {"check"};
  for (std::string arg : split_arguments(expected[0])) args.push_back(arg == "{}" ? path : arg);
  const auto run = run_cli(args);
  CHECK(run.err.empty());
  std::vector<std::string> actual = {expected[0], "exit " + std::to_string(run.code)};
  for (std::string line : lines_of(run.out)) {
    if (line.rfind("  ", 0) == 0) continue;  // a source excerpt or its caret
    for (auto at = line.find(path); at != std::string::npos; at = line.find(path, at))
      line.replace(at, path.size(), name + ".yaml");
    actual.push_back(line);
  }
  CHECK(actual == expected);
}

void check_case(const std::string& name) {
  const auto blocks = blocks_of(read_text(kCases / (name + ".expected")));
  CHECK(!blocks.empty());
  for (const auto& block : blocks) check_block(name, block);
}

// Every "kebab-case" string literal in the stages that report rule-file problems: they are all
// diagnostic codes there, but for the files below, whose kebab-case names are of other things.
std::set<std::string> codes_in_sources() {
  // The mutation operators of `snnplan test --mutate` (drop-matcher, swap-rules, ...).
  const std::set<std::string> other_names = {"mutants.cpp"};
  std::set<std::string> codes;
  const std::regex literal("\"([a-z]+(-[a-z]+)+)\"");
  for (const char* folder : {"load", "check", "compile", "analyse", "api"}) {
    for (const auto& entry :
         fs::directory_iterator(fs::path(SNNPLAN_SOURCE_DIR) / "src" / folder)) {
      if (other_names.count(entry.path().filename().string())) continue;
      const std::string text = read_text(entry.path());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), literal);
           it != std::sregex_iterator(); ++it)
        codes.insert((*it)[1].str());
    }
  }
  return codes;
}

}  // namespace

TEST_SUITE("checker") {
  TEST_CASE("every checker case has an expected file and every expected file has its case") {
    snnplan::testing::check_cases_are_paired(kCases, 10);
  }

  TEST_CASE("every checker case prints exactly its expected lines and exit code") {
    for (const std::string& name : snnplan::testing::case_names(kCases)) check_case(name);
  }

  TEST_CASE("every code the loader, checker and analysis report has a row in the code table") {
    const std::set<std::string> used = codes_in_sources();
    CHECK(used.size() >= 30);
    for (const std::string& code : used) {
      CAPTURE(code);
      CHECK(snnplan::detail::find_diagnostic_code(code) != nullptr);
    }
  }

  TEST_CASE("every row of the code table is a code something reports, with an example message") {
    std::set<std::string> used = codes_in_sources();
    // Reported outside those folders (the rule-test loader in cli), or one-word codes.
    used.insert({"test-file", "uses", "unused"});
    for (const auto& row : snnplan::detail::diagnostic_codes()) {
      CAPTURE(row.code);
      CHECK(used.count(std::string(row.code)) == 1);
      CHECK_FALSE(row.summary.empty());
      CHECK_FALSE(snnplan::rules_reference::diagnostic_code_example(row.code).empty());
    }
  }
}

namespace {

// The diagnostics `check` reports for `text`, as their first lines with codes.
std::vector<std::string> checked(const std::string& text) {
  const snnplan::testing::TempFile file("checked.yaml", text);
  std::vector<std::string> out;
  for (const std::string& line : lines_of(run_cli({"check", file.path()}).out))
    if (line.rfind("  ", 0) != 0) out.push_back(line.substr(line.find(':') + 1));
  return out;
}

}  // namespace

TEST_SUITE("checker") {
  TEST_CASE("check --format json keeps its shape: one array of diagnostics, each with its code") {
    const std::string path = (kCases / "dead_rule.yaml").string();
    const auto run = run_cli({"check", "--format", "json", path});
    CHECK(run.code == 0);
    const auto diagnostics = nlohmann::json::parse(run.out);
    REQUIRE(diagnostics.is_array());
    REQUIRE(diagnostics.size() == 1);
    CHECK(diagnostics[0] ==
          nlohmann::json{{"file", path},
                         {"line", 15},
                         {"column", 13},
                         {"severity", "warning"},
                         {"code", "unreachable-rule"},
                         {"message",
                          "rule 'huge' follows a catch-all rule in table 'main' and can never "
                          "fire (rule 'large' above matches every input)"}});
    const auto clean = run_cli({"check", "--format", "json", (kCases / "clean.yaml").string()});
    CHECK(clean.code == 0);
    CHECK(clean.out == "[]\n");
  }

  TEST_CASE("--error and --ignore refuse unknown codes, and --ignore refuses error codes") {
    const std::string path = (kCases / "clean.yaml").string();
    const auto unknown = run_cli({"check", "--ignore", "shadowed", path});
    CHECK(unknown.code == 2);
    CHECK(unknown.err.find("error: --ignore shadowed: unknown diagnostic code 'shadowed' (did you "
                           "mean 'shadowed-rule'?)") == 0);
    const auto error = run_cli({"check", "--ignore", "type-mismatch", path});
    CHECK(error.code == 2);
    CHECK(error.err.find(
              "error: --ignore type-mismatch: 'type-mismatch' is an error and cannot be ignored") ==
          0);
    CHECK(run_cli({"check", "--error", "unreachable-rulez", path}).code == 2);
  }

  TEST_CASE(
      "the default rules and the plan rules check clean under --strict with their summary line") {
    const std::string rules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    const auto run = run_cli({"check", "--strict", rules});
    CHECK(run.code == 0);
    CHECK(run.out == rules + ": ok \u2014 15 rules in 4 tables, 0 warnings\n");
    const std::string plan = std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml";
    const auto planned = run_cli({"check", "--strict", plan});
    CHECK(planned.code == 0);
    CHECK(planned.out.find(plan + ": ok \u2014 ") != std::string::npos);
  }

  TEST_CASE("recommend refuses a record that breaks an invariant, with the invariant's message") {
    const std::string path = (kCases / "invariant_boundary.yaml").string();
    const auto broken = run_cli({"recommend", "--rules", path, "--input", "x=8"});
    CHECK(broken.code == 1);
    CHECK(broken.err == "error: mode wide needs a mesh, got mesh_shape=None\n");
    CHECK(broken.out.empty());
    const auto fine = run_cli({"recommend", "--rules", path, "--input", "x=9"});
    CHECK(fine.code == 0);
    CHECK(nlohmann::json::parse(fine.out) ==
          nlohmann::json{{"mode", "wide"}, {"mesh_shape", {9, 2}}});

    const auto rules = snnplan::RuleSet::from_file(path);
    const auto result = rules.evaluate({{"x", snnplan::Value(std::int64_t{8})}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == snnplan::EvaluationErrorKind::rule_error);
    CHECK(result.error().message == "mode wide needs a mesh, got mesh_shape=None");
  }

  TEST_CASE("an invariant the analysis checked only at representatives is still checked on every evaluation") {
    // Loaded with the analysis, which notes that it could not prove 'half-is-small': the
    // evaluator must not skip it (only proved invariants are skipped).
    const auto rules = snnplan::RuleSet::from_file((kCases / "invariant_sampled.yaml").string(),
                                                   snnplan::LoadOptions{.analyse_tables = true});
    REQUIRE(snnplan::RuleSetAccess::compiled(rules).invariants.size() == 1);
    CHECK_FALSE(snnplan::RuleSetAccess::compiled(rules).invariants[0].proved);
    CHECK_FALSE(snnplan::RuleSetAccess::compiled(rules).every_invariant_proved());
    const auto result = rules.evaluate({{"x", snnplan::Value(std::int64_t{24690})}});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "half=12345 is too large");
    CHECK(rules.evaluate({{"x", snnplan::Value(std::int64_t{24692})}}).ok());
  }

  TEST_CASE(
      "the issue's spikformer rule breaks the default table's fsdp2_tp invariant, found with a "
      "witness") {
    const std::string text =
        default_rules_with("  speed:\n",
                           "  speed:\n"
                           "    - name: spikformer-fsdp2-tp\n"
                           "      when: {model_family: spikformer, world_size: {ge: 8}}\n"
                           "      set: {mode: fsdp2_tp, mesh_shape: = fsdp2_tp_mesh}\n"
                           "      because: Spikformer benchmarks.\n");
    const auto found = checked(text);
    REQUIRE(found.size() == 2);
    CHECK(found[0].find("error: invariant 'fsdp2-tp-has-a-2d-mesh' does not hold for ") !=
          std::string::npos);
    CHECK(found[0].find("(rule path: recommend/by-preference-speed -> speed/spikformer-fsdp2-tp) "
                        "[invariant-violated]") != std::string::npos);
    CHECK(found[1].find("failed \u2014 1 error, 0 warnings") != std::string::npos);
  }
}

TEST_SUITE("checker") {
  TEST_CASE("--input of a name the built-in rules do not declare suggests --rules") {
    const auto run = run_cli({"recommend", "--model", "m", "--world-size", "8", "--prefer", "speed",
                              "--batch-size", "64", "--input", "colour=red"});
    CHECK(run.code == 2);
    CHECK(run.err ==
          "error: unknown input 'colour': the built-in rules do not declare it (for another rule "
          "file's inputs, give that "
          "file with --rules FILE)\n");
  }

  TEST_CASE(
      "explain of an input the rules refuse names the input and the rule-file line that refused "
      "it") {
    const auto run = run_cli(
        {"explain", "--model", "m", "--world-size", "8", "--prefer", "fast", "--batch-size", "64"});
    CHECK(run.code == 1);
    CHECK(run.out.find("error: input 'prefer' = 'fast' is not one of the values its one_of allows "
                       "(rules/snn_distributed.yaml:19:13)\n") != std::string::npos);
  }
}

#include "check/dependency_graph.hpp"

TEST_SUITE("checker") {
  TEST_CASE("a cycle is found from the given vertex and its last edge is the one that closes it") {
    // 0 -> 1 -> 2 -> 1, and 3 -> 2: from 0 the cycle is 1 -> 2 -> 1, closed by 2 -> 1.
    const snnplan::check::DependencyGraph graph{4, {{0, 1}, {1, 2}, {2, 1}, {3, 2}}};
    CHECK(snnplan::check::find_cycle(graph, 0) == std::vector<int>{1, 2, 1});
    // From 2 it is reached as 2 -> 1 -> 2, closed by 1 -> 2.
    CHECK(snnplan::check::find_cycle(graph, 2) == std::vector<int>{2, 1, 2});
    CHECK(snnplan::check::find_cycle(snnplan::check::DependencyGraph{3, {{0, 1}, {1, 2}}}, 0)
              .empty());
  }

  TEST_CASE("a table cycle is reported at the next that closes it, with the path from the start") {
    const std::string text =
        "snnplan: 1\n"
        "inputs: {x: {type: int}}\n"
        "record: {mode: {type: string, default: none}}\n"
        "start: b\n"
        "tables:\n"
        "  a:\n"
        "    - {name: ra, next: b}\n"
        "  b:\n"
        "    - {name: rb, when: {x: 1}, next: a}\n"
        "    - {name: rest, set: {mode: m}}\n";
    const auto found = checked(text);
    REQUIRE(found.size() == 2);
    CHECK(found[0] ==
          "7:24: error: tables call each other in a cycle, which could loop forever: b -> a -> b "
          "[table-cycle]");
  }

  TEST_CASE("the overlap notes are not among the findings unless asked for") {
    const std::string path = (kCases / "overlaps.yaml").string();
    const auto plain = snnplan::RuleSet::from_file(path, {.analyse_tables = true});
    const auto asked =
        snnplan::RuleSet::from_file(path, {.analyse_tables = true, .report_overlaps = true});
    auto overlaps = [](const snnplan::RuleSet& rules) {
      return std::count_if(rules.warnings().begin(), rules.warnings().end(),
                           [](const snnplan::Diagnostic& d) { return d.code == "overlapping-rule"; });
    };
    CHECK(overlaps(plain) == 0);
    CHECK(overlaps(asked) == 1);
  }
}

TEST_SUITE("checker") {
  TEST_CASE("--overlaps notes the default rules partly covered by earlier ones and --strict passes") {
    const std::string rules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    const auto run = run_cli({"check", "--strict", "--overlaps", rules});
    CHECK(run.code == 0);
    std::vector<std::string> notes;
    for (const std::string& line : lines_of(run.out))
      if (line.find("[overlapping-rule]") != std::string::npos) notes.push_back(line);
    CHECK(notes.size() == 8);
    CHECK(std::find(notes.begin(), notes.end(),
                    rules +
                        ":95:13: note: rule 'tensor-parallel' partly overlaps earlier rule "
                        "'fsdp2-tp': for world_size=4, fsdp2_available=true, "
                        "tensor_parallel_available=true it matches, but 'fsdp2-tp' fires first "
                        "[overlapping-rule]") != notes.end());
    CHECK(run.out.find(rules + ": ok \u2014 15 rules in 4 tables, 0 warnings\n") !=
          std::string::npos);
  }
}

TEST_SUITE("checker") {
  // The soundness campaign's class "table calls nest deeper than 32 levels" (docs/soundness.md):
  // a mutant's syntax tree had two tables of one name, which no file can have (the loader
  // refuses the repeated key), and the compiler's index of tables, which assumes one table a
  // name, sent a call to the wrong table: a cycle the check never saw.
  TEST_CASE("two tables of one name in a syntax tree are a duplicate-name error of the check") {
    snnplan::load::LoadedFile loaded = snnplan::load::load_rule_file(
        "snnplan: 1\ninputs: {x: {type: int}}\nrecord: {f: {type: int, default: 0}}\nstart: a\n"
        "tables:\n  a: [{name: to-b, next: b}]\n  b: [{name: done, because: ok}]\n  c: [{name: to-a, next: a}]\n",
        "f.yaml");
    REQUIRE(loaded.diagnostics.empty());
    REQUIRE(loaded.file.tables.size() == 3);
    loaded.file.tables[2].name.value = "b";
    const std::vector<snnplan::Diagnostic> found = snnplan::check::check_rule_file(loaded.file);
    const auto duplicate = std::find_if(found.begin(), found.end(), [](const snnplan::Diagnostic& d) {
      return d.code == "duplicate-name";
    });
    REQUIRE(duplicate != found.end());
    CHECK(duplicate->severity == snnplan::Severity::error);
    CHECK(duplicate->location.line == 8);
    CHECK(duplicate->message == "duplicate table 'b' (first declared at f.yaml:7:3)");
  }
}
