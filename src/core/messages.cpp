#include "core/messages.hpp"

#include <algorithm>

namespace snnplan::messages {

std::string closest_match(std::string_view name, const std::vector<std::string>& candidates) {
  // Levenshtein distance; a suggestion must be within a third of the name's length (at
  // least 1, at most 3 edits) so that unrelated names are not offered.
  if (name.empty()) return {};  // every one-letter name is one edit from nothing
  const std::size_t budget = std::clamp<std::size_t>(name.size() / 3, 1, 3);
  std::string best;
  std::size_t best_distance = budget + 1;
  std::vector<std::size_t> row;
  for (const std::string& candidate : candidates) {
    row.resize(candidate.size() + 1);
    for (std::size_t j = 0; j <= candidate.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= name.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= candidate.size(); ++j) {
        const std::size_t above = row[j];
        const std::size_t cost = name[i - 1] == candidate[j - 1] ? 0 : 1;
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
        diagonal = above;
      }
    }
    if (row[candidate.size()] < best_distance) {
      best_distance = row[candidate.size()];
      best = candidate;
    }
  }
  return best;
}

}  // namespace snnplan::messages
