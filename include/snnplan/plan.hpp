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
#include <variant>
#include <vector>

#include "snnplan/recommendation.hpp"  // RuleError, InputError
#include "snnplan/rule_set.hpp"
#include "snnplan/value.hpp"

namespace snnplan {

/// A topology or feature set upstream refuses, with upstream's message; an InputError (exit
/// code 2 for the CLI). The Python module raises the exception class upstream raises.
class PlanInputError : public InputError {
 public:
  enum class Python { type_error, value_error };
  PlanInputError(const std::string& message, Python python)
      : InputError(message), python_(python) {}
  [[nodiscard]] Python python() const noexcept { return python_; }

 private:
  Python python_;
};

/// A topology as a caller gives it, before any check: dimension names and loosely typed
/// sizes in the order given (upstream's `Mapping[str, int]`, a JSON object's members).
using TopologyMapping = std::vector<std::pair<std::string, Value>>;

/// An ordered mapping from mesh dimension name to size, and the world size they multiply to:
/// upstream's SNNDistributedTopology. Always valid: every constructor runs upstream's checks
/// in upstream's order and throws InputError with upstream's message (TypeError and
/// ValueError texts alike), or with a 64-bit error where upstream would hold a world size
/// of 2^63 or more.
class Topology {
 public:
  struct Dimension {
    std::string name;
    std::int64_t size = 0;
    friend bool operator==(const Dimension&, const Dimension&) = default;
  };

  /// SNNDistributedTopology(world_size, dims): world_size defaults to the sizes' product
  /// (as from_mapping computes it). Checked in upstream's __post_init__ order: world_size
  /// positive, dims not empty, then each dimension's name non-empty and size positive, then
  /// the product against world_size. A name given twice is refused.
  /// Example: `Topology({{"dp", 4}, {"tp", 2}}).world_size() == 8`.
  explicit Topology(std::vector<Dimension> dims,
                    std::optional<std::int64_t> world_size = std::nullopt);

  /// SNNDistributedTopology.from_mapping(dims, world_size=...): each size must be an int or
  /// a whole-number float (4.0 is 4; bool, 4.5, str, null and lists are TypeErrors), then
  /// world_size likewise when it is not null, then the checks above. Products and sizes are
  /// exact at any size, as Python's are.
  static Topology from_mapping(const TopologyMapping& dims, const Value& world_size = Value());

  /// SNNDistributedTopology(world_size=..., dims=...) on loosely typed fields, as upstream's
  /// __post_init__ checks them: world_size and every size must be an int (a bool or float is
  /// a TypeError), then the checks of the constructor above, each dimension's type checked
  /// in its turn. For front ends whose callers build the topology object themselves.
  static Topology from_fields(const TopologyMapping& dims, const Value& world_size);

  /// Parses "dp=4,tp=2" (spaces around names and sizes are ignored) into a mapping. Throws
  /// InputError for text that is not NAME=SIZE[,NAME=SIZE...] (empty entries, missing or
  /// non-integer sizes, a name given twice); the sizes are checked by from_mapping().
  static TopologyMapping parse_mapping(std::string_view text);
  /// from_mapping(parse_mapping(text), world_size).
  static Topology parse(std::string_view text,
                        std::optional<std::int64_t> world_size = std::nullopt);

  /// The dimensions in the order given.
  [[nodiscard]] const std::vector<Dimension>& dims() const noexcept { return dims_; }
  [[nodiscard]] std::int64_t world_size() const noexcept { return world_size_; }
  /// False for a topology whose world size is 2^63 or more. Upstream holds such a topology
  /// (Python's ints are unbounded) and plan() goes on to its later checks, so one is held
  /// here too, with each size that does not fit in 64 bits read as a stand-in: the largest
  /// int64 of the same parity (beyond every threshold a rule compares with, odd or even as
  /// the real size is). A plan for it is refused: see require_64_bits().
  [[nodiscard]] bool fits_64_bits() const noexcept { return beyond_64_bits_.empty(); }
  /// Throws PlanInputError (ValueError) naming the dims and the exact world size when the
  /// topology does not fit in 64 bits: snnplan's plans hold 64-bit world sizes.
  void require_64_bits() const;
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
  Topology() = default;
  Topology(std::vector<Dimension> dims, std::int64_t world_size, std::string beyond_64_bits)
      : dims_(std::move(dims)), world_size_(world_size), beyond_64_bits_(std::move(beyond_64_bits)) {}
  std::vector<Dimension> dims_;
  std::int64_t world_size_ = 0;
  std::string beyond_64_bits_;  // the refusal's text when the world size does not fit; else empty
};

/// The feature flags a caller sets, by name, in order: DistributedFeatureSet(**flags).
using FeatureFlags = std::vector<std::pair<std::string, bool>>;

/// The reference's DistributedFeatureSet: which optional features a plan may use. Its flags
/// and their defaults are not fixed here: the plan rules declare them, as their `bool`
/// inputs whose names start with `allow_` (rules/snn_plan.yaml), and report them in the
/// plan as their record's `allow_*` fields, so a rule file can add or drop one.
class FeatureSet {
 public:
  /// The names of the flags start so.
  static constexpr std::string_view kPrefix = "allow_";

  struct Flag {
    std::string name;
    bool value = false;
    friend bool operator==(const Flag&, const Flag&) = default;
  };

  /// No flags.
  FeatureSet() = default;
  /// The flags `plan_rules` declares, in their order, at their defaults.
  static FeatureSet declared_by(const RuleSet& plan_rules);
  /// declared_by(plan_rules) with `given` set in order; a name it does not declare throws
  /// InputError with upstream's TypeError text
  /// ("DistributedFeatureSet.__init__() got an unexpected keyword argument 'bogus'").
  static FeatureSet of(const RuleSet& plan_rules, const FeatureFlags& given);

  [[nodiscard]] const std::vector<Flag>& flags() const noexcept { return flags_; }
  /// The flag called `name`, if declared.
  [[nodiscard]] std::optional<bool> get(std::string_view name) const noexcept;
  /// Sets a declared flag; another name throws InputError as of() does.
  void set(std::string_view name, bool value);
  /// Declares one more flag.
  void add(std::string name, bool value) { flags_.push_back(Flag{std::move(name), value}); }

  friend bool operator==(const FeatureSet&, const FeatureSet&) = default;

 private:
  std::vector<Flag> flags_;
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
  /// Unset or empty: "generic" (upstream's `model_family or "generic"`, in the plan rules).
  std::optional<std::string> model_family;
  /// Mode override (none, dp, tp, fsdp2, fsdp2_tp; case-insensitive); unset: the recommended mode.
  std::optional<std::string> mode;
  /// The feature flags set; the others keep the plan rules' defaults.
  FeatureFlags features;
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
/// topology_mesh_shape, backend, batch_size, model_family, mode, the feature flags,
/// tp_candidates, notes. For RuleSet::explain() of a plan.
Inputs plan_inputs(const std::string& objective, const Topology& topology, std::int64_t batch_size,
                   const FeatureSet& features, const PlanOptions& options = {});

/// Typed view of a record produced by plan rules (experimental_features: its allow_* bool
/// fields), completed with what the rules do not decide (topology, tensor-parallel roots).
/// Throws InputError when a field is missing or has another type.
Plan to_plan(const Record& record, const Topology& topology, const PlanOptions& options);

/// upstream's plan(): the distributed plan for `objective` (speed, memory, capacity;
/// case-insensitive) on `topology`, evaluated by `rules` (the built-in plan rules by
/// default). `topology` is a checked Topology, or a mapping checked here as
/// Topology::from_mapping() checks it. The order of the checks is upstream's: the feature
/// flags (DistributedFeatureSet(**flags), which a caller builds first), the objective, the
/// topology mapping, then the rules' own (mode, hybrid dimensions, candidates).
/// Example: `snnplan::plan("memory", Topology::parse("dp=4,tp=2"), 64).mode == "fsdp2_tp"`.
/// Throws RuleError when the rules refuse (unknown objective or mode, pp, fsdp2_tp without
/// dp and tp, tensor parallelism without candidates) and InputError for unusable inputs (the
/// topology's and the feature set's refusals).
Plan plan(const std::string& objective, const std::variant<Topology, TopologyMapping>& topology,
          std::int64_t batch_size, const PlanOptions& options = {},
          const RuleSet& rules = plan_rules());

}  // namespace snnplan
