#include "cli/rule_tests.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <variant>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "core/messages.hpp"
#include "load/keys.hpp"
#include "load/literals.hpp"
#include "load/yaml_document.hpp"
#include "render/yaml_scalars.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::cli {
namespace {

SourceLocation at(const YAML::Node& node, const std::string& file) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return SourceLocation{file, 0, 0};
  return SourceLocation{file, static_cast<std::uint32_t>(mark.line + 1),
                        static_cast<std::uint32_t>(mark.column + 1)};
}

// A YAML value of a test as a Value, read as the rule-file loader reads literals (quoted
// scalars are strings; plain ones follow YAML's core schema, src/load/literals.hpp), or the
// message saying why it cannot be one.
std::variant<Value, std::string> to_value(const YAML::Node& node, std::string_view what) {
  if (node.IsNull() && node.Tag() != "!") return Value();
  if (node.IsSequence()) {
    Value::List items;
    for (const auto& item : node) {
      auto v = to_value(item, what);
      if (auto* failure = std::get_if<std::string>(&v)) return std::move(*failure);
      items.push_back(std::move(std::get<Value>(v)));
    }
    return Value(std::move(items));
  }
  if (!node.IsScalar()) return messages::expected_kind(what, "a scalar or a list");
  if (node.Tag() == "!") return Value(node.Scalar());
  auto read = read_plain_scalar(node.Scalar());
  if (auto* failure = std::get_if<LiteralError>(&read)) return std::move(failure->message);
  return std::move(std::get<Value>(read));
}

bool same(const Value& expected, const Value& got) {
  if ((expected.is_int() || expected.is_float()) && (got.is_int() || got.is_float())) {
    if (expected.is_int() && got.is_int()) return expected.as_int() == got.as_int();
    const double a =
        expected.is_int() ? static_cast<double>(expected.as_int()) : expected.as_float();
    const double b = got.is_int() ? static_cast<double>(got.as_int()) : got.as_float();
    return a == b;
  }
  if (expected.is_list() && got.is_list()) {
    if (expected.as_list().size() != got.as_list().size()) return false;
    for (std::size_t k = 0; k < expected.as_list().size(); ++k)
      if (!same(expected.as_list()[k], got.as_list()[k])) return false;
    return true;
  }
  return expected == got;
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

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::string rule_list(const std::vector<std::string>& paths) {
  Value::List items(paths.begin(), paths.end());
  return render::flow_yaml(Value(std::move(items)));
}

}  // namespace

Inputs RuleTestCase::inputs() const {
  Inputs out;
  for (const TestEntry& entry : input) out.emplace_back(entry.name, entry.value);
  return out;
}

std::vector<RuleTestCase> load_rule_tests(const std::string& text, const std::string& file,
                                          std::vector<Diagnostic>& diagnostics) {
  std::vector<RuleTestCase> cases;
  auto error = [&](SourceLocation loc, std::string message) {
    diagnostics.push_back(
        Diagnostic{Severity::error, std::move(loc), "test-file", std::move(message)});
  };
  // Keys not in the section's rows (load/keys.hpp), with the ones allowed.
  auto check_keys = [&](const YAML::Node& map, load::Section section, std::string_view where) {
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      if (load::find_key(section, key) == nullptr)
        error(at(kv.first, file),
              messages::test_unknown_key(key, where,
                                         messages::closest_match(key, load::key_names(section)),
                                         listed(load::key_names(section))));
    }
  };
  YAML::Node root;
  try {
    // The rule-file reader first, for what YAML::Load lets through silently: a second
    // document (its tests would be ignored) and a quoted string left open at the end.
    (void)load::yaml::Document(text);
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    error(SourceLocation{file, static_cast<std::uint32_t>(e.mark.line + 1),
                         static_cast<std::uint32_t>(e.mark.column + 1)},
          messages::yaml_syntax(e.msg));
    return cases;
  }
  if (!root.IsMap() || !root["tests"] || !root["tests"].IsSequence()) {
    error(SourceLocation{file, 1, 1},
          messages::expected_kind("a test file", "a mapping with a list under 'tests'"));
    return cases;
  }
  check_keys(root, load::Section::test_file, "a test file");
  // YAML::Load keeps a repeated key without a word; the loader of rule files refuses one.
  auto repeated_keys = [&](const YAML::Node& map) {
    std::set<std::string> seen;
    bool repeated = false;
    for (const auto& kv : map)
      if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second) {
        error(at(kv.first, file), messages::duplicate_key(kv.first.Scalar()));
        repeated = true;
      }
    return repeated;
  };
  // The values of a mapping (input or expect), each reported where it is when it is not one.
  auto read_values = [&](const YAML::Node& map, std::string_view what,
                         std::vector<TestEntry>& out) {
    bool all = true;
    for (const auto& kv : map) {
      auto v = to_value(kv.second, what);
      if (auto* failure = std::get_if<std::string>(&v)) {
        error(at(kv.second, file), std::move(*failure));
        all = false;
        continue;
      }
      out.push_back(
          TestEntry{kv.first.Scalar(), std::move(std::get<Value>(v)), at(kv.first, file)});
    }
    return all;
  };
  // A list of strings (tags, expect_rules), each with its position.
  auto read_strings = [&](const YAML::Node& node, std::string_view what,
                          std::vector<TestEntry>& out) {
    if (!node.IsSequence()) {
      error(at(node, file), messages::expected_kind(what, "a list of strings"));
      return false;
    }
    bool all = true;
    for (const auto& item : node) {
      if (!item.IsScalar()) {
        error(at(item, file), messages::expected_kind(what, "a list of strings"));
        all = false;
        continue;
      }
      out.push_back(TestEntry{item.Scalar(), Value(), at(item, file)});
    }
    return all;
  };
  for (const auto& node : root["tests"]) {
    if (!node.IsMap()) {
      error(at(node, file), messages::expected_kind("a test", "a mapping"));
      continue;
    }
    check_keys(node, load::Section::test, "a test");
    if (repeated_keys(node)) continue;
    RuleTestCase c;
    c.location = at(node, file);
    c.name_location = c.location;
    bool ok = true;
    if (node["name"]) {
      if (node["name"].IsScalar()) {
        c.name = node["name"].Scalar();
        c.name_location = at(node["name"], file);
      } else {
        error(at(node["name"], file), messages::expected_kind("a test's name", "a string"));
        ok = false;
      }
    }
    if (c.name.empty()) c.name = messages::test_unnamed(c.location.line);
    if (node["description"]) {
      if (node["description"].IsScalar()) {
        c.description = node["description"].Scalar();
      } else {
        error(at(node["description"], file), messages::expected_kind("description", "a string"));
        ok = false;
      }
    }
    if (node["tags"]) {
      std::vector<TestEntry> tags;
      ok = read_strings(node["tags"], "tags", tags) && ok;
      for (TestEntry& tag : tags) c.tags.push_back(std::move(tag.name));
    }
    if (!node["input"] || !node["input"].IsMap()) {
      error(at(node, file), messages::missing_key("input", "a test (a mapping of input values)"));
      continue;
    }
    ok = !repeated_keys(node["input"]) && ok;
    ok = read_values(node["input"], "an input value", c.input) && ok;
    if (node["expect"]) {
      if (!node["expect"].IsMap()) {
        error(at(node["expect"], file),
              messages::expected_kind("expect", "a mapping of record fields"));
        ok = false;
      } else {
        ok = !repeated_keys(node["expect"]) && ok;
        ok = read_values(node["expect"], "an expected value", c.expect) && ok;
      }
    }
    if (node["exact"]) {
      const YAML::Node& exact = node["exact"];
      if (exact.IsScalar() && (exact.Scalar() == "true" || exact.Scalar() == "false")) {
        c.exact = exact.Scalar() == "true";
      } else {
        error(at(exact, file), messages::expected_kind("exact", "true or false"));
        ok = false;
      }
    }
    if (node["expect_rules"]) {
      c.expect_rules.emplace();
      ok = read_strings(node["expect_rules"], "expect_rules", *c.expect_rules) && ok;
    }
    if (node["expect_error"]) {
      if (node["expect_error"].IsScalar()) {
        c.expect_error = node["expect_error"].Scalar();
      } else {
        error(at(node["expect_error"], file), messages::test_expect_error_kind());
        ok = false;
      }
    }
    if (node["expect"] && node["expect_error"]) {
      error(at(node, file), messages::test_expect_and_error());
      ok = false;
    }
    if (c.exact && node["expect_error"]) {
      error(at(node["exact"], file), messages::test_exact_with_error());
      ok = false;
    }
    if (!node["expect"] && !node["expect_error"] && !node["expect_rules"]) {
      error(at(node, file),
            messages::missing_key("expect, expect_rules or expect_error", "a test"));
      ok = false;
    }
    if (ok) cases.push_back(std::move(c));
  }
  return cases;
}

void check_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases,
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
  for (const RuleTestCase& c : cases) {
    if (auto [first, fresh] = names.emplace(c.name, c.name_location); !fresh)
      error(c.name_location, messages::test_duplicate_name(c.name, to_string(first->second)));
    std::string got;
    for (const TestEntry& entry : c.input) {
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
    for (const TestEntry& entry : c.expect) {
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
      for (const TestEntry& path : *c.expect_rules)
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
  std::vector<analyse::Region> regions;
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
    const analyse::Region& region = regions[k];
    std::string path;
    for (const std::string& rule : region.path) path += (path.empty() ? "" : " > ") + rule;
    if (region.error) path += (path.empty() ? "" : " > ") + std::string("error");
    add(messages::generated_name(k + 1, path), region.witness);
  }
  // What the regions leave uncovered, at the witnesses the tracker found before any test.
  std::vector<analyse::GoalKind> kinds = {analyse::GoalKind::rule, analyse::GoalKind::condition};
  if (boundaries) kinds.push_back(analyse::GoalKind::boundary);
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

std::string describe(const Difference& d) {
  return messages::test_field_differs(d.what, d.expected, d.got);
}

std::vector<Difference> differences_of(const RuleTestCase& c, const Explanation& explanation) {
  const EvaluationResult& result = explanation.result;
  std::vector<Difference> differences;
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
      for (const TestEntry& want : c.expect) {
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
    for (const TestEntry& path : *c.expect_rules) want.push_back(path.name);
    const std::vector<std::string> got = fired_rule_path(explanation.steps);
    if (want != got) differences.push_back({"rules", rule_list(want), rule_list(got)});
  }
  return differences;
}

RuleTestReport run_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases) {
  RuleTestReport report;
  analyse::CoverageTracker tracker(RuleSetAccess::compiled(rules));
  for (const RuleTestCase& c : cases) {
    const Inputs inputs = c.inputs();
    const Explanation explanation = rules.explain(inputs);
    tracker.record(inputs, explanation.steps);
    std::vector<Difference> differences = differences_of(c, explanation);
    ++(differences.empty() ? report.passed : report.failed);
    report.results.push_back(RuleTestResult{c.name, c.location, c.tags, std::move(differences)});
  }
  // What no case covers: inputs that would, and which goals no input reaches.
  const auto& goals = tracker.coverage().goals;
  if (std::any_of(goals.begin(), goals.end(),
                  [](const analyse::Goal& g) { return g.cases == 0; })) {
    std::string why;
    if (!tracker.find_witnesses(why)) report.witnesses_missing = why;
  }
  report.coverage = tracker.coverage();
  return report;
}

}  // namespace snnplan::cli
