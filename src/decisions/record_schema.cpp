#include "decisions/record_schema.hpp"

#include <string>

#include "decisions/record_json.hpp"
#include "snnplan/decision_log.hpp"

namespace snnplan::decisions {
namespace {

using json = nlohmann::ordered_json;

json described(json schema, const char* description) {
  schema["description"] = description;
  return schema;
}

json hex_string(int digits, const char* description) {
  return described({{"type", "string"}, {"pattern", "^[0-9a-f]{" + std::to_string(digits) + "}$"}},
                   description);
}

json string_list(const char* description) {
  return described({{"type", "array"}, {"items", {{"type", "string"}}}}, description);
}

json fired_rules() {
  return described({{"type", "array"}, {"items", {{"type", "string"}, {"pattern", "^[^/]+/.+$"}}}},
                   "the fired rules as table/rule, in firing order (a called rule set's too)");
}

json answer() {
  return described({{"type", {"object", "null"}}},
                   "the record, fields in the rule file's order (its schema: snnplan schema record "
                   "--rules FILE), or null when the evaluation stopped with an error");
}

json error() {
  json kind = {{"enum", {"rule_error", "bad_input"}},
               {"description", "rule_error: the rules refused the inputs (an error: rule, a builtin's "
                               "documented error); bad_input: inputs the rules cannot take"}};
  return described({{"oneOf",
                     {{{"type", "null"}},
                      {{"type", "object"},
                       {"properties", {{"kind", std::move(kind)}, {"message", {{"type", "string"}}}}},
                       {"required", {"kind", "message"}},
                       {"additionalProperties", false}}}}},
                   "null, or why the evaluation stopped");
}

json shadow() {
  return described({{"type", "object"},
                    {"properties",
                     {{key::rules_sha256, hex_string(64, "the candidate rule set's revision")},
                      {key::rules_file, described({{"type", "string"}}, "the candidate rule file")},
                      {key::answer, answer()},
                      {key::error, error()},
                      {key::rules, fired_rules()}}},
                    {"required", {key::rules_sha256, key::rules_file, key::answer, key::error, key::rules}},
                    {"additionalProperties", false}},
                   "shadow mode: the candidate's answer to the same inputs, written only when the "
                   "two disagree");
}

}  // namespace

json record_schema() {
  json properties = {
      {key::format, described({{"const", decision_log_format}},
                              "the record's format: replay refuses records of any other")},
      {key::decision_id, hex_string(32, "names this decision: 128 random bits")},
      {key::timestamp,
       described({{"type", "string"}, {"format", "date-time"}}, "when the decision was made, RFC 3339 in UTC")},
      {key::rules_sha256, hex_string(64, "the revision of the rules that answered: the SHA-256 of the rule "
                                         "file's bytes (as snnplan --version prints it for the built-in "
                                         "files); with uses:, of the file and the files it uses")},
      {key::rules_file, described({{"type", "string"}}, "the rule file, as it was loaded (a path, or the "
                                                         "built-in file's name)")},
      {key::builtin, described({{"type", "boolean"}}, "the rules are a built-in rule file (replay finds "
                                                       "them in the program, not on disk)")},
      {key::labels, described({{"type", "object"}, {"additionalProperties", {{"type", "string"}}}},
                              "what the launcher set: host, job, rank, ...")},
      {key::inputs, described({{"type", "object"}},
                              "the inputs as given (those left out took the rule file's defaults); a "
                              "masked input's value is \"<masked>\", a dropped one is left out")},
      {key::masked, string_list("the inputs masked or dropped (present only when there are any): replay "
                                "cannot re-evaluate such a record")},
      {key::answer, answer()},
      {key::error, error()},
      {key::rules, fired_rules()},
      {key::eval_us, described({{"type", "number"}, {"minimum", 0}}, "how long the evaluation took, in "
                                                                     "microseconds")},
      {key::shadow, shadow()},
  };
  return json{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
              {"$id", "urn:snnplan:schema:decision-log"},
              {"title", "a line of an snnplan decision log (SNNPLAN_DECISION_LOG, DecisionLog)"},
              {"type", "object"},
              {"properties", std::move(properties)},
              {"required",
               {key::format, key::decision_id, key::timestamp, key::rules_sha256, key::rules_file, key::builtin,
                key::labels, key::inputs, key::answer, key::error, key::rules, key::eval_us}},
              {"additionalProperties", false}};
}

}  // namespace snnplan::decisions
