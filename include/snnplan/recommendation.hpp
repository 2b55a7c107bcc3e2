#pragma once
/// \file
/// The typed face of the default rules: the reference's SNNDistributedRecommendation and
/// recommend_snn_distributed_strategy().

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan {

/// The 16 fields of the reference's SNNDistributedRecommendation, in its order.
struct Recommendation {
  std::string prefer;
  std::string model;
  std::int64_t world_size = 0;
  std::string mode;
  std::string optimizer_sharding = "none";
  std::int64_t memopt_level = 0;
  std::optional<std::vector<std::int64_t>> mesh_shape;
  std::int64_t tp_mesh_dim = 0;
  std::optional<std::int64_t> dp_mesh_dim;
  std::optional<std::int64_t> pp_microbatches;
  double pp_memopt_stage_budget_ratio = 0.5;
  std::string pp_schedule = "1f1b";
  std::int64_t pp_virtual_stages = 1;
  std::optional<std::vector<std::int64_t>> pp_layout;
  bool pp_delay_wgrad = false;
  std::vector<std::string> rationale;

  friend bool operator==(const Recommendation&, const Recommendation&) = default;
};

/// The reference's optional parameters. An unset flag takes the rule file's default (true).
struct RecommendOptions {
  std::string backend = "inductor";
  std::optional<bool> zero_redundancy_optimizer_available;
  std::optional<bool> pipelining_available;
  std::optional<bool> fsdp2_available;
  std::optional<bool> tensor_parallel_available;
};

/// Raised where the reference raises ValueError; what() is the same message.
class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Raised when inputs are unusable (wrong type, missing) or a record lacks a field.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Typed view of a record produced by rules with the reference's schema.
/// Throws InputError when a field is missing or has another type.
Recommendation to_recommendation(const Record& record);

/// recommend_snn_distributed_strategy() over `rules` (the built-in table by default).
/// Example: `snnplan::recommend("spikformer", 8, "memory", 64).mode == "fsdp2_tp"`.
/// Throws RuleError (reference ValueError) or InputError.
Recommendation recommend(const std::string& model, std::int64_t world_size,
                         const std::string& prefer, std::int64_t batch_size,
                         const RecommendOptions& options = {},
                         const RuleSet& rules = RuleSet::builtin());

}  // namespace snnplan
