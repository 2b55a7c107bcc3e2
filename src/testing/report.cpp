#include "testing/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "testing/messages.hpp"
#include "render/json.hpp"
#include "render/xml.hpp"
#include "render/flow_yaml.hpp"
#include "testing/rule_tests.hpp"

namespace snnplan::testing {
namespace {

using render::xml_escaped;  // one XML escaping, shared with the map (render/xml)

// "FAIL name (file:line:column)" and each difference.
std::string failure_text(const TestOutcome& result) {
  std::string text = messages::test_failed(result.name, to_string(result.location));
  for (const TestDifference& difference : result.differences) text += "\n  " + describe(difference);
  return text;
}

bool has_search_goals(const TestCoverage& coverage) {
  return std::any_of(coverage.goals.begin(), coverage.goals.end(),
                     [](const CoverageGoal& goal) { return goal.kind == CoverageKind::search; });
}

std::string summary(const RuleTestReport& report) {
  std::string out = fmt::format("{} passed, {} failed", report.passed, report.failed);
  const char* separator = "; ";
  for (const CoverageKind kind : kCoverageKinds) {
    // Search goals only where there is a search: other files' summaries read as before.
    if (kind == CoverageKind::search && !has_search_goals(report.coverage)) continue;
    out += fmt::format("{}{} coverage {:.1f}% ({} of {}", separator, to_string(kind),
                       report.coverage.percent(kind), report.coverage.covered(kind),
                       report.coverage.total(kind));
    if (const std::size_t unreachable = report.coverage.unreachable(kind))
      out += fmt::format("; {} unreachable", unreachable);
    out += ')';
    separator = ", ";
  }
  return out;
}

}  // namespace

std::vector<std::string> test_report_formats() {
  return {"text", "json", "junit"};
}

std::string text_test_report(const RuleTestReport& report, bool show_coverage) {
  std::string out;
  for (const TestOutcome& result : report.tests) {
    if (!result.passed()) out += failure_text(result) + '\n';
  }
  const auto& goals = report.coverage.goals;
  std::vector<std::string> uncovered;
  std::size_t width = 0;
  for (const CoverageGoal& goal : goals) {
    if (goal.kind != CoverageKind::rule) continue;
    if (goal.cases == 0) uncovered.push_back(goal.owner);
    width = std::max(width, goal.owner.size());
  }
  if (show_coverage) {
    out += "rule coverage:\n";
    for (const CoverageGoal& goal : goals)
      if (goal.kind == CoverageKind::rule)
        out += fmt::format("  {:<{}}  {} case{}\n", goal.owner, width, goal.cases,
                           goal.cases == 1 ? "" : "s");
    // What is missing, grouped by the rule (or let value) it belongs to, in goal order; then
    // what no input can cover.
    for (const bool unreachable : {false, true}) {
      std::vector<std::string> owners;
      for (const CoverageGoal& goal : goals)
        if (goal.cases == 0 && goal.kind != CoverageKind::rule &&
            goal.unreachable == unreachable &&
            std::find(owners.begin(), owners.end(), goal.owner) == owners.end())
          owners.push_back(goal.owner);
      if (!owners.empty())
        out += unreachable ? messages::coverage_unreachable_heading() : "not covered:\n";
      for (const std::string& owner : owners) {
        out += "  " + owner + "\n";
        for (const CoverageGoal& goal : goals) {
          if (goal.cases > 0 || goal.owner != owner || goal.kind == CoverageKind::rule ||
              goal.unreachable != unreachable)
            continue;
          out += fmt::format("    {}: {} ({})\n", to_string(goal.kind), goal.what,
                             to_string(goal.location));
          if (goal.witness) out += "      covered by input: " + flow_inputs(*goal.witness) + "\n";
        }
      }
      if (!unreachable && !owners.empty() && !report.coverage.witnesses_missing.empty())
        out += messages::coverage_no_witnesses(report.coverage.witnesses_missing) + "\n";
    }
  }
  out += summary(report) + "\n";
  if (!uncovered.empty()) {
    out += "rules no test fired:";
    for (const std::string& name : uncovered) out += ' ' + name;
    out += '\n';
  }
  return out;
}

std::string mutation_summary(const MutationResults& m) {
  return messages::mutation_summary(m.mutants.size(), m.killed, m.survived, m.equivalent, m.score(),
                                    m.seconds, m.threads);
}

std::string text_mutation_report(const MutationResults& report) {
  std::string out;
  for (const auto status : {MutantStatus::survived, MutantStatus::equivalent}) {
    bool heading = false;
    for (const MutantOutcome& m : report.mutants) {
      if (m.status != status) continue;
      if (!heading)
        out += status == MutantStatus::survived ? messages::mutation_survivors_heading()
                                                         : messages::mutation_equivalent_heading();
      heading = true;
      out += fmt::format("  {} {} ({}): {}\n", m.mutation, m.owner,
                         to_string(m.location), m.description);
      if (m.distinguishing) out += "    killed by input: " + flow_inputs(*m.distinguishing) + "\n";
    }
  }
  return out + mutation_summary(report) + "\n";
}

}  // namespace snnplan::testing

namespace snnplan {

std::string to_json(const RuleTestReport& report) {
  using json = nlohmann::ordered_json;
  json tests = json::array();
  for (const TestOutcome& result : report.tests) {
    json differences = json::array();
    for (const TestDifference& d : result.differences)
      differences.push_back(json{{"what", d.what}, {"expected", d.expected}, {"got", d.got}});
    tests.push_back(json{{"name", result.name},
                         {"file", result.location.file},
                         {"line", result.location.line},
                         {"column", result.location.column},
                         {"tags", result.tags},
                         {"passed", result.passed()},
                         {"differences", std::move(differences)}});
  }
  json coverage = json::object();
  coverage["percent"] = report.coverage.percent(CoverageKind::rule);
  for (const CoverageKind kind : kCoverageKinds)
    coverage[to_string(kind)] = json{{"percent", report.coverage.percent(kind)},
                                              {"covered", report.coverage.covered(kind)},
                                              {"total", report.coverage.total(kind)},
                                              {"unreachable", report.coverage.unreachable(kind)}};
  json rules = json::array();
  json missing = json::array();
  for (const CoverageGoal& goal : report.coverage.goals) {
    if (goal.kind == CoverageKind::rule) {
      const auto slash = goal.owner.find('/');
      rules.push_back(json{{"table", goal.owner.substr(0, slash)},
                           {"rule", goal.owner.substr(slash + 1)},
                           {"cases", goal.cases}});
    }
    if (goal.cases > 0) continue;
    json input = nullptr;
    if (goal.witness) {
      input = json::object();
      for (const auto& [name, value] : *goal.witness) input[name] = render::to_json(value);
    }
    missing.push_back(json{{"kind", to_string(goal.kind)},
                           {"owner", goal.owner},
                           {"what", goal.what},
                           {"file", goal.location.file},
                           {"line", goal.location.line},
                           {"column", goal.location.column},
                           {"unreachable", goal.unreachable},
                           {"input", std::move(input)}});
  }
  coverage["rules"] = std::move(rules);
  coverage["missing"] = std::move(missing);
  json out = {{"passed", report.passed},
              {"failed", report.failed},
              {"tests", std::move(tests)},
              {"coverage", std::move(coverage)}};
  if (const auto& mutation = report.mutation) {
    json results = json::array();
    for (const MutantOutcome& m : mutation->mutants) {
      json input = nullptr;
      if (m.distinguishing) {
        input = json::object();
        for (const auto& [name, value] : *m.distinguishing) input[name] = render::to_json(value);
      }
      results.push_back(json{{"operator", m.mutation},
                             {"owner", m.owner},
                             {"description", m.description},
                             {"file", m.location.file},
                             {"line", m.location.line},
                             {"column", m.location.column},
                             {"status", to_string(m.status)},
                             {"killed_by", m.killed_by},
                             {"input", std::move(input)}});
    }
    out["mutation"] =
        json{{"mutants", mutation->mutants.size()}, {"killed", mutation->killed},
             {"survived", mutation->survived},      {"equivalent", mutation->equivalent},
             {"score", mutation->score()},          {"seconds", mutation->seconds},
             {"threads", mutation->threads},        {"results", std::move(results)}};
  }
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace snnplan

namespace snnplan::testing {

std::string junit_test_report(const RuleTestReport& report, std::string_view rules_name) {
  const std::string suite = xml_escaped(rules_name);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"snnplan test\" tests=\"{}\" failures=\"{}\">\n",
                     report.tests.size(), report.failed);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n", suite,
      report.tests.size(), report.failed);
  for (const TestOutcome& result : report.tests) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\"",
                       render::xml_escaped(result.name), suite,
                       render::xml_escaped(result.location.file), result.location.line);
    if (result.passed()) {
      out += "/>\n";
      continue;
    }
    out += fmt::format(
        ">\n      <failure message=\"{}\" type=\"rule-test\">{}</failure>\n    </testcase>\n",
        xml_escaped(describe(result.differences.front())), xml_escaped(failure_text(result)));
  }
  std::string facts = summary(report);
  if (report.mutation) facts += "\n" + text_mutation_report(*report.mutation);
  out += fmt::format("    <system-out>{}</system-out>\n", xml_escaped(facts));
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace snnplan::testing
