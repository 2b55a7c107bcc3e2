#include "analyse/exclusion.hpp"

#include <map>
#include <optional>

#include "language/matchers.hpp"

namespace snnplan::analyse {
namespace {

using detail::CompiledMatcher;
using detail::CompiledRule;
using detail::CompiledRules;
using detail::Node;
using detail::RValue;
using syntax::ExprKind;
using syntax::Op;

// Input slots and the constant each must equal.
using Pins = std::map<int, RValue>;

bool is_input(const CompiledRules& rules, int slot) {
  return slot >= 0 && static_cast<std::size_t>(slot) < rules.inputs.size();
}

// Whether the operand has the shape the matcher's row needs (a list for one_of): with it, a
// matcher decided by equality cannot fail.
bool operand_fits(const CompiledMatcher& m, const RValue& operand) {
  return m.info->operand != language::OperandShape::list || operand.kind == RValue::Kind::list;
}

// A constant operand: a literal (constant lists are folded into literals at compile time).
bool is_constant(const Node& n) { return n.kind == ExprKind::literal; }

// Matchers that cannot fail: an input compared for equality with constants (values_equal
// compares any two values; a constant list operand is what one_of needs).
bool never_fails(const CompiledRules& rules, const CompiledRule& rule) {
  for (const CompiledMatcher& m : rule.when)
    if (!is_input(rules, m.slot) || !m.info->by_equality || !is_constant(m.operand) ||
        !operand_fits(m, m.operand.constant))
      return false;
  return true;
}

// What holds wherever `rule` fires: each input it requires to equal a constant.
Pins pins_of(const CompiledRules& rules, const CompiledRule& rule) {
  Pins pins;
  for (const CompiledMatcher& m : rule.when) {
    if (!is_input(rules, m.slot) || !is_constant(m.operand)) continue;
    const RValue& operand = m.operand.constant;
    switch (m.info->pins) {
      case language::Pins::operand:
        pins.emplace(m.slot, operand);
        break;
      case language::Pins::only_item:
        if (operand.kind == RValue::Kind::list && operand.list().size() == 1)
          pins.emplace(m.slot, operand.list()[0]);
        break;
      case language::Pins::nothing:
        break;
    }
  }
  return pins;
}

// The value of `n` wherever `pins` hold, when it is the same at all of them and computing it
// cannot fail there; std::nullopt otherwise. Only constructs whose evaluation cannot fail
// on the values at hand are folded (equality, a conditional on a boolean, and/or on
// booleans), so a folded value is what the evaluator computes, and it computes it without
// a failure.
std::optional<RValue> fold(const CompiledRules& rules, const Node& n, const Pins& pins,
                           int depth = 0) {
  if (depth > 64) return std::nullopt;  // let chains are acyclic; this only bounds the work
  switch (n.kind) {
    case ExprKind::literal:
      return n.constant;
    case ExprKind::name: {
      if (is_input(rules, n.slot)) {
        const auto pinned = pins.find(n.slot);
        if (pinned == pins.end()) return std::nullopt;
        return pinned->second;
      }
      const auto let = static_cast<std::size_t>(n.slot) - rules.inputs.size();
      if (n.slot < 0 || let >= rules.lets.size()) return std::nullopt;
      if (rules.computed_elsewhere(let)) return std::nullopt;
      return fold(rules, rules.lets[let], pins, depth + 1);
    }
    case ExprKind::binary: {
      if (n.op == Op::logical_and || n.op == Op::logical_or) {
        const auto a = fold(rules, n.children[0], pins, depth + 1);
        if (!a || a->kind != RValue::Kind::boolean) return std::nullopt;
        if (a->b == (n.op == Op::logical_or)) return a;  // decided by the left side
        const auto b = fold(rules, n.children[1], pins, depth + 1);
        if (!b || b->kind != RValue::Kind::boolean) return std::nullopt;
        return b;
      }
      if (n.op != Op::equal && n.op != Op::not_equal) return std::nullopt;
      const auto a = fold(rules, n.children[0], pins, depth + 1);
      if (!a) return std::nullopt;
      const auto b = fold(rules, n.children[1], pins, depth + 1);
      if (!b) return std::nullopt;
      return RValue::of_bool(detail::values_equal(*a, *b) == (n.op == Op::equal));
    }
    case ExprKind::conditional: {
      const auto condition = fold(rules, n.children[0], pins, depth + 1);
      if (!condition || condition->kind != RValue::Kind::boolean) return std::nullopt;
      return fold(rules, n.children[condition->b ? 1 : 2], pins, depth + 1);
    }
    default:
      return std::nullopt;
  }
}

// Whether `rule` is false wherever `pins` hold, its matchers tried in order without a
// failure: each folds, and one is false.
bool false_under(const CompiledRules& rules, const CompiledRule& rule, const Pins& pins) {
  for (const CompiledMatcher& m : rule.when) {
    if (!m.info->by_equality) return false;
    Node fact;
    fact.kind = ExprKind::name;
    fact.slot = m.slot;
    const auto value = fold(rules, fact, pins);
    const auto operand = fold(rules, m.operand, pins);
    if (!value || !operand) return false;
    if (!operand_fits(m, *operand)) return false;
    if (!m.info->holds(*value, *operand, m.location)) return true;
  }
  return false;
}

}  // namespace

bool swap_is_equivalent(const CompiledRules& rules, const CompiledRule& a, const CompiledRule& b) {
  const auto proved_by = [&](const CompiledRule& sure, const CompiledRule& other) {
    if (!never_fails(rules, sure)) return false;
    const Pins pins = pins_of(rules, sure);
    return !pins.empty() && false_under(rules, other, pins);
  };
  return proved_by(a, b) || proved_by(b, a);
}

}  // namespace snnplan::analyse
