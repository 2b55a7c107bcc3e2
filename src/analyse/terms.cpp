#include "analyse/terms.hpp"

#include "language/operations.hpp"

namespace snnplan::analyse {

Wide floor_div(Wide a, Wide b) {
  Wide q = 0;  // Python's //, as the rule language divides (b != 0 here)
  language::integer_arithmetic(syntax::Op::divide, a, b, q);
  return q;
}
Wide ceil_div(Wide a, Wide b) {
  return -floor_div(-a, b);
}
Wide wide_abs(Wide a) {
  return a < 0 ? -a : a;
}

static Wide gcd(Wide a, Wide b) {
  a = wide_abs(a);
  b = wide_abs(b);
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Wide lcm_capped(Wide a, Wide b, Wide cap) {
  if (a == 0 || b == 0) return 0;
  const Wide r = wide_abs(a) / gcd(a, b) * wide_abs(b);
  return r > cap ? 0 : r;
}

TermP term_const(Wide c) {
  auto t = std::make_shared<Term>();
  t->c = c;
  return t;
}

TermP term_var(int input) {
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::var;
  t->var = input;
  return t;
}

void term_vars(const Term& t, std::set<int>& out) {
  if (t.kind == Term::Kind::var) out.insert(t.var);
  if (t.a) term_vars(*t.a, out);
  if (t.b) term_vars(*t.b, out);
}

// Built by appending: gcc 12 at -O3 reports a false -Wrestrict overlap for `"literal" + string&&`.
std::string term_key(const Term& t) {
  std::string key;
  switch (t.kind) {
    case Term::Kind::constant: return detail::wide_to_string(t.c);
    case Term::Kind::var:
      key = "v";
      key += std::to_string(t.var);
      return key;
    case Term::Kind::operation: break;
  }
  key = "(";
  key += term_key(*t.a);
  key += syntax::spelling(t.op);
  key += t.b ? term_key(*t.b) : detail::wide_to_string(t.c);
  key += ")";
  return key;
}

static bool divides(const Term& t) {
  return t.kind == Term::Kind::operation && (t.op == syntax::Op::divide || t.op == syntax::Op::modulo);
}

Wide term_period(const Term& t) {
  Wide p = 1;
  if (divides(t)) p = wide_abs(t.c);
  for (const TermP& kid : {t.a, t.b}) {
    if (!kid) continue;
    const Wide q = term_period(*kid);
    if (q == 0 || q > kMaxPeriod || p * q > kMaxPeriod) return 0;
    p *= q;
  }
  return p;
}

bool eval_term(const Term& t, std::span<const RValue> point, Wide& out, bool& saw_null) {
  switch (t.kind) {
    case Term::Kind::constant:
      out = t.c;
      return true;
    case Term::Kind::var: {
      const RValue& v = point[static_cast<std::size_t>(t.var)];
      if (v.kind != RValue::Kind::integer) {
        saw_null = saw_null || v.kind == RValue::Kind::null;
        return false;
      }
      out = v.i;
      return true;
    }
    case Term::Kind::operation:
      break;
  }
  Wide a = 0, b = t.c;
  if (!eval_term(*t.a, point, a, saw_null)) return false;
  if (t.b && !eval_term(*t.b, point, b, saw_null)) return false;
  return language::integer_arithmetic(t.op, a, b, out) == language::IntegerStatus::ok;
}

}  // namespace snnplan::analyse
