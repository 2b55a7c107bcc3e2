#pragma once
/// \file
/// Generated rule files of N rules for the scaling benchmarks (and the load profile).
///
/// Rule i (0 <= i < N) is about family f = i % 16 and preference p = (i / 16) % 3, in group
/// g = i / 48 of G = ceil(N / 48) groups; it needs world_size >= 2 * (G - g) + 2 and
/// batch_size >= G - g + 1. Thresholds fall from group to group, so input_for_rule(N, i)
/// (family f, p, world 2 * (G - g) + 2, batch 4 * (G - g + 1)) fires exactly rule i: earlier
/// rules fail on the family, the preference or the world-size threshold. A catch-all ends the
/// table. The record has a `rule_id` field naming the rule that fired (-1: the catch-all).

#include <cstdint>
#include <string>

namespace bench {

struct ScalingInput {
  std::string model, prefer;
  std::int64_t world_size, batch_size;
};

/// The YAML text of a rule file with `n` rules and a catch-all.
std::string scaling_rules(int n);

/// An input that fires rule `i` of scaling_rules(n).
ScalingInput input_for_rule(int n, int i);

}  // namespace bench
