#include "language/microbatches.hpp"

#include <cstdint>
#include <limits>
#include <optional>

#include "language/messages.hpp"
#include "snnplan/microbatches.hpp"

namespace snnplan::language {

using detail::Wide;
using detail::wide_to_string;

namespace {

// The largest divisor of batch_size in [num_stages, target], in whichever integer type holds
// the arguments (64-bit division is one instruction, 128-bit a library call).
//
// The reference scans candidates c = target, target-1, ..., num_stages for the first divisor
// of batch_size. Equivalently, scan the cofactors q = batch_size / c upwards from
// ceil(batch_size / target): the smallest dividing q gives the largest c. Walk whichever
// range is shorter, so the cost is O(min(num_stages, batch_size / num_stages)) <= ~1.5*sqrt(B).
template <typename Int>
std::optional<Int> largest_divisor(Int batch_size, Int num_stages, Int target) {
  const Int candidates = target - num_stages + 1;
  const Int q_low =
      batch_size / target + (batch_size % target != 0 ? 1 : 0);  // no overflow near the top
  const Int q_high = batch_size / num_stages;
  if (candidates <= q_high - q_low + 1) {
    for (Int c = target; c >= num_stages; --c)
      if (batch_size % c == 0) return c;
  } else {
    for (Int q = q_low; q <= q_high; ++q) {
      if (batch_size % q != 0) continue;
      const Int c = batch_size / q;
      if (c >= num_stages && c <= target) return c;
    }
  }
  return std::nullopt;
}

// `shown` null: the arguments shown as the numbers they are, written only for a refusal.
std::variant<Wide, std::string> search(Wide batch_size, Wide num_stages,
                                       const MicrobatchArgumentTexts* shown) {
  const auto batch_text = [&] { return shown ? shown->batch_size : wide_to_string(batch_size); };
  const auto stages_text = [&] { return shown ? shown->num_stages : wide_to_string(num_stages); };
  if (batch_size <= 0) return messages::microbatches_not_positive("batch_size", batch_text());
  if (num_stages <= 0) return messages::microbatches_not_positive("num_stages", stages_text());
  if (batch_size < num_stages)
    return messages::microbatches_fewer_than_stages(batch_text(), stages_text());
  // target = min(batch_size, 4 * num_stages); when 4 * num_stages would not fit, it exceeds
  // batch_size anyway.
  constexpr Wide kWideMax = static_cast<Wide>(~static_cast<detail::UnsignedWide>(0) >> 1);
  const Wide target = num_stages > kWideMax / 4 ? batch_size : std::min(batch_size, num_stages * 4);
  // 0 < num_stages <= target <= batch_size: all three fit 64 bits when batch_size does.
  if (detail::fits_int64(batch_size)) {
    if (const auto c = largest_divisor<std::int64_t>(static_cast<std::int64_t>(batch_size),
                                                     static_cast<std::int64_t>(num_stages),
                                                     static_cast<std::int64_t>(target)))
      return Wide{*c};
  } else if (const auto c = largest_divisor<Wide>(batch_size, num_stages, target)) {
    return *c;
  }
  // Python's min() gives its first argument when they tie: the reference shows that one.
  return messages::microbatches_no_divisor(
      batch_text(), stages_text(), target == batch_size ? batch_text() : wide_to_string(target));
}

}  // namespace

std::variant<Wide, std::string> pipeline_microbatches(Wide batch_size, Wide num_stages) {
  return search(batch_size, num_stages, nullptr);
}

std::variant<Wide, std::string> pipeline_microbatches(Wide batch_size, Wide num_stages,
                                                      const MicrobatchArgumentTexts& shown) {
  return search(batch_size, num_stages, &shown);
}

}  // namespace snnplan::language

namespace snnplan {

std::variant<std::int64_t, std::string> pipeline_microbatches(std::int64_t batch_size, std::int64_t num_stages) {
  auto result = language::pipeline_microbatches(batch_size, num_stages);
  if (auto* message = std::get_if<std::string>(&result)) return std::move(*message);
  // The result divides batch_size and is at most batch_size, so it fits 64 bits.
  return static_cast<std::int64_t>(std::get<detail::Wide>(result));
}

}  // namespace snnplan
