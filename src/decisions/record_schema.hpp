#pragma once
// The JSON Schema (draft 2020-12) of a decision-log line: `snnplan schema decision-log`,
// installed beside the other schemas. Built from record_json.hpp's keys, so the schema and the
// writer cannot name different fields.

#include <nlohmann/json.hpp>

namespace snnplan::decisions {

nlohmann::ordered_json record_schema();

}  // namespace snnplan::decisions
