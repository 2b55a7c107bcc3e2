#pragma once
/// \file
/// The pipeline microbatch search (builtin `pipeline_microbatches` of the rule language).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace snnplan {

/// The largest microbatch count m with num_stages <= m <= min(batch_size, 4 * num_stages)
/// that divides batch_size -- the reference's recommended_pipeline_microbatches().
/// Takes O(min(num_stages, batch_size / num_stages)) steps, at most about 1.5 * sqrt(batch_size).
/// Returns the count, or the reference's ValueError message word for word.
std::variant<std::int64_t, std::string> pipeline_microbatches(std::int64_t batch_size,
                                                              std::int64_t num_stages);

}  // namespace snnplan
