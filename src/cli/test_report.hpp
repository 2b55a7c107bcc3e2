#pragma once
// `snnplan test --format text|json|junit`: a rule-test report for people, for programs and for
// CI systems that read JUnit XML (GitLab, Jenkins, GitHub test reporters). The three carry the
// same facts: every case with its position and its differences, and the rule coverage.

#include <string>
#include <string_view>
#include <vector>

#include "cli/rule_tests.hpp"

namespace snnplan::cli {

/// The report formats, in the order `--format` lists them (the first is the default).
std::vector<std::string> test_report_formats();

/// FAIL blocks, the summary line and the rules no test fired; `show_coverage` adds the
/// per-rule counts.
std::string text_test_report(const RuleTestReport& report, bool show_coverage);
/// {"passed", "failed", "tests": [{"name", "file", "line", "column", "passed", "problems"}],
///  "coverage": {"percent", "rules": [{"table", "rule", "cases"}]}}, indented by two.
std::string json_test_report(const RuleTestReport& report);
/// One <testsuite> named after the rule file; one <testcase> per case, a failed one with a
/// <failure> holding its differences.
std::string junit_test_report(const RuleTestReport& report, std::string_view rules_name);

}  // namespace snnplan::cli
