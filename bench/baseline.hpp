#pragma once
/// \file
/// The benchmark baseline: the reference's recommend_snn_distributed_strategy() and
/// recommended_pipeline_microbatches() (shared/reference/seed_reference.py) written by hand in
/// C++, with the same logic, the same rationale strings and the same ValueError texts, but no
/// rule engine. It is what "the fastest straightforward C++" looks like, so the engine's cost
/// can be read as a ratio against it.
///
/// Integers are 64-bit; intermediate products (world_size * 2, num_stages * 4) are computed in
/// 128 bits, so every 64-bit input gives Python's answer. prefer is lowered ASCII-only (the
/// engine also lowers non-ASCII letters like Python's str.lower(); the self-check uses ASCII).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "snnplan/recommendation.hpp"

namespace baseline {

/// The reference's optional keyword arguments; an unset flag means "available" (True).
struct Options {
  std::string backend = "inductor";
  std::optional<bool> zero_redundancy_optimizer_available;
  std::optional<bool> pipelining_available;
  std::optional<bool> fsdp2_available;
  std::optional<bool> tensor_parallel_available;
};

/// A recommendation (the 16 fields, reusing the public struct) or the ValueError message.
struct Result {
  std::optional<snnplan::Recommendation> value;
  std::string error;  ///< set when !value
  [[nodiscard]] bool ok() const noexcept { return value.has_value(); }
};

/// recommend_snn_distributed_strategy(): errors come back as values, never thrown.
Result recommend(const std::string& model, std::int64_t world_size, const std::string& prefer,
                 std::int64_t batch_size, const Options& options = {});

/// recommended_pipeline_microbatches(): the reference's downward scan from
/// min(batch_size, 4 * num_stages) to num_stages, O(3 * num_stages) steps in the worst case.
/// Returns the count or the ValueError message.
std::variant<std::int64_t, std::string> pipeline_microbatches_scan(std::int64_t batch_size,
                                                                   std::int64_t num_stages);

}  // namespace baseline
