#pragma once
// Stage 5 of the pipeline: a record as JSON, YAML or text for people.

#include <nlohmann/json.hpp>

#include <string>

#include "snnplan/evaluation.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::render {

enum class Format { json, yaml, text };

/// The record as a JSON object, fields in declaration order (None -> null, tuples -> arrays).
nlohmann::ordered_json to_json(const Record& record);
nlohmann::ordered_json to_json(const Value& value);

/// One JSON line (no newline); invalid UTF-8 is replaced rather than throwing.
std::string json_line(const nlohmann::ordered_json& value);

/// Appends json_line(to_json(record)) to `out`, byte for byte the same, without building the
/// JSON tree (the batch loop's hot path: most fields are plain ASCII written as they are).
void append_json_line(std::string& out, const Record& record);
/// The same for an evaluation's views (precondition: evaluation.ok()).
void append_json_line(std::string& out, const Evaluation& evaluation);

std::string to_yaml(const Record& record);
std::string to_text(const Record& record);

/// Renders `record` in `format`, ending with a newline.
std::string render(const Record& record, Format format);

}  // namespace snnplan::render
