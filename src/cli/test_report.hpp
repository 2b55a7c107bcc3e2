#pragma once
// `snnplan test --format text|json|junit`: a rule-test report for people, for programs and for
// CI systems that read JUnit XML (GitLab, Jenkins, GitHub test reporters). The three carry the
// same facts: every case with its position and its differences, and the rule coverage.

#include <string>
#include <string_view>
#include <vector>

#include "cli/mutation_tests.hpp"
#include "cli/rule_tests.hpp"

namespace snnplan::cli {

/// The report formats, in the order `--format` lists them (the first is the default).
std::vector<std::string> test_report_formats();

/// FAIL blocks, the summary line (rule, condition and boundary coverage) and the rules no
/// test fired; `show_coverage` adds the per-rule counts and what is not covered, per rule,
/// with the inputs that would cover it.
std::string text_test_report(const RuleTestReport& report, bool show_coverage);
/// {"passed", "failed",
///  "tests": [{"name", "file", "line", "column", "tags", "passed",
///             "differences": [{"what", "expected", "got"}]}],
///  "coverage": {"percent" (rule coverage), "rule"|"condition"|"boundary": {"percent",
///               "covered", "total"}, "rules": [{"table", "rule", "cases"}],
///               "missing": [{"kind", "owner", "what", "file", "line", "column", "input"}]}},
/// indented by two.
/// With `mutation` (test --mutate), also "mutation": {"mutants", "killed", "survived",
/// "equivalent", "score", "seconds", "threads", "results": [{"operator", "owner",
/// "description", "file", "line", "column", "status", "killed_by", "input"}]}.
std::string json_test_report(const RuleTestReport& report,
                             const MutationReport* mutation = nullptr);
/// The mutation summary line, the surviving mutants with an input that tells each apart from
/// the original (the test to add), and the equivalent ones.
std::string text_mutation_report(const MutationReport& report);
/// One <testsuite> named after the rule file; one <testcase> per case, a failed one with a
/// <failure> holding its differences.
std::string junit_test_report(const RuleTestReport& report, std::string_view rules_name,
                              const MutationReport* mutation = nullptr);

}  // namespace snnplan::cli
