#include "usecases/reach.hpp"

#include <utility>

#include "analyse/coverage.hpp"
#include "api/rule_set_access.hpp"

namespace snnplan::usecases {

std::map<std::string, Reach> rule_reach(const RuleSet& rules, const std::string& path) {
  const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
  analyse::CoverageTracker tracker(compiled);
  std::string why;
  const bool enumerated = tracker.find_witnesses(why);
  std::map<std::string, Reach> out;
  for (const analyse::Goal& goal : tracker.coverage().goals) {
    if (goal.kind != analyse::GoalKind::rule || goal.location.file != path) continue;
    Reach r;
    if (goal.witness) {
      r.status = Reach::Status::witness;
      r.witness = analyse::without_defaults(compiled, *goal.witness);
    } else if (goal.unreachable) {
      r.status = Reach::Status::never;
    } else {
      r.why = enumerated ? std::string() : why;
    }
    out.emplace(goal.owner, std::move(r));
  }
  return out;
}

}  // namespace snnplan::usecases
