#include "analyse/terms.hpp"

#include "language/operations.hpp"

namespace snnplan::analyse {

Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
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
  t->op = Term::Op::var;
  t->var = input;
  return t;
}

void term_vars(const Term& t, std::set<int>& out) {
  if (t.op == Term::Op::var) out.insert(t.var);
  if (t.a) term_vars(*t.a, out);
  if (t.b) term_vars(*t.b, out);
}

std::string term_key(const Term& t) {
  using detail::wide_to_string;
  switch (t.op) {
    case Term::Op::constant:
      return wide_to_string(t.c);
    case Term::Op::var:
      return "v" + std::to_string(t.var);
    case Term::Op::add:
      return "(" + term_key(*t.a) + "+" + term_key(*t.b) + ")";
    case Term::Op::sub:
      return "(" + term_key(*t.a) + "-" + term_key(*t.b) + ")";
    case Term::Op::mul:
      return "(" + term_key(*t.a) + "*" + term_key(*t.b) + ")";
    case Term::Op::div:
      return "(" + term_key(*t.a) + "/" + wide_to_string(t.c) + ")";
    case Term::Op::mod:
      return "(" + term_key(*t.a) + "%" + wide_to_string(t.c) + ")";
  }
  return "?";
}

Wide term_period(const Term& t) {
  Wide p = 1;
  if (t.op == Term::Op::div || t.op == Term::Op::mod) p = wide_abs(t.c);
  for (const TermP& kid : {t.a, t.b}) {
    if (!kid) continue;
    const Wide q = term_period(*kid);
    if (q == 0 || q > kMaxPeriod || p * q > kMaxPeriod) return 0;
    p *= q;
  }
  return p;
}

static syntax::Op operation(Term::Op op) {
  switch (op) {
    case Term::Op::add:
      return syntax::Op::add;
    case Term::Op::sub:
      return syntax::Op::subtract;
    case Term::Op::mul:
      return syntax::Op::multiply;
    case Term::Op::div:
      return syntax::Op::divide;
    default:
      return syntax::Op::modulo;
  }
}

bool eval_term(const Term& t, std::span<const RValue> point, Wide& out, bool& saw_null) {
  switch (t.op) {
    case Term::Op::constant:
      out = t.c;
      return true;
    case Term::Op::var: {
      const RValue& v = point[static_cast<std::size_t>(t.var)];
      if (v.kind != RValue::Kind::integer) {
        saw_null = saw_null || v.kind == RValue::Kind::null;
        return false;
      }
      out = v.i;
      return true;
    }
    default:
      break;
  }
  Wide a = 0, b = t.c;
  if (!eval_term(*t.a, point, a, saw_null)) return false;
  if (t.b && !eval_term(*t.b, point, b, saw_null)) return false;
  return language::integer_arithmetic(operation(t.op), a, b, out) == language::IntegerStatus::ok;
}

}  // namespace snnplan::analyse
