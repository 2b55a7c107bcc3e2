#include "cli/rule_tests.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <set>
#include <string_view>
#include <variant>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "load/keys.hpp"
#include "load/literals.hpp"
#include "load/yaml_document.hpp"
#include "core/messages.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::cli {
namespace {

SourceLocation at(const YAML::Node& node, const std::string& file) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return SourceLocation{file, 0, 0};
  return SourceLocation{file, static_cast<std::uint32_t>(mark.line + 1), static_cast<std::uint32_t>(mark.column + 1)};
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
    const double a = expected.is_int() ? static_cast<double>(expected.as_int()) : expected.as_float();
    const double b = got.is_int() ? static_cast<double>(got.as_int()) : got.as_float();
    if (expected.is_int() && got.is_int()) return expected.as_int() == got.as_int();
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

std::string shown(const Value& v) {
  if (v.is_string()) return "'" + v.as_string() + "'";
  if (v.is_list()) {
    std::string out = "[";
    for (std::size_t k = 0; k < v.as_list().size(); ++k) out += (k ? ", " : "") + shown(v.as_list()[k]);
    return out + "]";
  }
  return to_display_string(v);
}

}  // namespace

std::vector<RuleTestCase> load_rule_tests(const std::string& text, const std::string& file,
                                          std::vector<Diagnostic>& diagnostics) {
  std::vector<RuleTestCase> cases;
  auto error = [&](SourceLocation loc, std::string message) {
    diagnostics.push_back(Diagnostic{Severity::error, std::move(loc), "test-file", std::move(message)});
  };
  // Keys not in the section's rows (load/keys.hpp), as the rule-file loader reports them.
  auto check_keys = [&](const YAML::Node& map, load::Section section, std::string_view where) {
    for (const auto& kv : map) {
      const std::string key = kv.first.Scalar();
      if (load::find_key(section, key) == nullptr)
        error(at(kv.first, file),
              messages::unknown_key(key, where, messages::closest_match(key, load::key_names(section))));
    }
  };
  YAML::Node root;
  try {
    // The rule-file reader first, for what YAML::Load lets through silently: a second
    // document (its tests would be ignored) and a quoted string left open at the end.
    (void)load::yaml::Document(text);
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    error(SourceLocation{file, static_cast<std::uint32_t>(e.mark.line + 1), static_cast<std::uint32_t>(e.mark.column + 1)},
          messages::yaml_syntax(e.msg));
    return cases;
  }
  if (!root.IsMap() || !root["tests"] || !root["tests"].IsSequence()) {
    error(SourceLocation{file, 1, 1}, messages::expected_kind("a test file", "a mapping with a list under 'tests'"));
    return cases;
  }
  check_keys(root, load::Section::test_file, "a test file");
  for (const auto& node : root["tests"]) {
    if (!node.IsMap()) {
      error(at(node, file), messages::expected_kind("a test", "a mapping"));
      continue;
    }
    check_keys(node, load::Section::test, "a test");
    if (node["name"] && !node["name"].IsScalar()) error(at(node["name"], file), messages::expected_kind("a test's name", "a string"));
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
    if (repeated_keys(node)) continue;
    RuleTestCase c;
    c.location = at(node, file);
    c.name = node["name"] && node["name"].IsScalar() ? node["name"].Scalar() : messages::test_unnamed(c.location.line);
    if (!node["input"] || !node["input"].IsMap()) {
      error(at(node, file), messages::missing_key("input", "a test (a mapping of input values)"));
      continue;
    }
    // The values of a mapping (input or expect), each reported where it is when it is not one.
    auto read_values = [&](const YAML::Node& map, std::string_view what, std::vector<std::pair<std::string, Value>>& out) {
      bool all = true;
      for (const auto& kv : map) {
        auto v = to_value(kv.second, what);
        if (auto* failure = std::get_if<std::string>(&v)) {
          error(at(kv.second, file), std::move(*failure));
          all = false;
          continue;
        }
        out.emplace_back(kv.first.Scalar(), std::move(std::get<Value>(v)));
      }
      return all;
    };
    bool ok = !repeated_keys(node["input"]);
    ok = read_values(node["input"], "an input value", c.input) && ok;
    if (node["expect"]) {
      if (!node["expect"].IsMap()) {
        error(at(node["expect"], file), messages::expected_kind("expect", "a mapping of record fields"));
        ok = false;
      } else {
        ok = !repeated_keys(node["expect"]) && ok;
        ok = read_values(node["expect"], "an expected value", c.expect) && ok;
      }
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
    if (!node["expect"] && !node["expect_error"]) {
      error(at(node, file), messages::missing_key("expect or expect_error", "a test"));
      ok = false;
    }
    if (ok) cases.push_back(std::move(c));
  }
  return cases;
}

double RuleTestReport::coverage_percent() const {
  if (coverage.empty()) return 100.0;
  std::size_t hit = 0;
  for (const auto& [rule, count] : coverage) hit += count > 0 ? 1 : 0;
  return 100.0 * static_cast<double>(hit) / static_cast<double>(coverage.size());
}

RuleTestReport run_rule_tests(const RuleSet& rules, const std::vector<RuleTestCase>& cases) {
  RuleTestReport report;
  // Rules are counted by where they are written: a rule of the same table and name in a file
  // that this one uses is another rule, and its firing covers nothing here.
  std::map<std::string, std::size_t> hits;
  for (const auto& table : RuleSetAccess::compiled(rules).tables)
    for (const auto& rule : table.rules) hits[to_string(rule.location)] = 0;

  for (const RuleTestCase& c : cases) {
    const Explanation explanation = rules.explain(c.input);
    for (const TraceStep& step : explanation.steps)
      if (step.kind == TraceStep::Kind::rule_fired)
        if (auto hit = hits.find(to_string(step.location)); hit != hits.end()) ++hit->second;
    const EvaluationResult& result = explanation.result;
    std::vector<std::string> problems;
    if (c.expect_error) {
      if (result.ok()) problems.push_back(messages::test_expected_error_got_record(
                                  *c.expect_error, result.record().find("mode") ? shown(*result.record().find("mode")) : "?"));
      else if (result.error().message != *c.expect_error)
        problems.push_back(messages::test_expected_other_error(*c.expect_error, result.error().message));
    } else if (!result.ok()) {
      problems.push_back(messages::test_unexpected_error(result.error().message));
    } else {
      for (const auto& [field, want] : c.expect) {
        const Value* got = result.record().find(field);
        if (!got) problems.push_back(messages::test_no_such_field(field));
        else if (!same(want, *got)) problems.push_back(messages::test_field_differs(field, shown(want), shown(*got)));
      }
    }
    ++(problems.empty() ? report.passed : report.failed);
    report.results.push_back(RuleTestResult{c.name, c.location, std::move(problems)});
  }
  // Keep the rule file's order (tables, then rules) rather than the map's.
  for (const auto& table : RuleSetAccess::compiled(rules).tables)
    for (const auto& rule : table.rules) report.coverage.push_back({{table.name, rule.name}, hits[to_string(rule.location)]});
  return report;
}

}  // namespace snnplan::cli
