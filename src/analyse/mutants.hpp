#pragma once
// Mutants of a rule file, for mutation testing of its rule tests (`snnplan test --mutate`):
// small changes a wrong edit could make (a threshold off by one, `ge` for `gt`, a condition
// left out, two rules in the wrong order, ...). Each mutant is the original file compiled
// once more and changed in memory; a test suite that passes on a mutant misses that change.
// The operators are rows of one table (mutation_operators()), as matchers and builtins are.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compile/compiled_rules.hpp"
#include "snnplan/value.hpp"

namespace snnplan::analyse {

enum class MutationOperator : std::uint8_t {
  threshold_up,            ///< an integer compared with, plus 1
  threshold_down,          ///< an integer compared with, minus 1
  ordering,                ///< ge <-> gt, le <-> lt (matchers and >=, >, <=, < in expressions)
  drop_matcher,            ///< a matcher of a rule left out
  flip_boolean,            ///< a boolean literal (matcher operand, set or with value) negated
  swap_rules,              ///< two adjacent rules of a table in the other order
  change_set_literal,      ///< a literal of a rule's set changed (int + 1, other text, ...)
  drop_rationale_line,     ///< a line of a rule's because left out
  drop_fallback_override,  ///< an input of a fallback's with left out
};

struct MutationOperatorRow {
  MutationOperator op;
  const char* name;     ///< stable, for reports: "threshold+1", "ordering", ...
  const char* summary;  ///< one line for docs/testing.md
};

/// Every operator, in MutationOperator order.
std::span<const MutationOperatorRow> mutation_operators();
const MutationOperatorRow& mutation_operator(MutationOperator op);

/// One mutant: which change, where, and the change itself, given by positions in the
/// compiled rules so that it applies to every compilation of the same file.
struct Mutant {
  MutationOperator op = MutationOperator::threshold_up;
  SourceLocation location;
  std::string owner;        ///< "table/rule" or "let NAME"
  std::string description;  ///< "world_size ge 2 -> world_size ge 3"
  std::function<void(detail::CompiledRules&)> apply;
  /// Proved to answer as the original on every input (exclusion.hpp), where the sampled
  /// search could not show it: such a mutant is equivalent, whatever the tests.
  bool proved_equivalent = false;
};

/// Builds mutants of one rule file: reads its text once, compiles it once per mutant.
/// Thread-safe once built (build() only reads the shared syntax tree and used rules).
class MutantFactory {
 public:
  /// `original`: rules compiled from a file that loaded and checked without errors.
  explicit MutantFactory(const detail::CompiledRules& original);
  ~MutantFactory();
  MutantFactory(const MutantFactory&) = delete;
  MutantFactory& operator=(const MutantFactory&) = delete;

  /// Every mutant of the file, in file order within each operator's row order.
  [[nodiscard]] const std::vector<Mutant>& mutants() const;
  /// The file with `mutant` applied, compiled.
  [[nodiscard]] std::shared_ptr<const detail::CompiledRules> build(const Mutant& mutant) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// An input on which `a` and `b` answer differently (another record, another error, or one
/// a record and the other an error), the plainest found among the table analysis'
/// representative inputs of both; std::nullopt when they agree on all of them. `complete`
/// is false when the representatives of either could not be enumerated, so agreement does
/// not show that the two are equivalent.
std::optional<Inputs> distinguishing_input(const detail::CompiledRules& a,
                                           const detail::CompiledRules& b, bool& complete);

}  // namespace snnplan::analyse
