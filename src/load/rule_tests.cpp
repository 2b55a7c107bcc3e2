#include "load/rule_tests.hpp"

#include <set>
#include <variant>

#include "core/messages.hpp"
#include "load/messages.hpp"
#include "load/keys.hpp"
#include "load/literals.hpp"
#include "load/rule_file_loader.hpp"
#include "load/yaml_document.hpp"

namespace snnplan::load {
namespace {

SourceLocation from_mark(const YAML::Mark& mark, const FileName& file) {
  if (mark.is_null()) return SourceLocation{file, 0, 0};
  return SourceLocation{file, static_cast<std::uint32_t>(mark.line + 1),
                        static_cast<std::uint32_t>(mark.column + 1)};
}

SourceLocation at(const yaml::Node& node, const FileName& file) {
  return from_mark(node.Mark(), file);
}

// A YAML value of a test as a Value, read as the rule-file loader reads literals (quoted
// scalars are strings; plain ones follow YAML's core schema, load/literals.hpp), or the
// message saying why it cannot be one. The document keeps an alias as its anchored node, so
// an alias inside its own anchor is a cycle: the depth limit of rule files ends it.
std::variant<Value, std::string> to_value(const yaml::Node& node, std::string_view what,
                                          int depth) {
  if (depth > kMaxYamlDepth) return messages::yaml_too_deep(kMaxYamlDepth);
  if (node.IsNull() && node.Tag() != "!") return Value();
  if (node.IsSequence()) {
    Value::List items;
    for (const yaml::Node& item : node.items()) {
      auto v = to_value(item, what, depth + 1);
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

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// Reads one test file; every problem is a diagnostic, and a case with one is left out.
class TestFileReader {
 public:
  TestFileReader(const std::string& file, std::vector<Diagnostic>& diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  std::vector<RuleTestCase> read(std::string_view text) {
    std::optional<yaml::Document> document;
    try {
      document.emplace(text);
    } catch (const YAML::Exception& e) {
      error(from_mark(e.mark, file_), messages::yaml_syntax(e.msg));
      return std::move(cases_);
    }
    const yaml::Node root = document->root();
    if (!root.IsMap() || !root["tests"] || !root["tests"].IsSequence()) {
      error(SourceLocation{file_, 1, 1},
            messages::expected_kind("a test file", "a mapping with a list under 'tests'"));
      return std::move(cases_);
    }
    check_keys(root, Section::test_file, "a test file");
    for (const yaml::Node& node : root["tests"].items()) read_case(node);
    return std::move(cases_);
  }

 private:
  void error(SourceLocation loc, std::string message) {
    diagnostics_.push_back(
        Diagnostic{Severity::error, std::move(loc), "test-file", std::move(message)});
  }
  SourceLocation at(const yaml::Node& node) const { return load::at(node, file_); }

  // Keys not in the section's rows (load/keys.hpp), with the ones allowed.
  void check_keys(const yaml::Node& map, Section section, std::string_view where) {
    for (const yaml::Entry& kv : map.entries()) {
      const std::string& key = kv.first.Scalar();
      if (find_key(section, key) == nullptr)
        error(at(kv.first), messages::test_unknown_key(
                                key, where, messages::closest_match(key, key_names(section)),
                                listed(key_names(section))));
    }
  }

  // The document keeps a repeated key as it is written; a test file may not repeat one.
  bool repeated_keys(const yaml::Node& map) {
    std::set<std::string> seen;
    bool repeated = false;
    for (const yaml::Entry& kv : map.entries())
      if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second) {
        error(at(kv.first), messages::duplicate_key(kv.first.Scalar()));
        repeated = true;
      }
    return repeated;
  }

  // The values of a mapping (input or expect), each reported where it is when it is not one.
  bool read_values(const yaml::Node& map, std::string_view what, std::vector<TestEntry>& out) {
    bool all = true;
    for (const yaml::Entry& kv : map.entries()) {
      auto v = to_value(kv.second, what, 1);
      if (auto* failure = std::get_if<std::string>(&v)) {
        error(at(kv.second), std::move(*failure));
        all = false;
        continue;
      }
      out.push_back(TestEntry{kv.first.Scalar(), std::move(std::get<Value>(v)), at(kv.first)});
    }
    return all;
  }

  // A list of strings (tags, expect_rules), each with its position.
  bool read_strings(const yaml::Node& node, std::string_view what, std::vector<TestEntry>& out) {
    if (!node.IsSequence()) {
      error(at(node), messages::expected_kind(what, "a list of strings"));
      return false;
    }
    bool all = true;
    for (const yaml::Node& item : node.items()) {
      if (!item.IsScalar()) {
        error(at(item), messages::expected_kind(what, "a list of strings"));
        all = false;
        continue;
      }
      out.push_back(TestEntry{item.Scalar(), Value(), at(item)});
    }
    return all;
  }

  // A scalar text under `key`, or a diagnostic; true when it is absent or read.
  bool read_text(const yaml::Node& node, std::string_view key, std::string_view what,
                 std::string& out) {
    const yaml::Node value = node[key];
    if (!value) return true;
    if (value.IsScalar()) {
      out = value.Scalar();
      return true;
    }
    error(at(value), messages::expected_kind(what, "a string"));
    return false;
  }

  void read_case(const yaml::Node& node) {
    if (!node.IsMap()) {
      error(at(node), messages::expected_kind("a test", "a mapping"));
      return;
    }
    check_keys(node, Section::test, "a test");
    if (repeated_keys(node)) return;
    RuleTestCase c;
    c.location = at(node);
    c.name_location = c.location;
    bool ok = read_text(node, "name", "a test's name", c.name);
    if (node["name"] && node["name"].IsScalar()) c.name_location = at(node["name"]);
    if (c.name.empty()) c.name = messages::test_unnamed(c.location.line);
    ok = read_text(node, "description", "description", c.description) && ok;
    if (node["tags"]) {
      std::vector<TestEntry> tags;
      ok = read_strings(node["tags"], "tags", tags) && ok;
      for (TestEntry& tag : tags) c.tags.push_back(std::move(tag.name));
    }
    if (!node["input"] || !node["input"].IsMap()) {
      error(at(node), messages::missing_key("input", "a test (a mapping of input values)"));
      return;
    }
    ok = !repeated_keys(node["input"]) && ok;
    ok = read_values(node["input"], "an input value", c.input) && ok;
    if (const yaml::Node expect = node["expect"]) {
      if (!expect.IsMap()) {
        error(at(expect), messages::expected_kind("expect", "a mapping of record fields"));
        ok = false;
      } else {
        ok = !repeated_keys(expect) && ok;
        ok = read_values(expect, "an expected value", c.expect) && ok;
      }
    }
    if (const yaml::Node exact = node["exact"]) {
      if (exact.IsScalar() && (exact.Scalar() == "true" || exact.Scalar() == "false")) {
        c.exact = exact.Scalar() == "true";
      } else {
        error(at(exact), messages::expected_kind("exact", "true or false"));
        ok = false;
      }
    }
    if (node["expect_rules"]) {
      c.expect_rules.emplace();
      ok = read_strings(node["expect_rules"], "expect_rules", *c.expect_rules) && ok;
    }
    if (const yaml::Node expect_error = node["expect_error"]) {
      if (expect_error.IsScalar()) {
        c.expect_error = expect_error.Scalar();
      } else {
        error(at(expect_error), messages::test_expect_error_kind());
        ok = false;
      }
    }
    if (node["expect"] && node["expect_error"]) {
      error(at(node), messages::test_expect_and_error());
      ok = false;
    }
    if (c.exact && node["expect_error"]) {
      error(at(node["exact"]), messages::test_exact_with_error());
      ok = false;
    }
    if (!node["expect"] && !node["expect_error"] && !node["expect_rules"]) {
      error(at(node), messages::missing_key("expect, expect_rules or expect_error", "a test"));
      ok = false;
    }
    if (ok) cases_.push_back(std::move(c));
  }

  FileName file_;  // shared by every location of the file
  std::vector<Diagnostic>& diagnostics_;
  std::vector<RuleTestCase> cases_;
};

}  // namespace

Inputs RuleTestCase::inputs() const {
  Inputs out;
  for (const TestEntry& entry : input) out.emplace_back(entry.name, entry.value);
  return out;
}

std::vector<RuleTestCase> load_rule_tests(std::string_view text, const std::string& file_name,
                                          std::vector<Diagnostic>& diagnostics) {
  return TestFileReader(file_name, diagnostics).read(text);
}

}  // namespace snnplan::load
