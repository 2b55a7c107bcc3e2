#pragma once
// A rule-test report for people and for CI systems that read JUnit XML (GitLab, Jenkins,
// GitHub test reporters); its JSON form, for programs, is snnplan::to_json(RuleTestReport)
// (include/snnplan/rule_tests.hpp). The three carry the same facts: every case with its
// position and its differences, and the coverage. `snnplan test --format text|json|junit`
// and the C API write them.

#include <string>
#include <string_view>
#include <vector>

#include "snnplan/rule_tests.hpp"

namespace snnplan::testing {

/// The report formats, in the order `--format` lists them (the first is the default).
std::vector<std::string> test_report_formats();

/// FAIL blocks, the summary line (rule, condition, boundary and search coverage) and the rules no
/// test fired; `show_coverage` adds the per-rule counts and what is not covered, per rule,
/// with the inputs that would cover it. The mutation results are text_mutation_report's.
std::string text_test_report(const RuleTestReport& report, bool show_coverage);
/// The mutation summary line, the surviving mutants with an input that tells each apart from
/// the original (the test to add), and the equivalent ones.
std::string text_mutation_report(const MutationResults& report);
/// One <testsuite> named after the rule file; one <testcase> per case, a failed one with a
/// <failure> holding its differences; the summary (and mutation results) in <system-out>.
std::string junit_test_report(const RuleTestReport& report, std::string_view rules_name);

}  // namespace snnplan::testing
