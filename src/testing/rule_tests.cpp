#include "testing/rule_tests.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analyse/coverage.hpp"
#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "core/messages.hpp"
#include "evaluate/messages.hpp"
#include "testing/messages.hpp"
#include "core/runtime_value.hpp"
#include "render/flow_yaml.hpp"
#include "testing/mutation_tests.hpp"

namespace snnplan::testing {
namespace {

// The rules' own equality (`eq`, `==`, `one_of`): exact for integers and between an integer
// and a float, so an expected 2**62 + 1 is not the float 2.0**62 it would round to as a double.
bool same(const Value& expected, const Value& got) {
  detail::ValueStore store;
  return detail::values_equal(detail::from_public(expected, store),
                              detail::from_public(got, store));
}

// The kind bit of a public value, as the type checks of inputs and fields name kinds.
detail::KindSet kind_bit(const Value& v) {
  if (v.is_null()) return detail::kNull;
  if (v.is_bool()) return detail::kBool;
  if (v.is_int()) return detail::kInt;
  if (v.is_float()) return detail::kFloat;
  if (v.is_string()) return detail::kString;
  return detail::kList;
}

// Whether `v` has a kind `type` allows; `what` gets the kind it has.
bool fits(const Value& v, const syntax::TypeSpec& type, std::string& what) {
  detail::KindSet kind = kind_bit(v);
  // An int is a float where a float is expected, as the evaluator reads inputs.
  if (kind == detail::kInt && (type.kinds & detail::kFloat)) kind = detail::kFloat;
  what = detail::describe(kind_bit(v));
  if (!(kind & type.kinds)) return false;
  if (v.is_list())
    for (const Value& item : v.as_list()) {
      detail::KindSet k = kind_bit(item);
      if (k == detail::kInt && (type.element_kinds & detail::kFloat)) k = detail::kFloat;
      if (!(k & type.element_kinds)) {
        what = "a list holding " + detail::describe(kind_bit(item));
        return false;
      }
    }
  return true;
}

// The tracker's goals as the public report gives them (CoverageKind mirrors GoalKind).
TestCoverage public_coverage(const analyse::Coverage& coverage, std::string witnesses_missing) {
  TestCoverage out;
  out.witnesses_missing = std::move(witnesses_missing);
  for (const analyse::Goal& goal : coverage.goals)
    out.goals.push_back(CoverageGoal{static_cast<CoverageKind>(goal.kind), goal.owner, goal.what,
                                     goal.location, goal.cases, goal.unreachable, goal.witness});
  return out;
}

}  // namespace

void check_rule_tests(const RuleSet& rules, const std::vector<load::RuleTestCase>& cases,
                      std::vector<Diagnostic>& diagnostics) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  auto error = [&](const SourceLocation& loc, std::string message) {
    diagnostics.push_back(Diagnostic{Severity::error, loc, "test-file", std::move(message)});
  };
  std::vector<std::string> input_names, field_names, rule_paths;
  for (const auto& input : compiled.inputs) input_names.push_back(input.name);
  for (const auto& field : compiled.fields) field_names.push_back(field.name);
  // Paths of this file's rules and of the files it uses (their rules fire inside `let` calls).
  std::vector<const detail::CompiledRules*> files = {&compiled};
  for (std::size_t k = 0; k < files.size(); ++k)
    for (const auto& used : files[k]->used) files.push_back(used.get());
  for (const detail::CompiledRules* f : files)
    for (const auto& table : f->tables)
      for (const auto& rule : table.rules) rule_paths.push_back(table.name + "/" + rule.name);
  const std::set<std::string> known_paths(rule_paths.begin(), rule_paths.end());

  std::map<std::string, SourceLocation> names;
  for (const load::RuleTestCase& c : cases) {
    if (auto [first, fresh] = names.emplace(c.name, c.name_location); !fresh)
      error(c.name_location, messages::test_duplicate_name(c.name, to_string(first->second)));
    std::string got;
    for (const load::TestEntry& entry : c.input) {
      const auto slot = compiled.input_slots.find(entry.name);
      if (slot == compiled.input_slots.end()) {
        error(entry.location, messages::unknown_input(
                                  entry.name, messages::closest_match(entry.name, input_names)));
        continue;
      }
      const auto& input = compiled.inputs[static_cast<std::size_t>(slot->second)];
      // null means "not given" (the default applies), as in every other way of giving inputs.
      // A test that expects an error may give a value of the wrong kind on purpose.
      if (!c.expect_error && !entry.value.is_null() && !fits(entry.value, input.type, got))
        error(entry.location,
              messages::input_type(entry.name, detail::describe(input.type.kinds), got));
    }
    for (const load::TestEntry& entry : c.expect) {
      const auto field =
          std::find_if(compiled.fields.begin(), compiled.fields.end(),
                       [&](const detail::CompiledField& f) { return f.name == entry.name; });
      if (field == compiled.fields.end()) {
        error(entry.location, messages::test_unknown_field(
                                  entry.name, messages::closest_match(entry.name, field_names)));
        continue;
      }
      syntax::TypeSpec type = field->type;
      if (type.is_rationale) type = syntax::TypeSpec{detail::kList, detail::kString, false};
      if (!fits(entry.value, type, got))
        error(entry.location,
              messages::test_field_type(entry.name, detail::describe(type.kinds), got));
    }
    if (c.expect_rules)
      for (const load::TestEntry& path : *c.expect_rules)
        if (!known_paths.count(path.name))
          error(path.location, messages::test_unknown_rule(
                                   path.name, messages::closest_match(path.name, rule_paths)));
  }
}

std::string flow_inputs(const Inputs& inputs) {
  std::string out = "{";
  for (const auto& [name, value] : inputs)
    out += (out.size() > 1 ? ", " : "") + name + ": " + render::flow_yaml(value);
  return out + "}";
}

std::string rule_list(const std::vector<std::string>& paths) {
  Value::List items(paths.begin(), paths.end());
  return render::flow_yaml(Value(std::move(items)));
}

std::string describe(const TestDifference& d) {
  return messages::test_field_differs(d.what, d.expected, d.got);
}

std::vector<TestDifference> differences_of(const load::RuleTestCase& c,
                                           const Explanation& explanation) {
  const EvaluationResult& result = explanation.result;
  std::vector<TestDifference> differences;
  const auto record_mode = [&] {
    const Value* mode = result.record().find("mode");
    return messages::test_a_record(mode ? render::flow_yaml(*mode) : "?");
  };
  if (c.expect_error) {
    if (result.ok())
      differences.push_back({"error", *c.expect_error, record_mode()});
    else if (result.error().message != *c.expect_error)
      differences.push_back({"error", *c.expect_error, result.error().message});
  } else if (!c.expect.empty() || c.exact) {
    if (!result.ok()) {
      differences.push_back({"record", messages::test_a_record("..."),
                             messages::test_an_error(result.error().message)});
    } else {
      std::set<std::string> expected;
      for (const load::TestEntry& want : c.expect) {
        expected.insert(want.name);
        const Value* got = result.record().find(want.name);
        if (!got)
          differences.push_back(
              {want.name, render::flow_yaml(want.value), messages::test_no_field()});
        else if (!same(want.value, *got))
          differences.push_back(
              {want.name, render::flow_yaml(want.value), render::flow_yaml(*got)});
      }
      if (c.exact) {
        const Record& record = result.record();
        for (std::size_t k = 0; k < record.names().size(); ++k)
          if (!expected.count(record.names()[k]))
            differences.push_back({record.names()[k], messages::test_not_expected(),
                                   render::flow_yaml(record.values()[k])});
      }
    }
  }
  if (c.expect_rules) {
    std::vector<std::string> want;
    for (const load::TestEntry& path : *c.expect_rules) want.push_back(path.name);
    const std::vector<std::string> got = fired_rule_path(explanation.steps);
    if (want != got) differences.push_back({"rules", rule_list(want), rule_list(got)});
  }
  return differences;
}

RuleTestReport run_cases(const RuleSet& rules, const std::vector<load::RuleTestCase>& cases,
                         const RuleTestOptions& options) {
  RuleTestReport report;
  analyse::CoverageTracker tracker(RuleSetAccess::compiled(rules));
  std::vector<Inputs> tried;
  for (const load::RuleTestCase& c : cases) {
    const Inputs inputs = c.inputs();
    const Explanation explanation = rules.explain(inputs);
    tracker.record(inputs, explanation.steps);
    tried.push_back(inputs);
    std::vector<TestDifference> differences = differences_of(c, explanation);
    ++(differences.empty() ? report.passed : report.failed);
    report.tests.push_back(
        TestOutcome{c.name, c.location, c.description, c.tags, std::move(differences)});
  }
  // What no case covers: inputs that would (for a boundary, a case moved onto it first), and
  // which goals no input reaches.
  std::string why;
  const auto& goals = tracker.coverage().goals;
  if (std::any_of(goals.begin(), goals.end(), [](const analyse::Goal& g) { return g.cases == 0; })) {
    tracker.witnesses_near(tried);
    if (tracker.find_witnesses(why)) why.clear();
  }
  report.coverage = public_coverage(tracker.coverage(), std::move(why));
  // Mutants are told apart by failing tests, so the tests must pass on the rules themselves.
  if (options.mutate && report.failed == 0)
    report.mutation = run_mutation_tests(rules, cases, options.threads);
  return report;
}

}  // namespace snnplan::testing

namespace snnplan {

static_assert(static_cast<int>(CoverageKind::rule) == static_cast<int>(analyse::GoalKind::rule) &&
                  static_cast<int>(CoverageKind::condition) ==
                      static_cast<int>(analyse::GoalKind::condition) &&
                  static_cast<int>(CoverageKind::boundary) ==
                      static_cast<int>(analyse::GoalKind::boundary) &&
                  static_cast<int>(CoverageKind::search) ==
                      static_cast<int>(analyse::GoalKind::search),
              "CoverageKind is the public face of analyse::GoalKind");

const char* to_string(CoverageKind kind) noexcept {
  return analyse::to_string(static_cast<analyse::GoalKind>(kind));
}

std::size_t TestCoverage::total(CoverageKind kind) const noexcept {
  return static_cast<std::size_t>(std::count_if(goals.begin(), goals.end(), [&](const CoverageGoal& g) {
    return g.kind == kind && !g.unreachable;
  }));
}

std::size_t TestCoverage::unreachable(CoverageKind kind) const noexcept {
  return static_cast<std::size_t>(std::count_if(goals.begin(), goals.end(), [&](const CoverageGoal& g) {
    return g.kind == kind && g.unreachable;
  }));
}

std::size_t TestCoverage::covered(CoverageKind kind) const noexcept {
  return static_cast<std::size_t>(std::count_if(goals.begin(), goals.end(), [&](const CoverageGoal& g) {
    return g.kind == kind && g.cases > 0;
  }));
}

double TestCoverage::percent(CoverageKind kind) const noexcept {
  const std::size_t all = total(kind);
  return all == 0 ? 100.0 : 100.0 * static_cast<double>(covered(kind)) / static_cast<double>(all);
}

}  // namespace snnplan
