#pragma once
// How this thread's untraced search tiers were decided: all candidates at once by columns
// (search_columns.cpp), or given back to the walk of one candidate at a time (search.cpp).
// Tests read it to know which of the two they compared (a traced tier is always walked).

#include <cstdint>

namespace snnplan::evaluate {

struct SearchTierCounts {
  std::uint64_t by_columns = 0;
  std::uint64_t given_back = 0;  // to the walk, which decided them
};

/// This thread's counts since it started (the library never resets them).
SearchTierCounts& search_tier_counts();

}  // namespace snnplan::evaluate
