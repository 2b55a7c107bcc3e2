#pragma once
// JSON for the front ends that speak it: records, plans, traces and diagnostics as JSON values,
// one-line JSON text, and the batch loop's direct writer. Internal: nlohmann types stay out of
// the public headers.

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::render {

/// The record as a JSON object, fields in declaration order (None -> null, tuples -> arrays).
nlohmann::ordered_json to_json(const Record& record);
nlohmann::ordered_json to_json(const Value& value);

/// {"world_size": 8, "dims": {"dp": 4, "tp": 2} (given order), "mesh_shape": [4, 2]}.
nlohmann::ordered_json to_json(const Topology& topology);
/// The four flags as an object, in declaration order.
nlohmann::ordered_json to_json(const FeatureSet& features);
/// The 20 fields in the reference's order; tuples as arrays, None as null.
nlohmann::ordered_json to_json(const Plan& plan);

/// The steps as `explain --format json` and `recommend --trace` show them.
nlohmann::ordered_json to_json(const std::vector<TraceStep>& steps);

/// Adds "rules" (fired_rule_path(steps)) and "trace" (to_json(steps)) to a JSON object: what
/// a `--trace` batch line carries after its record or error.
void add_rule_path(nlohmann::ordered_json& line, const std::vector<TraceStep>& steps);

/// {"file", "line", "column", "severity", "code", "message"}, as `check --format json` lists it.
nlohmann::ordered_json to_json(const Diagnostic& diagnostic);

/// Indented JSON text ending with a newline, as the json format prints documents; invalid
/// UTF-8 is replaced rather than throwing.
std::string pretty(const nlohmann::ordered_json& value);

/// One JSON line (no newline); invalid UTF-8 is replaced rather than throwing.
std::string json_line(const nlohmann::ordered_json& value);

/// {"error": message} as one line: the error line of batch runs and the C API.
std::string error_line(const std::string& message);
/// Appends {"error": message} or, with a line number, {"error": message, "line": N}: the same
/// bytes as json_line() of that object, without the JSON tree.
void append_error_line(std::string& out, std::string_view message,
                       std::optional<std::size_t> line = std::nullopt);

/// Appends json_line(to_json(record)) to `out`, byte for byte the same, without building the
/// JSON tree (the batch loop's hot path: most fields are plain ASCII written as they are).
void append_json_line(std::string& out, const Record& record);
/// The same for an evaluation's views (precondition: evaluation.ok()).
void append_json_line(std::string& out, const Evaluation& evaluation);
/// Appends pretty(to_json(record)) without its newline, byte for byte the same, without the
/// JSON tree (a CLI run's one record: ~35k instructions and their allocations saved).
void append_json_indented(std::string& out, const Record& record);
/// append_json_line() for the evaluations of one rule set, one after another (`recommend
/// --batch`): the field names are escaped once, and a float repeated from the last is not
/// formatted again. The same bytes.
class RecordLineWriter {
 public:
  /// For records with these field names (Evaluation::names(), in order).
  explicit RecordLineWriter(std::span<const std::string> names);
  /// Appends the record of `values` (one per name) as one JSON line, without the newline.
  void append(std::string& out, std::span<const ValueView> values);

 private:
  std::vector<std::string> keys_;  // {"name": for the first field, ,"name": for the others
  double last_float_ = 0;
  std::string last_float_text_;
};

/// Appends json_line(to_json(plan)) to `out`, byte for byte the same (`plan --batch`'s lines).
void append_json_line(std::string& out, const Plan& plan);

}  // namespace snnplan::render
