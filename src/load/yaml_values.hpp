#pragma once
// YAML text of plain data (a file of inputs, such as the language server's input.yaml) as a
// JSON value, so it goes through the same conversion to inputs as JSON input does
// (request/json_inputs.hpp). Read with the rule files' YAML reader (load/yaml_document.hpp),
// its plain scalars as rule files read literals: `8` is an int, `true` a bool, '8' a string.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <variant>

namespace snnplan::load {

/// The first (and only) YAML document of `text` as JSON (JSON is YAML too); or, when the text
/// is not YAML or nests deeper than 16 levels, yaml-cpp's positioned message
/// ("yaml-cpp: error at line 1, column 3: ..."). A null document is JSON null.
std::variant<nlohmann::json, std::string> yaml_to_json(std::string_view text);

}  // namespace snnplan::load
