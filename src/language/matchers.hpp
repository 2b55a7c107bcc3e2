#pragma once
// The matchers of a rule's `when` ({world_size: {ge: 8}}), described once: one row per
// matcher, read by the loader (names, operand shape), the checker (kinds), the compiler and
// rule index, the evaluator (what it means), explanations (how it prints), the table analysis
// (equality or order, against one operand or each list item) and docs/rules.md.
//
// Adding a matcher: an enumerator of MatchOp, its row in matchers.cpp with the function that
// decides it and how the analysis treats it (coverage's boundaries, the mutation operators,
// the exclusion proof: a row that leaves a field out does not compile, since
// -Wmissing-field-initializers is an error), a test; then regenerate docs/rules.md
// (docs/architecture.md says how).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/runtime_value.hpp"
#include "snnplan/source_location.hpp"

namespace snnplan::syntax {
enum class Op : std::uint8_t;  // language/syntax.hpp, which includes this header
}  // namespace snnplan::syntax

namespace snnplan::language {

/// In the order of the rows in matchers.cpp (checked there).
enum class MatchOp : std::uint8_t { eq, ne, lt, le, gt, ge, one_of, not_one_of };

/// What a matcher's operand is in a rule file.
enum class OperandShape : std::uint8_t {
  value,  ///< one value or expression: `ge: 8`, `ge: = world_size * 2`
  list,   ///< a list written in the rule file, whose items the fact is compared with
};

/// What a matcher says of its fact wherever it holds, for a proof that two rules exclude each
/// other (analyse/exclusion.cpp).
enum class Pins : std::uint8_t {
  nothing,      ///< no single value
  operand,      ///< the fact equals the operand (eq)
  only_item,    ///< the fact equals the item of a one-item list operand (one_of: [x])
};

struct MatcherInfo {
  MatchOp op;
  const char* name;  ///< the key in a rule file
  OperandShape operand;
  std::size_t list_items;  ///< list operands: the number of items it must have, 0 for any
  bool orders;             ///< compares by order (lt, ...), so the kinds must be orderable
  bool fixes_value;    ///< holds only when the fact equals the operand (the rule index keys on it)
  const char* symbol;  ///< how an explanation prints it: "world_size >= 8"
  /// Whether the matcher holds for a fact and its evaluated operand. Fails
  /// (EvaluationFailure, placed at `at`) on values it cannot compare.
  bool (*holds)(const detail::RValue& fact, const detail::RValue& operand,
                const SourceLocation& at);
  /// The same answer for an integer fact and operand, without the general path; nullptr when
  /// the matcher does not compare single integers.
  bool (*holds_for_integers)(detail::Wide fact, detail::Wide operand);
  const char* summary;  ///< one line for docs/rules.md
  // How the analysis treats it. No defaults, so that a new row must say.
  /// The comparison of expressions it is (ge: `>=`): its boundary is a coverage goal and its
  /// integer operand a threshold the mutants move; none for a list operand.
  std::optional<syntax::Op> compares_as;
  /// The ordering it becomes in the `ordering` mutant (ge <-> gt, le <-> lt), or none.
  std::optional<MatchOp> ordering_neighbour;
  /// Decided by equality (values_equal), so it cannot fail for any fact and an operand of its
  /// shape: what the exclusion proof may fold.
  bool by_equality;
  Pins pins;
};

/// Whether an integer fact and operand satisfy matcher `op`, one of eq, ne, lt, le, gt, ge:
/// the one definition of those matchers on integers, behind their rows' holds_for_integers
/// (the rule index) and inline in decide() (the evaluator).
inline bool integers_hold(MatchOp op, detail::Wide fact, detail::Wide operand) {
  switch (op) {
    case MatchOp::eq:
      return fact == operand;
    case MatchOp::ne:
      return fact != operand;
    case MatchOp::lt:
      return fact < operand;
    case MatchOp::le:
      return fact <= operand;
    case MatchOp::gt:
      return fact > operand;
    case MatchOp::ge:
      return fact >= operand;
    default:
      return false;  // not a matcher on single integers (its row has no holds_for_integers)
  }
}

/// Whether `info`'s matcher holds for `fact` and its evaluated `operand`, as info.holds
/// decides it, with the commonest cases inline (the evaluator's hot path): two integers for a
/// matcher that compares single integers, two values compared for (in)equality as the eq and
/// ne rows compare them.
inline bool decide(const MatcherInfo& info, const detail::RValue& fact,
                   const detail::RValue& operand, const SourceLocation& at) {
  using Kind = detail::RValue::Kind;
  if (fact.kind == Kind::integer && operand.kind == Kind::integer && info.holds_for_integers)
    return integers_hold(info.op, fact.i, operand.i);
  if (info.op == MatchOp::eq) return detail::values_equal(fact, operand);
  if (info.op == MatchOp::ne) return !detail::values_equal(fact, operand);
  return info.holds(fact, operand, at);
}

/// Every matcher, in MatchOp order.
std::span<const MatcherInfo> matchers();
const MatcherInfo& matcher(MatchOp op);
/// The matcher written `name` in a rule file, or nullptr.
const MatcherInfo* find_matcher(std::string_view name);
/// The matcher an unknown name is another language's word for (`gte`, `>=` -> ge; `in` ->
/// one_of), or nullptr: the did-you-mean for matchers.
const MatcherInfo* matcher_meant_by(std::string_view alias);

}  // namespace snnplan::language
