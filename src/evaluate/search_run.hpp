#pragma once
// The state of one search (private to evaluate/), shared by the walk of its candidates one at a
// time (search.cpp) and the evaluation of a tier's candidates all at once (search_columns.cpp).

#include <map>
#include <string>
#include <vector>

#include "evaluate/engine.hpp"

namespace snnplan::evaluate::internal {

// The state of one search: where it is, what it has kept, what it counts for the trace.
struct Evaluator::SearchRun {
  explicit SearchRun(const detail::CompiledSearch& s) : search(s) {}
  const detail::CompiledSearch& search;
  const detail::CompiledTier* tier = nullptr;
  bool any_valid = false;   // a candidate met every constraint of its tier
  bool chosen = false;      // in this tier
  std::size_t bound = 0;    // enumerations bound for the current candidate (the trace shows those)
  RValue best_key;
  RValue* best_fields = nullptr;
  std::size_t tested = 0;   // against `fits`, in every tier (count() of none_fits)
  std::size_t fitting = 0;  // in this tier
  std::vector<RValue> aggregates;  // per CompiledAggregate, null until a candidate is tested
  // The trace's counts, of this tier only (each tier enumerates the same candidates again):
  // constraint -> complete candidates it removed (a prefix removed above the innermost
  // enumeration counts every candidate under it), `tested` when the tier started, and the
  // removed prefixes counted as one candidate because a deeper list could not be evaluated
  // under them.
  std::map<std::string, std::size_t> removed_by;
  std::size_t tested_before_tier = 0;
  std::size_t uncounted = 0;
  // The tiers' columns (search_columns.cpp): made in the evaluation's store by the first tier
  // that tries them, kept for the next (whose candidates may be the same), destroyed with the run.
  Columns* columns = nullptr;
  ~SearchRun();
  SearchRun(const SearchRun&) = delete;
  SearchRun& operator=(const SearchRun&) = delete;
};

}  // namespace snnplan::evaluate::internal
