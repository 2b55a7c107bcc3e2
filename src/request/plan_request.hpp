#pragma once
// A plan request read once for every front end: which fields there are, in which order they
// are read (so the first problem reported is the same everywhere), their defaults, and how
// they make the arguments of snnplan::plan(). Each front end supplies a PlanFields that
// converts its own form of a field (a JSON value, a command-line flag, a Python object) and
// words its own refusals.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "snnplan/explain.hpp"
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

/// A field of a plan request: its key (a `snnplan plan --batch` line's key, the Python
/// keyword), the CLI's flag with its placeholder and help. `--feature` and `--note` repeat,
/// one item each, where the line and Python give a mapping and a list.
struct PlanKey {
  std::string_view key;
  std::string_view flag;
  std::string_view placeholder;
  std::string_view help;
};

/// The fields of a plan request, in the order of `snnplan plan --help`: the table the CLI's
/// flags, the JSON line's keys and the Python module's plan() follow.
inline constexpr std::array<PlanKey, 11> kPlanKeys = {{
    {"objective", "--objective", "TEXT", "speed, memory or capacity (case-insensitive)"},
    {"topology", "--topology", "NAME=SIZE,...", "mesh dimensions and sizes, e.g. dp=4,tp=2"},
    {"world_size", "--world-size", "INT", "number of ranks (default: the product of the topology sizes)"},
    {"batch_size", "--batch-size", "INT", "global batch size"},
    {"model_family", "--model-family", "TEXT", "model family, e.g. cifar10dvs_vgg (default: generic)"},
    {"backend", "--backend", "TEXT", "compiler backend (default: inductor)"},
    {"mode", "--mode", "TEXT", "mode override: none, dp, tp, fsdp2 or fsdp2_tp (default: the recommended mode)"},
    {"tp_roots", "--tp-roots", "LIST", "tensor-parallel root module names, comma-separated"},
    {"tp_candidates", "--tp-candidates", "{yes,no}",
     "whether the model has tensor-parallel candidate layers (default: yes)"},
    {"features", "--feature", "NAME=BOOL", "NAME=true|false for a feature-set flag (repeatable)"},
    {"notes", "--note", "TEXT", "analysis note to carry into the plan (repeatable)"},
}};

/// The keys of kPlanKeys, in its order.
const std::vector<std::string>& plan_request_keys();
/// The row of `key`; throws std::logic_error for a key that is not a field.
const PlanKey& plan_key(std::string_view key);

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
  /// With `traced`: the steps of the plan rules' evaluation (empty when the line could not
  /// be read into a request). An ok line's text then ends with "rules" and "trace".
  std::vector<TraceStep> steps;
};

/// Reads one line and plans it with `rules`. With `traced` the plan rules are also explained
/// for the same inputs (`plan --batch --trace`). Throws only what the rules cannot help
/// (std::bad_alloc and the like).
PlannedLine plan_json_line(const std::string& line, const RuleSet& rules, bool traced = false);

}  // namespace snnplan::request
