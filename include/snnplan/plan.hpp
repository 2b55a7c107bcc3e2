#pragma once
/// \file
/// The full distributed plan a launcher runs: the reference's SNNDistributedTopology,
/// DistributedFeatureSet and SNNDistributedPlan. The decisions (mode override, optimizer
/// strategy, mesh shape) are made by the rule file rules/snn_plan.yaml, which calls the
/// recommendation rules; this header is its typed face.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "snnplan/recommendation.hpp"  // RuleError, InputError
#include "snnplan/rule_set.hpp"
#include "snnplan/value.hpp"

namespace snnplan {

/// An ordered mapping from mesh dimension name to size, and the world size they multiply to.
/// Always valid: every constructor checks and throws InputError with one message per kind
/// of violation, naming the dimension.
class Topology {
 public:
  struct Dimension {
    std::string name;
    std::int64_t size = 0;
    friend bool operator==(const Dimension&, const Dimension&) = default;
  };

  /// Valid when: world_size (if given) is positive; there is at least one dimension; every
  /// name is non-empty and given once; every size is positive; the sizes multiply to the
  /// world size (without one, the world size is their product).
  /// Example: `Topology({{"dp", 4}, {"tp", 2}}).world_size() == 8`.
  explicit Topology(std::vector<Dimension> dims, std::optional<std::int64_t> world_size = std::nullopt);

  /// The same checks for loosely typed values (JSON): a size or world size may be an
  /// integer or a whole-number float (4.0 is 4); 4.5, booleans, strings and the rest are
  /// refused. A null world size means "not given".
  static Topology from_values(const std::vector<std::pair<std::string, Value>>& dims,
                              const Value& world_size = Value());

  /// Parses "dp=4,tp=2" (spaces around names and sizes are ignored). Throws InputError for
  /// text that is not NAME=SIZE[,NAME=SIZE...] (empty entries, missing or non-integer sizes,
  /// a name given twice) and for a topology that fails the checks above.
  static Topology parse(std::string_view text, std::optional<std::int64_t> world_size = std::nullopt);

  /// The dimensions in the order given.
  [[nodiscard]] const std::vector<Dimension>& dims() const noexcept { return dims_; }
  [[nodiscard]] std::int64_t world_size() const noexcept { return world_size_; }
  /// dp, tp, pp, vpp first (those present, in that order), then the others in given order.
  [[nodiscard]] std::vector<std::string> ordered_dim_names() const;
  /// The sizes in ordered_dim_names() order.
  [[nodiscard]] std::vector<std::int64_t> mesh_shape() const;
  /// The size of dimension `name`, if there is one.
  [[nodiscard]] std::optional<std::int64_t> size_of(std::string_view name) const noexcept;
  /// "dp=4,tp=2", in the order given (parse() reads it back).
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const Topology&, const Topology&) = default;

 private:
  std::vector<Dimension> dims_;
  std::int64_t world_size_ = 0;
};

/// The reference's DistributedFeatureSet: which optional features a plan may use.
struct FeatureSet {
  bool allow_experimental_conv_tp = false;
  bool allow_experimental_spikformer_tp = false;
  bool allow_pipeline = true;
  bool allow_zero_optimizer = true;

  /// The four flag names, in declaration order.
  static const std::vector<std::string>& names();
  /// The flag called `name`; throws InputError naming the closest flag for an unknown name.
  [[nodiscard]] bool get(std::string_view name) const;
  void set(std::string_view name, bool value);

  friend bool operator==(const FeatureSet&, const FeatureSet&) = default;
};

/// The 20 fields of the reference's SNNDistributedPlan, in its order.
struct Plan {
  std::string mode;
  std::string objective;
  Topology topology;
  std::string model_family;
  std::string backend;
  std::int64_t batch_size = 0;
  std::string optimizer_strategy;
  std::int64_t memopt_level = 0;
  std::vector<std::string> rationale;
  std::vector<std::string> notes;
  std::optional<std::vector<std::string>> tensor_parallel_roots;
  std::optional<std::vector<std::int64_t>> mesh_shape;
  std::int64_t tp_mesh_dim = 0;
  std::optional<std::int64_t> dp_mesh_dim;
  std::optional<std::int64_t> pp_microbatches;
  std::string pp_schedule = "1f1b";
  std::int64_t pp_virtual_stages = 1;
  std::optional<std::vector<std::int64_t>> pp_layout;
  bool pp_delay_wgrad = false;
  FeatureSet experimental_features;

  friend bool operator==(const Plan&, const Plan&) = default;
};

/// What the caller knows besides objective, topology and batch size.
struct PlanOptions {
  std::string backend = "inductor";
  std::string model_family = "generic";
  /// Mode override (none, dp, tp, fsdp2, fsdp2_tp; case-insensitive); unset: the recommended mode.
  std::optional<std::string> mode;
  FeatureSet features;
  /// The model's tensor-parallel root module names, carried into the plan.
  std::optional<std::vector<std::string>> tensor_parallel_roots;
  /// Whether the model has any layer tensor parallelism can shard.
  bool tensor_parallel_candidates = true;
  /// Analysis notes carried into the plan's notes.
  std::vector<std::string> notes;
};

/// The built-in plan rules, compiled from rules/snn_plan.yaml (which uses the built-in
/// rules/snn_distributed.yaml). Built on first use.
const RuleSet& plan_rules();

/// The inputs plan() gives the rules: objective, world_size, dims (ordered dimension names),
/// topology_mesh_shape, backend, batch_size, model_family, mode, allow_zero_optimizer,
/// tp_candidates, notes. For RuleSet::explain() of a plan.
Inputs plan_inputs(const std::string& objective, const Topology& topology, std::int64_t batch_size,
                   const PlanOptions& options = {});

/// Typed view of a record produced by plan rules, completed with what the rules do not
/// decide (topology, feature set, tensor-parallel roots). Throws InputError when a field is
/// missing or has another type.
Plan to_plan(const Record& record, const Topology& topology, const PlanOptions& options);

/// The distributed plan for `objective` (speed, memory, capacity; case-insensitive) on
/// `topology`, evaluated by `rules` (the built-in plan rules by default).
/// Example: `snnplan::plan("memory", Topology::parse("dp=4,tp=2"), 64).mode == "fsdp2_tp"`.
/// Throws RuleError when the rules refuse (unknown objective or mode, pp override, tensor
/// parallelism without candidates) and InputError for unusable inputs.
Plan plan(const std::string& objective, const Topology& topology, std::int64_t batch_size,
          const PlanOptions& options = {}, const RuleSet& rules = plan_rules());

}  // namespace snnplan
