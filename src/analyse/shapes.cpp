#include "analyse/shapes.hpp"

#include <algorithm>

#include "analyse/messages.hpp"
#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "language/operations.hpp"

namespace snnplan::analyse {
namespace {

using detail::Node;
using syntax::ExprKind;
using syntax::Op;
using namespace detail;  // the kind bits kInt, kString, ...

Alt boolean_alt() {
  Alt a;
  a.k = Alt::K::boolean;
  return a;
}

Alt alt_of(const RValue& v) {
  Alt a;
  switch (v.kind) {
    case RValue::Kind::null:
      a.k = Alt::K::null;
      break;
    case RValue::Kind::boolean:
      a.k = Alt::K::boolean;
      break;
    case RValue::Kind::integer:
      a.k = Alt::K::integer;
      a.term = term_const(v.i);
      break;
    case RValue::Kind::floating:
      a.k = Alt::K::floating;
      break;
    case RValue::Kind::string:
      a.k = Alt::K::string;
      a.str = std::string(v.s());
      break;
    case RValue::Kind::list:
      a.k = Alt::K::list;
      for (const RValue& item : v.list()) a.items.push_back({alt_of(item)});
      break;
    case RValue::Kind::record:
      break;
  }
  return a;
}

void issue(Facts& f, const SourceLocation& at, std::string what) {
  f.add_issue(Issue{at, std::move(what)});
}

}  // namespace

Facts Shapes::matcher(const detail::CompiledMatcher& matcher) {
  // Each item of a list operand, or the one operand, is compared with the fact by order or
  // by equality, as the matcher's row says.
  Facts f;
  const std::vector<Alt> fact = of_slot(matcher.slot, matcher.location, f);
  const language::MatcherInfo& info = *matcher.info;
  if (info.operand == language::OperandShape::list && matcher.operand.kind == ExprKind::list) {
    for (const Node& option : matcher.operand.children) {
      const std::vector<Alt> alts = of(option, f);
      for (const Alt& a : fact)
        for (const Alt& b : alts) compare(a, b, info.orders, option.location, f);
    }
  } else if (info.operand == language::OperandShape::list) {
    const std::vector<Alt> alts = of(matcher.operand, f);
    for (const Alt& a : fact)
      for (const Alt& b : alts)
        if (b.k == Alt::K::list)
          for (const auto& position : b.items)
            for (const Alt& item : position)
              compare(a, item, info.orders, matcher.operand.location, f);
  } else {
    const std::vector<Alt> alts = of(matcher.operand, f);
    for (const Alt& a : fact)
      for (const Alt& b : alts) compare(a, b, info.orders, matcher.operand.location, f);
  }
  return f;
}

Facts Shapes::expression(const Node& n) {
  Facts f;
  of(n, f);
  return f;
}

std::vector<Alt> Shapes::capped(std::vector<Alt> alts, const SourceLocation& at, Facts& f) {
  if (alts.size() <= kMaxAlternatives) return alts;
  issue(f, at, messages::analysis_too_many_alternatives());
  return {Alt{}};
}

std::vector<Alt> Shapes::of_slot(int s, const SourceLocation& at, Facts& f) {
  const std::size_t n = m_.inputs.size();
  if (static_cast<std::size_t>(s) < n) return of_input(static_cast<std::size_t>(s), at, f);
  // A record field (read by an invariant): what rules set it to is among the regions already
  // (analyse/invariants.cpp); here it is a value of any shape.
  // A search's own names (local slots) are read only inside the search.
  if (static_cast<std::size_t>(s) >= n + m_.rules.lets.size()) return {Alt{}};
  const std::size_t k = static_cast<std::size_t>(s) - n;
  if (!lets_[k]) {
    LetShape shape;
    if (k < m_.rules.searches.size() && m_.rules.searches[k]) {
      issue(shape.facts, at, messages::analysis_searches(m_.rules.let_names[k]));
      shape.alts = {Alt{}};
    } else if (m_.rules.calls[k]) {
      // Beyond the exact analysis, but the inputs the call is given are still what its
      // value depends on: they are enumerated, and a gap witness names them.
      issue(shape.facts, at, messages::analysis_calls_rule_set(m_.rules.let_names[k]));
      for (const detail::CompiledAssignment& given : m_.rules.calls[k]->with) of(given.value, shape.facts);
      shape.alts = {Alt{}};
    } else {
      shape.alts = of(m_.rules.lets[k], shape.facts);
    }
    lets_[k] = std::move(shape);
  }
  f.merge(lets_[k]->facts);
  return lets_[k]->alts;
}

std::vector<Alt> Shapes::of_input(std::size_t i, const SourceLocation& at, Facts& f) {
  InputDomain& in = m_.inputs[i];
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
    for (const RValue& option : in.options) {
      switch (option.kind) {
        case RValue::Kind::null:
          add(Alt::K::null);
          break;
        case RValue::Kind::boolean:
          add(Alt::K::boolean);
          break;
        case RValue::Kind::integer:
          add(Alt::K::integer);
          break;
        case RValue::Kind::floating:
          add(Alt::K::floating);
          break;
        case RValue::Kind::string:
          add(Alt::K::string);
          break;
        case RValue::Kind::list:
        case RValue::Kind::record:
          out.push_back(alt_of(option));
          break;
      }
    }
    return out;
  }
  if ((in.kinds & kNull) && in.null_possible) add(Alt::K::null);
  if (in.kinds & kBool) add(Alt::K::boolean);
  if (in.kinds & kString) add(Alt::K::string);
  if (in.kinds & kFloat)
    add(Alt::K::floating);
  else if (in.kinds & kInt)
    add(Alt::K::integer);
  if (in.kinds & (kList | kRecord)) {
    issue(f, at, messages::analysis_list_input(in.name));
    out.push_back(Alt{});
  }
  return out;
}

void Shapes::atom(const TermP& left, const TermP& right, const SourceLocation& at, Facts& f) {
  const bool list_left = has_list(*left), list_right = has_list(*right);
  if (list_left || list_right) {
    // A position or length of a list input (list_call) compared with another of the same
    // list (their order), or with a constant (the input's counts): decided by enumerating
    // its representatives. Anything else is beyond them.
    auto bare = [&](const Term& t) {
      return t.kind == Term::Kind::var && m_.inputs[static_cast<std::size_t>(t.var)].list;
    };
    const Term& x = list_left ? *left : *right;
    const Term& other = list_left ? *right : *left;
    if (bare(x) && other.kind == Term::Kind::constant) {
      m_.inputs[static_cast<std::size_t>(x.var)].counts.insert(other.c);
      return;
    }
    if (bare(x) && bare(other) && x.var == other.var) return;
    std::set<int> vars;
    term_vars(*left, vars);
    term_vars(*right, vars);
    for (int v : vars)
      if (m_.inputs[static_cast<std::size_t>(v)].list)
        issue(f, at, messages::analysis_list_input(m_.inputs[static_cast<std::size_t>(v)].name));
    return;
  }
  std::string why;
  TermP diff = arith(Op::subtract, left, right, why);
  if (!diff) {
    if (!why.empty()) issue(f, at, why);
    return;
  }
  std::set<int> vars;
  term_vars(*diff, vars);
  Atom a;
  a.term = diff;
  a.location = at;
  for (int v : vars)
    (m_.inputs[static_cast<std::size_t>(v)].sampled ? a.sampled : a.params).push_back(v);
  if (a.sampled.empty()) return;  // decided by enumerating the inputs it uses
  if (a.sampled.size() > 2) {
    std::vector<std::string> names;
    for (int v : a.sampled) names.push_back(m_.inputs[static_cast<std::size_t>(v)].name);
    issue(f, at, messages::analysis_three_inputs(quote_list(names)));
    return;
  }
  a.period = term_period(*diff);
  if (a.period == 0) {
    issue(f, at, messages::analysis_period_too_large(detail::wide_to_string(kMaxPeriod)));
    return;
  }
  f.atoms.emplace(term_key(*diff), std::move(a));
}

bool Shapes::has_sampled(const Term& t) const {
  std::set<int> vars;
  term_vars(t, vars);
  return std::any_of(vars.begin(), vars.end(),
                     [&](int v) { return m_.inputs[static_cast<std::size_t>(v)].sampled; });
}

// An integer term `a op b`, folded when both are constants. nullptr with `why` empty when
// the operation always fails at run time (division by zero, overflow); with `why` set when
// it is outside what the analysis handles.
TermP Shapes::arith(Op op, const TermP& a, const TermP& b, std::string& why) const {
  const bool ca = a->kind == Term::Kind::constant;
  const bool cb = b->kind == Term::Kind::constant;
  const bool divides = op == Op::divide || op == Op::modulo;
  if (has_list(*a) || has_list(*b)) {  // a position or length of a list input
    const Term& list = has_list(*a) ? *a : *b;
    std::set<int> vars;
    term_vars(list, vars);
    for (int v : vars)
      if (m_.inputs[static_cast<std::size_t>(v)].list)
        why = messages::analysis_list_input(m_.inputs[static_cast<std::size_t>(v)].name);
    return nullptr;
  }
  if (divides && !cb) {
    why = messages::analysis_divides_by_input();
    return nullptr;
  }
  if (divides && b->c == 0) return nullptr;
  if (op == Op::multiply && has_sampled(*a) && has_sampled(*b)) {
    why = messages::analysis_multiplies_inputs();
    return nullptr;
  }
  auto t = std::make_shared<Term>();
  t->kind = Term::Kind::operation;
  t->op = op;
  t->a = a;
  if (divides)
    t->c = b->c;
  else
    t->b = b;
  if (ca && cb) {
    Wide r = 0;
    bool unused = false;
    if (!eval_term(*t, {}, r, unused)) return nullptr;  // fails at run time
    return term_const(r);
  }
  return t;
}

void Shapes::compare(const Alt& a, const Alt& b, bool ordering, const SourceLocation& at,
                     Facts& f) {
  using K = Alt::K;
  if (a.k == K::other || b.k == K::other) return;  // reported where it was made
  if (a.k == K::integer && b.k == K::integer) {
    atom(a.term, b.term, at, f);
    return;
  }
  const bool na = a.k == K::integer || a.k == K::floating;
  const bool nb = b.k == K::integer || b.k == K::floating;
  if (na && nb) {
    const bool a_const = a.k == K::floating ? a.constant : a.term->kind == Term::Kind::constant;
    const bool b_const = b.k == K::floating ? b.constant : b.term->kind == Term::Kind::constant;
    if (!a_const || !b_const) issue(f, at, messages::analysis_float_condition());
    return;
  }
  if (a.k == K::string && b.k == K::string) {
    if (a.input < 0 && b.input < 0) return;
    if (ordering) {
      issue(f, at, messages::analysis_orders_strings());
      return;
    }
    if (a.input >= 0 && b.input >= 0) {
      if (a.input != b.input) issue(f, at, messages::analysis_two_string_inputs());
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

std::vector<Alt> Shapes::of(const Node& n, Facts& f) {
  using K = Alt::K;
  switch (n.kind) {
    case ExprKind::literal:
      return {alt_of(n.constant)};
    case ExprKind::name:
      return of_slot(n.slot, n.location, f);
    case ExprKind::list: {
      Alt a;
      a.k = K::list;
      for (const Node& kid : n.children) a.items.push_back(of(kid, f));
      return {a};
    }
    case ExprKind::unary: {
      std::vector<Alt> kid = of(n.children[0], f);
      if (n.op == Op::logical_not) return {boolean_alt()};
      std::vector<Alt> out;
      for (const Alt& a : kid) {
        if (a.k == K::integer) {
          std::string why;
          if (TermP t = arith(Op::subtract, term_const(0), a.term, why)) {
            Alt r;
            r.k = K::integer;
            r.term = t;
            out.push_back(r);
          } else if (!why.empty()) {
            issue(f, n.location, why);
            out.push_back(Alt{});
          }
        } else if (a.k == K::floating || a.k == K::other) {
          out.push_back(a);
        }
      }
      return out;
    }
    case ExprKind::conditional: {
      of(n.children[0], f);
      std::vector<Alt> out = of(n.children[1], f);
      std::vector<Alt> other = of(n.children[2], f);
      out.insert(out.end(), other.begin(), other.end());
      return capped(std::move(out), n.location, f);
    }
    case ExprKind::binary:
      return binary(n, f);
    case ExprKind::call:
      return call(n, f);
    case ExprKind::member:
      for (const Node& kid : n.children) of(kid, f);  // what the record depends on
      if (n.children.size() == 1 && n.children[0].kind == ExprKind::name) {
        issue(f, n.location,
              messages::analysis_record_field(m_.slot_name(n.children[0].slot), n.name));
      } else {
        issue(f, n.location, messages::analysis_unsupported_expression());
      }
      return {Alt{}};
  }
  return {Alt{}};
}

std::vector<Alt> Shapes::binary(const Node& n, Facts& f) {
  using K = Alt::K;
  const std::vector<Alt> left = of(n.children[0], f);
  const std::vector<Alt> right = of(n.children[1], f);
  switch (n.op) {
    case Op::logical_and:
    case Op::logical_or:
      return {boolean_alt()};
    case Op::equal:
    case Op::not_equal:
    case Op::less:
    case Op::less_equal:
    case Op::greater:
    case Op::greater_equal: {
      const bool ordering = syntax::is_ordering(n.op);
      for (const Alt& a : left)
        for (const Alt& b : right) compare(a, b, ordering, n.location, f);
      return {boolean_alt()};
    }
    default:
      break;
  }
  const Op op = n.op;  // + - * / %
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
      } else if ((a.k == K::integer || a.k == K::floating) &&
                 (b.k == K::integer || b.k == K::floating)) {
        Alt r;
        r.k = K::floating;
        r.constant = (a.k == K::floating ? a.constant : a.term->kind == Term::Kind::constant) &&
                     (b.k == K::floating ? b.constant : b.term->kind == Term::Kind::constant);
        out.push_back(r);
      } else if (op == Op::add && a.k == K::string && b.k == K::string) {
        if (a.input < 0 && b.input < 0) {
          Alt r;
          r.k = K::string;
          r.str = a.str + b.str;
          out.push_back(r);
        } else {
          issue(f, n.location, messages::analysis_builds_string());
          out.push_back(Alt{});
        }
      } else if (op == Op::add && a.k == K::list && b.k == K::list) {
        Alt r = a;
        r.items.insert(r.items.end(), b.items.begin(), b.items.end());
        out.push_back(r);
      }
      // Anything else fails at run time: no value.
    }
  }
  return capped(std::move(out), n.location, f);
}

// index_of, contains and len of a list input, its items looked for by constants: the input's
// representatives hold those constants in every arrangement (domains.cpp), so the result is
// decided by enumerating them. std::nullopt when the call is not of that form.
std::optional<std::vector<Alt>> Shapes::list_call(const Node& n, Facts& f) {
  using K = Alt::K;
  const Node& list = n.children[0];
  if (list.kind != ExprKind::name || list.slot < 0 ||
      static_cast<std::size_t>(list.slot) >= m_.inputs.size())
    return std::nullopt;
  InputDomain& in = m_.inputs[static_cast<std::size_t>(list.slot)];
  if (!in.list) return std::nullopt;
  f.deps.insert(list.slot);
  in.list_tested = true;
  if (n.builtin->analysis == language::BuiltinAnalysis::list_item) {
    Facts item;
    const std::vector<Alt> alts = of(n.children[1], item);
    bool constant = item.deps.empty() && item.issues.empty();
    for (const Alt& a : alts) {
      if (a.k == K::string && a.input < 0)
        in.constants.insert(a.str);
      else if (a.k == K::integer && a.term->kind == Term::Kind::constant)
        in.item_ints.insert(a.term->c);
      else if (a.k != K::null)  // null is no item of a list input: never found
        constant = false;
    }
    f.merge(item);
    if (!constant) issue(f, n.children[1].location, messages::analysis_list_input(in.name));
    if (n.name == "contains") return std::vector<Alt>{boolean_alt()};
    Alt null;
    null.k = K::null;
    Alt position;
    position.k = K::integer;
    position.term = term_var(list.slot);
    return std::vector<Alt>{null, position};
  }
  Alt length;
  length.k = K::integer;
  length.term = term_var(list.slot);
  return std::vector<Alt>{length};
}

bool Shapes::has_list(const Term& t) const {
  std::set<int> vars;
  term_vars(t, vars);
  return std::any_of(vars.begin(), vars.end(),
                     [&](int v) { return m_.inputs[static_cast<std::size_t>(v)].list; });
}

std::vector<Alt> Shapes::call(const Node& n, Facts& f) {
  using K = Alt::K;
  const language::BuiltinAnalysis analysis = n.builtin->analysis;
  if (analysis == language::BuiltinAnalysis::list_item ||
      analysis == language::BuiltinAnalysis::list_length)
    if (std::optional<std::vector<Alt>> out = list_call(n, f)) return std::move(*out);
  std::vector<std::vector<Alt>> args;
  for (const Node& kid : n.children) args.push_back(of(kid, f));
  switch (n.builtin->analysis) {
    case language::BuiltinAnalysis::prefix_test:
      for (const Alt& s : args[0]) {
        for (const Alt& p : args[1]) {
          if (s.k != K::string || p.k != K::string) continue;
          if (p.input >= 0)
            issue(f, n.location, messages::analysis_prefix_from_input(n.name));
          else if (s.input >= 0)
            m_.inputs[static_cast<std::size_t>(s.input)].prefixes.insert(p.str);
        }
      }
      return {boolean_alt()};
    case language::BuiltinAnalysis::picks_an_argument: {
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
    case language::BuiltinAnalysis::returns_an_argument: {
      std::vector<Alt> out;
      for (const std::vector<Alt>& arg : args) out.insert(out.end(), arg.begin(), arg.end());
      return capped(std::move(out), n.location, f);
    }
    case language::BuiltinAnalysis::list_item:  // of something other than a list input
    case language::BuiltinAnalysis::list_length:
    case language::BuiltinAnalysis::opaque:
      break;
  }
  issue(f, n.location, messages::analysis_unsupported_builtin(n.name));
  return {Alt{}};
}

}  // namespace snnplan::analyse
