#pragma once
// One JSON Lines input object -> named inputs for a rule set.

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

/// Converts a parsed JSON object. Keys are passed through (the rule set refuses unknown
/// ones); values must be strings, booleans, null, or numbers that fit the input's type.
/// Returns the inputs or a message for the bad-input error line.
std::variant<Inputs, std::string> inputs_from_json(const nlohmann::json& object, const RuleSet& rules);

/// Parses one line of text into inputs; the message names what is wrong.
std::variant<Inputs, std::string> inputs_from_json_line(const std::string& line, const RuleSet& rules);

}  // namespace snnplan::cli
