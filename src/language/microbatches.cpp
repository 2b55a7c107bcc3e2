#include "language/microbatches.hpp"

#include <limits>

#include "snnplan/microbatches.hpp"
#include "language/messages.hpp"

namespace snnplan::language {

using detail::Wide;
using detail::wide_to_string;

std::variant<Wide, std::string> pipeline_microbatches(Wide batch_size, Wide num_stages) {
  return pipeline_microbatches(batch_size, num_stages,
                               {wide_to_string(batch_size), wide_to_string(num_stages)});
}

std::variant<Wide, std::string> pipeline_microbatches(Wide batch_size, Wide num_stages,
                                                      const MicrobatchArgumentTexts& shown) {
  if (batch_size <= 0) return messages::microbatches_not_positive("batch_size", shown.batch_size);
  if (num_stages <= 0) return messages::microbatches_not_positive("num_stages", shown.num_stages);
  if (batch_size < num_stages)
    return messages::microbatches_fewer_than_stages(shown.batch_size, shown.num_stages);
  // target = min(batch_size, 4 * num_stages); when 4 * num_stages would not fit, it exceeds
  // batch_size anyway.
  constexpr Wide kWideMax = static_cast<Wide>(~static_cast<detail::UnsignedWide>(0) >> 1);
  const Wide target = num_stages > kWideMax / 4 ? batch_size : std::min(batch_size, num_stages * 4);

  // The reference scans candidates c = target, target-1, ..., num_stages for the first divisor
  // of batch_size. Equivalently, scan the cofactors q = batch_size / c upwards from
  // ceil(batch_size / target): the smallest dividing q gives the largest c. Walk whichever
  // range is shorter, so the cost is O(min(num_stages, batch_size / num_stages)) <= ~1.5*sqrt(B).
  const Wide candidates = target - num_stages + 1;
  const Wide q_low = (batch_size + target - 1) / target;
  const Wide q_high = batch_size / num_stages;
  if (candidates <= q_high - q_low + 1) {
    for (Wide c = target; c >= num_stages; --c)
      if (batch_size % c == 0) return c;
  } else {
    for (Wide q = q_low; q <= q_high; ++q) {
      if (batch_size % q != 0) continue;
      const Wide c = batch_size / q;
      if (c >= num_stages && c <= target) return c;
    }
  }
  // Python's min() gives its first argument when they tie: the reference shows that one.
  return messages::microbatches_no_divisor(
      shown.batch_size, shown.num_stages,
      target == batch_size ? shown.batch_size : wide_to_string(target));
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
