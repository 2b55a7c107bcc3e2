#pragma once
/// \file
/// The benchmark cases (one per branch of the reference) and the check that keeps the baseline
/// honest: baseline::recommend() must give the engine's answer, field for field and message for
/// message, before any number is reported.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "baseline.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/value.hpp"

namespace bench {

/// One input of the reference function, in both calling conventions.
struct Case {
  std::string name;  ///< branch name used in benchmark names, e.g. "speed_dp"
  std::string model;
  std::int64_t world_size = 0;
  std::string prefer;
  std::int64_t batch_size = 0;
  baseline::Options options;

  /// The engine's named inputs; unset flags are left out (the rules' defaults apply).
  [[nodiscard]] snnplan::Inputs inputs() const;
  [[nodiscard]] baseline::Result run_baseline() const;
};

/// Named inputs by position, for RuleSet::evaluate(layout, values, evaluation): the layout
/// made once from `rules`, the values in its order.
struct PositionalInputs {
  snnplan::InputLayout layout;
  std::vector<snnplan::Value> values;
};
PositionalInputs by_position(const snnplan::RuleSet& rules, const snnplan::Inputs& inputs);

/// The branches the benchmarks time, one case each, in the reference's order.
const std::vector<Case>& branch_cases();
/// The case named `name`; throws std::out_of_range when there is none.
const Case& branch_case(const std::string& name);

/// branch_cases() plus `random_count` pseudo-random inputs (fixed seed) over models, world
/// sizes, preferences (mixed case and invalid), batch sizes, backends, flags (set and unset)
/// and a few 64-bit extremes.
std::vector<Case> parity_cases(int random_count);

/// Compares baseline and engine on every case; prints each mismatch (up to a few) to `err`.
/// Returns the number of mismatching cases.
int count_mismatches(const std::vector<Case>& cases, std::ostream& err);

/// Compares snnplan::pipeline_microbatches with baseline::pipeline_microbatches_scan for every
/// batch_size in [-2, max_batch] and num_stages in [-2, max_stages]; returns the mismatches.
int count_microbatch_mismatches(std::int64_t max_batch, std::int64_t max_stages, std::ostream& err);

}  // namespace bench
