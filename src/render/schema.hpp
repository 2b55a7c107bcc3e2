#pragma once
// JSON Schemas (draft 2020-12) of what snnplan reads and writes, built from the definitions the
// loaders use: the key rows of load/keys.hpp, the matcher rows of language/matchers.hpp, the
// type names of language/syntax.hpp, and a rule set's own record declarations. Printed by
// `snnplan schema rules|tests|record` and installed beside the rules.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan::render {

enum class SchemaKind { rules, tests, record, decision_log };

/// "rules", "tests", "record", "decision-log": the names `snnplan schema` takes, in this order
/// (the decision log's schema is the decisions stage's: decisions/record_schema.hpp).
std::vector<std::string> schema_names();
/// The kind called `name`, or nullopt.
std::optional<SchemaKind> parse_schema_name(std::string_view name);

/// The schema of a rule file (`rules/*.yaml`).
nlohmann::ordered_json rule_file_schema();
/// The schema of a rule-test file (`snnplan test`).
nlohmann::ordered_json rule_test_schema();
/// The schema of the records `rules` returns, as `recommend --format json` prints them, or of
/// the error line of a batch run.
nlohmann::ordered_json record_schema(const RuleSet& rules);

/// The schema as the CLI prints it and the build installs it: indented by two, with a newline.
std::string schema_text(const nlohmann::ordered_json& schema);

}  // namespace snnplan::render
