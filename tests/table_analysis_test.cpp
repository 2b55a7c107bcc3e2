// The static analysis of tables: shadowed rules, gaps, and notes where it cannot decide.
//
// tests/data/analysis/<case>.yaml sits beside <case>.expected, which holds the analysis'
// diagnostics (codes shadowed-rule, table-gap, analysis-incomplete) formatted by
// snnplan::format, one per line, in source order; an empty file means "none". To add a case,
// write the .yaml, run `snnplan check <case>.yaml` from that directory, check every finding
// by hand, and save the first line of each (without the source excerpt) as <case>.expected.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golden_cases.hpp"
#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::testing::default_rules_with;
using snnplan::testing::read_text;

const fs::path kCases = fs::path(SNNPLAN_TEST_DATA) / "analysis";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  return lines;
}

bool from_analysis(const snnplan::Diagnostic& d) {
  return d.code == "shadowed-rule" || d.code == "table-gap" || d.code == "analysis-incomplete";
}

// The analysis' diagnostics for a rule file that loads, formatted, in source order.
std::vector<std::string> analysis_of(const std::string& text, const std::string& file_name = "test.yaml") {
  std::vector<std::string> out;
  try {
    const snnplan::RuleSet rules = snnplan::RuleSet::from_string(text, file_name, {.analyse_tables = true});
    for (const snnplan::Diagnostic& d : rules.warnings())
      if (from_analysis(d)) out.push_back(snnplan::format(d));
  } catch (const snnplan::LoadError& e) {
    std::string all;
    for (const snnplan::Diagnostic& d : e.diagnostics()) all += snnplan::format(d) + "\n";
    FAIL("the rule file does not load:\n" << all);
  }
  return out;
}

// Checks tests/data/analysis/<name>.yaml against <name>.expected.
void check_case(const std::string& name) {
  CAPTURE(name);
  const std::vector<std::string> expected = lines_of(read_text(kCases / (name + ".expected")));
  const std::vector<std::string> actual = analysis_of(read_text(kCases / (name + ".yaml")), name + ".yaml");
  CHECK(actual == expected);
}

// A small rule file around one table `main` (no catch-all unless the rules give one).
std::string one_table(const std::string& inputs, const std::string& rules, const std::string& lets = "") {
  return "snnplan: 1\ninputs:\n" + inputs + (lets.empty() ? "" : "let:\n" + lets) +
         "record:\n  out: {type: string, default: none}\nstart: main\ntables:\n  main:\n" + rules;
}

}  // namespace

TEST_SUITE("table analysis") {
  TEST_CASE("every analysis case has an expected file and every expected file has its case") {
    snnplan::testing::check_cases_are_paired(kCases, 12);
  }

  TEST_CASE("every analysis case produces exactly its expected diagnostics") {
    for (const std::string& name : snnplan::testing::case_names(kCases)) check_case(name);
  }

  TEST_CASE("a rule covered by one earlier rule is reported as shadowed by it") {
    check_case("shadowed_by_one");
  }

  TEST_CASE("a rule covered only by the union of two earlier rules is reported as shadowed by both") {
    check_case("shadowed_by_union");
  }

  TEST_CASE("a rule that fires only at one integer boundary is not reported as shadowed") {
    check_case("not_shadowed_boundary");
    CHECK(analysis_of(read_text(kCases / "not_shadowed_boundary.yaml")).empty());
  }

  TEST_CASE("a gap at one integer boundary is reported with that value as the witness") {
    check_case("gap_at_boundary");
  }

  TEST_CASE("a gap exposed only by a combination of two booleans is reported") {
    check_case("gap_two_bools");
  }

  TEST_CASE("a table entered through next is only checked on the inputs that reach it") {
    check_case("gap_excluded_by_caller");
    CHECK(analysis_of(read_text(kCases / "gap_excluded_by_caller.yaml")).empty());
    // The same sub-table with x = 0 uncovered: now a real gap, with a reachable witness.
    std::string text = read_text(kCases / "gap_excluded_by_caller.yaml");
    const std::string zero = "    - name: zero\n      when: {x: 0}\n      set: {out: zero}\n";
    REQUIRE(text.find(zero) != std::string::npos);
    text.erase(text.find(zero), zero.size());
    const auto found = analysis_of(text);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("warning: table 'positive' has a gap: no rule matches x=0") != std::string::npos);
  }

  TEST_CASE("a condition outside the supported subset gives a note instead of a guess") {
    check_case("unsupported_condition");
  }

  TEST_CASE("try's value is followed by the analysis, so a gap behind it has its witness") {
    check_case("try_follows_both_values");
  }

  TEST_CASE("a gap and a shadowed rule that depend on a list input's items and their order are found with a list as witness") {
    check_case("list_membership");
    const auto found = analysis_of(read_text(kCases / "list_membership.yaml"));
    REQUIRE(found.size() == 2);
    CHECK(found[0].find("warning: table 'main' has a gap: no rule matches dims=['tp', 'dp']") !=
          std::string::npos);
    CHECK(found[1].find("'dp-leads'") != std::string::npos);
    // A list compared with an int input is beyond the representatives: a note, not a guess.
    const auto beyond =
        analysis_of(one_table("  dims: {type: \"list[string]\"}\n  n: {type: int}\n",
                              "    - name: far\n      when: {far: true}\n      set: {out: far}\n"
                              "    - name: near\n      when: {far: false}\n      set: {out: near}\n"
                              "    - name: rest\n      set: {out: rest}\n",
                              "  far: \"index_of(dims, 'tp') == n\"\n"));
    REQUIRE(beyond.size() == 1);
    CHECK(beyond[0].find("note: table 'main' not fully analysed: input 'dims' is a list") !=
          std::string::npos);
  }

  TEST_CASE("the default rules produce no analysis diagnostics") {
    // The RuleSet must outlive the loop: warnings() refers into it (a temporary in the range
    // expression would be destroyed before the first iteration; ASan caught that).
    const auto rules = snnplan::RuleSet::from_string(snnplan::RuleSet::builtin_text(), "rules/snn_distributed.yaml", {.analyse_tables = true});
    for (const snnplan::Diagnostic& d : rules.warnings()) {
      CAPTURE(snnplan::format(d));
      CHECK_FALSE(from_analysis(d));
    }
    const std::string path = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    CHECK(analysis_of(read_text(path), path).empty());
  }

  TEST_CASE("the default recommend table's three preference rules cover prefer's one_of domain") {
    CHECK(analysis_of(std::string(snnplan::RuleSet::builtin_text())).empty());
    const std::string without_capacity = default_rules_with(
        "    - name: by-preference-capacity\n      when: {prefer: capacity}\n      next: capacity\n", "");
    const auto found = analysis_of(without_capacity);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "test.yaml:58:3: warning: table 'recommend' has a gap: no rule matches world_size=2, prefer='capacity'");
  }

  TEST_CASE("a gap of the default memory table is found through its callers once its catch-all is gone") {
    const std::string text = default_rules_with(
        "    - name: data-parallel-memopt\n"
        "      set: {mode: dp, optimizer_sharding: = zero_sharding, memopt_level: 1, dp_mesh_dim: 0}\n"
        "      because: Fall back to DP + memopt level 1 because TP/FSDP2 are unavailable.\n",
        "");
    const auto found = analysis_of(text);
    REQUIRE(found.size() == 1);
    CHECK(found[0] ==
          "test.yaml:90:3: warning: table 'memory' has a gap: no rule matches world_size=2, fsdp2_available=false, "
          "tensor_parallel_available=false");
  }

  TEST_CASE("conditions relating two integer inputs are decided exactly") {
    check_case("related_integers");
  }

  TEST_CASE("modulo conditions are decided per residue class") {
    check_case("residues");
  }

  TEST_CASE("string conditions through lets, starts_with and lower are decided exactly") {
    check_case("string_prefixes");
  }

  TEST_CASE("a fallback's with values fix the inputs its table sees and an expression value is not modelled") {
    check_case("fallback_overrides");
  }

  TEST_CASE("a gap reachable only through a fallback override is reported with the overridden value") {
    const std::string text = one_table(
        "  mode: {type: string, one_of: [speed, memory]}\n  fast: {type: bool}\n",
        "    - name: fast-memory\n      when: {mode: memory, fast: true}\n      next: memory\n"
        "    - name: slow\n      when: {fast: false}\n      fallback: {table: memory, with: {mode: memory}}\n"
        "    - name: rest\n      set: {out: rest}\n"
        "  memory:\n    - name: memory-fast\n      when: {fast: true}\n      set: {out: fast}\n");
    const auto found = analysis_of(text);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "test.yaml:18:3: warning: table 'memory' has a gap: no rule matches fast=false");
  }

  TEST_CASE("a fallback overriding an integer its caller tests still proves a gap when a caller value reaches it") {
    // 'small' fires for every x < 0 and hands 'sub' x = 2, t = q, which no rule of 'sub' matches.
    const std::string text = one_table(
        "  x: {type: int}\n  t: {type: string, one_of: [p, q]}\n",
        "    - name: small\n      when: {x: {lt: 0}}\n      fallback: {table: sub, with: {x: 2, t: q}}\n"
        "    - name: rest\n      set: {out: rest}\n"
        "  sub:\n    - name: only-p\n      when: {t: p}\n      set: {out: p}\n");
    const auto found = analysis_of(text);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "test.yaml:15:3: warning: table 'sub' has a gap: no rule matches t='q'");
  }

  TEST_CASE("a condition that fails to evaluate for some inputs gives a note instead of a warning") {
    check_case("failing_condition");
  }

  TEST_CASE("a fallback's with value is computed by the evaluator, builtins included") {
    // The fallback enters 'second' with y = index_of([5, 7], 7) = 1, where no rule of 'second'
    // matches: a gap the analysis finds only by evaluating the builtin as `recommend` does.
    const std::string text =
        "snnplan: 1\ninputs:\n  x: {type: int}\n  y: {type: int, default: 0}\n"
        "record:\n  out: {type: string, default: none}\nstart: main\ntables:\n"
        "  main:\n    - name: away\n      when: {x: {ge: 1}}\n"
        "      fallback: {table: second, with: {y: \"= index_of([5, 7], 7)\"}}\n"
        "    - name: rest\n      set: {out: rest}\n"
        "  second:\n    - name: zero\n      when: {y: 0}\n      set: {out: zero}\n";
    const auto found = analysis_of(text);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "test.yaml:15:3: warning: table 'second' has a gap: no rule matches y=1");
  }

  TEST_CASE("a rule no input satisfies is reported as never firing") {
    const auto found = analysis_of(one_table("  x: {type: int}\n",
                                             "    - name: empty-range\n      when: {x: {gt: 5, lt: 3}}\n      set: {out: a}\n"
                                             "    - name: rest\n      set: {out: b}\n"));
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "test.yaml:9:13: warning: rule 'empty-range' can never fire: no input satisfies all of its conditions");
  }

  TEST_CASE("rules after a catch-all are left to the checker's unreachable-rule warning") {
    const snnplan::RuleSet rules = snnplan::RuleSet::from_string(
        one_table("  x: {type: int}\n", "    - name: all\n      set: {out: a}\n    - name: never\n      when: {x: 1}\n      set: {out: b}\n"),
        "test.yaml", {.analyse_tables = true});
    std::vector<std::string> codes;
    for (const snnplan::Diagnostic& d : rules.warnings()) codes.push_back(d.code);
    CHECK(codes == std::vector<std::string>{"unreachable-rule"});
  }

  TEST_CASE("integer boundaries at the ends of the 64-bit range are not mistaken for shadowing") {
    // x > max - 1 holds only for the largest int64, which no earlier rule matches.
    const auto found = analysis_of(one_table(
        "  x: {type: int}\n",
        "    - name: small\n      when: {x: {lt: 9223372036854775806}}\n      set: {out: a}\n"
        "    - name: next-to-last\n      when: {x: 9223372036854775806}\n      set: {out: b}\n"
        "    - name: largest\n      when: {x: {gt: 9223372036854775806}}\n      set: {out: c}\n"));
    CHECK(found.empty());
  }

  TEST_CASE("more combinations than the analysis enumerates give a note") {
    // One condition reads a derived value, so the rules are not boxes (which would decide
    // them: analyse/boxes.hpp) and the grid is what enumerates.
    std::string inputs, rules;
    for (int k = 0; k < 20; ++k) {
      inputs += "  b" + std::to_string(k) + ": {type: bool}\n";
      rules += "    - name: r" + std::to_string(k) + "\n      when: {" + (k == 0 ? "c" : "b") +
               std::to_string(k) + ": true}\n      set: {out: a}\n";
    }
    const auto found = analysis_of(one_table(inputs, rules, "  c0: \"b0\"\n"));
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("note: table 'main' not fully analysed: its conditions depend on more than 200000 combinations") !=
          std::string::npos);
  }

  TEST_CASE("conditions relating three integer inputs give a note naming them") {
    const auto found = analysis_of(one_table("  x: {type: int}\n  y: {type: int}\n  z: {type: int}\n",
                                             "    - name: sum\n      when: {x: {gt: = y + z}}\n      set: {out: a}\n"
                                             "    - name: rest\n      set: {out: b}\n"));
    REQUIRE(found.size() == 1);
    CHECK(found[0] ==
          "test.yaml:12:24: note: table 'main' not fully analysed: the condition relates more than two integer inputs "
          "('x', 'y' and 'z'); shadowed rules and gaps may go unreported");
  }
}
