#pragma once
// JSON text from launchers -> what the library takes: one JSON Lines object -> named inputs for
// a rule set (`recommend --batch`, snnplan_evaluate), and what every JSON line is checked for
// first. Shared by the CLI, the C API and the plan requests (request/plan_request.hpp).

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

#include "snnplan/rule_set.hpp"

namespace snnplan::request {

/// "an object", "an array", "a string", "a boolean", "null", "a float", "a number".
const char* json_kind(nlohmann::json::value_t type);

/// What makes `line` no JSON object before it is parsed (an empty line, a NUL byte), or "".
std::string line_problem(const std::string& line);

/// messages::batch_not_json for a JSON library exception's what(), without its
/// "[json.exception.parse_error.101] " prefix (operators need the rest).
std::string not_json(std::string what);


/// Converts a parsed JSON object. Keys are passed through (the rule set refuses unknown
/// ones); values must be strings, booleans, null, or numbers that fit the input's type.
/// Returns the inputs or a message for the bad-input error line.
std::variant<Inputs, std::string> inputs_from_json(const nlohmann::json& object, const RuleSet& rules);

/// Parses one line of text into inputs; the message names what is wrong.
std::variant<Inputs, std::string> inputs_from_json_line(const std::string& line, const RuleSet& rules);

}  // namespace snnplan::request
