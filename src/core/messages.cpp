#include "core/messages.hpp"

#include <algorithm>

namespace snnplan::messages {

std::string closest_match(std::string_view name, const std::vector<std::string>& candidates) {
  // Edit distance with adjacent transpositions counting as one edit ("whne" -> "when"); a
  // suggestion must be within a third of the name's length (at least 1, at most 3 edits) so
  // that unrelated names are not offered.
  if (name.empty()) return {};  // every one-letter name is one edit from nothing
  const std::size_t budget = std::clamp<std::size_t>(name.size() / 3, 1, 3);
  std::string best;
  std::size_t best_distance = budget + 1;
  std::vector<std::size_t> before, above, row;
  for (const std::string& candidate : candidates) {
    const std::size_t n = candidate.size();
    before.assign(n + 1, 0);
    above.resize(n + 1);
    row.resize(n + 1);
    for (std::size_t j = 0; j <= n; ++j) above[j] = j;
    for (std::size_t i = 1; i <= name.size(); ++i) {
      row[0] = i;
      for (std::size_t j = 1; j <= n; ++j) {
        const std::size_t cost = name[i - 1] == candidate[j - 1] ? 0 : 1;
        row[j] = std::min({above[j] + 1, row[j - 1] + 1, above[j - 1] + cost});
        if (i > 1 && j > 1 && name[i - 1] == candidate[j - 2] && name[i - 2] == candidate[j - 1])
          row[j] = std::min(row[j], before[j - 2] + 1);
      }
      std::swap(before, above);
      std::swap(above, row);
    }
    if (above[n] < best_distance) {
      best_distance = above[n];
      best = candidate;
    }
  }
  if (!best.empty() || name.size() < 3) return best;
  // A name cut short ("{world}" for "world_size"): the shortest candidate it begins.
  for (const std::string& candidate : candidates)
    if (candidate.size() > name.size() && candidate.compare(0, name.size(), name) == 0 &&
        (best.empty() || candidate.size() < best.size()))
      best = candidate;
  return best;
}

}  // namespace snnplan::messages
