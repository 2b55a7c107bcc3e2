// Static analysis of each table's rules over the declared input domains: shadowed rules,
// gaps, and notes where the analysis cannot decide.
//
// How it works
// ------------
// Every condition of a table is a function of the inputs (derived `let` values are computed
// from them). The analysis splits each input's domain into finitely many classes such that
// every condition it sees is constant on each combination of classes, takes one
// representative value per class, and evaluates the table at every combination of
// representatives with a small interpreter over the syntax tree that mirrors the evaluator
// (first-hit order, short-circuit, Python integer division, lazily computed lets):
//
//   * bool inputs: false, true; inputs with one_of: their options; null where it can occur.
//   * string inputs without one_of: every constant the conditions compare them with (through
//     lets such as `starts_with(model, 'spikformer') ? 'spikformer' : model`), for every
//     prefix p they are tested with by starts_with one string that starts with p and with no
//     longer prefix, and one string that matches none of the above.
//   * int inputs without one_of: the integer conditions ("atoms") are comparisons of
//     expressions built from inputs, constants, + - unary-, * by a value that does not depend
//     on an integer input, and / % by constants. Such an expression is periodic-affine: with
//     P the product of its divisors, g(x + P) = g(x) + s on every residue class of x mod P,
//     so on a residue class each atom is a threshold in x. For one int input the analysis
//     takes, per residue class, the points next to each threshold and both ends of the int64
//     domain. For two int inputs related by atoms (batch_size >= world_size * 2) it sweeps:
//     for each value of the outer input the inner input's thresholds are computed exactly,
//     and the outer input is sampled next to every value where two inner thresholds (or a
//     threshold and a domain end) cross or come within 2 of each other, which is exactly
//     where the set of reachable inner cells changes.
//
// What it proves: when a table's conditions (and the lets they use) stay within that subset,
// the representatives cover every combination of condition outcomes that any int64/bool/
// string input can produce, so
//   * "shadowed-rule": the rule fires for no input at all. Either every input it matches is
//     matched by an earlier rule (the message names the earlier rules that fire first on
//     those inputs, so "by 'a' and 'c'" means neither alone covers it), or no input
//     satisfies its conditions. Decided over the whole declared domain of the inputs
//     (one_of, lower, null only where a default or a fallback gives it), independent of how
//     the table is entered, so it also holds for every way of entering it.
//   * "table-gap" warning: the witness in the message is a concrete input, checked by
//     evaluation, for which the table is entered and no rule matches. A table is entered
//     by the start table with any valid input; through `next` where the calling rule fires
//     (its matchers hold, no earlier rule of its table matches, and its own table is
//     entered); through `fallback` with the `with` inputs fixed to their (normalised,
//     validated) values and the other inputs as the caller saw them; the caller's values of
//     the overridden inputs range over their representatives. Gaps are only looked for when
//     the table has no catch-all rule. With the subset respected, no gap is missed.
// What it does not prove:
//   * Anything outside the subset (ends_with, contains, len, lower(), floats, relations among
//     three int inputs, * of two int inputs, division by an input, calls of other rule sets
//     and their record fields, ...): a note "analysis-incomplete" names the construct and no
//     shadowed-rule warning is given for the table. A gap found by evaluation is still
//     reported (its witness is concrete), but others may go unreported. So are tables whose
//     representatives exceed kMaxPoints combinations or kMaxPeriod residue classes.
//   * Entry conditions that cannot be represented exactly (a `with` value that is an
//     expression, or a fallback overriding an int input the caller's conditions depend on)
//     turn a gap into a note ("table-gap", severity note) saying the entry was not modelled.
//   * Errors raised while entering a table (a `set` value or template of the calling rule,
//     a record init) are not modelled: a gap witness may instead stop earlier with that
//     error. A condition that fails to evaluate (division by zero, null > 5) stops the
//     evaluation like the evaluator does, so no rule fires for that input; a rule that only
//     matches where an earlier condition fails gets a note instead of a warning.
//   * Integer overflow beyond 128 bits inside a condition, which the evaluator reports as an
//     error, is treated like any other failing condition when met at a representative, and
//     as a reason for a note when met while computing thresholds.

#include "check/table_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace snnplan::check {
namespace {

using namespace syntax;
__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UnsignedWide;

constexpr Wide kLo = std::numeric_limits<std::int64_t>::min();
constexpr Wide kHi = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t kMaxPoints = 200000;   // combinations of representatives per table
constexpr Wide kMaxPeriod = 4096;            // residue classes per int input
constexpr std::size_t kMaxAlternatives = 64; // possible shapes of one expression
constexpr std::size_t kMaxExistential = 4096;

// ---- integers ------------------------------------------------------------------------------

Wide floor_div(Wide a, Wide b) {
  Wide q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
Wide ceil_div(Wide a, Wide b) { return -floor_div(-a, b); }
Wide wide_abs(Wide a) { return a < 0 ? -a : a; }
Wide gcd(Wide a, Wide b) {
  a = wide_abs(a);
  b = wide_abs(b);
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}
// lcm(a, b), or 0 when it exceeds `cap`.
Wide lcm_capped(Wide a, Wide b, Wide cap) {
  if (a == 0 || b == 0) return 0;
  const Wide r = wide_abs(a) / gcd(a, b) * wide_abs(b);
  return r > cap ? 0 : r;
}

std::string wide_str(Wide v) {
  if (v >= kLo && v <= kHi) return std::to_string(static_cast<std::int64_t>(v));
  const bool negative = v < 0;
  UnsignedWide m = negative ? -static_cast<UnsignedWide>(v) : static_cast<UnsignedWide>(v);
  std::string digits;
  while (m != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return negative ? "-" + digits : digits;
}

// Python's // and %: the quotient rounds toward negative infinity. False on overflow.
bool python_divmod(Wide a, Wide b, Wide& q, Wide& m) {
  if (b == -1) {
    if (__builtin_sub_overflow(Wide{0}, a, &q)) return false;
    m = 0;
    return true;
  }
  q = a / b;
  m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) {
    q -= 1;
    m += b;
  }
  return true;
}

// ---- values and the interpreter --------------------------------------------------------------

struct Val {
  enum class K : std::uint8_t { null, boolean, integer, floating, string, list };
  K k = K::null;
  bool b = false;
  Wide i = 0;
  double f = 0;
  std::string s;
  std::shared_ptr<const std::vector<Val>> items;

  static Val boolean(bool v) {
    Val x;
    x.k = K::boolean;
    x.b = v;
    return x;
  }
  static Val integer(Wide v) {
    Val x;
    x.k = K::integer;
    x.i = v;
    return x;
  }
  static Val floating(double v) {
    Val x;
    x.k = K::floating;
    x.f = v;
    return x;
  }
  static Val string(std::string v) {
    Val x;
    x.k = K::string;
    x.s = std::move(v);
    return x;
  }
  static Val list(std::vector<Val> v) {
    Val x;
    x.k = K::list;
    x.items = std::make_shared<const std::vector<Val>>(std::move(v));
    return x;
  }
};

Val from_value(const Value& v) {
  if (v.is_bool()) return Val::boolean(v.as_bool());
  if (v.is_int()) return Val::integer(v.as_int());
  if (v.is_float()) return Val::floating(v.as_float());
  if (v.is_string()) return Val::string(v.as_string());
  if (v.is_list()) {
    std::vector<Val> items;
    for (const Value& item : v.as_list()) items.push_back(from_value(item));
    return Val::list(std::move(items));
  }
  return Val{};
}

KindSet kind_bit(const Val& v) {
  switch (v.k) {
    case Val::K::null: return kNull;
    case Val::K::boolean: return kBool;
    case Val::K::integer: return kInt;
    case Val::K::floating: return kFloat;
    case Val::K::string: return kString;
    case Val::K::list: return kList;
  }
  return 0;
}

// The evaluator's values_equal.
bool equal(const Val& a, const Val& b) {
  using K = Val::K;
  if (a.k == K::integer && b.k == K::floating) return static_cast<double>(a.i) == b.f;
  if (a.k == K::floating && b.k == K::integer) return a.f == static_cast<double>(b.i);
  if (a.k != b.k) return false;
  switch (a.k) {
    case K::null: return true;
    case K::boolean: return a.b == b.b;
    case K::integer: return a.i == b.i;
    case K::floating: return a.f == b.f;
    case K::string: return a.s == b.s;
    case K::list:
      if (a.items->size() != b.items->size()) return false;
      for (std::size_t k = 0; k < a.items->size(); ++k)
        if (!equal((*a.items)[k], (*b.items)[k])) return false;
      return true;
  }
  return false;
}

// For messages: strings quoted, like the evaluator's traces.
std::string show(const Val& v) {
  switch (v.k) {
    case Val::K::null: return "null";
    case Val::K::boolean: return v.b ? "true" : "false";
    case Val::K::integer: return wide_str(v.i);
    case Val::K::floating: return fmt::format("{}", v.f);
    case Val::K::string: return "'" + v.s + "'";
    case Val::K::list: {
      std::string out = "[";
      for (std::size_t k = 0; k < v.items->size(); ++k) out += (k ? ", " : "") + show((*v.items)[k]);
      return out + "]";
    }
  }
  return "?";
}

bool is_ascii_lower(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0x80 || (c >= 'A' && c <= 'Z')) return false;
  return true;
}
bool is_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
std::string ascii_lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

/// An expression with names resolved to slots: inputs first, then lets.
struct Node {
  ExprKind kind = ExprKind::literal;
  Op op = Op::add;
  std::optional<Builtin> builtin;
  int slot = -1;
  Val constant;
  std::string name;
  SourceLocation location;
  std::vector<Node> kids;
};

struct Issue {
  SourceLocation location;
  std::string what;
};

struct CMatcher {
  int slot = -1;
  MatchOp op = MatchOp::eq;
  Node operand;
  SourceLocation location;
};

// ---- integer terms and atoms ---------------------------------------------------------------

struct Term;
using TermP = std::shared_ptr<const Term>;
struct Term {
  enum class Op : std::uint8_t { constant, var, add, sub, mul, div, mod };  // -x is 0 - x
  Op op = Op::constant;
  Wide c = 0;   // constant; divisor of div and mod
  int var = -1;
  TermP a, b;
};

TermP term_const(Wide c) {
  auto t = std::make_shared<Term>();
  t->c = c;
  return t;
}
TermP term_var(int v) {
  auto t = std::make_shared<Term>();
  t->op = Term::Op::var;
  t->var = v;
  return t;
}

void term_vars(const Term& t, std::set<int>& out) {
  if (t.op == Term::Op::var) out.insert(t.var);
  if (t.a) term_vars(*t.a, out);
  if (t.b) term_vars(*t.b, out);
}

std::string term_key(const Term& t) {
  switch (t.op) {
    case Term::Op::constant: return wide_str(t.c);
    case Term::Op::var: return "v" + std::to_string(t.var);
    case Term::Op::add: return "(" + term_key(*t.a) + "+" + term_key(*t.b) + ")";
    case Term::Op::sub: return "(" + term_key(*t.a) + "-" + term_key(*t.b) + ")";
    case Term::Op::mul: return "(" + term_key(*t.a) + "*" + term_key(*t.b) + ")";
    case Term::Op::div: return "(" + term_key(*t.a) + "/" + wide_str(t.c) + ")";
    case Term::Op::mod: return "(" + term_key(*t.a) + "%" + wide_str(t.c) + ")";
  }
  return "?";
}

// Product of the divisors of a term (its period), or 0 when above kMaxPeriod.
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

// Evaluates a term at a point; false on overflow or when a variable is not an integer
// (`saw_null` tells the two apart).
bool eval_term(const Term& t, const std::vector<Val>& pt, Wide& out, bool& saw_null) {
  Wide a = 0, b = 0, q = 0, m = 0;
  switch (t.op) {
    case Term::Op::constant: out = t.c; return true;
    case Term::Op::var: {
      const Val& v = pt[static_cast<std::size_t>(t.var)];
      if (v.k != Val::K::integer) {
        saw_null = saw_null || v.k == Val::K::null;
        return false;
      }
      out = v.i;
      return true;
    }
    case Term::Op::div:
    case Term::Op::mod:
      if (!eval_term(*t.a, pt, a, saw_null) || !python_divmod(a, t.c, q, m)) return false;
      out = t.op == Term::Op::div ? q : m;
      return true;
    default: break;
  }
  if (!eval_term(*t.a, pt, a, saw_null) || !eval_term(*t.b, pt, b, saw_null)) return false;
  switch (t.op) {
    case Term::Op::add: return !__builtin_add_overflow(a, b, &out);
    case Term::Op::sub: return !__builtin_sub_overflow(a, b, &out);
    case Term::Op::mul: return !__builtin_mul_overflow(a, b, &out);
    default: return false;
  }
}

/// An integer condition: the sign of `term` (left minus right side of a comparison).
struct Atom {
  TermP term;
  std::vector<int> sampled;  // int inputs sampled around boundaries
  std::vector<int> params;   // int inputs with one_of, enumerated like bools
  Wide period = 1;
  SourceLocation location;
};

/// What the conditions of some expressions depend on.
struct Facts {
  std::set<int> deps;                  // inputs read
  std::map<std::string, Atom> atoms;   // integer conditions, by term
  std::vector<Issue> issues;           // constructs outside the supported subset

  void add_issue(const Issue& issue) {
    for (const Issue& i : issues)
      if (i.what == issue.what && i.location.line == issue.location.line && i.location.column == issue.location.column)
        return;
    issues.push_back(issue);
  }
  void merge(const Facts& o, bool with_issues = true) {
    deps.insert(o.deps.begin(), o.deps.end());
    atoms.insert(o.atoms.begin(), o.atoms.end());
    if (with_issues)
      for (const Issue& i : o.issues) add_issue(i);
  }
};

// ---- the model of a rule file --------------------------------------------------------------

struct InputInfo {
  std::string name;
  SourceLocation location;
  KindSet kinds = kAny;
  bool lower = false;
  bool has_one_of = false;
  std::vector<Val> options;
  bool default_null = false;   // null is a valid start value (the declared default is null)
  bool null_possible = false;  // null can reach a table (default or a fallback override)
  bool sampled = false;        // int without one_of: sampled around the atoms' boundaries
  std::set<std::string> constants;  // strings it is compared with
  std::set<std::string> prefixes;   // strings it is tested to start with
  std::vector<Val> reps;       // representatives when not sampled
  Val placeholder;             // a valid value, for when the input does not matter
  std::optional<Issue> issue;  // its values cannot be represented exactly
};

struct Override {
  int input = -1;
  std::optional<Val> value;  // none: an expression of the inputs
  bool possible = true;      // false: the value is refused (type, one_of), the fallback fails
};

struct CRule {
  std::string name;
  SourceLocation location;
  std::vector<CMatcher> when;
  int next = -1;
  int fallback = -1;
  std::vector<Override> with;
  Facts facts;
};

struct CTable {
  std::string name;
  SourceLocation location;
  std::vector<CRule> rules;
  std::size_t active = 0;  // rules up to and including the first catch-all
  bool has_catch_all = false;
};

struct Path {
  int caller = -1;
  int rule = -1;
  bool fallback = false;
  // fallback paths
  bool impossible = false;
  bool expression = false;                // a `with` value is an expression of the inputs
  std::string unmodelled;                 // why the entry condition is not modelled exactly
  std::vector<int> quantified;            // overridden inputs, with the caller's candidates
  std::vector<std::vector<Val>> candidates;
};

struct Model {
  std::vector<InputInfo> inputs;
  std::vector<Node> lets;
  std::vector<std::string> let_names;
  std::vector<bool> let_calls;  // the let calls another rule set
  std::vector<CTable> tables;
  int start = -1;
  std::vector<std::vector<Path>> callers;  // per table
};

// ---- the interpreter -----------------------------------------------------------------------

// Thrown to stop an evaluation: `unknown` when the interpreter cannot tell (a builtin it
// does not implement), otherwise the evaluator would fail too.
struct Stop {
  bool unknown = false;
  std::string why;
};
[[noreturn]] void fail(std::string why) { throw Stop{false, std::move(why)}; }
[[noreturn]] void cannot(std::string why) { throw Stop{true, std::move(why)}; }

enum class Outcome : std::uint8_t { no, yes, error, unknown };

class Interp {
 public:
  Interp(const Model& m, const std::vector<Val>& pt)
      : m_(m), pt_(pt), cache_(m.lets.size()), failed_(m.lets.size()), state_(m.lets.size(), 0) {}

  Outcome rule(const CRule& r, std::string* why) {
    try {
      for (const CMatcher& matcher : r.when)
        if (!matches(matcher)) return Outcome::no;
      return Outcome::yes;
    } catch (const Stop& stop) {
      if (why) *why = stop.why;
      return stop.unknown ? Outcome::unknown : Outcome::error;
    }
  }

  Val eval(const Node& n) {
    switch (n.kind) {
      case ExprKind::literal: return n.constant;
      case ExprKind::name: return slot(n.slot);
      case ExprKind::list: {
        std::vector<Val> items;
        for (const Node& kid : n.kids) items.push_back(eval(kid));
        return Val::list(std::move(items));
      }
      case ExprKind::unary: {
        const Val v = eval(n.kids[0]);
        if (n.op == Op::logical_not) return Val::boolean(!truth(v));
        if (v.k == Val::K::integer) {
          Wide r = 0;
          if (__builtin_sub_overflow(Wide{0}, v.i, &r)) fail("integer overflow");
          return Val::integer(r);
        }
        if (v.k == Val::K::floating) return Val::floating(-v.f);
        fail("unary '-' of a non-number");
      }
      case ExprKind::conditional: return truth(eval(n.kids[0])) ? eval(n.kids[1]) : eval(n.kids[2]);
      case ExprKind::binary: return binary(n);
      case ExprKind::call: return call(n);
      default: cannot("an expression the analysis does not evaluate");
    }
  }

  const Val& slot(int s) {
    const auto n = m_.inputs.size();
    if (static_cast<std::size_t>(s) < n) return pt_[static_cast<std::size_t>(s)];
    const std::size_t k = static_cast<std::size_t>(s) - n;
    if (state_[k] == 2) return cache_[k];
    if (state_[k] == 3) throw *failed_[k];
    if (state_[k] == 1 || m_.let_calls[k]) cannot("a call of another rule set");
    state_[k] = 1;
    try {
      cache_[k] = eval(m_.lets[k]);
    } catch (const Stop& stop) {
      state_[k] = 3;
      failed_[k] = stop;
      throw;
    }
    state_[k] = 2;
    return cache_[k];
  }

 private:
  static bool truth(const Val& v) {
    if (v.k != Val::K::boolean) fail("a condition that is not a bool");
    return v.b;
  }

  static int compare(const Val& a, const Val& b) {
    using K = Val::K;
    if (a.k == K::integer && b.k == K::integer) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    const bool na = a.k == K::integer || a.k == K::floating;
    const bool nb = b.k == K::integer || b.k == K::floating;
    if (na && nb) {
      const double x = a.k == K::integer ? static_cast<double>(a.i) : a.f;
      const double y = b.k == K::integer ? static_cast<double>(b.i) : b.f;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a.k == K::string && b.k == K::string) return a.s.compare(b.s) < 0 ? -1 : a.s == b.s ? 0 : 1;
    fail("an ordering comparison of values that cannot be ordered");
  }

  bool matches(const CMatcher& m) {
    const Val& fact = slot(m.slot);
    const Val operand = eval(m.operand);
    switch (m.op) {
      case MatchOp::eq: return equal(fact, operand);
      case MatchOp::ne: return !equal(fact, operand);
      case MatchOp::lt: return compare(fact, operand) < 0;
      case MatchOp::le: return compare(fact, operand) <= 0;
      case MatchOp::gt: return compare(fact, operand) > 0;
      case MatchOp::ge: return compare(fact, operand) >= 0;
      case MatchOp::one_of:
      case MatchOp::not_one_of: {
        if (operand.k != Val::K::list) fail("one_of needs a list");
        bool found = false;
        for (const Val& option : *operand.items) found = found || equal(fact, option);
        return found == (m.op == MatchOp::one_of);
      }
    }
    return false;
  }

  Val binary(const Node& n) {
    if (n.op == Op::logical_and) return Val::boolean(truth(eval(n.kids[0])) && truth(eval(n.kids[1])));
    if (n.op == Op::logical_or) return Val::boolean(truth(eval(n.kids[0])) || truth(eval(n.kids[1])));
    const Val a = eval(n.kids[0]);
    const Val b = eval(n.kids[1]);
    switch (n.op) {
      case Op::equal: return Val::boolean(equal(a, b));
      case Op::not_equal: return Val::boolean(!equal(a, b));
      case Op::less: return Val::boolean(compare(a, b) < 0);
      case Op::less_equal: return Val::boolean(compare(a, b) <= 0);
      case Op::greater: return Val::boolean(compare(a, b) > 0);
      case Op::greater_equal: return Val::boolean(compare(a, b) >= 0);
      default: return arithmetic(n.op, a, b);
    }
  }

  static Val arithmetic(Op op, const Val& a, const Val& b) {
    using K = Val::K;
    if (a.k == K::integer && b.k == K::integer) {
      Wide r = 0, q = 0, m = 0;
      switch (op) {
        case Op::add: if (__builtin_add_overflow(a.i, b.i, &r)) fail("integer overflow"); return Val::integer(r);
        case Op::subtract: if (__builtin_sub_overflow(a.i, b.i, &r)) fail("integer overflow"); return Val::integer(r);
        case Op::multiply: if (__builtin_mul_overflow(a.i, b.i, &r)) fail("integer overflow"); return Val::integer(r);
        case Op::divide:
        case Op::modulo:
          if (b.i == 0) fail("division by zero");
          if (!python_divmod(a.i, b.i, q, m)) fail("integer overflow");
          return Val::integer(op == Op::divide ? q : m);
        default: break;
      }
    }
    const bool numeric = (a.k == K::integer || a.k == K::floating) && (b.k == K::integer || b.k == K::floating);
    if (numeric) {
      const double x = a.k == K::integer ? static_cast<double>(a.i) : a.f;
      const double y = b.k == K::integer ? static_cast<double>(b.i) : b.f;
      switch (op) {
        case Op::add: return Val::floating(x + y);
        case Op::subtract: return Val::floating(x - y);
        case Op::multiply: return Val::floating(x * y);
        case Op::divide:
          if (y == 0) fail("division by zero");
          return Val::floating(x / y);
        case Op::modulo: {
          if (y == 0) fail("division by zero");
          double m = std::fmod(x, y);
          if (m != 0 && ((m < 0) != (y < 0))) m += y;
          if (m == 0) m = std::copysign(0.0, y);  // as Python: -4.0 % 2.0 is 0.0, 4.0 % -2.0 is -0.0
          return Val::floating(m);
        }
        default: break;
      }
    }
    if (op == Op::add && a.k == K::string && b.k == K::string) return Val::string(a.s + b.s);
    if (op == Op::add && a.k == K::list && b.k == K::list) {
      std::vector<Val> items(*a.items);
      items.insert(items.end(), b.items->begin(), b.items->end());
      return Val::list(std::move(items));
    }
    fail("arithmetic on values of the wrong kinds");
  }

  Val call(const Node& n) {
    std::vector<Val> args;
    for (const Node& kid : n.kids) args.push_back(eval(kid));
    auto need = [&](std::size_t k, Val::K kind) -> const Val& {
      if (args[k].k != kind) fail(fmt::format("an argument of {}() of the wrong kind", n.name));
      return args[k];
    };
    if (!n.builtin) cannot(fmt::format("{}()", n.name));
    switch (*n.builtin) {
      case Builtin::starts_with: {
        const std::string& s = need(0, Val::K::string).s;
        const std::string& p = need(1, Val::K::string).s;
        return Val::boolean(s.size() >= p.size() && s.compare(0, p.size(), p) == 0);
      }
      case Builtin::ends_with: {
        const std::string& s = need(0, Val::K::string).s;
        const std::string& p = need(1, Val::K::string).s;
        return Val::boolean(s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0);
      }
      case Builtin::contains: {
        if (args[0].k == Val::K::string) return Val::boolean(args[0].s.find(need(1, Val::K::string).s) != std::string::npos);
        const Val& list = need(0, Val::K::list);
        for (const Val& item : *list.items)
          if (equal(item, args[1])) return Val::boolean(true);
        return Val::boolean(false);
      }
      case Builtin::lower: {
        const std::string& s = need(0, Val::K::string).s;
        if (!is_ascii(s)) cannot("lower() of a non-ASCII string");
        return Val::string(ascii_lower(s));
      }
      case Builtin::len:
        if (args[0].k == Val::K::string) return Val::integer(static_cast<Wide>(args[0].s.size()));
        return Val::integer(static_cast<Wide>(need(0, Val::K::list).items->size()));
      case Builtin::min:
      case Builtin::max: {
        std::size_t best = 0;
        for (std::size_t k = 1; k < args.size(); ++k) {
          const int c = compare(args[k], args[best]);
          if (*n.builtin == Builtin::min ? c < 0 : c > 0) best = k;
        }
        return args[best];
      }
      default: cannot(fmt::format("{}()", n.name));
    }
  }

  const Model& m_;
  const std::vector<Val>& pt_;
  std::vector<Val> cache_;
  std::vector<std::optional<Stop>> failed_;
  std::vector<std::uint8_t> state_;  // 0 pending, 1 computing, 2 ready, 3 failed
};

// ---- shapes: which atoms and constants an expression's value depends on --------------------

/// One possible shape of a value: what the analysis knows about it without inputs.
struct Alt {
  enum class K : std::uint8_t { null, boolean, integer, floating, string, list, other };
  K k = K::other;
  TermP term;         // integer
  bool constant = true;  // floating: does not depend on inputs
  int input = -1;     // string: the input it is, or -1 for the literal `str`
  std::string str;
  std::vector<std::vector<Alt>> items;  // list: the alternatives at each position
};

Alt boolean_alt() {
  Alt a;
  a.k = Alt::K::boolean;
  return a;
}

Alt alt_of(const Val& v) {
  Alt a;
  switch (v.k) {
    case Val::K::null: a.k = Alt::K::null; break;
    case Val::K::boolean: a.k = Alt::K::boolean; break;
    case Val::K::integer: a.k = Alt::K::integer; a.term = term_const(v.i); break;
    case Val::K::floating: a.k = Alt::K::floating; break;
    case Val::K::string: a.k = Alt::K::string; a.str = v.s; break;
    case Val::K::list:
      a.k = Alt::K::list;
      for (const Val& item : *v.items) a.items.push_back({alt_of(item)});
      break;
  }
  return a;
}

class Shapes {
 public:
  explicit Shapes(Model& m) : m_(m), lets_(m.lets.size()) {}

  Facts matcher(const CMatcher& matcher) {
    Facts f;
    const std::vector<Alt> fact = of_slot(matcher.slot, matcher.location, f);
    const bool list_op = matcher.op == MatchOp::one_of || matcher.op == MatchOp::not_one_of;
    const bool ordering = !list_op && matcher.op != MatchOp::eq && matcher.op != MatchOp::ne;
    if (list_op && matcher.operand.kind == ExprKind::list) {
      for (const Node& option : matcher.operand.kids) {
        const std::vector<Alt> alts = of(option, f);
        for (const Alt& a : fact)
          for (const Alt& b : alts) compare(a, b, false, option.location, f);
      }
    } else if (list_op) {
      const std::vector<Alt> alts = of(matcher.operand, f);
      for (const Alt& a : fact)
        for (const Alt& b : alts)
          if (b.k == Alt::K::list)
            for (const auto& position : b.items)
              for (const Alt& item : position) compare(a, item, false, matcher.operand.location, f);
    } else {
      const std::vector<Alt> alts = of(matcher.operand, f);
      for (const Alt& a : fact)
        for (const Alt& b : alts) compare(a, b, ordering, matcher.operand.location, f);
    }
    return f;
  }

  /// Deps of an expression (for `with` values), ignoring everything else.
  std::set<int> deps(const Node& n) {
    Facts f;
    of(n, f);
    return f.deps;
  }

 private:
  struct LetShape {
    std::vector<Alt> alts;
    Facts facts;
  };

  static void issue(Facts& f, const SourceLocation& at, std::string what) { f.add_issue(Issue{at, std::move(what)}); }

  std::vector<Alt> capped(std::vector<Alt> alts, const SourceLocation& at, Facts& f) {
    if (alts.size() <= kMaxAlternatives) return alts;
    issue(f, at, "the expression has too many alternative values");
    return {Alt{}};
  }

  std::string slot_name(int s) const {
    const std::size_t n = m_.inputs.size();
    return static_cast<std::size_t>(s) < n ? m_.inputs[static_cast<std::size_t>(s)].name
                                           : m_.let_names[static_cast<std::size_t>(s) - n];
  }

  std::vector<Alt> of_slot(int s, const SourceLocation& at, Facts& f) {
    const std::size_t n = m_.inputs.size();
    if (static_cast<std::size_t>(s) < n) return of_input(static_cast<std::size_t>(s), at, f);
    const std::size_t k = static_cast<std::size_t>(s) - n;
    if (!lets_[k]) {
      LetShape shape;
      if (m_.let_calls[k]) {
        issue(shape.facts, at, fmt::format("derived value '{}' calls another rule set", m_.let_names[k]));
        shape.alts = {Alt{}};
      } else {
        shape.alts = of(m_.lets[k], shape.facts);
      }
      lets_[k] = std::move(shape);
    }
    f.merge(lets_[k]->facts);
    return lets_[k]->alts;
  }

  std::vector<Alt> of_input(std::size_t i, const SourceLocation& at, Facts& f) {
    InputInfo& in = m_.inputs[i];
    f.deps.insert(static_cast<int>(i));
    std::vector<Alt> out;
    auto add = [&](Alt::K k) {
      for (const Alt& a : out)
        if (a.k == k) return;
      Alt a;
      a.k = k;
      if (k == Alt::K::integer) a.term = term_var(static_cast<int>(i));
      if (k == Alt::K::string) a.input = static_cast<int>(i);
      if (k == Alt::K::floating) a.constant = false;
      out.push_back(std::move(a));
    };
    if (in.has_one_of) {
      for (const Val& option : in.options) {
        switch (option.k) {
          case Val::K::null: add(Alt::K::null); break;
          case Val::K::boolean: add(Alt::K::boolean); break;
          case Val::K::integer: add(Alt::K::integer); break;
          case Val::K::floating: add(Alt::K::floating); break;
          case Val::K::string: add(Alt::K::string); break;
          case Val::K::list: out.push_back(alt_of(option)); break;
        }
      }
      return out;
    }
    if ((in.kinds & kNull) && in.null_possible) add(Alt::K::null);
    if (in.kinds & kBool) add(Alt::K::boolean);
    if (in.kinds & kString) add(Alt::K::string);
    if (in.kinds & kFloat) add(Alt::K::floating);
    else if (in.kinds & kInt) add(Alt::K::integer);
    if (in.kinds & (kList | kRecord)) {
      issue(f, at, fmt::format("input '{}' is a list", in.name));
      out.push_back(Alt{});
    }
    return out;
  }

  void atom(const TermP& left, const TermP& right, const SourceLocation& at, Facts& f) {
    std::string why;
    TermP diff = arith(Term::Op::sub, left, right, why);
    if (!diff) {
      if (!why.empty()) issue(f, at, why);
      return;
    }
    std::set<int> vars;
    term_vars(*diff, vars);
    Atom a;
    a.term = diff;
    a.location = at;
    for (int v : vars) (m_.inputs[static_cast<std::size_t>(v)].sampled ? a.sampled : a.params).push_back(v);
    if (a.sampled.empty()) return;  // decided by enumerating the inputs it uses
    if (a.sampled.size() > 2) {
      std::string names;
      for (std::size_t k = 0; k < a.sampled.size(); ++k)
        names += (k ? (k + 1 == a.sampled.size() ? " and " : ", ") : "") +
                 fmt::format("'{}'", m_.inputs[static_cast<std::size_t>(a.sampled[k])].name);
      issue(f, at, fmt::format("the condition relates more than two integer inputs ({})", names));
      return;
    }
    a.period = term_period(*diff);
    if (a.period == 0) {
      issue(f, at, fmt::format("the divisors of the condition multiply to more than {}", wide_str(kMaxPeriod)));
      return;
    }
    f.atoms.emplace(term_key(*diff), std::move(a));
  }

  bool has_sampled(const Term& t) {
    std::set<int> vars;
    term_vars(t, vars);
    return std::any_of(vars.begin(), vars.end(), [&](int v) { return m_.inputs[static_cast<std::size_t>(v)].sampled; });
  }

  // An integer term `a op b`, folded when both are constants. nullptr with `why` empty when
  // the operation always fails at run time (division by zero); with `why` set when it is
  // outside what the analysis handles.
  TermP arith(Term::Op op, const TermP& a, const TermP& b, std::string& why) {
    const bool ca = a->op == Term::Op::constant;
    const bool cb = b->op == Term::Op::constant;
    if ((op == Term::Op::div || op == Term::Op::mod) && !cb) {
      why = "the condition divides by a value that depends on inputs";
      return nullptr;
    }
    if ((op == Term::Op::div || op == Term::Op::mod) && b->c == 0) return nullptr;
    if (op == Term::Op::mul && has_sampled(*a) && has_sampled(*b)) {
      why = "the condition multiplies two values that depend on integer inputs";
      return nullptr;
    }
    if (ca && cb) {
      Wide r = 0, q = 0, m = 0;
      bool ok = true;
      switch (op) {
        case Term::Op::add: ok = !__builtin_add_overflow(a->c, b->c, &r); break;
        case Term::Op::sub: ok = !__builtin_sub_overflow(a->c, b->c, &r); break;
        case Term::Op::mul: ok = !__builtin_mul_overflow(a->c, b->c, &r); break;
        case Term::Op::div: ok = python_divmod(a->c, b->c, q, m); r = q; break;
        case Term::Op::mod: ok = python_divmod(a->c, b->c, q, m); r = m; break;
        default: ok = false;
      }
      if (!ok) return nullptr;  // fails at run time
      return term_const(r);
    }
    auto t = std::make_shared<Term>();
    t->op = op;
    t->a = a;
    if (op == Term::Op::div || op == Term::Op::mod) t->c = b->c;
    else t->b = b;
    return t;
  }

  void compare(const Alt& a, const Alt& b, bool ordering, const SourceLocation& at, Facts& f) {
    using K = Alt::K;
    if (a.k == K::other || b.k == K::other) return;  // reported where it was made
    if (a.k == K::integer && b.k == K::integer) {
      atom(a.term, b.term, at, f);
      return;
    }
    const bool na = a.k == K::integer || a.k == K::floating;
    const bool nb = b.k == K::integer || b.k == K::floating;
    if (na && nb) {
      const bool a_const = a.k == K::floating ? a.constant : a.term->op == Term::Op::constant;
      const bool b_const = b.k == K::floating ? b.constant : b.term->op == Term::Op::constant;
      if (!a_const || !b_const) issue(f, at, "the condition compares a float value that depends on inputs");
      return;
    }
    if (a.k == K::string && b.k == K::string) {
      if (a.input < 0 && b.input < 0) return;
      if (ordering) {
        issue(f, at, "the condition orders strings that depend on inputs");
        return;
      }
      if (a.input >= 0 && b.input >= 0) {
        if (a.input != b.input) issue(f, at, "the condition compares two string inputs with each other");
        return;
      }
      const Alt& in = a.input >= 0 ? a : b;
      const Alt& lit = a.input >= 0 ? b : a;
      m_.inputs[static_cast<std::size_t>(in.input)].constants.insert(lit.str);
      return;
    }
    if (a.k == K::list && b.k == K::list && !ordering && a.items.size() == b.items.size()) {
      for (std::size_t k = 0; k < a.items.size(); ++k)
        for (const Alt& x : a.items[k])
          for (const Alt& y : b.items[k]) compare(x, y, false, at, f);
    }
    // Other kinds never compare equal and cannot be ordered (a run-time error): constant.
  }

  std::vector<Alt> of(const Node& n, Facts& f) {
    using K = Alt::K;
    switch (n.kind) {
      case ExprKind::literal: return {alt_of(n.constant)};
      case ExprKind::name: return of_slot(n.slot, n.location, f);
      case ExprKind::list: {
        Alt a;
        a.k = K::list;
        for (const Node& kid : n.kids) a.items.push_back(of(kid, f));
        return {a};
      }
      case ExprKind::unary: {
        std::vector<Alt> kid = of(n.kids[0], f);
        if (n.op == Op::logical_not) return {boolean_alt()};
        std::vector<Alt> out;
        for (const Alt& a : kid) {
          if (a.k == K::integer) {
            std::string why;
            if (TermP t = arith(Term::Op::sub, term_const(0), a.term, why)) {
              Alt r;
              r.k = K::integer;
              r.term = t;
              out.push_back(r);
            }
          } else if (a.k == K::floating || a.k == K::other) {
            out.push_back(a);
          }
        }
        return out;
      }
      case ExprKind::conditional: {
        of(n.kids[0], f);
        std::vector<Alt> out = of(n.kids[1], f);
        std::vector<Alt> other = of(n.kids[2], f);
        out.insert(out.end(), other.begin(), other.end());
        return capped(std::move(out), n.location, f);
      }
      case ExprKind::binary: return binary(n, f);
      case ExprKind::call: return call(n, f);
      default:
        if (n.kind == ExprKind::member && n.kids.size() == 1 && n.kids[0].kind == ExprKind::name) {
          issue(f, n.location, fmt::format("'{}.{}' is a field of another rule set's record, which the analysis does not evaluate",
                                           slot_name(n.kids[0].slot), n.name));
        } else {
          issue(f, n.location, "the analysis does not support this kind of expression");
        }
        return {Alt{}};
    }
  }

  std::vector<Alt> binary(const Node& n, Facts& f) {
    using K = Alt::K;
    const std::vector<Alt> left = of(n.kids[0], f);
    const std::vector<Alt> right = of(n.kids[1], f);
    switch (n.op) {
      case Op::logical_and:
      case Op::logical_or: return {boolean_alt()};
      case Op::equal:
      case Op::not_equal:
      case Op::less:
      case Op::less_equal:
      case Op::greater:
      case Op::greater_equal: {
        const bool ordering = n.op != Op::equal && n.op != Op::not_equal;
        for (const Alt& a : left)
          for (const Alt& b : right) compare(a, b, ordering, n.location, f);
        return {boolean_alt()};
      }
      default: break;
    }
    Term::Op op = Term::Op::add;
    switch (n.op) {
      case Op::add: op = Term::Op::add; break;
      case Op::subtract: op = Term::Op::sub; break;
      case Op::multiply: op = Term::Op::mul; break;
      case Op::divide: op = Term::Op::div; break;
      case Op::modulo: op = Term::Op::mod; break;
      default: break;
    }
    std::vector<Alt> out;
    for (const Alt& a : left) {
      for (const Alt& b : right) {
        if (a.k == K::other || b.k == K::other) {
          out.push_back(Alt{});
        } else if (a.k == K::integer && b.k == K::integer) {
          std::string why;
          TermP t = arith(op, a.term, b.term, why);
          if (t) {
            Alt r;
            r.k = K::integer;
            r.term = t;
            out.push_back(r);
          } else if (!why.empty()) {
            issue(f, n.location, why);
            out.push_back(Alt{});
          }
        } else if ((a.k == K::integer || a.k == K::floating) && (b.k == K::integer || b.k == K::floating)) {
          Alt r;
          r.k = K::floating;
          r.constant = (a.k == K::floating ? a.constant : a.term->op == Term::Op::constant) &&
                       (b.k == K::floating ? b.constant : b.term->op == Term::Op::constant);
          out.push_back(r);
        } else if (op == Term::Op::add && a.k == K::string && b.k == K::string) {
          if (a.input < 0 && b.input < 0) {
            Alt r;
            r.k = K::string;
            r.str = a.str + b.str;
            out.push_back(r);
          } else {
            issue(f, n.location, "the condition builds a string from an input");
            out.push_back(Alt{});
          }
        } else if (op == Term::Op::add && a.k == K::list && b.k == K::list) {
          Alt r = a;
          r.items.insert(r.items.end(), b.items.begin(), b.items.end());
          out.push_back(r);
        }
        // Anything else fails at run time: no value.
      }
    }
    return capped(std::move(out), n.location, f);
  }

  std::vector<Alt> call(const Node& n, Facts& f) {
    using K = Alt::K;
    std::vector<std::vector<Alt>> args;
    for (const Node& kid : n.kids) args.push_back(of(kid, f));
    if (n.builtin && *n.builtin == Builtin::starts_with && args.size() == 2) {
      for (const Alt& s : args[0]) {
        for (const Alt& p : args[1]) {
          if (s.k != K::string || p.k != K::string) continue;
          if (p.input >= 0) issue(f, n.location, "starts_with() is given a prefix that depends on inputs");
          else if (s.input >= 0) m_.inputs[static_cast<std::size_t>(s.input)].prefixes.insert(p.str);
        }
      }
      return {boolean_alt()};
    }
    if (n.builtin && (*n.builtin == Builtin::min || *n.builtin == Builtin::max)) {
      // The result is one of the arguments, chosen by comparing them with each other.
      std::vector<Alt> out;
      for (std::size_t i = 0; i < args.size(); ++i) {
        for (std::size_t j = i + 1; j < args.size(); ++j)
          for (const Alt& a : args[i])
            for (const Alt& b : args[j]) compare(a, b, true, n.location, f);
        out.insert(out.end(), args[i].begin(), args[i].end());
      }
      return capped(std::move(out), n.location, f);
    }
    issue(f, n.location, fmt::format("{}() is not supported by the analysis", n.name));
    return {Alt{}};
  }

  Model& m_;
  std::vector<std::optional<LetShape>> lets_;
};

// ---- enumeration ---------------------------------------------------------------------------

struct Component {
  std::vector<int> vars;  // 1 or 2 sampled int inputs
  std::vector<const Atom*> atoms;
  std::vector<int> params;
};

struct Space {
  std::vector<int> vars;    // every enumerated input, in declaration order
  std::vector<int> finite;  // enumerated from their representatives
  std::vector<Component> comps;
  std::vector<Issue> issues;  // why the space does not cover every class
};

using Samples = std::vector<std::vector<Val>>;  // per sample: a value per component var

enum class Sweep : std::uint8_t { ok, too_large, failed };

class Sampler {
 public:
  Sampler(const Model& m, std::vector<Val>& pt) : m_(m), pt_(pt) {}

  // Values of one int input next to the thresholds of `atoms` (which involve only it).
  std::optional<std::set<Wide>> values_of(int x, const std::vector<const Atom*>& atoms) {
    std::set<Wide> out;
    std::string why;
    if (!one(x, atoms, out, why)) return std::nullopt;
    return out;
  }

  // Representative values of a component's inputs, given the other inputs in `pt`.
  std::optional<Samples> component(const Component& c, std::string& why) {
    std::vector<int> nullable;
    for (int v : c.vars)
      if (m_.inputs[static_cast<std::size_t>(v)].null_possible) nullable.push_back(v);
    Samples out;
    for (unsigned mask = 0; mask < (1u << nullable.size()); ++mask) {
      std::vector<int> active;
      for (int v : c.vars) {
        bool is_null = false;
        for (std::size_t k = 0; k < nullable.size(); ++k)
          if (nullable[k] == v && (mask & (1u << k))) is_null = true;
        if (is_null) pt_[static_cast<std::size_t>(v)] = Val{};
        else active.push_back(v);
      }
      std::vector<const Atom*> atoms;
      for (const Atom* a : c.atoms)
        if (std::all_of(a->sampled.begin(), a->sampled.end(),
                        [&](int v) { return std::find(active.begin(), active.end(), v) != active.end(); }))
          atoms.push_back(a);
      auto emit = [&](const std::vector<std::pair<int, Wide>>& values) {
        std::vector<Val> sample;
        for (int v : c.vars) {
          Val value;
          for (const auto& [var, x] : values)
            if (var == v) value = Val::integer(x);
          sample.push_back(value);
        }
        out.push_back(std::move(sample));
      };
      if (active.empty()) {
        emit({});
      } else if (active.size() == 1) {
        std::set<Wide> xs;
        if (!one(active[0], atoms, xs, why)) return std::nullopt;
        for (Wide x : xs) emit({{active[0], x}});
      } else {
        std::set<std::pair<Wide, Wide>> xys;
        Sweep s = two(active[0], active[1], atoms, xys, why);
        if (s == Sweep::too_large) {
          xys.clear();
          s = two(active[1], active[0], atoms, xys, why);
          if (s == Sweep::ok) {
            std::set<std::pair<Wide, Wide>> swapped;
            for (const auto& [x, y] : xys) swapped.emplace(y, x);
            xys = std::move(swapped);
          }
        }
        if (s != Sweep::ok) return std::nullopt;
        for (const auto& [x, y] : xys) emit({{active[0], x}, {active[1], y}});
      }
    }
    return out;
  }

 private:
  // g(atom) with the component's inputs set as given. `skip` when a parameter is null (the
  // atom is then decided by enumeration); false on overflow.
  bool at(const Atom& a, int x, Wide xv, int y, Wide yv, Wide& out, bool& skip, std::string& why) {
    pt_[static_cast<std::size_t>(x)] = Val::integer(xv);
    if (y >= 0) pt_[static_cast<std::size_t>(y)] = Val::integer(yv);
    bool saw_null = false;
    if (eval_term(*a.term, pt_, out, saw_null)) return true;
    if (saw_null) {
      skip = true;
      return true;
    }
    why = "an integer condition overflows 128 bits";
    return false;
  }

  static Wide period(const std::vector<const Atom*>& atoms, int v, bool& ok) {
    Wide p = 1;
    for (const Atom* a : atoms) {
      if (std::find(a->sampled.begin(), a->sampled.end(), v) == a->sampled.end()) continue;
      p = lcm_capped(p, a->period, kMaxPeriod);
      if (p == 0) {
        ok = false;
        return 1;
      }
    }
    return p;
  }

  // One int input: per residue class mod P every atom is affine in k (x = r + kP); take the
  // points next to each threshold and the ends of the domain.
  bool one(int x, const std::vector<const Atom*>& atoms, std::set<Wide>& out, std::string& why) {
    bool ok = true;
    const Wide P = period(atoms, x, ok);
    if (!ok) {
      why = fmt::format("the divisors in the conditions on '{}' need more than {} residue classes",
                        m_.inputs[static_cast<std::size_t>(x)].name, wide_str(kMaxPeriod));
      return false;
    }
    for (Wide r = 0; r < P; ++r) {
      const Wide kmin = ceil_div(kLo - r, P), kmax = floor_div(kHi - r, P);
      std::set<Wide> ks = {kmin, kmax};
      for (const Atom* a : atoms) {
        Wide g0 = 0, g1 = 0, g2 = 0;
        bool skip = false;
        if (!at(*a, x, r, -1, 0, g0, skip, why) || !at(*a, x, r + P, -1, 0, g1, skip, why) ||
            !at(*a, x, r + 2 * P, -1, 0, g2, skip, why))
          return false;
        if (skip) continue;
        const Wide s = g1 - g0;
        if (g2 - g1 != s) {
          why = "an integer condition is not periodic-affine (internal)";
          return false;
        }
        if (s == 0) continue;
        const Wide t = floor_div(-g0, s);
        for (Wide d = -1; d <= 2; ++d)
          if (t + d >= kmin && t + d <= kmax) ks.insert(t + d);
      }
      for (Wide k : ks) out.insert(r + k * P);
    }
    return true;
  }

  // Two int inputs related by atoms: x outer, y inner (see the comment at the top).
  Sweep two(int x, int y, const std::vector<const Atom*>& atoms, std::set<std::pair<Wide, Wide>>& out, std::string& why) {
    bool ok = true;
    const Wide Px = period(atoms, x, ok);
    const Wide Py = period(atoms, y, ok);
    if (!ok) {
      why = fmt::format("the divisors in the conditions on '{}' and '{}' need more than {} residue classes",
                        m_.inputs[static_cast<std::size_t>(x)].name, m_.inputs[static_cast<std::size_t>(y)].name,
                        wide_str(kMaxPeriod));
      return Sweep::failed;
    }
    struct Line {
      Wide G, sx, sy;
    };
    for (Wide ry = 0; ry < Py; ++ry) {
      const Wide kmin = ceil_div(kLo - ry, Py), kmax = floor_div(kHi - ry, Py);
      for (Wide rx = 0; rx < Px; ++rx) {
        std::vector<Line> ys, xs;  // atoms with a threshold in y; atoms depending on x only
        Wide L = 1;
        for (const Atom* a : atoms) {
          Wide g = 0, gx = 0, gy = 0, gxy = 0, gxx = 0, gyy = 0;
          bool skip = false;
          if (!at(*a, x, rx, y, ry, g, skip, why) || !at(*a, x, rx + Px, y, ry, gx, skip, why) ||
              !at(*a, x, rx, y, ry + Py, gy, skip, why) || !at(*a, x, rx + Px, y, ry + Py, gxy, skip, why) ||
              !at(*a, x, rx + 2 * Px, y, ry, gxx, skip, why) || !at(*a, x, rx, y, ry + 2 * Py, gyy, skip, why))
            return Sweep::failed;
          if (skip) continue;
          const Line line{g, gx - g, gy - g};
          if (gxy != g + line.sx + line.sy || gxx - gx != line.sx || gyy - gy != line.sy) {
            why = "an integer condition is not periodic-affine (internal)";
            return Sweep::failed;
          }
          if (line.sy != 0) {
            ys.push_back(line);
            L = lcm_capped(L, line.sy, kMaxPeriod);
            if (L == 0) {
              why = fmt::format("the coefficients relating '{}' and '{}' are too large",
                                m_.inputs[static_cast<std::size_t>(x)].name, m_.inputs[static_cast<std::size_t>(y)].name);
              return Sweep::too_large;
            }
          } else if (line.sx != 0) {
            xs.push_back(line);
          }
        }
        // x = rx + (L j + rho) Px: for each rho the thresholds of y are floor(..) - j c_a.
        for (Wide rho = 0; rho < L; ++rho) {
          const Wide base = rx + rho * Px, step = L * Px;
          const Wide jmin = ceil_div(kLo - base, step), jmax = floor_div(kHi - base, step);
          std::set<Wide> js = {jmin, jmax};
          auto add = [&](Wide j0) {
            for (Wide d = -1; d <= 2; ++d)
              if (j0 + d >= jmin && j0 + d <= jmax) js.insert(j0 + d);
          };
          for (const Line& l : xs) add(floor_div(-(l.G + rho * l.sx), L * l.sx));
          std::vector<std::pair<Wide, Wide>> F;  // (A_a, c_a): floor threshold A_a - j c_a
          for (const Line& l : ys) F.emplace_back(floor_div(-(l.G + rho * l.sx), l.sy), L * l.sx / l.sy);
          for (const auto& [A, c] : F) {
            if (c == 0) continue;
            for (Wide bound : {kmin, kmax})
              for (Wide d = -2; d <= 2; ++d) add(floor_div(A - bound - d, c));
          }
          for (std::size_t a = 0; a < F.size(); ++a)
            for (std::size_t b = a + 1; b < F.size(); ++b) {
              const Wide dc = F[a].second - F[b].second;
              if (dc == 0) continue;
              for (Wide d = -2; d <= 2; ++d) add(floor_div(F[a].first - F[b].first - d, dc));
            }
          for (Wide j : js) {
            const Wide xv = base + j * step;
            std::set<Wide> ks = {kmin, kmax};
            for (const auto& [A, c] : F) {
              Wide jc = 0, t = 0;
              if (__builtin_mul_overflow(j, c, &jc) || __builtin_sub_overflow(A, jc, &t)) {
                why = "an integer condition overflows 128 bits";
                return Sweep::failed;
              }
              for (Wide d = -1; d <= 2; ++d)
                if (t + d >= kmin && t + d <= kmax) ks.insert(t + d);
            }
            for (Wide k : ks) out.emplace(xv, ry + k * Py);
          }
        }
      }
    }
    return Sweep::ok;
  }

  const Model& m_;
  std::vector<Val>& pt_;
};

enum class Walk : std::uint8_t { done, stopped, too_many, failed };

// Visits every combination of representatives of `space`; `visit` returns false to stop.
Walk enumerate(const Model& m, const Space& space, const std::function<bool(const std::vector<Val>&)>& visit,
               std::string& why) {
  std::vector<Val> pt;
  for (const InputInfo& in : m.inputs) pt.push_back(in.placeholder);
  std::size_t finite_count = 1;
  for (int v : space.finite) {
    finite_count *= std::max<std::size_t>(1, m.inputs[static_cast<std::size_t>(v)].reps.size());
    if (finite_count > kMaxPoints) return Walk::too_many;
  }
  std::vector<std::map<std::string, Samples>> cache(space.comps.size());
  std::size_t count = 0;
  Walk status = Walk::done;
  Sampler sampler(m, pt);

  std::function<bool(std::size_t)> comps_from;
  std::vector<const Samples*> chosen(space.comps.size());
  comps_from = [&](std::size_t c) -> bool {
    if (c == space.comps.size()) {
      if (!visit(pt)) {
        status = Walk::stopped;
        return false;
      }
      return true;
    }
    const Component& comp = space.comps[c];
    for (const std::vector<Val>& sample : *chosen[c]) {
      for (std::size_t k = 0; k < comp.vars.size(); ++k) pt[static_cast<std::size_t>(comp.vars[k])] = sample[k];
      if (!comps_from(c + 1)) return false;
    }
    return true;
  };

  std::function<bool(std::size_t)> finite_from = [&](std::size_t i) -> bool {
    if (i == space.finite.size()) {
      std::size_t product = 1;
      for (std::size_t c = 0; c < space.comps.size(); ++c) {
        std::string key;
        for (int p : space.comps[c].params) key += show(pt[static_cast<std::size_t>(p)]) + "\x1f";
        auto it = cache[c].find(key);
        if (it == cache[c].end()) {
          std::optional<Samples> samples = sampler.component(space.comps[c], why);
          if (!samples) {
            status = Walk::failed;
            return false;
          }
          it = cache[c].emplace(key, std::move(*samples)).first;
        }
        chosen[c] = &it->second;
        product *= std::max<std::size_t>(1, it->second.size());
        if (product > kMaxPoints) break;
      }
      if (count + product > kMaxPoints) {
        status = Walk::too_many;
        return false;
      }
      count += product;
      return comps_from(0);
    }
    const int v = space.finite[i];
    const InputInfo& in = m.inputs[static_cast<std::size_t>(v)];
    if (in.reps.empty()) return finite_from(i + 1);
    for (const Val& rep : in.reps) {
      pt[static_cast<std::size_t>(v)] = rep;
      if (!finite_from(i + 1)) return false;
    }
    return true;
  };
  finite_from(0);
  return status;
}

// ---- the analysis --------------------------------------------------------------------------

std::string quote_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k) out += k + 1 == names.size() ? " and " : ", ";
    out += "'" + names[k] + "'";
  }
  return out;
}

enum class Tri : std::uint8_t { no, yes, unknown };

class Analysis {
 public:
  explicit Analysis(const RuleFile& file) : file_(file) {}

  std::vector<Diagnostic> run() {
    build();
    Shapes shapes(m_);
    for (CTable& table : m_.tables)
      for (CRule& rule : table.rules)
        for (const CMatcher& matcher : rule.when) rule.facts.merge(shapes.matcher(matcher));
    resolve_overrides(shapes);
    finish_inputs();
    for (std::size_t t = 0; t < m_.tables.size(); ++t) analyse(static_cast<int>(t));
    for (const auto& [key, entry] : notes_) {
      const std::string subject = entry.tables.size() == 1 ? "table " + quote_list(entry.tables)
                                                           : "tables " + quote_list(entry.tables);
      out_.push_back(Diagnostic{Severity::note, entry.location, "analysis-incomplete",
                                fmt::format("{} not fully analysed: {}; shadowed rules and gaps may go unreported",
                                            subject, entry.what)});
    }
    return std::move(out_);
  }

 private:
  // ---- building the model ----
  void build() {
    std::map<std::string, int> slots;
    for (const InputDecl& input : file_.inputs) {
      InputInfo in;
      in.name = input.name.value;
      in.location = input.name.location;
      in.kinds = input.type.value.kinds;
      in.lower = input.lower;
      if (input.one_of) {
        in.has_one_of = true;
        for (const Value& option : input.one_of->value) {
          Val v = from_value(option);
          // A lowered input never holds a string with upper-case letters.
          if (in.lower && v.k == Val::K::string && !is_ascii_lower(v.s) && is_ascii(v.s)) continue;
          if (in.lower && v.k == Val::K::string && !is_ascii(v.s)) {
            in.issue = Issue{input.one_of->location, fmt::format("input '{}' is lowered and has non-ASCII options", in.name)};
          }
          in.options.push_back(std::move(v));
        }
      }
      if (input.default_value && input.default_value->kind == ExprKind::literal && input.default_value->literal.is_null())
        in.default_null = true;
      in.null_possible = in.default_null;
      in.sampled = !in.has_one_of && (in.kinds & kInt) && !(in.kinds & kFloat);
      slots[in.name] = static_cast<int>(m_.inputs.size());
      m_.inputs.push_back(std::move(in));
    }
    for (const LetDecl& let : file_.lets) {
      slots[let.name.value] = static_cast<int>(m_.inputs.size() + m_.let_names.size());
      m_.let_names.push_back(let.name.value);
      m_.let_calls.push_back(let.call.has_value());
    }
    slots_ = slots;
    for (const LetDecl& let : file_.lets) m_.lets.push_back(let.call ? Node{} : compile(let.expr));

    std::map<std::string, int> tables;
    for (const Table& table : file_.tables) tables[table.name.value] = static_cast<int>(tables.size());
    if (file_.start)
      if (auto it = tables.find(file_.start->value); it != tables.end()) m_.start = it->second;
    for (const Table& table : file_.tables) {
      CTable t;
      t.name = table.name.value;
      t.location = table.name.location;
      for (const Rule& rule : table.rules) {
        CRule r;
        r.name = rule.name.value;
        r.location = rule.name.location;
        for (const Matcher& matcher : rule.when) {
          CMatcher cm;
          cm.slot = slot_of(matcher.fact.value);
          cm.op = matcher.op;
          cm.operand = compile(matcher.operand);
          cm.location = matcher.fact.location;
          r.when.push_back(std::move(cm));
        }
        if (rule.next) r.next = tables.at(rule.next->value);
        if (rule.fallback) r.fallback = tables.at(rule.fallback->table.value);
        t.rules.push_back(std::move(r));
      }
      t.active = t.rules.size();
      for (std::size_t k = 0; k < t.rules.size(); ++k) {
        if (t.rules[k].when.empty()) {
          t.active = k + 1;
          t.has_catch_all = true;
          break;
        }
      }
      m_.tables.push_back(std::move(t));
    }
    m_.callers.resize(m_.tables.size());
    for (std::size_t c = 0; c < m_.tables.size(); ++c) {
      const CTable& t = m_.tables[c];
      for (std::size_t k = 0; k < t.active; ++k) {
        const CRule& r = t.rules[k];
        Path path;
        path.caller = static_cast<int>(c);
        path.rule = static_cast<int>(k);
        path.fallback = r.fallback >= 0;
        if (r.next >= 0 || r.fallback >= 0)
          m_.callers[static_cast<std::size_t>(r.next >= 0 ? r.next : r.fallback)].push_back(std::move(path));
      }
    }
  }

  int slot_of(const std::string& name) const {
    auto it = slots_.find(name);
    if (it == slots_.end()) throw std::logic_error("table analysis: unknown name " + name);  // the checker rules this out
    return it->second;
  }

  Node compile(const Expr& e) {
    Node n;
    n.kind = e.kind;
    n.op = e.op;
    n.location = e.location;
    n.name = e.name;
    if (e.kind == ExprKind::literal) n.constant = from_value(e.literal);
    if (e.kind == ExprKind::name) n.slot = slot_of(e.name);
    if (e.kind == ExprKind::call)
      if (const BuiltinSignature* sig = find_builtin(e.name)) n.builtin = sig->id;
    for (const Expr& kid : e.children) n.kids.push_back(compile(kid));
    return n;
  }

  // The values fallbacks give inputs: constants are evaluated and normalised like the
  // evaluator does; expressions of the inputs are left unmodelled.
  void resolve_overrides(Shapes& shapes) {
    for (std::size_t t = 0; t < file_.tables.size(); ++t) {
      const Table& table = file_.tables[t];
      for (std::size_t k = 0; k < table.rules.size(); ++k) {
        const Rule& rule = table.rules[k];
        if (!rule.fallback) continue;
        CRule& r = m_.tables[t].rules[k];
        for (const Assignment& a : rule.fallback->with) {
          Override o;
          o.input = slot_of(a.target.value);
          const Node value = compile(a.value);
          if (shapes.deps(value).empty()) {
            std::vector<Val> pt;
            for (std::size_t i = 0; i < m_.inputs.size(); ++i) pt.emplace_back();
            Interp interp(m_, pt);
            try {
              Val v = interp.eval(value);
              InputInfo& in = m_.inputs[static_cast<std::size_t>(o.input)];
              if (!(kind_bit(v) & in.kinds)) {
                o.possible = false;  // refused by the evaluator's normalise()
              } else if (!(in.lower && v.k == Val::K::string && !is_ascii(v.s))) {  // else: not modelled
                if (in.lower && v.k == Val::K::string) v.s = ascii_lower(v.s);
                if (in.has_one_of &&
                    std::none_of(in.options.begin(), in.options.end(), [&](const Val& opt) { return equal(opt, v); })) {
                  o.possible = false;  // refused by validate()
                } else {
                  if (v.k == Val::K::null) in.null_possible = true;
                  if (v.k == Val::K::string) in.constants.insert(v.s);
                  o.value = std::move(v);
                }
              }
            } catch (const Stop&) {
              o.possible = false;  // the fallback always fails
            }
          }
          r.with.push_back(std::move(o));
        }
      }
    }
  }

  // Representatives and placeholders of every input.
  void finish_inputs() {
    for (InputInfo& in : m_.inputs) {
      if (in.has_one_of) {
        in.reps = in.options;
      } else {
        if ((in.kinds & kBool)) {
          in.reps.push_back(Val::boolean(false));
          in.reps.push_back(Val::boolean(true));
        }
        if (in.kinds & kString) string_reps(in);
        if (!in.reps.empty() && (in.kinds & kNull) && in.null_possible) in.reps.push_back(Val{});
      }
      // A placeholder, for when the input does not matter: valid at the start (not null).
      in.placeholder = Val{};
      for (const Val& rep : in.reps)
        if (rep.k != Val::K::null) {
          in.placeholder = rep;
          break;
        }
      if (in.placeholder.k == Val::K::null) {
        if (in.kinds & kInt) in.placeholder = Val::integer(0);
        else if (in.kinds & kFloat) in.placeholder = Val::floating(0);
        else if (in.kinds & kString) in.placeholder = Val::string("other");
        else if (in.kinds & kBool) in.placeholder = Val::boolean(false);
        else if (in.kinds & kList) in.placeholder = Val::list({});
      }
    }
  }

  // Strings: the compared constants; for each prefix p one string starting with exactly the
  // prefixes p starts with; one string matching nothing. Exact for eq/ne/one_of/starts_with.
  void string_reps(InputInfo& in) {
    std::set<std::string> constants, prefixes;
    for (const std::string& c : in.constants) {
      if (in.lower && !is_ascii(c)) {
        in.issue = Issue{in.location, fmt::format("input '{}' is lowered and compared with non-ASCII strings", in.name)};
        continue;
      }
      if (!in.lower || is_ascii_lower(c)) constants.insert(c);
    }
    for (const std::string& p : in.prefixes) {
      if (in.lower && !is_ascii(p)) {
        in.issue = Issue{in.location, fmt::format("input '{}' is lowered and compared with non-ASCII strings", in.name)};
        continue;
      }
      if (!in.lower || is_ascii_lower(p)) prefixes.insert(p);
    }
    auto prefix_set = [&](const std::string& s) {
      std::vector<bool> hit;
      for (const std::string& p : prefixes) hit.push_back(s.compare(0, p.size(), p) == 0 && s.size() >= p.size());
      return hit;
    };
    static const char* const suffixes[] = {"_x", "x", "_", "0", "~", "-x", "_y", "zz", "__x", "9"};
    std::vector<Val> reps;
    for (const std::string& c : constants) reps.push_back(Val::string(c));
    auto unused = [&](const std::string& s) { return !constants.count(s); };
    for (const std::string& p : prefixes) {
      bool found = false;
      for (const char* z : suffixes) {
        const std::string s = p + z;
        if (unused(s) && prefix_set(s) == prefix_set(p)) {
          reps.push_back(Val::string(s));
          found = true;
          break;
        }
      }
      if (!found) in.issue = Issue{in.location, fmt::format("no representative string found for input '{}'", in.name)};
    }
    bool found = false;
    static const char* const others[] = {"other", "other_x", "x", "_", "zz", "~", "0", "-"};
    for (const char* o : others) {
      const std::string s = o;
      const std::vector<bool> hit = prefix_set(s);
      bool none = true;
      std::size_t k = 0;
      for (const std::string& p : prefixes) none = none && (hit[k++] == p.empty());
      if (unused(s) && none) {
        reps.push_back(Val::string(s));
        found = true;
        break;
      }
    }
    if (!found) in.issue = Issue{in.location, fmt::format("no representative string found for input '{}'", in.name)};
    in.reps.insert(in.reps.end(), reps.begin(), reps.end());
  }

  // ---- spaces ----
  Space make_space(const Facts& facts, const SourceLocation& where) {
    Space space;
    for (int v : facts.deps) {
      space.vars.push_back(v);
      if (!m_.inputs[static_cast<std::size_t>(v)].sampled) space.finite.push_back(v);
    }
    // Union-find over the sampled inputs related by two-input atoms.
    std::map<int, int> parent;
    std::function<int(int)> root = [&](int v) {
      auto it = parent.find(v);
      if (it == parent.end() || it->second == v) return v;
      return it->second = root(it->second);
    };
    for (int v : facts.deps)
      if (m_.inputs[static_cast<std::size_t>(v)].sampled) parent[v] = v;
    for (const auto& [key, atom] : facts.atoms)
      if (atom.sampled.size() == 2) parent[root(atom.sampled[0])] = root(atom.sampled[1]);
    std::map<int, std::vector<int>> groups;
    for (const auto& [v, p] : parent) groups[root(v)].push_back(v);
    for (auto& [r, vars] : groups) {
      std::vector<std::vector<int>> comps;
      if (vars.size() > 2) {
        std::vector<std::string> names;
        for (int v : vars) names.push_back(m_.inputs[static_cast<std::size_t>(v)].name);
        SourceLocation at = where;
        for (const auto& [key, atom] : facts.atoms)
          if (atom.sampled.size() == 2 && std::count(vars.begin(), vars.end(), atom.sampled[0])) {
            at = atom.location;
            break;
          }
        space.issues.push_back(Issue{at, fmt::format("the conditions relate the integer inputs {} in a chain", quote_list(names))});
        for (int v : vars) comps.push_back({v});
      } else {
        comps.push_back(vars);
      }
      for (std::vector<int>& vs : comps) {
        Component c;
        c.vars = vs;
        std::set<int> params;
        for (const auto& [key, atom] : facts.atoms) {
          if (atom.sampled.empty()) continue;
          const bool inside = std::all_of(atom.sampled.begin(), atom.sampled.end(),
                                          [&](int v) { return std::count(vs.begin(), vs.end(), v) > 0; });
          if (!inside) continue;
          c.atoms.push_back(&atom);
          params.insert(atom.params.begin(), atom.params.end());
        }
        c.params.assign(params.begin(), params.end());
        space.comps.push_back(std::move(c));
      }
    }
    for (int v : facts.deps)
      if (const auto& issue = m_.inputs[static_cast<std::size_t>(v)].issue) space.issues.push_back(*issue);
    return space;
  }

  // ---- entry conditions ----
  const Facts& entry_facts(int t) {
    if (auto it = entry_facts_.find(t); it != entry_facts_.end()) return it->second;
    Facts facts;
    for (Path& path : m_.callers[static_cast<std::size_t>(t)]) {
      const CTable& caller = m_.tables[static_cast<std::size_t>(path.caller)];
      Facts reach;
      for (int k = 0; k <= path.rule; ++k) reach.merge(caller.rules[static_cast<std::size_t>(k)].facts, false);
      reach.merge(entry_facts(path.caller), false);
      if (path.fallback) prepare_fallback(path, reach);
      facts.merge(reach, false);
      if (path.fallback) {
        for (const Override& o : caller.rules[static_cast<std::size_t>(path.rule)].with) {
          facts.deps.insert(o.input);
          if (o.value && o.value->k == Val::K::integer && m_.inputs[static_cast<std::size_t>(o.input)].sampled) {
            Atom a;
            a.term = std::make_shared<Term>(Term{Term::Op::sub, 0, -1, term_var(o.input), term_const(o.value->i)});
            a.sampled = {o.input};
            a.location = caller.rules[static_cast<std::size_t>(path.rule)].location;
            facts.atoms.emplace(term_key(*a.term), std::move(a));
          }
        }
      }
    }
    return entry_facts_.emplace(t, std::move(facts)).first->second;
  }

  // The caller's values of the inputs a fallback overrides range over their representatives.
  // For an int input the caller's conditions depend on, the values next to the caller's own
  // thresholds on it are tried: one that enters the table proves the entry; none leaves it
  // unknown (the caller may relate it to other inputs).
  void prepare_fallback(Path& path, const Facts& reach) {
    const CRule& rule = m_.tables[static_cast<std::size_t>(path.caller)].rules[static_cast<std::size_t>(path.rule)];
    std::size_t product = 1;
    for (const Override& o : rule.with) {
      const InputInfo& in = m_.inputs[static_cast<std::size_t>(o.input)];
      if (!o.possible) path.impossible = true;
      if (!o.value && !path.expression) {
        path.expression = true;
        path.unmodelled = fmt::format("rule '{}' falls back to it with '{}' set to an expression", rule.name, in.name);
      }
      path.quantified.push_back(o.input);
      std::vector<Val> candidates = {in.placeholder};
      if (reach.deps.count(o.input) && !in.sampled && !in.reps.empty()) {
        candidates = in.reps;
      } else if (reach.deps.count(o.input)) {
        if (path.unmodelled.empty())
          path.unmodelled = fmt::format("rule '{}' falls back to it overriding '{}', which its own conditions depend on",
                                        rule.name, in.name);
        if (in.sampled) candidates = guesses(o.input, reach);
      }
      product *= candidates.size();
      path.candidates.push_back(std::move(candidates));
    }
    if (product > kMaxExistential) {
      if (path.unmodelled.empty())
        path.unmodelled = fmt::format("rule '{}' falls back to it overriding inputs with too many values", rule.name);
      for (auto& candidates : path.candidates) candidates.resize(1);
    }
  }

  std::vector<Val> guesses(int input, const Facts& reach) {
    std::vector<const Atom*> atoms;
    for (const auto& [key, atom] : reach.atoms)
      if (atom.sampled == std::vector<int>{input} && atom.params.empty()) atoms.push_back(&atom);
    std::vector<Val> pt;
    for (const InputInfo& in : m_.inputs) pt.push_back(in.placeholder);
    Sampler sampler(m_, pt);
    const auto values = sampler.values_of(input, atoms);
    std::vector<Val> out;
    if (values && values->size() <= 256)
      for (Wide v : *values) out.push_back(Val::integer(v));
    if (out.empty()) out.push_back(m_.inputs[static_cast<std::size_t>(input)].placeholder);
    if (m_.inputs[static_cast<std::size_t>(input)].null_possible) out.emplace_back();
    return out;
  }

  bool valid_start(const std::vector<Val>& pt) const {
    for (std::size_t i = 0; i < m_.inputs.size(); ++i)
      if (pt[i].k == Val::K::null && !m_.inputs[i].default_null) return false;
    return true;
  }

  // Does rule `r` of table `t` fire at `pt`?
  Tri fires(int t, int r, const std::vector<Val>& pt) const {
    const CTable& table = m_.tables[static_cast<std::size_t>(t)];
    Interp interp(m_, pt);
    bool unknown = false;
    for (int k = 0; k <= r; ++k) {
      const Outcome o = interp.rule(table.rules[static_cast<std::size_t>(k)], nullptr);
      if (o == Outcome::unknown) {
        unknown = true;
        continue;
      }
      if (k < r && o == Outcome::no) continue;
      if (k < r) return Tri::no;  // an earlier rule fires, or the evaluation fails
      if (o != Outcome::yes) return Tri::no;
    }
    return unknown ? Tri::unknown : Tri::yes;
  }

  static Tri both(Tri a, Tri b) {
    if (a == Tri::no || b == Tri::no) return Tri::no;
    return a == Tri::yes && b == Tri::yes ? Tri::yes : Tri::unknown;
  }

  // Is table `t` entered with inputs `pt`? `why` collects why an answer is unknown.
  Tri entered(int t, const std::vector<Val>& pt, std::string& why) {
    if (t == m_.start && valid_start(pt)) return Tri::yes;
    Tri result = Tri::no;
    for (const Path& path : m_.callers[static_cast<std::size_t>(t)]) {
      Tri r = Tri::no;
      if (!path.fallback) {
        r = fires(path.caller, path.rule, pt);
        if (r != Tri::no) r = both(r, entered(path.caller, pt, why));
      } else {
        r = through_fallback(path, pt, why);
      }
      if (r == Tri::yes) return r;
      if (r == Tri::unknown) result = r;
    }
    return result;
  }

  Tri through_fallback(const Path& path, const std::vector<Val>& pt, std::string& why) {
    if (path.impossible) return Tri::no;
    const CRule& rule = m_.tables[static_cast<std::size_t>(path.caller)].rules[static_cast<std::size_t>(path.rule)];
    for (const Override& o : rule.with)
      if (o.value && !equal(pt[static_cast<std::size_t>(o.input)], *o.value)) return Tri::no;
    if (path.expression) {
      if (why.empty()) why = path.unmodelled;
      return Tri::unknown;
    }
    // The caller's values of the overridden inputs: try every candidate.
    std::vector<Val> q = pt;
    Tri result = Tri::no;
    std::function<bool(std::size_t)> each = [&](std::size_t k) -> bool {
      if (k == path.quantified.size()) {
        Tri r = fires(path.caller, path.rule, q);
        if (r != Tri::no) r = both(r, entered(path.caller, q, why));
        if (r == Tri::unknown) result = r;
        if (r == Tri::yes) {
          result = r;
          return false;
        }
        return true;
      }
      for (const Val& v : path.candidates[k]) {
        q[static_cast<std::size_t>(path.quantified[k])] = v;
        if (!each(k + 1)) return false;
      }
      return true;
    };
    each(0);
    if (result == Tri::yes || path.unmodelled.empty()) return result;
    if (why.empty()) why = path.unmodelled;
    return Tri::unknown;
  }

  // ---- one table ----
  void note(const Issue& issue, const std::string& table) {
    const std::string key = fmt::format("{}:{}:{}\x1f{}", issue.location.line, issue.location.column, issue.location.file, issue.what);
    auto& entry = notes_[key];
    entry.location = issue.location;
    entry.what = issue.what;
    if (std::find(entry.tables.begin(), entry.tables.end(), table) == entry.tables.end()) entry.tables.push_back(table);
  }

  std::string describe_point(const std::vector<int>& vars, const std::vector<Val>& pt) const {
    std::string out;
    for (int v : vars) {
      if (!out.empty()) out += ", ";
      out += m_.inputs[static_cast<std::size_t>(v)].name + "=" + show(pt[static_cast<std::size_t>(v)]);
    }
    return out;
  }

  // Smaller is a nicer witness: small integers, compared constants.
  Wide niceness(const std::vector<int>& vars, const std::vector<Val>& pt) const {
    Wide score = 0;
    for (int v : vars) {
      const Val& x = pt[static_cast<std::size_t>(v)];
      if (x.k == Val::K::integer) score += wide_abs(x.i);
      else if (x.k == Val::K::null) score += 1;
      else if (x.k == Val::K::string && !m_.inputs[static_cast<std::size_t>(v)].constants.count(x.s)) score += 1;
    }
    return score;
  }

  void analyse(int t) {
    const CTable& table = m_.tables[static_cast<std::size_t>(t)];
    const std::size_t n = table.active;
    Facts own;
    for (std::size_t k = 0; k < n; ++k) own.merge(table.rules[k].facts);
    for (const Issue& issue : own.issues) note(issue, table.name);
    Space space = make_space(own, table.location);
    for (const Issue& issue : space.issues) note(issue, table.name);
    bool exact = own.issues.empty() && space.issues.empty();

    // Per rule: fires somewhere; matches (in isolation) somewhere; the rules that fire
    // first where it matches; matches somewhere an earlier condition fails to evaluate.
    std::vector<bool> fired(n, false), matched(n, false);
    std::vector<std::string> blocked(n);
    std::vector<std::set<std::size_t>> by(n);
    bool uncovered = false;
    std::string unknown;  // an input for which a condition cannot be evaluated here
    std::vector<Outcome> outcome(n);
    std::vector<std::string> reason(n);
    std::string why;
    const Walk walk = enumerate(m_, space, [&](const std::vector<Val>& pt) {
      Interp interp(m_, pt);
      std::optional<std::size_t> first, failed;  // the first rule that fires; that fails
      for (std::size_t k = 0; k < n; ++k) {
        outcome[k] = interp.rule(table.rules[k], &reason[k]);
        if (outcome[k] == Outcome::unknown && unknown.empty())
          unknown = fmt::format("{}: {}", describe_point(space.vars, pt), reason[k]);
        if (first || failed) continue;
        if (outcome[k] == Outcome::yes) first = k;
        else if (outcome[k] != Outcome::no) failed = k;
      }
      if (first) fired[*first] = true;
      if (!first && !failed) uncovered = true;
      for (std::size_t k = 0; k < n; ++k) {
        if (outcome[k] != Outcome::yes) continue;
        matched[k] = true;
        if (first && *first < k) by[k].insert(*first);
        if (failed && *failed < k && blocked[k].empty())
          blocked[k] = fmt::format("{}: {}", describe_point(space.vars, pt), reason[*failed]);
      }
      return true;
    }, why);
    if (walk == Walk::too_many) {
      note(Issue{table.location, fmt::format("its conditions depend on more than {} combinations of input values", kMaxPoints)}, table.name);
      return;
    }
    if (walk == Walk::failed) {
      note(Issue{table.location, why}, table.name);
      return;
    }
    if (!unknown.empty()) {
      exact = false;
      if (own.issues.empty())
        note(Issue{table.location, fmt::format("its conditions cannot be evaluated statically for some inputs ({})", unknown)}, table.name);
    }

    if (exact) {
      for (std::size_t k = 0; k < n; ++k) {
        if (fired[k]) continue;
        const CRule& rule = table.rules[k];
        if (!blocked[k].empty()) {
          // It never fires, but partly because evaluating an earlier condition fails.
          note(Issue{rule.location, fmt::format("whether rule '{}' can fire depends on an earlier condition that fails to "
                                                "evaluate for some inputs ({})", rule.name, blocked[k])}, table.name);
          continue;
        }
        std::string message;
        if (!matched[k]) {
          message = fmt::format("rule '{}' can never fire: no input satisfies all of its conditions", rule.name);
        } else {
          std::vector<std::string> names;
          for (std::size_t e : by[k]) names.push_back(table.rules[e].name);
          message = fmt::format("rule '{}' can never fire: every input it matches is matched earlier by {}", rule.name,
                                quote_list(names));
        }
        out_.push_back(Diagnostic{Severity::warning, rule.location, "shadowed-rule", std::move(message)});
      }
    }
    if (!table.has_catch_all && uncovered) find_gap(t, own);
  }

  // Looks for an input that enters table `t` and that no rule matches.
  void find_gap(int t, const Facts& own) {
    const CTable& table = m_.tables[static_cast<std::size_t>(t)];
    Facts joint = own;
    joint.merge(entry_facts(t), false);
    const Space space = make_space(joint, table.location);
    std::vector<int> shown(own.deps.begin(), own.deps.end());
    std::optional<std::vector<Val>> gap, maybe;
    Wide gap_score = 0, maybe_score = 0;
    std::string maybe_why, why;
    const Walk walk = enumerate(m_, space, [&](const std::vector<Val>& pt) {
      Interp interp(m_, pt);
      for (std::size_t k = 0; k < table.active; ++k)
        if (interp.rule(table.rules[k], nullptr) != Outcome::no) return true;
      std::string unknown_why;
      const Tri e = entered(t, pt, unknown_why);
      const Wide score = niceness(space.vars, pt);
      if (e == Tri::yes && (!gap || score < gap_score)) {
        gap = pt;
        gap_score = score;
      } else if (e == Tri::unknown && (!maybe || score < maybe_score)) {
        maybe = pt;
        maybe_score = score;
        maybe_why = unknown_why;
      }
      return true;
    }, why);
    auto inputs = [&](const std::vector<Val>& pt) {
      return shown.empty() ? std::string("any input that reaches it") : describe_point(shown, pt);
    };
    if (!gap && (walk == Walk::too_many || walk == Walk::failed)) {
      note(Issue{table.location, walk == Walk::too_many
                                     ? fmt::format("whether the inputs it is entered with reach a gap depends on more than "
                                                   "{} combinations of input values", kMaxPoints)
                                     : why},
           table.name);
    }
    if (gap) {
      out_.push_back(Diagnostic{Severity::warning, table.location, "table-gap",
                                fmt::format("table '{}' has a gap: no rule matches {}", table.name, inputs(*gap))});
    } else if (maybe) {
      out_.push_back(Diagnostic{Severity::note, table.location, "table-gap",
                                fmt::format("table '{}' may have a gap: no rule matches {}; the condition under which "
                                            "the table is entered was not modelled ({}), so such inputs may never reach it",
                                            table.name, inputs(*maybe), maybe_why)});
    }
  }

  struct NoteEntry {
    SourceLocation location;
    std::string what;
    std::vector<std::string> tables;
  };

  const RuleFile& file_;
  Model m_;
  std::map<std::string, int> slots_;
  std::map<int, Facts> entry_facts_;
  std::map<std::string, NoteEntry> notes_;
  std::vector<Diagnostic> out_;
};

}  // namespace

std::vector<Diagnostic> analyse_tables(const syntax::RuleFile& file) { return Analysis(file).run(); }

}  // namespace snnplan::check
