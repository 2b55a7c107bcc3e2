#pragma once
// The texts of core (core/): its own values', and the "did you mean" search every stage's hints
// use. Each stage's texts are in its own messages.hpp (load/, check/, evaluate/, ...); tests
// assert them exactly. Messages that reproduce the reference (rationale, ValueError texts) are
// not here: they are data in the rule file.

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::messages {

// ---- values of the public API ----------------------------------------------------------------
inline std::string value_int_out_of_range(std::uint64_t value) {
  return fmt::format("snnplan::Value: {} does not fit in a 64-bit signed integer", value);
}

// ---- did you mean ------------------------------------------------------------------------------
/// The candidate closest to `name` by edit distance, or "" when none is close enough to be
/// a plausible typo. Used for every "did you mean" hint.
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace snnplan::messages
