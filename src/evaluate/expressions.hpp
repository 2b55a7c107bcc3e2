#pragma once
// The evaluator's expressions (private to evaluate/): values of syntax-tree nodes, derived
// values on first use, calls of other rule sets and builtins, and templates rendered into the
// evaluation's store. Inline: each rule's conditions and values come through here.

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "evaluate/engine.hpp"
#include "language/python_repr.hpp"

namespace snnplan::evaluate::internal {

// `n`'s value as a reference: a constant or a fact without a copy, anything else computed
// into `scratch`.
inline const RValue& Evaluator::operand(const Node& n, Frame& frame, RValue& scratch) {
  if (n.kind == ExprKind::literal) return n.constant;
  if (n.kind == ExprKind::name) return lookup(n.slot, frame);
  scratch = eval(n, frame);
  return scratch;
}

// eval() with the two commonest nodes -- a constant, a fact already known -- decided inline,
// and an operator node sent straight to binary().
inline RValue Evaluator::value(const Node& n, Frame& frame) {
  if (n.kind == ExprKind::literal) return n.constant;
  if (n.kind == ExprKind::name && frame.ready(n.slot)) return frame.value(n.slot);
  if (n.kind == ExprKind::binary) return binary(n, frame);
  return eval(n, frame);
}

inline const RValue& Evaluator::lookup(int slot, Frame& frame) {
  if (frame.ready(slot)) return frame.value(slot);
  return compute(slot, frame);
}

const RValue& Evaluator::compute(int slot, Frame& frame) {
  return frame.get(slot, [this, slot, &frame](std::size_t let) {
    // A search's own values (candidates', failures') are not traced one by one: a search's
    // trace says what each candidate came to.
    if (let >= rules_.lets.size()) return eval(rules_.local_values[let - rules_.lets.size()], frame);
    RValue v = rules_.calls[let]                                  ? call(*rules_.calls[let], frame)
               : let < rules_.searches.size() && rules_.searches[let] ? search(*rules_.searches[let], frame)
                                                                      : eval(rules_.lets[let], frame);
    if (trace_) note_derived(slot, let, v);
    return v;
  });
}

// The search a rule's value reads first (`layout` or `layout.tp`), when it has not run: run
// here, so that finding nothing is the rule's failure (`failure`, false) and not an exception
// thrown through the expression -- the same outcome, at a fraction of the cost.
inline bool Evaluator::settle_leading_search(const Node& n, Frame& frame, std::string& failure) {
  const Node& read = n.kind == ExprKind::member ? n.children[0] : n;
  if (read.kind != ExprKind::name || read.slot < 0 || frame.ready(read.slot)) return true;
  const std::size_t let = static_cast<std::size_t>(read.slot) - rules_.inputs.size();
  if (static_cast<std::size_t>(read.slot) < rules_.inputs.size() || let >= rules_.searches.size() ||
      !rules_.searches[let])
    return true;
  return frame.try_get(read.slot, [&](std::size_t, RValue& v) {
    if (!run_search(*rules_.searches[let], frame, v, failure)) return false;
    if (trace_) note_derived(read.slot, let, v);
    return true;
  });
}

void Evaluator::note_derived(int slot, std::size_t let, const RValue& v) {
  note(TraceStep::Kind::derived_value, "", "", rules_.lets[let].location,
       fmt::format("{} = {}", rules_.slot_name(slot), detail::repr(v)));
}

inline RValue Evaluator::call(const detail::CompiledCall& call, Frame& frame) {
  const CompiledRules& callee = *rules_.used[static_cast<std::size_t>(call.rules)];
  if (depth_ >= detail::kMaxCallDepth)
    rule_failure(messages::chain_too_deep(detail::kMaxCallDepth));
  RValue* given = store_.values(callee.inputs.size());
  std::uninitialized_fill_n(given, callee.inputs.size(), RValue{});
  for (const auto& assignment : call.with)
    given[assignment.target] = eval(assignment.value, frame);
  return Evaluator(callee, trace_, store_).run_call({given, callee.inputs.size()}, depth_ + 1);
}

inline std::string_view Evaluator::render(const CompiledTemplate& t, Frame& frame) {
  if (t.is_fixed) return t.fixed_text;
  // Templates of text, strings and 64-bit integers (nearly all) are written in place:
  // values first, with a bound on the length, then one allocation in the store filled
  // with memcpy and its unused tail given back.
  constexpr std::size_t kInPlacePieces = 16;
  constexpr std::size_t kIntegerDigits = 20;
  const CompiledTemplate::Piece* const pieces = t.pieces.data();
  const std::size_t count = t.pieces.size();
  if (count <= kInPlacePieces) {
    const RValue* values[kInPlacePieces];
    std::size_t bound = t.literal_bytes;
    bool in_place = true;
    for (const CompiledTemplate::Run& run : t.runs) {
      if (run.piece < 0) continue;
      const auto k = static_cast<std::size_t>(run.piece);
      const auto& piece = pieces[k];
      const RValue& v = lookup(piece.slot, frame);
      values[k] = &v;
      if (piece.python_repr)
        in_place = false;
      else if (v.kind == Kind::string)
        bound += v.text.size;
      else if (v.kind == Kind::integer && detail::fits_int64(v.i))
        bound += kIntegerDigits;
      else
        in_place = false;
      if (!in_place) break;
    }
    if (in_place) {
      char* const begin = static_cast<char*>(store_.allocate_bytes(bound, 1));
      char* out = begin;
      auto put = [&out](std::string_view text) {
        detail::copy_text(out, text);
        out += text.size();
      };
      for (const CompiledTemplate::Run& run : t.runs) {
        put(run.text);
        if (run.piece < 0) continue;
        const RValue& v = *values[run.piece];
        if (v.kind == Kind::string) {
          put(v.s());
        } else {
          const fmt::format_int digits(static_cast<std::int64_t>(v.i));
          put({digits.data(), digits.size()});
        }
      }
      store_.give_back(begin + bound, out);
      return {begin, static_cast<std::size_t>(out - begin)};
    }
  }
  std::pmr::string out(store_.resource());
  out.reserve(256);
  for (const auto& piece : t.pieces) {
    if (piece.slot < 0) {
      out += piece.text;
    } else if (piece.python_repr) {
      std::string text;
      language::append_python_repr(text, lookup(piece.slot, frame));
      out += text;
    } else {
      detail::append_display(out, lookup(piece.slot, frame));
    }
  }
  return store_.keep(out);
}

inline RValue Evaluator::eval(const Node& n, Frame& frame) {
  switch (n.kind) {
    case ExprKind::literal:
      return n.constant;
    case ExprKind::name:
      return lookup(n.slot, frame);
    case ExprKind::list:
      return list(n, frame);
    case ExprKind::unary:
      return unary(n, frame);
    case ExprKind::conditional:
      return language::truth(value(n.children[0], frame), n.children[0].location)
                 ? value(n.children[1], frame)
                 : value(n.children[2], frame);
    case ExprKind::binary:
      return binary(n, frame);
    case ExprKind::call:
      return call_builtin(n, frame);
    case ExprKind::member:
      return member(n, frame);
  }
  return RValue{};
}

// The rarer nodes out of line: eval() stays small, so its every call saves and restores
// fewer registers.
RValue Evaluator::list(const Node& n, Frame& frame) {
  RValue* items = store_.values(n.children.size());
  for (std::size_t k = 0; k < n.children.size(); ++k)
    new (items + k) RValue(value(n.children[k], frame));
  return RValue::of_items({items, n.children.size()});
}

RValue Evaluator::unary(const Node& n, Frame& frame) {
  const RValue v = value(n.children[0], frame);
  if (n.op == Op::logical_not) return RValue::of_bool(!language::truth(v, n.children[0].location));
  return language::negate(v, n.location);
}

RValue Evaluator::member(const Node& n, Frame& frame) {
  RValue object = value(n.children[0], frame);
  if (object.kind != Kind::record)
    type_failure(n.location, messages::type_mismatch(fmt::format("the value before '.{}'", n.name),
                                                     "a record", detail::kind_name(object)));
  const auto& names = *object.record->names;
  std::size_t field = n.slot >= 0 ? static_cast<std::size_t>(n.slot) : names.size();
  if (n.slot < 0)
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == n.name) field = k;
  if (field >= names.size() || names[field] != n.name)
    type_failure(n.location, messages::unknown_name("record field", n.name, ""));
  return object.record->values[field];
}

RValue Evaluator::binary(const Node& n, Frame& frame) {
  if (n.op == Op::logical_and) {
    return RValue::of_bool(language::truth(value(n.children[0], frame), n.children[0].location) &&
                           language::truth(value(n.children[1], frame), n.children[1].location));
  }
  if (n.op == Op::logical_or) {
    return RValue::of_bool(language::truth(value(n.children[0], frame), n.children[0].location) ||
                           language::truth(value(n.children[1], frame), n.children[1].location));
  }
  const RValue a = value(n.children[0], frame);
  const RValue b = value(n.children[1], frame);
  // Integer comparisons (most of what `let` values test) decided without the general path.
  if (a.kind == Kind::integer && b.kind == Kind::integer) {
    switch (n.op) {
      case Op::equal:
        return RValue::of_bool(a.i == b.i);
      case Op::not_equal:
        return RValue::of_bool(a.i != b.i);
      case Op::less:
        return RValue::of_bool(a.i < b.i);
      case Op::less_equal:
        return RValue::of_bool(a.i <= b.i);
      case Op::greater:
        return RValue::of_bool(a.i > b.i);
      case Op::greater_equal:
        return RValue::of_bool(a.i >= b.i);
      case Op::add:
      case Op::subtract:
      case Op::multiply:
      case Op::divide:
      case Op::floor_divide:
      case Op::modulo: {
        Wide r = 0;  // an overflow or a division by zero: arithmetic() below reports it
        const Op op = n.op == Op::floor_divide ? Op::divide : n.op;
        if (language::integer_arithmetic(op, a.i, b.i, r) == language::IntegerStatus::ok)
          return RValue::of_int(r);
        break;
      }
      default:
        break;
    }
  }
  // Floats (a search's estimates) computed and compared without the general path: the same
  // IEEE operations language::arithmetic() and compare() perform, a division by zero left to it.
  if (a.kind == Kind::floating && b.kind == Kind::floating) {
    switch (n.op) {
      case Op::less: return RValue::of_bool(a.f < b.f);
      case Op::less_equal: return RValue::of_bool(a.f <= b.f);
      case Op::greater: return RValue::of_bool(a.f > b.f);
      case Op::greater_equal: return RValue::of_bool(a.f >= b.f);
      default: break;
    }
  }
  if ((a.kind == Kind::floating && (b.kind == Kind::floating || b.kind == Kind::integer)) ||
      (a.kind == Kind::integer && b.kind == Kind::floating)) {
    const double x = a.kind == Kind::integer ? detail::to_double(a.i) : a.f;
    const double y = b.kind == Kind::integer ? detail::to_double(b.i) : b.f;
    switch (n.op) {
      case Op::add: return RValue::of_float(x + y);
      case Op::subtract: return RValue::of_float(x - y);
      case Op::multiply: return RValue::of_float(x * y);
      case Op::divide:
      case Op::true_divide:
        if (y != 0) return RValue::of_float(x / y);
        break;
      default: break;
    }
  }
  return combine(n, a, b);
}

// `a op b` for an operator other than && and ||, by the general path (binary()'s fast paths
// decide the common kinds the same way, sooner).
RValue Evaluator::combine(const Node& n, const RValue& a, const RValue& b) {
  switch (n.op) {
    case Op::equal:
      return RValue::of_bool(detail::values_equal(a, b));
    case Op::not_equal:
      return RValue::of_bool(!detail::values_equal(a, b));
    case Op::less:
    case Op::less_equal:
    case Op::greater:
    case Op::greater_equal:
      return RValue::of_bool(language::holds(
          n.op, language::compare_or_fail(a, b, n.location, syntax::spelling(n.op))));
    default:
      return language::arithmetic(n.op, a, b, n.location, store_);
  }
}

// The arguments of a call whose builtin computes them on demand (try).
class Evaluator::OnDemand final : public language::ArgumentSource {
 public:
  OnDemand(Evaluator& evaluator, const Node& call, Frame& frame)
      : evaluator_(evaluator), call_(call), frame_(frame) {}
  RValue evaluate(std::size_t k) override { return evaluator_.value(call_.children[k], frame_); }

 private:
  Evaluator& evaluator_;
  const Node& call_;
  Frame& frame_;
};

inline RValue Evaluator::call_builtin(const Node& n, Frame& frame) {
  if (n.builtin->arguments == language::ArgumentEvaluation::on_demand) {
    OnDemand source(*this, n, frame);
    return n.builtin->call(
        language::BuiltinArguments(*n.builtin, n.children.size(), source, store_));
  }
  RValue* args = store_.values(n.children.size());
  for (std::size_t k = 0; k < n.children.size(); ++k)
    new (args + k) RValue(value(n.children[k], frame));
  try {
    return n.builtin->call(
        language::BuiltinArguments(*n.builtin, {args, n.children.size()}, store_));
  } catch (const language::ArgumentError& error) {
    type_failure(n.children[error.index].location, error.message);
  }
}

}  // namespace snnplan::evaluate::internal
