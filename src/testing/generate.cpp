// `snnplan test --generate`: a starter test file from the regions of the decision and the
// coverage goals they leave uncovered (testing/rule_tests.hpp).
#include <algorithm>

#include "analyse/coverage.hpp"
#include "api/rule_set_access.hpp"
#include "testing/messages.hpp"
#include "render/flow_yaml.hpp"
#include "snnplan/explain.hpp"
#include "testing/rule_tests.hpp"

namespace snnplan::testing {
namespace {

// One test of a generated file: `inputs` and what the rules answer for them.
std::string generated_test(const RuleSet& rules, const std::string& name, const Inputs& inputs) {
  const Explanation explanation = rules.explain(inputs);
  std::string out = "  - name: " + render::flow_yaml(Value(name)) + "\n";
  out += "    input: " + flow_inputs(inputs) + "\n";
  const std::vector<std::string> path = fired_rule_path(explanation.steps);
  if (!explanation.result.ok())
    return out +
           "    expect_error: " + render::flow_yaml(Value(explanation.result.error().message)) +
           "\n";
  if (!path.empty()) out += "    expect_rules: " + rule_list(path) + "\n";
  out += "    exact: true\n    expect:\n";
  const Record& record = explanation.result.record();
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    const Value& v = record.values()[k];
    const bool lines = v.is_list() && !v.as_list().empty() &&
                       std::any_of(v.as_list().begin(), v.as_list().end(),
                                   [](const Value& i) { return i.is_string(); });
    if (!lines) {
      out += "      " + record.names()[k] + ": " + render::flow_yaml(v) + "\n";
      continue;
    }
    out += "      " + record.names()[k] + ":\n";  // a list of text (the rationale), a line each
    for (const Value& item : v.as_list()) out += "        - " + render::flow_yaml(item) + "\n";
  }
  return out;
}

}  // namespace

std::optional<std::string> generated_tests(const RuleSet& rules, const std::string& rules_name,
                                           bool boundaries, std::string& why) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  std::vector<analyse::RegionWitness> regions;
  if (!analyse::decision_regions(compiled, regions, why)) return std::nullopt;
  analyse::CoverageTracker tracker(compiled);
  if (!tracker.find_witnesses(why)) return std::nullopt;
  // The installed `snnplan schema tests` (cmake/install-rules.cmake), where editors find it.
  std::string out = messages::yaml_schema_comment(SNNPLAN_INSTALLED_SCHEMA_DIR "/tests.schema.json") +
                    messages::generated_header(rules_name, boundaries) + "tests:\n";
  std::vector<Inputs> chosen;
  auto add = [&](const std::string& name, const Inputs& inputs) {
    if (std::find(chosen.begin(), chosen.end(), inputs) != chosen.end()) return;
    chosen.push_back(inputs);
    tracker.record(inputs, rules.explain(inputs).steps);
    out += generated_test(rules, name, inputs);
  };
  for (std::size_t k = 0; k < regions.size(); ++k) {
    const analyse::Region& region = regions[k].region;
    std::string path;
    for (const std::string& rule : region.path) path += (path.empty() ? "" : " > ") + rule;
    if (region.error) path += (path.empty() ? "" : " > ") + std::string("error");
    add(messages::generated_name(k + 1, path), regions[k].witness);
  }
  // What the regions leave uncovered, at the witnesses the tracker found before any test.
  std::vector<analyse::GoalKind> kinds = {analyse::GoalKind::rule, analyse::GoalKind::condition};
  if (boundaries) kinds.push_back(analyse::GoalKind::boundary);
  kinds.push_back(analyse::GoalKind::search);
  for (const analyse::GoalKind kind : kinds) {
    const std::size_t count = tracker.coverage().goals.size();
    for (std::size_t g = 0; g < count; ++g) {
      const analyse::Goal goal = tracker.coverage().goals[g];
      if (goal.kind != kind || goal.cases > 0 || !goal.witness) continue;
      add(messages::generated_goal_name(analyse::to_string(kind), goal.owner, goal.what),
          *goal.witness);
    }
  }
  // Said in the file, where the reviewer reads it: what the tests do not cover after all.
  std::string missing;
  for (const analyse::GoalKind kind : kinds)
    for (const analyse::Goal& goal : tracker.coverage().goals)
      if (goal.kind == kind && goal.cases == 0 && !goal.unreachable)
        missing += messages::generated_not_covered(
            messages::generated_goal_name(analyse::to_string(kind), goal.owner, goal.what));
  if (!missing.empty()) {
    const std::size_t tests_at = out.find("tests:\n");
    out.insert(tests_at, messages::generated_not_covered_heading() + missing);
  }
  return out;
}

}  // namespace snnplan::testing
