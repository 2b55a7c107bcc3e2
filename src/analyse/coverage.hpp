#pragma once
// What evaluations cover of a rule file, for rule tests (`snnplan test --coverage`), and the
// inputs that would cover the rest. Four kinds of goal:
//   * rule: the rule fired;
//   * condition: a matcher of a rule was seen true, and seen false, at an input where the rule
//     was tried (its table entered and no earlier rule of the table fired);
//   * boundary: an integer comparison (a matcher such as `ge: 8`, or a comparison inside an
//     expression: `world_size >= 4` in a `let` value) was seen at its boundary and just on the
//     other side, with both sides as they are at that input (`ge: = world_size * 2` needs
//     batch_size = world_size * 2 and batch_size = world_size * 2 - 1);
//   * search: a search's tier chose the plan, each of its constraints (and `fits`) removed a
//     candidate, and it failed both ways (none_valid, none_fits), read off the trace's steps.
// Goals are decided with the evaluator's own Probe at the inputs each table saw (a fallback's
// `with` values included), and witnesses come from the table analysis' representatives, so
// the inputs it suggests cover what it says they do.

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyse/input_space.hpp"
#include "compile/compiled_rules.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/value.hpp"

namespace snnplan::analyse {

enum class GoalKind : std::uint8_t { rule, condition, boundary, search };
inline constexpr GoalKind kGoalKinds[] = {GoalKind::rule, GoalKind::condition, GoalKind::boundary,
                                          GoalKind::search};

/// "rule", "condition", "boundary", "search".
const char* to_string(GoalKind kind);

/// One thing a test can cover.
struct Goal {
  GoalKind kind = GoalKind::rule;
  /// The rule it belongs to, "table/rule"; for a comparison outside rules, "let NAME" or
  /// "record FIELD".
  std::string owner;
  SourceLocation location;  // of the rule, the matcher or the comparison
  /// What is to be seen: "" for a rule, "world_size le 1 is true",
  /// "world_size >= 4 at world_size = 4", "world_size >= 4 at world_size = 4 - 1".
  std::string what;
  std::size_t cases = 0;  // evaluations that covered it
  /// Inputs that cover it (when find_witnesses found some), in the rule file's input order.
  std::optional<Inputs> witness;
  /// No input covers it: find_witnesses tried every representative input, exactly (the
  /// prefer: capacity rule after the speed and memory ones is never tried with another
  /// preference). Such a goal does not count against coverage.
  bool unreachable = false;
};

/// Every goal of a rule file, with how often it was covered.
struct Coverage {
  std::vector<Goal> goals;  // rules in file order, then conditions, then boundaries
  // Their counts and percentages are snnplan::TestCoverage's (include/snnplan/rule_tests.hpp).
};

/// Records what evaluations of one rule file cover. Rules are counted by where they are
/// written: a same-named rule of a file this one uses is another rule.
class CoverageTracker {
 public:
  explicit CoverageTracker(const detail::CompiledRules& rules);
  ~CoverageTracker();
  CoverageTracker(const CoverageTracker&) = delete;
  CoverageTracker& operator=(const CoverageTracker&) = delete;

  /// The goals one evaluation covers, by index into coverage().goals: `inputs` as given to
  /// evaluate(), `steps` its trace. Does not count them.
  [[nodiscard]] std::vector<std::size_t> goals_of(const Inputs& inputs,
                                                  const std::vector<TraceStep>& steps);
  /// goals_of(), counted.
  void record(const Inputs& inputs, const std::vector<TraceStep>& steps);
  [[nodiscard]] const Coverage& coverage() const;
  /// Gives each boundary goal no evaluation covered a witness near `tried` (the tests' inputs):
  /// the first of them that covers it once one integer input is moved onto the threshold --
  /// where one side of the comparison is an input, that input set to the other side's value
  /// plus the goal's offset. Those the rules answer without an error are tried first, and only
  /// the first `at_most` in that order (each try is an evaluation with a trace). A sample or a
  /// suite seldom stands exactly on a threshold (0, one below a limit); a test moved onto it is
  /// the suggestion an operator can use. Run before find_witnesses(), which keeps these.
  void witnesses_near(const std::vector<Inputs>& tried,
                      std::size_t at_most = std::numeric_limits<std::size_t>::max());
  /// Fills the witness of every goal no evaluation covered with the plainest representative
  /// input (for_each_representative) that covers it, and marks the goals none covers
  /// unreachable when the representatives are exact. Returns false with `why` when they could
  /// not be enumerated (those goals are left without witnesses).
  bool find_witnesses(std::string& why);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Visits representative inputs of the whole input domain: every combination of the table
/// analysis' representatives for the conditions of every table (strings compared with,
/// integers next to every threshold, both booleans, every allowed value), as Inputs in the
/// rule file's input order. `visit` returns false to stop. Returns false with `why` set when
/// the domain is beyond the analysis (too many combinations, a construct it cannot sample).
/// `exact` (when given) says whether the representatives cover every combination of
/// condition outcomes (no construct outside what the analysis decides exactly).
bool for_each_representative(const detail::CompiledRules& rules,
                             const std::function<bool(const Inputs&)>& visit, std::string& why,
                             bool* exact = nullptr);

/// Every region (input_space.hpp) the representative inputs reach, in the order first reached,
/// each with the plainest representative input in it: the regions `test --generate` writes a
/// test for. Returns false with `why` when the representatives could not be enumerated.
bool decision_regions(const detail::CompiledRules& rules, std::vector<RegionWitness>& out,
                      std::string& why);

/// `inputs` without those at their declared default: what a suggested input shows.
Inputs without_defaults(const detail::CompiledRules& rules, const Inputs& inputs);
/// How plain a suggested input is (smaller is plainer: small integers).
double plainness(const Inputs& inputs);

}  // namespace snnplan::analyse
