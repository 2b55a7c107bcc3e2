#pragma once
// Whether each rule of a file can fire, as the language server's lenses show it: an input that
// makes it fire (a witness), a proof that none does, or why neither was found. The coverage
// analysis (analyse/coverage.hpp) finds both; here its goals become one answer per rule path.

#include <map>
#include <string>

#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

struct Reach {
  enum class Status { witness, never, unknown } status = Status::unknown;
  Inputs witness;   ///< without the inputs at their defaults
  std::string why;  ///< for unknown: why the analysis could not decide
};

/// The reach of each rule of `rules` defined in the file `path` (one of its `uses:` files, or
/// itself), by rule path.
[[nodiscard]] std::map<std::string, Reach> rule_reach(const RuleSet& rules, const std::string& path);

}  // namespace snnplan::usecases
