#include "check/narrowing.hpp"

#include <algorithm>

namespace snnplan::check {

using namespace syntax;

namespace {

bool is_null_literal(const Expr& e) { return e.kind == ExprKind::literal && e.literal.is_null(); }

// A literal that is not null, or a list literal of them: a fact equal to one is not null.
bool is_non_null_literal(const Expr& e) {
  if (e.kind == ExprKind::literal) return !e.literal.is_null();
  return e.kind == ExprKind::list;
}

}  // namespace

std::set<std::string> non_null_when(const Expr& condition, bool truth) {
  std::set<std::string> out;
  switch (condition.kind) {
    case ExprKind::unary:
      if (condition.op == Op::logical_not) return non_null_when(condition.children[0], !truth);
      return out;
    case ExprKind::binary: {
      const Expr& l = condition.children[0];
      const Expr& r = condition.children[1];
      if (condition.op == Op::equal || condition.op == Op::not_equal) {
        // `x != null` holds, or `x == null` fails: x is not null.
        if (truth != (condition.op == Op::not_equal)) return out;
        if (l.kind == ExprKind::name && is_null_literal(r)) out.insert(l.name);
        if (r.kind == ExprKind::name && is_null_literal(l)) out.insert(r.name);
        return out;
      }
      // Both operands of a conjunction that holds held; both of a disjunction that failed failed.
      if ((condition.op == Op::logical_and && truth) || (condition.op == Op::logical_or && !truth)) {
        out = non_null_when(l, truth);
        out.merge(non_null_when(r, truth));
      }
      return out;
    }
    default:
      return out;
  }
}

std::set<std::string> non_null_under(const std::vector<Matcher>& when) {
  std::set<std::string> out;
  for (const Matcher& m : when) {
    const language::MatcherInfo& info = language::matcher(m.op);
    const bool list = info.operand == language::OperandShape::list;
    if (m.op == MatchOp::ne) {
      if (is_null_literal(m.operand)) out.insert(m.fact.value);
    } else if (info.orders) {
      // An ordering with null fails the evaluation rather than holding.
      out.insert(m.fact.value);
    } else if (m.op == MatchOp::eq) {
      if (is_non_null_literal(m.operand)) out.insert(m.fact.value);
    } else if (list && m.op == MatchOp::one_of) {
      if (std::all_of(m.operand.children.begin(), m.operand.children.end(), is_non_null_literal))
        out.insert(m.fact.value);
    }
  }
  return out;
}

std::set<std::string> inputs_that_may_be_null(const RuleFile& file) {
  std::set<std::string> out;
  for (const InputDecl& input : file.inputs)
    if (input.default_value && is_null_literal(*input.default_value)) out.insert(input.name.value);
  for (const Table& table : file.tables)
    for (const Rule& rule : table.rules)
      if (rule.fallback)
        for (const Assignment& a : rule.fallback->with)
          if (!is_non_null_literal(a.value)) out.insert(a.target.value);
  return out;
}

}  // namespace snnplan::check
