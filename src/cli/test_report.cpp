#include "cli/test_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "render/xml.hpp"

namespace snnplan::cli {
namespace {

std::string rule_name(const std::pair<std::string, std::string>& rule) {
  return rule.first + "/" + rule.second;
}

// "FAIL name (file:line:column)" and a line per difference.
std::string failure_text(const RuleTestResult& result) {
  std::string text = messages::test_failed(result.name, to_string(result.location));
  for (const std::string& problem : result.problems) text += "\n  " + problem;
  return text;
}

}  // namespace

std::vector<std::string> test_report_formats() {
  return {"text", "json", "junit"};
}

std::string text_test_report(const RuleTestReport& report, bool show_coverage) {
  std::string out;
  for (const RuleTestResult& result : report.results) {
    if (!result.passed()) out += failure_text(result) + '\n';
  }
  std::vector<std::string> uncovered;
  std::size_t width = 0;
  for (const auto& [rule, count] : report.coverage) {
    if (count == 0) uncovered.push_back(rule_name(rule));
    width = std::max(width, rule_name(rule).size());
  }
  if (show_coverage) {
    out += "rule coverage:\n";
    for (const auto& [rule, count] : report.coverage)
      out += fmt::format("  {:<{}}  {} case{}\n", rule_name(rule), width, count,
                         count == 1 ? "" : "s");
  }
  out += fmt::format("{} passed, {} failed; rule coverage {:.1f}% ({} of {} rules)\n",
                     report.passed, report.failed, report.coverage_percent(),
                     report.coverage.size() - uncovered.size(), report.coverage.size());
  if (!uncovered.empty()) {
    out += "rules no test fired:";
    for (const std::string& name : uncovered) out += ' ' + name;
    out += '\n';
  }
  return out;
}

std::string json_test_report(const RuleTestReport& report) {
  using json = nlohmann::ordered_json;
  json tests = json::array();
  for (const RuleTestResult& result : report.results)
    tests.push_back(json{{"name", result.name},
                         {"file", result.location.file},
                         {"line", result.location.line},
                         {"column", result.location.column},
                         {"passed", result.passed()},
                         {"problems", result.problems}});
  json rules = json::array();
  for (const auto& [rule, count] : report.coverage)
    rules.push_back(json{{"table", rule.first}, {"rule", rule.second}, {"cases", count}});
  const json out = {
      {"passed", report.passed},
      {"failed", report.failed},
      {"tests", std::move(tests)},
      {"coverage", {{"percent", report.coverage_percent()}, {"rules", std::move(rules)}}}};
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string junit_test_report(const RuleTestReport& report, std::string_view rules_name) {
  const std::string suite = render::xml_escaped(rules_name);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"snnplan test\" tests=\"{}\" failures=\"{}\">\n",
                     report.results.size(), report.failed);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n", suite,
      report.results.size(), report.failed);
  for (const RuleTestResult& result : report.results) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\"",
                       render::xml_escaped(result.name), suite,
                       render::xml_escaped(result.location.file), result.location.line);
    if (result.passed()) {
      out += "/>\n";
      continue;
    }
    out += fmt::format(
        ">\n      <failure message=\"{}\" type=\"rule-test\">{}</failure>\n    </testcase>\n",
        render::xml_escaped(result.problems.front()), render::xml_escaped(failure_text(result)));
  }
  out += fmt::format(
      "    <system-out>{}</system-out>\n",
      render::xml_escaped(fmt::format("rule coverage {:.1f}%", report.coverage_percent())));
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace snnplan::cli
