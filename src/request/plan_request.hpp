#pragma once
// A plan request read once for every front end: which fields there are, in which order they
// are read (so the first problem reported is the same everywhere), their defaults, and how
// they make the arguments of snnplan::plan(). Each front end supplies a PlanFields that
// converts its own form of a field (a JSON value, a command-line flag, a Python object) and
// words its own refusals.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "snnplan/plan.hpp"

namespace snnplan::request {

/// The arguments of one snnplan::plan() call.
struct PlanRequest {
  std::string objective;
  /// With a world size, the topology is built (and checked) while the request is read, as
  /// a caller of upstream's plan() builds SNNDistributedTopology.from_mapping(dims,
  /// world_size=W) first; without one, plan() checks the mapping after the objective.
  std::variant<Topology, TopologyMapping> topology;
  std::int64_t batch_size = 0;
  PlanOptions options;
};

/// The fields of a request, named as a `snnplan plan --batch` line's keys: objective,
/// topology, world_size, backend, batch_size, model_family, mode, features, tp_roots,
/// tp_candidates, notes.
const std::vector<std::string>& plan_request_keys();

/// One front end's form of a request. A getter is called only for a field that is required
/// (objective, batch_size) or given(); it throws in the front end's own terms when the value
/// is missing or cannot be read.
class PlanFields {
 public:
  virtual ~PlanFields() = default;
  /// Called first, with plan_request_keys(): refuses a key that names no field (forms whose
  /// keys are free, as a JSON object's are).
  virtual void refuse_unknown_keys(const std::vector<std::string>& keys) { (void)keys; }
  /// Whether the field is given (null or None counts as not given: the default).
  virtual bool given(std::string_view key) = 0;
  virtual std::string text(std::string_view key) = 0;
  virtual std::vector<std::string> texts(std::string_view key) = 0;
  virtual std::int64_t integer(std::string_view key) = 0;
  virtual bool flag(std::string_view key) = 0;
  /// topology (required) as a mapping, and world_size (optional; null: not given).
  virtual TopologyMapping topology() = 0;
  virtual Value world_size() = 0;
  /// The feature flags given, in order (the others keep the rules' defaults).
  virtual FeatureFlags features() = 0;
};

/// Reads a request from `fields`: objective, topology (built with world_size when one is
/// given), batch_size, then backend, model_family, mode, features, tp_roots, tp_candidates
/// and notes when given. Lets the getters' exceptions through.
PlanRequest read_plan_request(PlanFields& fields);

/// One `snnplan plan --batch` line (object keys in order; a key given twice is refused).
/// Returns the request or the message for the bad-input error line.
std::variant<PlanRequest, std::string> plan_request_from_json_line(const std::string& line);

/// The outcome of planning one JSON line, as `plan --batch` and snnplan_plan() report it.
struct PlannedLine {
  enum class Kind { ok, rule_error, bad_input };
  Kind kind = Kind::ok;
  /// ok: the plan as one JSON line; otherwise the error message.
  std::string text;
};

/// Reads one line and plans it with `rules`. Throws only what the rules cannot help
/// (std::bad_alloc and the like).
PlannedLine plan_json_line(const std::string& line, const RuleSet& rules);

}  // namespace snnplan::request
