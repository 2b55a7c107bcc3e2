#include "evaluate/evaluator.hpp"

#include <clocale>
#include <cmath>
#include <cwctype>
#include <optional>
#include <locale.h>

#include "evaluate/microbatches.hpp"
#include "messages.hpp"

namespace snnplan::evaluate {
namespace {

using detail::CompiledRules;
using detail::CompiledTemplate;
using detail::Node;
using detail::RValue;
using detail::Wide;
using syntax::ExprKind;
using syntax::Op;
using Kind = RValue::Kind;

// Evaluation stops by throwing this; evaluate() turns it into an EvaluationError value.
struct Failure {
  EvaluationErrorKind kind;
  std::string message;
};

[[noreturn]] void rule_failure(std::string message) { throw Failure{EvaluationErrorKind::rule_error, std::move(message)}; }
[[noreturn]] void input_failure(std::string message) { throw Failure{EvaluationErrorKind::bad_input, std::move(message)}; }
// A problem the checker could not rule out statically (e.g. a value of the wrong kind coming
// from a mixed-kind expression): reported with the rule-file position.
[[noreturn]] void type_failure(const SourceLocation& at, std::string message) {
  rule_failure(messages::runtime_type(to_string(at), message));
}

// Python's str.lower() for the characters towlower knows (ASCII always; all of Unicode's
// simple case mappings where the C.UTF-8 locale exists).
std::string lower(const std::string& s) {
  bool ascii = true;
  for (unsigned char c : s) ascii = ascii && c < 0x80;
  std::string out;
  out.reserve(s.size());
  if (ascii) {
    for (char c : s) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  }
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  // Decode to code points (invalid bytes are kept as they are, marked with the high bit).
  constexpr char32_t kRawByte = 0x80000000;
  std::vector<char32_t> points;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    bool ok = c < 0x80 || (c >= 0xC0 && i + n <= s.size());
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      ok = (b & 0xC0) == 0x80;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (!ok) {
      points.push_back(kRawByte | c);
      ++i;
      continue;
    }
    points.push_back(cp);
    i += n;
  }
  auto cased = [&](std::size_t k) {
    return k < points.size() && !(points[k] & kRawByte) && utf8 && iswalpha_l(static_cast<wint_t>(points[k]), utf8);
  };
  auto put = [&out](char32_t lc) {
    if (lc < 0x80) out += static_cast<char>(lc);
    else if (lc < 0x800) { out += static_cast<char>(0xC0 | (lc >> 6)); out += static_cast<char>(0x80 | (lc & 0x3F)); }
    else if (lc < 0x10000) { out += static_cast<char>(0xE0 | (lc >> 12)); out += static_cast<char>(0x80 | ((lc >> 6) & 0x3F)); out += static_cast<char>(0x80 | (lc & 0x3F)); }
    else { out += static_cast<char>(0xF0 | (lc >> 18)); out += static_cast<char>(0x80 | ((lc >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((lc >> 6) & 0x3F)); out += static_cast<char>(0x80 | (lc & 0x3F)); }
  };
  for (std::size_t k = 0; k < points.size(); ++k) {
    const char32_t cp = points[k];
    if (cp & kRawByte) out += static_cast<char>(cp & 0xFF);
    else if (cp < 0x80) out += (cp >= 'A' && cp <= 'Z') ? static_cast<char>(cp - 'A' + 'a') : static_cast<char>(cp);
    else if (cp == 0x130) out += "i\xCC\x87";  // İ: Python's full mapping, "i" + combining dot above
    else if (cp == 0x3A3) put(k > 0 && cased(k - 1) && !cased(k + 1) ? 0x3C2 : 0x3C3);  // final sigma
    else put(utf8 ? static_cast<char32_t>(towlower_l(static_cast<wint_t>(cp), utf8)) : cp);
  }
  return out;
}

struct WorkingRecord {
  std::vector<RValue> fields;
  std::vector<std::string> rationale;
};

class Frame {
 public:
  explicit Frame(const CompiledRules& rules)
      : rules_(rules), values_(rules.slot_count()), state_(rules.slot_count(), kPending) {}

  void set_input(int slot, RValue value) {
    values_[static_cast<std::size_t>(slot)] = std::move(value);
    state_[static_cast<std::size_t>(slot)] = kReady;
  }
  // A copy with the same inputs and no derived values computed (for fallback).
  Frame with_inputs_only() const {
    Frame copy(rules_);
    for (std::size_t k = 0; k < rules_.inputs.size(); ++k) copy.set_input(static_cast<int>(k), values_[k]);
    return copy;
  }

  // `compute(let_index, frame)` produces a derived value the first time it is needed.
  template <typename Compute>
  const RValue& get(int slot, Compute&& compute) {
    const auto k = static_cast<std::size_t>(slot);
    if (state_[k] == kReady) return values_[k];
    // Derived values are computed on first use, after what they use (so in dependency
    // order); the checker refuses cycles, this guard only protects against misuse.
    if (state_[k] == kComputing) rule_failure(messages::let_cycle(rules_.slot_name(slot)));
    state_[k] = kComputing;
    RValue v = compute(k - rules_.inputs.size(), *this);
    values_[k] = std::move(v);
    state_[k] = kReady;
    return values_[k];
  }

 private:
  enum : std::uint8_t { kPending, kComputing, kReady };
  const CompiledRules& rules_;
  std::vector<RValue> values_;
  std::vector<std::uint8_t> state_;
};

// Strings quoted, so a trace shows 'memory' == 'speed' rather than memory == speed.
std::string repr(const RValue& v) {
  if (v.kind == Kind::string) return "'" + v.s + "'";
  if (v.kind == Kind::list) {
    std::string out = "[";
    for (std::size_t k = 0; k < v.list->size(); ++k) out += (k ? ", " : "") + repr((*v.list)[k]);
    return out + "]";
  }
  return detail::display(v);
}

const char* symbol(syntax::MatchOp op) {
  switch (op) {
    case syntax::MatchOp::eq: return "==";
    case syntax::MatchOp::ne: return "!=";
    case syntax::MatchOp::lt: return "<";
    case syntax::MatchOp::le: return "<=";
    case syntax::MatchOp::gt: return ">";
    case syntax::MatchOp::ge: return ">=";
    case syntax::MatchOp::one_of: return "in";
    case syntax::MatchOp::not_one_of: return "not in";
  }
  return "?";
}

class Evaluator {
 public:
  Evaluator(const CompiledRules& rules, std::vector<TraceStep>* trace) : rules_(rules), trace_(trace) {}

  Record run(const Inputs& inputs) { return finish(run_frame(bind(inputs))); }

  // Evaluation of this rule set on behalf of another (a `let` with `call`): the record as
  // a value, its rationale lines (header included) in the rationale field.
  RValue run_call(std::vector<std::optional<RValue>> given, int depth) {
    depth_ = depth;
    WorkingRecord record = run_frame(bind_values(std::move(given)), depth);
    auto value = std::make_shared<detail::RecordValue>();
    value->names = rules_.field_names;
    value->values = std::move(record.fields);
    if (rules_.rationale_field >= 0) {
      RValue::List lines;
      for (std::string& line : record.rationale) lines.push_back(RValue::of_string(std::move(line)));
      value->values[static_cast<std::size_t>(rules_.rationale_field)] = RValue::of_list(std::move(lines));
    }
    RValue out;
    out.kind = Kind::record;
    out.record = std::move(value);
    return out;
  }

 private:
  void note(TraceStep::Kind kind, const std::string& table, const std::string& rule, const SourceLocation& at,
            std::string detail) {
    trace_->push_back(TraceStep{kind, depth_, table, rule, at, std::move(detail)});
  }

  // ---- inputs --------------------------------------------------------------------------
  WorkingRecord run_frame(Frame frame, int depth = 0) {
    WorkingRecord record = new_record(frame);
    if (rules_.header) record.rationale.push_back(render(*rules_.header, frame));
    run_table(rules_.start, frame, record, depth);
    return record;
  }

  Frame bind(const Inputs& inputs) {
    std::vector<const Value*> given(rules_.inputs.size(), nullptr);
    for (const auto& [name, value] : inputs) {
      auto it = rules_.input_slots.find(name);
      if (it == rules_.input_slots.end()) {
        std::vector<std::string> names;
        for (const auto& input : rules_.inputs) names.push_back(input.name);
        input_failure(messages::unknown_input(name, messages::closest_match(name, names)));
      }
      check_length(name, value);
      if (!value.is_null()) given[static_cast<std::size_t>(it->second)] = &value;
    }
    std::vector<std::optional<RValue>> values(rules_.inputs.size());
    for (std::size_t k = 0; k < given.size(); ++k)
      if (given[k]) values[k] = detail::from_public(*given[k]);
    return bind_values(std::move(values));
  }

  static void check_length(const std::string& name, const Value& value) {
    if (value.is_string() && value.as_string().size() > kMaxInputStringBytes)
      input_failure(messages::input_too_long(name, value.as_string().size(), kMaxInputStringBytes));
    if (value.is_list())
      for (const Value& item : value.as_list()) check_length(name, item);
  }

  // Inputs by slot (nullopt: not given) -> a frame with defaults applied, values
  // normalised and checked against their allowed values.
  Frame bind_values(std::vector<std::optional<RValue>> given) {
    Frame frame(rules_);
    for (std::size_t k = 0; k < rules_.inputs.size(); ++k) {
      const auto& input = rules_.inputs[k];
      RValue v;
      if (given[k] && given[k]->kind != Kind::null) {
        v = std::move(*given[k]);
      } else if (input.default_value) {
        v = *input.default_value;
      } else {
        input_failure(messages::missing_input(input.name));
      }
      frame.set_input(static_cast<int>(k), normalise(k, std::move(v)));
    }
    // Allowed values are checked once every input is bound, so messages may mention any.
    for (std::size_t k = 0; k < rules_.inputs.size(); ++k) validate(k, frame);
    return frame;
  }

  RValue normalise(std::size_t k, RValue v) {
    const auto& input = rules_.inputs[k];
    if (!(detail::kind_bit(v) & input.type.kinds)) {
      input_failure(messages::input_type(input.name, syntax::describe(input.type.kinds), detail::kind_name(v)));
    }
    if (input.lower && v.kind == Kind::string) v.s = lower(v.s);
    return v;
  }

  void validate(std::size_t k, Frame& frame) {
    const auto& input = rules_.inputs[k];
    if (input.one_of.empty()) return;
    const RValue& v = lookup(static_cast<int>(k), frame);
    for (const RValue& option : input.one_of)
      if (detail::values_equal(v, option)) return;
    if (input.error) rule_failure(render(*input.error, frame));
    rule_failure(messages::not_allowed(input.name, detail::display(v)));
  }

  // ---- record --------------------------------------------------------------------------
  WorkingRecord new_record(Frame& frame) {
    WorkingRecord record;
    record.fields.reserve(rules_.fields.size());
    for (const auto& field : rules_.fields) {
      if (field.init) {
        RValue v = eval(*field.init, frame);
        check_field(field, v, field.init->location);
        record.fields.push_back(std::move(v));
      } else {
        record.fields.push_back(field.default_value);
      }
    }
    return record;
  }

  void check_field(const detail::CompiledField& field, const RValue& v, const SourceLocation& at) {
    bool ok = detail::kind_bit(v) & field.type.kinds;
    if (ok && v.kind == Kind::list)
      for (const RValue& item : *v.list) ok = ok && (detail::kind_bit(item) & field.type.element_kinds);
    if (!ok) {
      type_failure(at, messages::type_mismatch(fmt::format("record field '{}'", field.name),
                                               syntax::describe(field.type.kinds), detail::display(v)));
    }
  }

  Record finish(WorkingRecord record) {
    std::vector<Value> values;
    values.reserve(record.fields.size());
    for (std::size_t k = 0; k < record.fields.size(); ++k) {
      if (static_cast<int>(k) == rules_.rationale_field) {
        Value::List lines;
        lines.reserve(record.rationale.size());
        for (std::string& line : record.rationale) lines.emplace_back(std::move(line));
        values.emplace_back(std::move(lines));
      } else {
        values.push_back(to_public(record.fields[k], rules_.fields[k].name));
      }
    }
    return Record(rules_.field_names, std::move(values));
  }

  static Value to_public(const RValue& v, const std::string& field) {
    switch (v.kind) {
      case Kind::null: return Value();
      case Kind::boolean: return Value(v.b);
      case Kind::integer:
        if (!detail::fits_int64(v.i))
          rule_failure(messages::out_of_64_bits(fmt::format("record field '{}' = {}", field, detail::wide_to_string(v.i))));
        return Value(static_cast<std::int64_t>(v.i));
      case Kind::floating: return Value(v.f);
      case Kind::string: return Value(v.s);
      case Kind::list: {
        Value::List items;
        items.reserve(v.list->size());
        for (const RValue& item : *v.list) items.push_back(to_public(item, field));
        return Value(std::move(items));
      }
      case Kind::record:
        rule_failure(fmt::format("record field '{}' holds a record; records cannot be output", field));
    }
    return Value();
  }

  // ---- tables --------------------------------------------------------------------------
  void run_table(int table_index, Frame& frame, WorkingRecord& record, int depth) {
    if (depth > detail::kMaxCallDepth) rule_failure(messages::chain_too_deep(detail::kMaxCallDepth));
    const auto& table = rules_.tables[static_cast<std::size_t>(table_index)];
    depth_ = depth;
    if (trace_) note(TraceStep::Kind::enter_table, table.name, "", SourceLocation{}, "");
    for (const auto& rule : table.rules) {
      if (!fires(rule, frame, table.name)) continue;
      if (trace_) note(TraceStep::Kind::rule_fired, table.name, rule.name, rule.location, "");
      for (const auto& assignment : rule.set) {
        RValue v = eval(assignment.value, frame);
        const auto& field = rules_.fields[static_cast<std::size_t>(assignment.target)];
        check_field(field, v, assignment.value.location);
        record.fields[static_cast<std::size_t>(assignment.target)] = std::move(v);
      }
      for (const auto& line : rule.because) record.rationale.push_back(render(line, frame));
      if (rule.error) rule_failure(render(*rule.error, frame));
      if (rule.next >= 0) run_table(rule.next, frame, record, depth + 1);
      if (rule.fallback) run_fallback(*rule.fallback, frame, record, depth, table.name, rule);
      return;
    }
    rule_failure(messages::no_rule_matched(table.name));
  }

  // Evaluates another table with some inputs overridden and adopts its result: every field
  // not kept, and its rationale lines (without a header) appended.
  void run_fallback(const detail::CompiledFallback& fallback, Frame& frame, WorkingRecord& record, int depth,
                    const std::string& table, const detail::CompiledRule& rule) {
    Frame callee = frame.with_inputs_only();
    std::string overrides;
    for (const auto& override_ : fallback.with) {
      const auto k = static_cast<std::size_t>(override_.target);
      RValue v = normalise(k, eval(override_.value, frame));
      if (trace_) overrides += fmt::format("{}{} = {}", overrides.empty() ? "" : ", ", rules_.inputs[k].name, repr(v));
      callee.set_input(override_.target, std::move(v));
    }
    if (trace_) {
      note(TraceStep::Kind::fallback, table, rule.name, rule.location,
           fmt::format("to table '{}' with {}", rules_.tables[static_cast<std::size_t>(fallback.table)].name,
                       overrides.empty() ? "no overrides" : overrides));
    }
    for (const auto& override_ : fallback.with) validate(static_cast<std::size_t>(override_.target), callee);
    WorkingRecord result = new_record(callee);
    run_table(fallback.table, callee, result, depth + 1);
    for (std::size_t k = 0; k < record.fields.size(); ++k) {
      if (!fallback.keep[k] && static_cast<int>(k) != rules_.rationale_field) record.fields[k] = std::move(result.fields[k]);
    }
    for (std::string& line : result.rationale) record.rationale.push_back(std::move(line));
  }

  bool fires(const detail::CompiledRule& rule, Frame& frame, const std::string& table) {
    for (const auto& matcher : rule.when) {
      if (matches(matcher, frame)) continue;
      if (trace_) {
        RValue operand = matcher.operand.kind == ExprKind::literal ? matcher.operand.constant : eval(matcher.operand, frame);
        note(TraceStep::Kind::rule_skipped, table, rule.name, matcher.location,
             fmt::format("{} {} {}: {} {} {} is false", matcher.fact, syntax::spelling(matcher.op), matcher.text,
                         repr(lookup(matcher.slot, frame)), symbol(matcher.op), repr(operand)));
      }
      return false;
    }
    return true;
  }

  bool matches(const detail::CompiledMatcher& m, Frame& frame) {
    const RValue& fact = lookup(m.slot, frame);
    RValue computed;
    const RValue* operand = &m.operand.constant;
    if (m.operand.kind != ExprKind::literal) {
      computed = eval(m.operand, frame);
      operand = &computed;
    }
    using syntax::MatchOp;
    switch (m.op) {
      case MatchOp::eq: return detail::values_equal(fact, *operand);
      case MatchOp::ne: return !detail::values_equal(fact, *operand);
      case MatchOp::lt: return compare(fact, *operand, m.operand.location, "lt") < 0;
      case MatchOp::le: return compare(fact, *operand, m.operand.location, "le") <= 0;
      case MatchOp::gt: return compare(fact, *operand, m.operand.location, "gt") == 1;
      case MatchOp::ge: {
        const int c = compare(fact, *operand, m.operand.location, "ge");
        return c == 0 || c == 1;
      }
      case MatchOp::one_of:
      case MatchOp::not_one_of: {
        if (operand->kind != Kind::list) type_failure(m.operand.location, "one_of needs a list");
        bool found = false;
        for (const RValue& option : *operand->list) found = found || detail::values_equal(fact, option);
        return found == (m.op == MatchOp::one_of);
      }
    }
    return false;
  }

  // ---- expressions ---------------------------------------------------------------------
  const RValue& lookup(int slot, Frame& frame) {
    return frame.get(slot, [this, slot](std::size_t let, Frame& f) {
      RValue v = rules_.calls[let] ? call(*rules_.calls[let], f) : eval(rules_.lets[let], f);
      if (trace_) {
        note(TraceStep::Kind::derived_value, "", "", rules_.lets[let].location,
             fmt::format("{} = {}", rules_.slot_name(slot), repr(v)));
      }
      return v;
    });
  }

  RValue call(const detail::CompiledCall& call, Frame& frame) {
    const CompiledRules& callee = *rules_.used[static_cast<std::size_t>(call.rules)];
    if (depth_ >= detail::kMaxCallDepth) rule_failure(messages::chain_too_deep(detail::kMaxCallDepth));
    std::vector<std::optional<RValue>> given(callee.inputs.size());
    for (const auto& assignment : call.with) given[static_cast<std::size_t>(assignment.target)] = eval(assignment.value, frame);
    return Evaluator(callee, trace_).run_call(std::move(given), depth_ + 1);
  }

  std::string render(const CompiledTemplate& t, Frame& frame) {
    std::string out;
    for (const auto& piece : t.pieces) {
      if (piece.slot < 0) out += piece.text;
      else out += detail::display(lookup(piece.slot, frame));
    }
    return out;
  }

  // -1, 0 or 1; 2 when unordered (NaN), so callers test for the outcome they need.
  static int compare(const RValue& a, const RValue& b, const SourceLocation& at, const char* op) {
    if (a.kind == Kind::integer && b.kind == Kind::integer) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    const bool numeric_a = a.kind == Kind::integer || a.kind == Kind::floating;
    const bool numeric_b = b.kind == Kind::integer || b.kind == Kind::floating;
    if (numeric_a && numeric_b) {
      int c = 0;
      if (a.kind == Kind::integer) c = detail::compare_int_float(a.i, b.f);
      else if (b.kind == Kind::integer) c = -detail::compare_int_float(b.i, a.f);
      else c = a.f < b.f ? -1 : a.f > b.f ? 1 : a.f == b.f ? 0 : 2;
      if (c == 2 || c == -2) return 2;  // NaN: every ordering comparison is false
      return c;
    }
    if (a.kind == Kind::string && b.kind == Kind::string) return a.s.compare(b.s) < 0 ? -1 : a.s == b.s ? 0 : 1;
    type_failure(at, messages::incomparable(op, detail::kind_name(a), detail::kind_name(b)));
  }

  RValue eval(const Node& n, Frame& frame) {
    switch (n.kind) {
      case ExprKind::literal: return n.constant;
      case ExprKind::name: return lookup(n.slot, frame);
      case ExprKind::list: {
        RValue::List items;
        items.reserve(n.children.size());
        for (const Node& child : n.children) items.push_back(eval(child, frame));
        return RValue::of_list(std::move(items));
      }
      case ExprKind::unary: {
        RValue v = eval(n.children[0], frame);
        if (n.op == Op::logical_not) return RValue::of_bool(!truth(v, n.children[0]));
        if (v.kind == Kind::integer) return RValue::of_int(-v.i);  // |v| < 2^127: cannot overflow for 64-bit inputs
        if (v.kind == Kind::floating) return RValue::of_float(-v.f);
        type_failure(n.location, messages::type_mismatch("the operand of unary '-'", "int or float", detail::kind_name(v)));
      }
      case ExprKind::conditional:
        return truth(eval(n.children[0], frame), n.children[0]) ? eval(n.children[1], frame) : eval(n.children[2], frame);
      case ExprKind::binary: return binary(n, frame);
      case ExprKind::call: return call_builtin(n, frame);
      case ExprKind::member: {
        RValue object = eval(n.children[0], frame);
        if (object.kind != Kind::record) type_failure(n.location, messages::type_mismatch(fmt::format("the value before '.{}'", n.name), "a record", detail::kind_name(object)));
        const auto& names = *object.record->names;
        std::size_t field = n.slot >= 0 ? static_cast<std::size_t>(n.slot) : names.size();
        if (n.slot < 0)
          for (std::size_t k = 0; k < names.size(); ++k)
            if (names[k] == n.name) field = k;
        if (field >= names.size() || names[field] != n.name) type_failure(n.location, messages::unknown_name("record field", n.name, ""));
        return object.record->values[field];
      }
    }
    return RValue{};
  }

  static bool truth(const RValue& v, const Node& at) {
    if (v.kind != Kind::boolean) type_failure(at.location, messages::type_mismatch("a condition", "bool", detail::kind_name(v)));
    return v.b;
  }

  RValue binary(const Node& n, Frame& frame) {
    if (n.op == Op::logical_and) {
      return RValue::of_bool(truth(eval(n.children[0], frame), n.children[0]) && truth(eval(n.children[1], frame), n.children[1]));
    }
    if (n.op == Op::logical_or) {
      return RValue::of_bool(truth(eval(n.children[0], frame), n.children[0]) || truth(eval(n.children[1], frame), n.children[1]));
    }
    const RValue a = eval(n.children[0], frame);
    const RValue b = eval(n.children[1], frame);
    switch (n.op) {
      case Op::equal: return RValue::of_bool(detail::values_equal(a, b));
      case Op::not_equal: return RValue::of_bool(!detail::values_equal(a, b));
      case Op::less: return RValue::of_bool(compare(a, b, n.location, "<") < 0);
      case Op::less_equal: return RValue::of_bool(compare(a, b, n.location, "<=") <= 0);
      case Op::greater: return RValue::of_bool(compare(a, b, n.location, ">") == 1);
      case Op::greater_equal: {
        const int c = compare(a, b, n.location, ">=");
        return RValue::of_bool(c == 0 || c == 1);
      }
      default: return arithmetic(n, a, b);
    }
  }

  static RValue arithmetic(const Node& n, const RValue& a, const RValue& b) {
    const char* op = syntax::spelling(n.op);
    if (a.kind == Kind::integer && b.kind == Kind::integer) {
      Wide r = 0;
      auto overflow = [&]() -> RValue {
        rule_failure(messages::integer_overflow(fmt::format("{} {} {}", detail::wide_to_string(a.i), op, detail::wide_to_string(b.i))));
      };
      switch (n.op) {
        case Op::add: if (__builtin_add_overflow(a.i, b.i, &r)) return overflow(); return RValue::of_int(r);
        case Op::subtract: if (__builtin_sub_overflow(a.i, b.i, &r)) return overflow(); return RValue::of_int(r);
        case Op::multiply: if (__builtin_mul_overflow(a.i, b.i, &r)) return overflow(); return RValue::of_int(r);
        case Op::divide:
        case Op::modulo: {
          if (b.i == 0) rule_failure(messages::runtime_type(to_string(n.location), messages::division_by_zero()));
          if (b.i == -1) return n.op == Op::modulo ? RValue::of_int(0) : (__builtin_sub_overflow(Wide{0}, a.i, &r) ? overflow() : RValue::of_int(r));
          // Python semantics: the quotient rounds toward negative infinity and the remainder
          // takes the divisor's sign.
          Wide q = a.i / b.i;
          Wide m = a.i % b.i;
          if (m != 0 && ((m < 0) != (b.i < 0))) {
            q -= 1;
            m += b.i;
          }
          return RValue::of_int(n.op == Op::divide ? q : m);
        }
        default: break;
      }
    }
    const bool numeric = (a.kind == Kind::integer || a.kind == Kind::floating) && (b.kind == Kind::integer || b.kind == Kind::floating);
    if (numeric) {
      const double x = a.kind == Kind::integer ? static_cast<double>(a.i) : a.f;
      const double y = b.kind == Kind::integer ? static_cast<double>(b.i) : b.f;
      switch (n.op) {
        case Op::add: return RValue::of_float(x + y);
        case Op::subtract: return RValue::of_float(x - y);
        case Op::multiply: return RValue::of_float(x * y);
        case Op::divide:
          if (y == 0) rule_failure(messages::runtime_type(to_string(n.location), messages::division_by_zero()));
          return RValue::of_float(x / y);
        case Op::modulo: {
          if (y == 0) rule_failure(messages::runtime_type(to_string(n.location), messages::division_by_zero()));
          double m = std::fmod(x, y);
          if (m != 0 && ((m < 0) != (y < 0))) m += y;
          return RValue::of_float(m);
        }
        default: break;
      }
    }
    if (n.op == Op::add && a.kind == Kind::string && b.kind == Kind::string) return RValue::of_string(a.s + b.s);
    if (n.op == Op::add && a.kind == Kind::list && b.kind == Kind::list) {
      RValue::List items(*a.list);
      items.insert(items.end(), b.list->begin(), b.list->end());
      return RValue::of_list(std::move(items));
    }
    type_failure(n.location, fmt::format("cannot apply '{}' to {} and {}", op, detail::kind_name(a), detail::kind_name(b)));
  }

  RValue call_builtin(const Node& n, Frame& frame) {
    std::vector<RValue> args;
    args.reserve(n.children.size());
    for (const Node& child : n.children) args.push_back(eval(child, frame));
    auto need = [&](std::size_t k, Kind kind, const char* what) -> const RValue& {
      if (args[k].kind != kind)
        type_failure(n.children[k].location, messages::type_mismatch(fmt::format("argument {} of {}()", k + 1, n.name), what, detail::kind_name(args[k])));
      return args[k];
    };
    using syntax::Builtin;
    switch (n.builtin) {
      case Builtin::starts_with: {
        const std::string& s = need(0, Kind::string, "string").s;
        const std::string& p = need(1, Kind::string, "string").s;
        return RValue::of_bool(s.compare(0, p.size(), p) == 0 && s.size() >= p.size());
      }
      case Builtin::ends_with: {
        const std::string& s = need(0, Kind::string, "string").s;
        const std::string& p = need(1, Kind::string, "string").s;
        return RValue::of_bool(s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0);
      }
      case Builtin::contains: {
        if (args[0].kind == Kind::string) return RValue::of_bool(args[0].s.find(need(1, Kind::string, "string").s) != std::string::npos);
        const RValue& list = need(0, Kind::list, "string or list");
        for (const RValue& item : *list.list)
          if (detail::values_equal(item, args[1])) return RValue::of_bool(true);
        return RValue::of_bool(false);
      }
      case Builtin::lower: return RValue::of_string(lower(need(0, Kind::string, "string").s));
      case Builtin::len:
        if (args[0].kind == Kind::string) return RValue::of_int(static_cast<Wide>(args[0].s.size()));
        return RValue::of_int(static_cast<Wide>(need(0, Kind::list, "string or list").list->size()));
      case Builtin::min:
      case Builtin::max: {
        std::size_t best = 0;
        for (std::size_t k = 1; k < args.size(); ++k) {
          const int c = compare(args[k], args[best], n.children[k].location, n.name.c_str());
          if (n.builtin == Builtin::min ? c == -1 : c == 1) best = k;
        }
        return args[best];
      }
      case Builtin::index_of: {
        const RValue& list = need(0, Kind::list, "list");
        for (std::size_t k = 0; k < list.list->size(); ++k)
          if (detail::values_equal((*list.list)[k], args[1])) return RValue::of_int(static_cast<Wide>(k));
        return RValue{};
      }
      case Builtin::pipeline_microbatches: {
        auto result = pipeline_microbatches(need(0, Kind::integer, "int").i, need(1, Kind::integer, "int").i);
        if (auto* message = std::get_if<std::string>(&result)) rule_failure(std::move(*message));
        return RValue::of_int(std::get<Wide>(result));
      }
    }
    return RValue{};
  }

  const CompiledRules& rules_;
  std::vector<TraceStep>* trace_;
  int depth_ = 0;
};

}  // namespace

EvaluationResult evaluate(const detail::CompiledRules& rules, const Inputs& inputs, std::vector<TraceStep>* trace) {
  try {
    return Evaluator(rules, trace).run(inputs);
  } catch (Failure& failure) {
    if (trace) trace->push_back(TraceStep{TraceStep::Kind::error, 0, "", "", SourceLocation{}, failure.message});
    return EvaluationError{failure.kind, std::move(failure.message)};
  }
}

}  // namespace snnplan::evaluate
