// The reference recommender written by hand; see baseline.hpp. Structure and strings follow
// shared/reference/seed_reference.py line by line, including the recursive capacity fallback.

#include "baseline.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

namespace baseline {
namespace {

using snnplan::Recommendation;
__extension__ typedef __int128 Wide;

constexpr std::string_view kSingleRankSpeed =
    "Single-rank run keeps the simplest local path with no distributed overhead.";
constexpr std::string_view kSingleRank =
    "Single-rank run falls back to local training and uses memopt for memory savings.";
constexpr std::string_view kSpeedFsdp2Tp =
    "Use fsdp2_tp on multi-GPU CIFAR10DVSVGG because current inductor benchmarks show the best global "
    "throughput there.";
constexpr std::string_view kSpeedDp =
    "Use data parallel training for the simplest throughput-oriented path, enabling ZeRO optimizer state "
    "sharding when available.";
constexpr std::string_view kMemoryFsdp2Tp =
    "Combine FSDP2 and TP to shard both parameters and activations, and enable memopt level 1 for the "
    "strongest memory reduction.";
constexpr std::string_view kMemoryTp =
    "Use tensor parallel with memopt level 1 when two-dimensional FSDP2+TP is unavailable.";
constexpr std::string_view kMemoryFsdp2 = "Fall back to FSDP2 with memopt level 1 when TP is unavailable.";
constexpr std::string_view kMemoryDp = "Fall back to DP + memopt level 1 because TP/FSDP2 are unavailable.";
constexpr std::string_view kPipelineSkipped =
    "Pipeline parallelism is skipped because the global batch is smaller than the number of physical stages.";
constexpr std::string_view kPipeline =
    "Use pipeline parallelism with memopt level 1 when capacity is the priority; prefer the more stable "
    "interleaved schedule by default when multiple virtual stages are available.";
constexpr std::string_view kPipelineInfeasible =
    "Pipeline parallelism is infeasible for this batch size, so capacity preference falls back to the "
    "strongest memory-oriented strategy.";
constexpr std::string_view kPipelineUnavailable =
    "Pipeline APIs are unavailable, so capacity preference falls back to the strongest memory-oriented "
    "strategy.";

std::string ascii_lower(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// _recommended_fsdp2_tp_mesh_shape()
std::optional<std::vector<std::int64_t>> fsdp2_tp_mesh_shape(std::int64_t world_size) {
  if (world_size < 4 || world_size % 2 != 0) return std::nullopt;
  return std::vector<std::int64_t>{world_size / 2, 2};
}

Recommendation base(const std::string& prefer, const std::string& model, std::int64_t world_size,
                    std::vector<std::string>&& rationale) {
  Recommendation r;
  r.prefer = prefer;
  r.model = model;
  r.world_size = world_size;
  r.rationale = std::move(rationale);
  return r;
}

}  // namespace

std::variant<std::int64_t, std::string> pipeline_microbatches_scan(std::int64_t batch_size, std::int64_t num_stages) {
  if (batch_size <= 0) return "batch_size must be positive, but got " + std::to_string(batch_size) + ".";
  if (num_stages <= 0) return "num_stages must be positive, but got " + std::to_string(num_stages) + ".";
  if (batch_size < num_stages) {
    return "batch_size (" + std::to_string(batch_size) + ") must be >= num_stages (" + std::to_string(num_stages) +
           ") for pipeline parallelism with the current microbatch splitting implementation.";
  }
  // 4 * num_stages may not fit 64 bits; then batch_size is the smaller one anyway.
  const std::int64_t target = static_cast<std::int64_t>(std::min<Wide>(batch_size, Wide{num_stages} * 4));
  for (std::int64_t candidate = target; candidate >= num_stages; --candidate)
    if (batch_size % candidate == 0) return candidate;
  return "batch_size (" + std::to_string(batch_size) + ") must be divisible by at least one microbatch count in [" +
         std::to_string(num_stages) + ", " + std::to_string(target) + "] for pipeline parallelism.";
}

Result recommend(const std::string& model, std::int64_t world_size, const std::string& prefer_in,
                 std::int64_t batch_size, const Options& options) {
  const std::string prefer = ascii_lower(prefer_in);
  if (prefer != "speed" && prefer != "memory" && prefer != "capacity") {
    return Result{std::nullopt,
                  "Unsupported prefer='" + prefer + "'. Expected one of ('speed', 'memory', 'capacity')."};
  }
  const bool zero_available = options.zero_redundancy_optimizer_available.value_or(true);
  const bool pipeline_available = options.pipelining_available.value_or(true);
  const bool fsdp_available = options.fsdp2_available.value_or(true);
  const bool tp_available = options.tensor_parallel_available.value_or(true);
  const bool spikformer = model.compare(0, 10, "spikformer") == 0 && model.size() >= 10;
  static const std::string kSpikformer = "spikformer";
  const std::string& model_family = spikformer ? kSpikformer : model;

  std::vector<std::string> rationale;
  {
    std::string header;
    header.reserve(64 + prefer.size() + model_family.size() + options.backend.size());
    header += "prefer='";
    header += prefer;
    header += "' with model='";
    header += model_family;
    header += "', world_size=";
    header += std::to_string(world_size);
    header += ", backend='";
    header += options.backend;
    header += "'.";
    rationale.push_back(std::move(header));
  }

  if (world_size <= 1) {
    if (prefer == "speed") {
      rationale.emplace_back(kSingleRankSpeed);
      Recommendation r = base(prefer, model, world_size, std::move(rationale));
      r.mode = "none";
      return Result{std::move(r), {}};
    }
    rationale.emplace_back(kSingleRank);
    Recommendation r = base(prefer, model, world_size, std::move(rationale));
    r.mode = "none";
    r.memopt_level = 1;
    return Result{std::move(r), {}};
  }
  if (prefer == "speed") {
    if (model_family == "cifar10dvs_vgg" && fsdp_available && tp_available) {
      auto mesh_shape = fsdp2_tp_mesh_shape(world_size);
      if (mesh_shape) {
        rationale.emplace_back(kSpeedFsdp2Tp);
        Recommendation r = base(prefer, model, world_size, std::move(rationale));
        r.mode = "fsdp2_tp";
        r.mesh_shape = std::move(mesh_shape);
        r.tp_mesh_dim = 1;
        r.dp_mesh_dim = 0;
        return Result{std::move(r), {}};
      }
    }
    rationale.emplace_back(kSpeedDp);
    Recommendation r = base(prefer, model, world_size, std::move(rationale));
    r.mode = "dp";
    r.optimizer_sharding = zero_available ? "zero" : "none";
    r.dp_mesh_dim = 0;
    return Result{std::move(r), {}};
  }
  if (prefer == "memory") {
    auto mesh_shape = fsdp2_tp_mesh_shape(world_size);
    if (fsdp_available && tp_available && mesh_shape) {
      rationale.emplace_back(kMemoryFsdp2Tp);
      Recommendation r = base(prefer, model, world_size, std::move(rationale));
      r.mode = "fsdp2_tp";
      r.memopt_level = 1;
      r.mesh_shape = std::move(mesh_shape);
      r.tp_mesh_dim = 1;
      r.dp_mesh_dim = 0;
      return Result{std::move(r), {}};
    }
    if (tp_available) {
      rationale.emplace_back(kMemoryTp);
      Recommendation r = base(prefer, model, world_size, std::move(rationale));
      r.mode = "tp";
      r.memopt_level = 1;
      r.mesh_shape = std::vector<std::int64_t>{world_size};
      return Result{std::move(r), {}};
    }
    if (fsdp_available) {
      rationale.emplace_back(kMemoryFsdp2);
      Recommendation r = base(prefer, model, world_size, std::move(rationale));
      r.mode = "fsdp2";
      r.memopt_level = 1;
      r.dp_mesh_dim = 0;
      return Result{std::move(r), {}};
    }
    rationale.emplace_back(kMemoryDp);
    Recommendation r = base(prefer, model, world_size, std::move(rationale));
    r.mode = "dp";
    r.optimizer_sharding = zero_available ? "zero" : "none";
    r.memopt_level = 1;
    r.dp_mesh_dim = 0;
    return Result{std::move(r), {}};
  }
  // prefer == "capacity"
  if (pipeline_available) {
    int pp_virtual_stages = 0;
    if (Wide{batch_size} >= Wide{world_size} * 2 && world_size >= 2) pp_virtual_stages = 2;
    else if (batch_size >= world_size) pp_virtual_stages = 1;
    if (pp_virtual_stages == 0) {
      rationale.emplace_back(kPipelineSkipped);
    } else {
      // batch_size >= logical_stages here, so logical_stages fits 64 bits.
      const std::int64_t logical_stages = world_size * pp_virtual_stages;
      auto microbatches = pipeline_microbatches_scan(batch_size, logical_stages);
      if (auto* message = std::get_if<std::string>(&microbatches)) return Result{std::nullopt, std::move(*message)};
      rationale.emplace_back(kPipeline);
      Recommendation r = base(prefer, model, world_size, std::move(rationale));
      r.mode = "pp";
      r.memopt_level = 1;
      r.pp_microbatches = std::get<std::int64_t>(microbatches);
      r.pp_memopt_stage_budget_ratio = 0.5;
      r.pp_schedule = pp_virtual_stages > 1 ? "interleaved" : "1f1b";
      r.pp_virtual_stages = pp_virtual_stages;
      r.pp_layout = std::nullopt;
      r.pp_delay_wgrad = false;
      return Result{std::move(r), {}};
    }
  }
  rationale.emplace_back(pipeline_available ? kPipelineInfeasible : kPipelineUnavailable);
  Options fallback_options = options;
  fallback_options.zero_redundancy_optimizer_available = zero_available;
  fallback_options.pipelining_available = false;
  fallback_options.fsdp2_available = fsdp_available;
  fallback_options.tensor_parallel_available = tp_available;
  Result fallback = recommend(model, world_size, "memory", batch_size, fallback_options);
  if (!fallback.ok()) return fallback;
  Recommendation r = std::move(*fallback.value);
  r.prefer = prefer;
  // rationale + fallback.rationale[1:]
  for (std::size_t k = 1; k < r.rationale.size(); ++k) rationale.push_back(std::move(r.rationale[k]));
  r.rationale = std::move(rationale);
  return Result{std::move(r), {}};
}

}  // namespace baseline
