#pragma once
// A Plan as JSON, YAML or text, and one `snnplan plan --batch` JSON line as a plan request.
// Internal: nlohmann types stay out of the public headers.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <variant>

#include "snnplan/plan.hpp"

namespace snnplan::plan_io {

/// {"world_size": 8, "dims": {"dp": 4, "tp": 2} (given order), "mesh_shape": [4, 2]}.
nlohmann::ordered_json to_json(const Topology& topology);
/// The four flags as an object, in declaration order.
nlohmann::ordered_json to_json(const FeatureSet& features);
/// The 20 fields in the reference's order; tuples as arrays, None as null.
nlohmann::ordered_json to_json(const Plan& plan);

std::string to_yaml(const Plan& plan);
/// Scalars aligned one per line, then rationale and notes as bullet lists.
std::string to_text(const Plan& plan);

/// The arguments of one snnplan::plan() call.
struct Request {
  std::string objective;
  Topology topology;
  std::int64_t batch_size = 0;
  PlanOptions options;
};

/// The input keys: objective, topology (object of sizes, in order), world_size, backend,
/// batch_size, model_family, mode, features (object of flags), tp_roots, tp_candidates,
/// notes. Returns the request or the message for the bad-input error line.
std::variant<Request, std::string> request_from_json(const nlohmann::ordered_json& object);

/// Parses one line (keeping the order of object keys; a key given twice is refused).
std::variant<Request, std::string> request_from_json_line(const std::string& line);

}  // namespace snnplan::plan_io
