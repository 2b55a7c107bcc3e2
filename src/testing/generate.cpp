// `snnplan test --generate`: a starter test file from the regions of the decision and the
// coverage goals they leave uncovered, or, where the regions cannot be enumerated (a search),
// from a corpus and a sample drawn around it (testing/rule_tests.hpp).
#include <algorithm>
#include <set>

#include "analyse/coverage.hpp"
#include "analyse/sampling.hpp"
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

// The tests of a file being generated: each input once, each recorded for coverage.
class GeneratedFile {
 public:
  GeneratedFile(const RuleSet& rules, const detail::CompiledRules& compiled) : rules_(rules), tracker_(compiled) {}

  analyse::CoverageTracker& tracker() { return tracker_; }
  const std::string& tests() const { return tests_; }

  // Adds a test of `inputs` unless one has them already.
  void add(const std::string& name, const Inputs& inputs, const std::vector<TraceStep>& steps) {
    if (std::find(chosen_.begin(), chosen_.end(), inputs) != chosen_.end()) return;
    chosen_.push_back(inputs);
    tracker_.record(inputs, steps);
    tests_ += generated_test(rules_, name, inputs);
  }
  void add(const std::string& name, const Inputs& inputs) { add(name, inputs, rules_.explain(inputs).steps); }

  // Each boundary no test reaches, with a test already chosen moved onto it when one can be
  // (CoverageTracker::witnesses_near): a sample seldom lands exactly on a threshold.
  void move_onto_boundaries() {
    tracker_.witnesses_near(chosen_);
    const std::size_t count = tracker_.coverage().goals.size();
    for (std::size_t g = 0; g < count; ++g) {
      const analyse::Goal& goal = tracker_.coverage().goals[g];
      if (goal.kind == analyse::GoalKind::boundary && goal.cases == 0 && goal.witness)
        add(messages::generated_goal_name(analyse::to_string(goal.kind), goal.owner, goal.what), *goal.witness);
    }
  }

  // Said in the file, where the reviewer reads it: the goals of `kinds` no test covers.
  std::string not_covered(const std::vector<analyse::GoalKind>& kinds, const std::string& heading) {
    std::string missing;
    for (const analyse::GoalKind kind : kinds)
      for (const analyse::Goal& goal : tracker_.coverage().goals)
        if (goal.kind == kind && goal.cases == 0 && !goal.unreachable)
          missing += messages::generated_not_covered(
              messages::generated_goal_name(analyse::to_string(kind), goal.owner, goal.what));
    return missing.empty() ? missing : heading + missing;
  }

 private:
  const RuleSet& rules_;
  analyse::CoverageTracker tracker_;
  std::vector<Inputs> chosen_;
  std::string tests_;
};

std::vector<analyse::GoalKind> goal_kinds(bool boundaries) {
  std::vector<analyse::GoalKind> kinds = {analyse::GoalKind::rule, analyse::GoalKind::condition};
  if (boundaries) kinds.push_back(analyse::GoalKind::boundary);
  kinds.push_back(analyse::GoalKind::search);
  return kinds;
}

// The file of a rule set whose regions cannot be enumerated: its tests picked from the corpus
// and a sample around it (analyse/sampling.hpp), in the order drawn.
std::string sampled_tests(const RuleSet& rules, const std::string& rules_name, const GenerateOptions& options) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  GeneratedFile file(rules, compiled);
  std::vector<Inputs> tried = options.corpus;
  for (Inputs& drawn : analyse::draw_inputs(rules.inputs(), options.corpus, options.samples, options.seed))
    tried.push_back(std::move(drawn));
  const std::vector<analyse::GoalKind> kinds = goal_kinds(options.boundaries);
  std::set<std::string> paths;
  for (const Inputs& inputs : tried) {
    const Explanation explanation = rules.explain(inputs);
    std::string path;
    for (const std::string& rule : fired_rule_path(explanation.steps)) path += (path.empty() ? "" : " > ") + rule;
    if (!explanation.result.ok()) path += (path.empty() ? "" : " > ") + std::string("error");
    if (paths.insert(path).second) {
      file.add(messages::generated_path_name(paths.size(), path), inputs, explanation.steps);
      continue;
    }
    // A path seen already: a test only for a goal no test covers yet.
    for (const std::size_t g : file.tracker().goals_of(inputs, explanation.steps)) {
      const analyse::Goal& goal = file.tracker().coverage().goals[g];
      if (goal.cases > 0 || std::find(kinds.begin(), kinds.end(), goal.kind) == kinds.end()) continue;
      file.add(messages::generated_goal_name(analyse::to_string(goal.kind), goal.owner, goal.what), inputs,
               explanation.steps);
      break;
    }
  }
  if (options.boundaries) file.move_onto_boundaries();
  return messages::yaml_schema_comment(SNNPLAN_INSTALLED_SCHEMA_DIR "/tests.schema.json") +
         messages::generated_sampled_header(rules_name, options.corpus_name, options.boundaries, options.samples,
                                            options.seed, tried.size()) +
         file.not_covered(kinds, messages::generated_sampled_not_covered_heading()) + "tests:\n" + file.tests();
}

}  // namespace

std::optional<std::string> generated_tests(const RuleSet& rules, const std::string& rules_name,
                                           const GenerateOptions& options, std::string& why) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  std::vector<analyse::RegionWitness> regions;
  if (!analyse::decision_regions(compiled, regions, why)) {
    if (!options.sampled) {
      why = messages::generate_needs_corpus(why);
      return std::nullopt;
    }
    return sampled_tests(rules, rules_name, options);
  }
  GeneratedFile file(rules, compiled);
  if (!file.tracker().find_witnesses(why)) return std::nullopt;
  for (std::size_t k = 0; k < regions.size(); ++k) {
    const analyse::Region& region = regions[k].region;
    std::string path;
    for (const std::string& rule : region.path) path += (path.empty() ? "" : " > ") + rule;
    if (region.error) path += (path.empty() ? "" : " > ") + std::string("error");
    file.add(messages::generated_name(k + 1, path), regions[k].witness);
  }
  // What the regions leave uncovered, at the witnesses the tracker found before any test.
  const std::vector<analyse::GoalKind> kinds = goal_kinds(options.boundaries);
  for (const analyse::GoalKind kind : kinds) {
    const std::size_t count = file.tracker().coverage().goals.size();
    for (std::size_t g = 0; g < count; ++g) {
      const analyse::Goal goal = file.tracker().coverage().goals[g];
      if (goal.kind != kind || goal.cases > 0 || !goal.witness) continue;
      file.add(messages::generated_goal_name(analyse::to_string(kind), goal.owner, goal.what), *goal.witness);
    }
  }
  // The installed `snnplan schema tests` (cmake/install-rules.cmake), where editors find it.
  return messages::yaml_schema_comment(SNNPLAN_INSTALLED_SCHEMA_DIR "/tests.schema.json") +
         messages::generated_header(rules_name, options.boundaries) +
         file.not_covered(kinds, messages::generated_not_covered_heading()) + "tests:\n" + file.tests();
}

}  // namespace snnplan::testing
