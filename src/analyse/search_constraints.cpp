// How a search's constraints are decided over the declared input domain: an evaluation of the
// compiled expressions in which every value is a Span -- an interval of numbers (with whether
// they are all integers and whether NaN is possible), a set of truth values, or a list whose
// items lie in an interval -- instead of one value. Every operation's result covers what the
// evaluator's would be for any values in its operands' spans (the evaluator's own semantics:
// Python's `//` and `%` rounding toward negative infinity, true division, min/max, int()
// truncating toward zero, divisors() listing none below 1). A point the evaluator refuses (a
// division by zero, int() of NaN) has no candidate there, so leaving it out keeps the result a
// cover. Bounds are long doubles; a float result's bounds are rounded to doubles and then
// widened by one step each way (the double operation rounds too), one beyond the largest
// double is an infinity, and an int bound beyond 2^63 is unbounded. What the spans do not model (strings, records, other builtins) is `any`, and
// a constraint whose span is `any` or holds both ways is not decided.
//
// The spans are independent: `tp <= world_size` with tp from divisors(world_size) is not
// decided, since tp's span [1, inf) and world_size's do not say how the two relate. Constant
// facts, tier values and one_of lists do decide: a constraint of the recompute tier that
// requires `!selective_recompute`, or `tp >= 1` over divisors, is found.

#include "analyse/search_constraints.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "analyse/messages.hpp"
#include "core/value_kinds.hpp"

namespace snnplan::analyse {
namespace {

using detail::CompiledRules;
using detail::Node;
using detail::RValue;
using syntax::ExprKind;
using syntax::Op;
using Bound = long double;  // holds every int64 and every double exactly

constexpr Bound kInf = std::numeric_limits<Bound>::infinity();

// What an expression may be over the domain.
struct Span {
  enum class Kind : std::uint8_t { any, number, truth, list };
  Kind kind = Kind::any;
  // number (and a list's items)
  Bound lo = -kInf, hi = kInf;
  bool integral = false;  // every value is an int (else: floats, or ints and floats)
  bool nan = false;       // NaN is possible
  // truth
  bool can_be_true = true, can_be_false = true;
  // list: its items' span (a number); an empty item span: the list is always empty
  std::shared_ptr<const Span> items;

  [[nodiscard]] bool is_number() const { return kind == Kind::number; }
  [[nodiscard]] bool empty() const { return kind == Kind::number && lo > hi; }
  [[nodiscard]] bool exact() const { return kind == Kind::number && lo == hi && !nan; }
};

Span any_span() { return Span{}; }
Span number(Bound lo, Bound hi, bool integral, bool nan = false) {
  Span s;
  s.kind = Span::Kind::number;
  s.lo = lo;
  s.hi = hi;
  s.integral = integral;
  s.nan = nan;
  return s;
}
Span truth(bool can_be_true, bool can_be_false) {
  Span s;
  s.kind = Span::Kind::truth;
  s.can_be_true = can_be_true;
  s.can_be_false = can_be_false;
  return s;
}
Span list_of(const Span& items) {
  Span s;
  s.kind = Span::Kind::list;
  s.items = std::make_shared<const Span>(items);
  return s;
}

// The smallest span covering both.
Span join(const Span& a, const Span& b) {
  if (a.kind != b.kind) return any_span();
  switch (a.kind) {
    case Span::Kind::number:
      if (a.empty()) return b;
      if (b.empty()) return a;
      return number(std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.integral && b.integral,
                    a.nan || b.nan);
    case Span::Kind::truth:
      return truth(a.can_be_true || b.can_be_true, a.can_be_false || b.can_be_false);
    case Span::Kind::list:
      return list_of(join(*a.items, *b.items));
    case Span::Kind::any: break;
  }
  return any_span();
}

// A list's span from its items' spans: items that are not all numbers leave it `any`.
template <typename Items, typename SpanOf>
Span list_span(const Items& items, SpanOf span_of) {
  Span hull = number(kInf, -kInf, true);  // empty until an item joins it
  for (const auto& item : items) {
    const Span one = span_of(item);
    if (!one.is_number()) return list_of(any_span());
    hull = join(hull, one);
  }
  return list_of(hull);
}

Span of_constant(const RValue& v) {
  switch (v.kind) {
    case RValue::Kind::boolean: return truth(v.b, !v.b);
    case RValue::Kind::integer: {
      // Beyond 64 bits a long double does not hold every integer: no bound is claimed there.
      if (!detail::fits_int64(v.i)) return number(-kInf, kInf, true);
      const auto b = static_cast<Bound>(v.i);
      return number(b, b, true);
    }
    case RValue::Kind::floating:
      return std::isnan(v.f) ? number(-kInf, kInf, false, true)
                             : number(static_cast<Bound>(v.f), static_cast<Bound>(v.f), false);
    case RValue::Kind::list: return list_span(v.list(), of_constant);
    default: return any_span();
  }
}

// Bounds of a product of two bounds: 0 times an unbounded end is 0 (the end stands for finite
// values without limit, not for an infinity).
Bound times(Bound a, Bound b) { return a == 0 || b == 0 ? 0 : a * b; }
Bound over(Bound a, Bound b) {
  if (std::isinf(b)) return std::isinf(a) ? (a > 0) == (b > 0) ? kInf : -kInf : 0;
  return a / b;
}

// Whether a value of the span may be an infinity: a float without a bound. An int's span
// without a bound stands for finite values without limit.
bool may_be_infinite(const Span& a) { return !a.integral && (std::isinf(a.lo) || std::isinf(a.hi)); }
bool holds_zero(const Span& a) { return a.lo <= 0 && a.hi >= 0; }

// A computed span made sound for the evaluator's types: a float's bounds widened past the
// rounding of the double operation (and to infinities past the largest double), an int's
// bounds beyond 2^63 dropped (no precision is claimed out there).
Span rounded(Span s) {
  if (s.empty()) return s;
  if (s.integral) {
    constexpr Bound kLimit = 9223372036854775808.0L;  // 2^63
    if (s.lo < -kLimit) s.lo = -kInf;
    if (s.hi > kLimit) s.hi = kInf;
    return s;
  }
  const auto outward = [](Bound b, double toward) {
    if (std::isinf(b)) return b;
    const auto d = static_cast<double>(b);  // round to nearest, or to an infinity
    return static_cast<Bound>(std::isinf(d) ? d : std::nextafter(d, toward));
  };
  s.lo = outward(s.lo, -HUGE_VAL);
  s.hi = outward(s.hi, HUGE_VAL);
  return s;
}

Span exact_arithmetic(Op op, const Span& a, const Span& b);

Span arithmetic(Op op, const Span& a, const Span& b) {
  if (!a.is_number() || !b.is_number()) return any_span();
  if (a.empty() || b.empty()) return number(kInf, -kInf, true);
  if (op == Op::divide) {
    // Format 1's `/`: `//` of two ints, true division otherwise. A span not known to hold
    // ints only may hold ints on both sides, so it may be either.
    if (a.integral && b.integral) return arithmetic(Op::floor_divide, a, b);
    const Span floor = arithmetic(Op::floor_divide, a, b);
    const Span floor_as_float = number(floor.lo, floor.hi, false, floor.nan);
    return join(floor_as_float, arithmetic(Op::true_divide, a, b));
  }
  return rounded(exact_arithmetic(op, a, b));
}

// The operation on the spans' bounds, before rounding.
Span exact_arithmetic(Op op, const Span& a, const Span& b) {
  const bool ints = a.integral && b.integral;
  // NaN comes from NaN, or from an infinity: inf - inf, 0 * inf, inf / inf, inf // x, inf % x.
  const bool nan_in = a.nan || b.nan;
  const bool both_infinite = may_be_infinite(a) && may_be_infinite(b);
  switch (op) {
    case Op::add:
      return number(a.lo + b.lo, a.hi + b.hi, ints, nan_in || both_infinite);
    case Op::subtract:
      return number(a.lo - b.hi, a.hi - b.lo, ints, nan_in || both_infinite);
    case Op::multiply: {
      const bool nan = nan_in || (may_be_infinite(a) && holds_zero(b)) ||
                       (may_be_infinite(b) && holds_zero(a));
      const Bound p[] = {times(a.lo, b.lo), times(a.lo, b.hi), times(a.hi, b.lo), times(a.hi, b.hi)};
      return number(*std::min_element(std::begin(p), std::end(p)),
                    *std::max_element(std::begin(p), std::end(p)), ints, nan);
    }
    case Op::true_divide:
    case Op::floor_divide: {
      const bool floor = op == Op::floor_divide;
      // A divisor span holding 0 leaves the quotient unbounded (0 itself is refused).
      if (holds_zero(b)) return number(-kInf, kInf, floor && ints, true);
      const bool nan = nan_in || both_infinite || (floor && may_be_infinite(a));
      const Bound q[] = {over(a.lo, b.lo), over(a.lo, b.hi), over(a.hi, b.lo), over(a.hi, b.hi)};
      Bound lo = *std::min_element(std::begin(q), std::end(q));
      Bound hi = *std::max_element(std::begin(q), std::end(q));
      if (floor) {
        lo = std::floor(lo);
        hi = std::floor(hi);
      }
      return number(lo, hi, floor && ints, nan);
    }
    case Op::modulo: {
      const bool nan = nan_in || may_be_infinite(a);
      if (a.exact() && b.exact() && ints && b.lo != 0) {
        const Bound r = a.lo - b.lo * std::floor(a.lo / b.lo);  // Python's sign: the divisor's
        return number(r, r, true);
      }
      if (b.lo > 0) {
        // 0 <= a % b < b; and a itself when 0 <= a < b.
        if (a.lo >= 0 && a.hi < b.lo) return number(a.lo, a.hi, ints, nan);
        return number(0, ints ? b.hi - 1 : b.hi, ints, nan);
      }
      if (b.hi < 0) return number(ints ? b.lo + 1 : b.lo, 0, ints, nan);
      const Bound m = std::max(std::fabs(b.lo), std::fabs(b.hi));
      return number(-m, m, ints, true);
    }
    default: return any_span();
  }
}

Span compare(Op op, const Span& a, const Span& b) {
  if (a.kind == Span::Kind::truth && b.kind == Span::Kind::truth &&
      (op == Op::equal || op == Op::not_equal)) {
    // Equal when both can be the same truth value; different when they can differ.
    const bool same = (a.can_be_true && b.can_be_true) || (a.can_be_false && b.can_be_false);
    const bool differ = (a.can_be_true && b.can_be_false) || (a.can_be_false && b.can_be_true);
    return op == Op::equal ? truth(same, differ) : truth(differ, same);
  }
  if (!a.is_number() || !b.is_number()) return truth(true, true);
  if (a.empty() || b.empty()) return truth(false, false);
  const bool nan = a.nan || b.nan;
  bool yes = true, no = true;
  switch (op) {
    case Op::less: yes = a.lo < b.hi; no = a.hi >= b.lo; break;
    case Op::less_equal: yes = a.lo <= b.hi; no = a.hi > b.lo; break;
    case Op::greater: yes = a.hi > b.lo; no = a.lo <= b.hi; break;
    case Op::greater_equal: yes = a.hi >= b.lo; no = a.lo < b.hi; break;
    case Op::equal:
    case Op::not_equal: {
      const bool overlap = a.lo <= b.hi && b.lo <= a.hi;
      const bool always_equal = a.exact() && b.exact() && a.lo == b.lo;
      yes = overlap;
      no = !always_equal;
      if (op == Op::not_equal) std::swap(yes, no);
      break;
    }
    default: return truth(true, true);
  }
  // NaN compares false with everything, and unequal.
  if (nan) (op == Op::not_equal ? yes : no) = true;
  return truth(yes, no);
}

// The spans of one search, tier by tier: the facts' spans are shared, the search's own names
// (enumerations, tier values, candidate values) are the tier's.
class Spans {
 public:
  explicit Spans(const CompiledRules& rules) : rules_(rules) {}

  void start_tier() { locals_.clear(); }
  void set(int slot, Span span) { locals_[slot] = std::move(span); }

  Span of(const Node& n) {
    switch (n.kind) {
      case ExprKind::literal: return of_constant(n.constant);
      case ExprKind::list: return list_span(n.children, [this](const Node& c) { return of(c); });
      case ExprKind::name: return slot(n.slot);
      case ExprKind::unary: {
        const Span a = of(n.children[0]);
        if (n.op == Op::logical_not)
          return a.kind == Span::Kind::truth ? truth(a.can_be_false, a.can_be_true) : truth(true, true);
        if (!a.is_number()) return any_span();
        return number(-a.hi, -a.lo, a.integral, a.nan);
      }
      case ExprKind::binary: return binary(n);
      case ExprKind::conditional: {
        const Span c = of(n.children[0]);
        if (c.kind != Span::Kind::truth) return join(of(n.children[1]), of(n.children[2]));
        if (!c.can_be_false) return of(n.children[1]);
        if (!c.can_be_true) return of(n.children[2]);
        return join(of(n.children[1]), of(n.children[2]));
      }
      case ExprKind::call: return call(n);
      case ExprKind::member: return any_span();
    }
    return any_span();
  }

 private:
  Span binary(const Node& n) {
    const Span a = of(n.children[0]);
    const Span b = of(n.children[1]);
    switch (n.op) {
      case Op::logical_and:
      case Op::logical_or: {
        if (a.kind != Span::Kind::truth || b.kind != Span::Kind::truth) return truth(true, true);
        return n.op == Op::logical_and
                   ? truth(a.can_be_true && b.can_be_true, a.can_be_false || b.can_be_false)
                   : truth(a.can_be_true || b.can_be_true, a.can_be_false && b.can_be_false);
      }
      case Op::equal:
      case Op::not_equal:
      case Op::less:
      case Op::less_equal:
      case Op::greater:
      case Op::greater_equal: return compare(n.op, a, b);
      default: return arithmetic(n.op, a, b);
    }
  }

  Span call(const Node& n) {
    std::vector<Span> args;
    for (const Node& child : n.children) args.push_back(of(child));
    if (n.name == "divisors" && args.size() == 1 && args[0].is_number() && args[0].integral)
      // The divisors of n lie in [1, n]; for n < 1 there are none (an empty span).
      return list_of(number(1, args[0].hi, true));
    if (n.name == "min" || n.name == "max") {
      // The argument kept is one of them: within their hull. Where one may be NaN, min/max
      // keeps whichever the unordered comparisons leave, so only the hull is known.
      Span out = args.at(0);
      bool nan = false;
      for (const Span& a : args) {
        if (!a.is_number()) return any_span();
        nan = nan || a.nan;
      }
      const bool low = n.name == "min";
      for (const Span& a : args)
        out = nan ? join(out, a)
                  : number(low ? std::min(out.lo, a.lo) : std::max(out.lo, a.lo),
                           low ? std::min(out.hi, a.hi) : std::max(out.hi, a.hi),
                           out.integral && a.integral);
      out.nan = nan;
      return out;
    }
    if ((n.name == "int" || n.name == "float") && args.size() == 1) {
      const Span& a = args[0];
      const bool to_int = n.name == "int";
      if (a.kind == Span::Kind::truth)
        return number(a.can_be_false ? 0 : 1, a.can_be_true ? 1 : 0, to_int);
      if (!a.is_number()) return any_span();
      // int() truncates toward zero (and refuses NaN and infinities).
      return to_int ? number(std::trunc(a.lo), std::trunc(a.hi), true)
                    : rounded(number(a.lo, a.hi, false, a.nan));
    }
    if (n.name == "len" && args.size() == 1) return number(0, kInf, true);
    return any_span();
  }

  Span slot(int slot) {
    const auto at = static_cast<std::size_t>(slot);
    const std::size_t inputs = rules_.inputs.size();
    const std::size_t lets = rules_.lets.size();
    if (at < inputs) return input(rules_.inputs[at]);
    if (at < inputs + lets) {
      const std::size_t let = at - inputs;
      if (rules_.computed_elsewhere(let)) return any_span();
      return memo(facts_, slot, rules_.lets[let]);
    }
    if (const auto it = locals_.find(slot); it != locals_.end()) return it->second;
    // A value the search sets without a node (an aggregate) is a null literal here: `any`.
    return memo(locals_, slot, rules_.local_values[at - inputs - lets]);
  }

  // A let's span, computed once (a cycle, refused at load, would read `any`).
  Span memo(std::map<int, Span>& cache, int slot, const Node& value) {
    if (const auto it = cache.find(slot); it != cache.end()) return it->second;
    cache[slot] = any_span();
    Span span = of(value);
    cache[slot] = span;
    return span;
  }

  static Span input(const detail::CompiledInput& in) {
    if (!in.one_of.empty()) {
      Span out = of_constant(in.one_of.front());
      for (const RValue& v : in.one_of) out = join(out, of_constant(v));
      return out;
    }
    switch (in.type.kinds) {
      case detail::kBool: return truth(true, true);
      case detail::kInt: return number(-kInf, kInf, true);
      // A float given through the API may be NaN or an infinity.
      case detail::kFloat:
      case detail::kInt | detail::kFloat: return number(-kInf, kInf, false, true);
      default: return any_span();
    }
  }

  const CompiledRules& rules_;
  std::map<int, Span> facts_;
  std::map<int, Span> locals_;
};

// How a constraint fared over every tier that checks it.
struct Verdict {
  const detail::CompiledConstraint* constraint = nullptr;
  std::string tier;  // the tier of a tier's own constraint, "" for a shared one
  bool can_hold = false;
  bool can_fail = false;
  bool decided = true;
};

}  // namespace

std::vector<Diagnostic> search_constraint_findings(const CompiledRules& rules) {
  std::vector<Diagnostic> out;
  for (const auto& shared : rules.searches) {
    if (!shared) continue;
    const detail::CompiledSearch& search = *shared;
    // The shared constraints and the fit test are checked in every tier, a tier's own in it.
    std::vector<Verdict> verdicts;
    for (const auto& c : search.constraints) verdicts.push_back({&c, "", false, false, true});
    if (search.fits) verdicts.push_back({&*search.fits, "", false, false, true});
    const std::size_t shared_count = verdicts.size();
    Spans spans(rules);
    bool any_candidate = false;
    for (const detail::CompiledTier& tier : search.tiers) {
      spans.start_tier();
      for (const detail::CompiledSlotValue& value : tier.values)
        spans.set(value.slot, spans.of(value.value));
      bool candidates = true;
      for (const detail::CompiledSlotValue& e : search.enumerations) {
        const Span list = spans.of(e.value);
        const Span item = list.kind == Span::Kind::list ? *list.items : any_span();
        if (item.empty()) candidates = false;
        spans.set(e.slot, item);
      }
      if (!candidates) continue;  // this tier has no candidate for any input
      any_candidate = true;
      const auto decide = [&](Verdict& v) {
        const Span s = spans.of(v.constraint->holds);
        if (s.kind != Span::Kind::truth) {
          v.decided = false;
          return;
        }
        v.can_hold = v.can_hold || s.can_be_true;
        v.can_fail = v.can_fail || s.can_be_false;
      };
      for (std::size_t k = 0; k < shared_count; ++k) decide(verdicts[k]);
      for (const auto& c : tier.constraints) {
        Verdict own{&c, tier.name, false, false, true};
        decide(own);
        verdicts.push_back(own);
      }
    }
    if (!any_candidate) continue;  // no candidate at all: every verdict would be vacuous
    for (const Verdict& v : verdicts) {
      if (!v.decided || (v.can_hold && v.can_fail)) continue;
      const bool is_fit = search.fits && v.constraint == &*search.fits;
      const std::string subject =
          is_fit ? messages::search_fit_subject(search.name)
                 : messages::search_constraint_subject(v.constraint->name, search.name, v.tier);
      out.push_back(
          !v.can_hold
              ? Diagnostic{Severity::warning, v.constraint->location, "constraint-never-holds",
                           messages::constraint_never_holds(subject, is_fit)}
              : Diagnostic{Severity::warning, v.constraint->location, "constraint-never-fails",
                           messages::constraint_never_fails(subject, is_fit)});
    }
  }
  return out;
}

}  // namespace snnplan::analyse
