#include "render/schema.hpp"

#include <array>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"
#include "language/matchers.hpp"
#include "language/syntax.hpp"
#include "load/keys.hpp"
#include "snnplan/version.hpp"

namespace snnplan::render {
namespace {

using json = nlohmann::ordered_json;
using load::KeyRow;
using load::Section;
using load::Shape;

constexpr const char* kDialect = "https://json-schema.org/draft/2020-12/schema";
constexpr const char* kIdBase = "urn:snnplan:schema:";  // a name, not an address to fetch

struct SchemaName {
  SchemaKind kind;
  const char* name;
};
constexpr SchemaName kSchemaNames[] = {
    {SchemaKind::rules, "rules"},
    {SchemaKind::tests, "tests"},
    {SchemaKind::record, "record"},
    {SchemaKind::decision_log, "decision-log"}};

// The $defs name of a section: "rule_file", "input", ...
std::string def_name(Section section) {
  switch (section) {
    case Section::rule_file:
      return "rule_file";
    case Section::input:
      return "input";
    case Section::record_field:
      return "record_field";
    case Section::let_call:
      return "let_call";
    case Section::let_search:
      return "let_search";
    case Section::search:
      return "search";
    case Section::search_constraint:
      return "search_constraint";
    case Section::search_tier:
      return "search_tier";
    case Section::search_failure:
      return "search_failure";
    case Section::rule:
      return "rule";
    case Section::table:
      return "table";
    case Section::invariant:
      return "invariant";
    case Section::fallback:
      return "fallback";
    case Section::test_file:
      return "test_file";
    case Section::test:
      return "test";
    case Section::none:
      break;
  }
  return "none";
}

json ref(const std::string& def) {
  return json{{"$ref", "#/$defs/" + def}};
}
json array_of(json items) {
  return json{{"type", "array"}, {"items", std::move(items)}};
}
json map_of(json values) {
  return json{{"type", "object"}, {"additionalProperties", std::move(values)}};
}

// The loader reads these as text whatever their YAML type, except null (an empty value).
json scalar_def() {
  return json{{"type", {"string", "number", "boolean"}}};
}
// A literal, an '= expression' string or a list of values: never a mapping.
json value_def() {
  return json{{"type", {"null", "boolean", "number", "string", "array"}}, {"items", ref("value")}};
}

// `when: {fact: {ge: 8, one_of: [a, b]}}`: one property per matcher row.
json matchers_def() {
  json properties = json::object();
  for (const language::MatcherInfo& m : language::matchers()) {
    json operand = ref("value");
    if (m.operand == language::OperandShape::list) {
      operand = array_of(ref("value"));
      if (m.list_items != 0) {
        operand["minItems"] = m.list_items;
        operand["maxItems"] = m.list_items;
      }
    }
    operand["description"] = m.summary;
    properties[m.name] = std::move(operand);
  }
  return json{
      {"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
}

// The type names with a description each, in `enumDescriptions` (as the YAML and JSON language
// servers of editors read it; validators ignore the keyword), parallel to `enum`.
json type_enum(bool with_rationale) {
  const std::vector<std::string> names = syntax::type_names(with_rationale);
  json descriptions = json::array();
  for (const std::string& name : names) descriptions.push_back(syntax::type_summary(name));
  return json{{"enum", names}, {"enumDescriptions", descriptions}};
}

json shape_schema(const KeyRow& row) {
  const std::string section = def_name(row.section);
  switch (row.shape) {
    case Shape::any:
      return json::object();
    case Shape::scalar:
      return ref("scalar");
    case Shape::boolean:
      return json{{"type", "boolean"}};
    case Shape::format_version:
      return json{{"enum", json::array({oldest_rule_format_version, rule_format_version})},
                  {"enumDescriptions",
                   json::array({"format 1: `/` of two integers rounds toward negative infinity",
                                "format 2: `/` is Python 3's true division, `//` floor division"})}};
    case Shape::value:
      return ref("value");
    case Shape::scalar_or_scalars:
      return json{{"anyOf", {ref("scalar"), array_of(ref("scalar"))}}};
    case Shape::scalars:
      return array_of(ref("scalar"));
    case Shape::input_type:
      return type_enum(false);
    case Shape::field_type:
      return type_enum(true);
    case Shape::section:
      return ref(section);
    case Shape::sections:
      return array_of(ref(section));
    case Shape::named_sections:
      return map_of(ref(section));
    case Shape::named_section_lists:
      return map_of(array_of(ref(section)));
    case Shape::named_tables:
      return map_of(json{{"anyOf", {array_of(ref("rule")), ref(section)}}});
    case Shape::named_scalars:
      return map_of(ref("scalar"));
    case Shape::named_values:
      return map_of(ref("value"));
    case Shape::named_lets: {  // an expression, a call (the row's section) or a search
      const std::string search = def_name(Section::let_search);
      return map_of(json{{"anyOf", {ref("value"), ref(section), ref(search)}}});
    }
    case Shape::conditions:
      return map_of(json{{"anyOf", {ref("value"), ref("matchers")}}});
  }
  return json::object();
}

json section_def(Section section) {
  json properties = json::object();
  json required = json::array();
  for (const KeyRow& row : load::keys(section)) {
    json property = shape_schema(row);
    property["description"] = row.summary;
    properties[row.key] = std::move(property);
    if (row.required) required.push_back(row.key);
  }
  json def = {{"type", "object"}, {"description", load::summary(section)}};
  def["properties"] = std::move(properties);
  if (!required.empty()) def["required"] = std::move(required);
  def["additionalProperties"] = false;
  return def;
}

// A file's schema: its top section, the sections below it, and the shared definitions.
json file_schema(const std::string& id, Section top, std::initializer_list<Section> below) {
  json schema = {{"$schema", kDialect}, {"$id", kIdBase + id}};
  const json top_def = section_def(top);
  schema["title"] = top_def["description"];
  schema["$ref"] = "#/$defs/" + def_name(top);
  json defs = json::object();
  defs[def_name(top)] = top_def;
  for (Section section : below) defs[def_name(section)] = section_def(section);
  defs["matchers"] = matchers_def();
  defs["scalar"] = scalar_def();
  defs["value"] = value_def();
  schema["$defs"] = std::move(defs);
  return schema;
}

// The JSON types of a declared type's kinds.
json json_types(detail::KindSet kinds) {
  constexpr std::array<std::pair<detail::Kind, const char*>, 6> kTypes = {
      {{detail::kNull, "null"},
       {detail::kBool, "boolean"},
       {detail::kInt, "integer"},
       {detail::kFloat, "number"},
       {detail::kString, "string"},
       {detail::kList, "array"}}};
  json types = json::array();
  for (const auto& [kind, name] : kTypes)
    if ((kinds & kind) != 0 && !(kind == detail::kInt && (kinds & detail::kFloat) != 0))
      types.push_back(name);
  return types;
}

}  // namespace

std::vector<std::string> schema_names() {
  std::vector<std::string> names;
  for (const SchemaName& s : kSchemaNames) names.emplace_back(s.name);
  return names;
}

std::optional<SchemaKind> parse_schema_name(std::string_view name) {
  for (const SchemaName& s : kSchemaNames)
    if (name == s.name) return s.kind;
  return std::nullopt;
}

json rule_file_schema() {
  return file_schema("rules", Section::rule_file,
                     {Section::input, Section::record_field, Section::let_call, Section::let_search,
                      Section::search, Section::search_constraint, Section::search_tier,
                      Section::search_failure, Section::rule, Section::fallback, Section::table,
                      Section::invariant});
}

json rule_test_schema() {
  json schema = file_schema("tests", Section::test_file, {Section::test});
  schema["$defs"].erase("matchers");  // test files have no conditions
  return schema;
}

json record_schema(const RuleSet& rules) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  json properties = json::object();
  json required = json::array();
  for (const detail::CompiledField& field : compiled.fields) {
    json property = {{"type", json_types(field.type.kinds)}};
    if ((field.type.kinds & detail::kList) != 0 && field.type.element_kinds != detail::kAny)
      property["items"] = json{{"type", json_types(field.type.element_kinds)}};
    properties[field.name] = std::move(property);
    required.push_back(field.name);
  }
  json record = {
      {"type", "object"},
      {"description", "a record of " + compiled.file_name + ", fields in declaration order"},
      {"properties", std::move(properties)},
      {"required", std::move(required)}};
  // Front ends may add keys (`--trace` adds "rules" and "trace"); the fields are fixed.
  json error = {{"type", "object"},
                {"description", "the line of a batch run whose inputs the rules refused"},
                {"properties", {{"error", {{"type", "string"}}}}},
                {"required", {"error"}},
                {"additionalProperties", false}};
  return json{{"$schema", kDialect},
              {"$id", std::string(kIdBase) + "record"},
              {"title", "an snnplan record, or a batch run's error line"},
              {"oneOf", {ref("record"), ref("error_line")}},
              {"$defs", {{"record", std::move(record)}, {"error_line", std::move(error)}}}};
}

std::string schema_text(const json& schema) {
  return schema.dump(2) + "\n";
}

}  // namespace snnplan::render
