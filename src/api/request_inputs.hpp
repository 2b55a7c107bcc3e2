#pragma once
// The inputs of a recommend request, one row each, in the order of the reference's arguments
// (recommend_snn_distributed_strategy()): what snnplan::recommend() passes, the CLI's flags of
// `recommend` and `explain`, the inputs `--probe-torch` probes, and the Python drop-in's
// parameters and the availability names of snnplan.torch read these rows, so a new input is one
// row here (and one `inputs:` entry of rules/snn_distributed.yaml, which types and defaults it).
// Plan requests have theirs in request/plan_request.hpp (kPlanKeys); a plan-training request's inputs
// are its rule file's.

#include <array>
#include <cstddef>
#include <string_view>

namespace snnplan {

struct RequestInput {
  std::string_view name;  ///< the rules' input, the JSON key and the Python keyword
  std::string_view type;  ///< "string", "int" or "bool", as the rule file declares it
  std::string_view flag;  ///< the CLI flag
  std::string_view help;  ///< the flag's help
  /// A required (positional) argument of the reference; the others default to the rules'
  /// default (Python: backend="inductor", the availabilities None).
  bool required = false;
  /// An availability PyTorch is probed for (`--probe-torch`, the Python constants) when the
  /// request leaves it out.
  bool probed = false;
};

inline constexpr std::array<RequestInput, 9> kRecommendInputs = {{
    {"model", "string", "--model", "model name, e.g. spikformer_8_384 or cifar10dvs_vgg", true, false},
    {"world_size", "int", "--world-size", "number of ranks (GPUs)", true, false},
    {"prefer", "string", "--prefer", "speed, memory or capacity (case-insensitive)", true, false},
    {"batch_size", "int", "--batch-size", "global batch size", true, false},
    {"backend", "string", "--backend", "compiler backend (default from the rules: inductor)", false, false},
    {"zero_redundancy_optimizer_available", "bool", "--zero-redundancy-optimizer-available",
     "true|false (default from the rules: true)", false, true},
    {"pipelining_available", "bool", "--pipelining-available", "true|false (default from the rules: true)", false,
     true},
    {"fsdp2_available", "bool", "--fsdp2-available", "true|false (default from the rules: true)", false, true},
    {"tensor_parallel_available", "bool", "--tensor-parallel-available", "true|false (default from the rules: true)",
     false, true},
}};

/// How many rows are probed (the availabilities), and their names in row order.
inline constexpr std::size_t kProbedInputCount = [] {
  std::size_t n = 0;
  for (const RequestInput& input : kRecommendInputs) n += input.probed ? 1 : 0;
  return n;
}();
inline constexpr std::array<std::string_view, kProbedInputCount> kProbedInputs = [] {
  std::array<std::string_view, kProbedInputCount> out{};
  std::size_t n = 0;
  for (const RequestInput& input : kRecommendInputs)
    if (input.probed) out[n++] = input.name;
  return out;
}();

}  // namespace snnplan
