#pragma once
// The evaluator (private to evaluate/): one evaluation of compiled rules, from inputs to a
// record. The class, its binding by slot, table walk and record views are here, inline,
// because they are the hot path; its expressions are in expressions.hpp (which every file
// using the class includes), the input binding off the fast path in inputs.cpp, the record's
// values in their public forms off the fast path in record_output.cpp, and the entry points in
// evaluator.cpp.

#include <algorithm>
#include <bit>
#include <new>
#include <type_traits>
#include <memory_resource>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compile/rule_index.hpp"
#include "check/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "evaluate/frame.hpp"
#include "evaluate/messages.hpp"
#include "language/builtins.hpp"
#include "language/operations.hpp"

namespace snnplan::evaluate::internal {

using detail::CompiledRules;
using detail::CompiledTemplate;
using detail::Node;
using detail::RValue;
using detail::Wide;
using syntax::ExprKind;
using syntax::Op;
using Kind = RValue::Kind;
using language::EvaluationFailure;
using language::rule_failure;
using language::type_failure;

class Evaluator {
 public:
  Evaluator(const CompiledRules& rules, std::vector<TraceStep>* trace, detail::ValueStore& store)
      : rules_(rules),
        trace_(trace),
        store_(store),
        checks_invariants_(!rules.every_invariant_proved() && some_invariant_checked()) {}

  std::optional<EvaluationError> check(const Inputs& inputs) {
    if (check_given(inputs)) return std::nullopt;
    return std::move(*failure_);
  }

  EvaluationResult run(const Inputs& inputs) {
    WorkingRecord record(store_);
    if (!produce(inputs, record)) return std::move(*failure_);
    return finish(record);
  }

  // The record as views into the store (see snnplan/evaluation.hpp); false with error set.
  bool run_views(const Inputs& inputs, std::vector<ValueView>& out, EvaluationError& error) {
    WorkingRecord record(store_);
    return views_of(produce(inputs, record), record, out, error);
  }

  // run_views() for inputs by slot (see evaluate_views_by_slot).
  bool run_views_by_slot(std::span<const RValue> inputs, std::vector<ValueView>& out,
                         EvaluationError& error) {
    WorkingRecord record(store_);
    return views_of(produce_by_slot(inputs, record), record, out, error);
  }

  // run_views() for inputs by position (see evaluate_views_at).
  bool run_views_at(std::span<const int> slots, std::span<const Value> values,
                    std::vector<ValueView>& out, EvaluationError& error) {
    WorkingRecord record(store_);
    return views_of(produce_at(slots, values, record), record, out, error);
  }

  // For the proof of `ensure`: which invariant the record for `inputs` breaks, if any.
  std::optional<BrokenInvariant> run_for_invariants(std::span<const RValue> inputs) {
    check_proved_invariants_ = true;  // this is how they get proved
    checks_invariants_ = !rules_.invariants.empty();
    WorkingRecord record(store_);
    if (produce_by_slot(inputs, record) || broken_invariant_ < 0) return std::nullopt;
    return BrokenInvariant{broken_invariant_, std::move(failure_->message)};
  }

  // For Probe: a rule's conditions and an expression's value in `frame`, without a trace
  // (both may throw EvaluationFailure).
  bool rule_matches(const detail::CompiledRule& rule, Frame& frame) {
    return fires(rule, frame, kNoTable);
  }
  RValue expression(const Node& n, Frame& frame) { return value(n, frame); }
  bool normalise_input(std::size_t input, RValue& v) { return normalise(input, v); }

  // Evaluation of this rule set on behalf of another (a `let` with `call`): the record as
  // a value, its rationale lines (header included) in the rationale field.
  RValue run_call(std::span<RValue> given, int depth) {
    depth_ = depth;
    Frame frame(rules_, store_, checks_invariants_);
    WorkingRecord record(store_);
    if (!bind_values(given, frame) || !run_frame(frame, record, depth)) {
      throw EvaluationFailure{failure_->kind, std::move(failure_->message)};
    }
    const std::size_t count = rules_.fields.size();
    RValue* const fields = record.all_fields();
    if (rules_.rationale_field >= 0) {
      RValue* lines = store_.values(record.rationale.size());
      for (std::size_t k = 0; k < record.rationale.size(); ++k)
        lines[k] = RValue::of_view(record.rationale[k]);
      fields[rules_.rationale_field] = RValue::of_items({lines, record.rationale.size()});
    }
    RValue out;
    out.kind = Kind::record;
    out.record = store_.record(rules_.field_names.get(), {fields, count});
    return out;
  }

 private:
  // Records why the evaluation stops; callers return false up to run(). (Rule errors and bad
  // inputs are ordinary outcomes, so they are values; only failures deep inside expressions
  // unwind as an EvaluationFailure exception.)
  bool fail(EvaluationErrorKind kind, std::string message) {
    failure_ = EvaluationError{kind, std::move(message)};
    return false;
  }

  // The views of a record produced (`produced`), or the failure in `error`.
  bool views_of(bool produced, const WorkingRecord& record, std::vector<ValueView>& out,
                EvaluationError& error) {
    // `out` keeps its size until views() writes it: a reused vector is not resized.
    if (produced && views(record, out)) return true;
    out.clear();  // no fields without a record, even when a later field failed
    error = std::move(*failure_);
    return false;
  }

  bool produce(const Inputs& inputs, WorkingRecord& record) {
    Frame frame(rules_, store_, checks_invariants_);
    return bind(inputs, frame) && run_frame(frame, record, 0);
  }

  [[gnu::cold, gnu::noinline]] void note(TraceStep::Kind kind, const std::string& table,
                                         const std::string& rule, const SourceLocation& at,
                                         std::string detail);  // evaluator.cpp

  bool run_frame(Frame& frame, WorkingRecord& record, int depth) {
    if (!new_record(frame, record)) return false;
    if (rules_.header) record.rationale.push_back(render(*rules_.header, frame));
    if (!run_table(rules_.start, frame, record, depth)) return false;
    // The walk left depth_ at its deepest table; the invariants (and any `call` they make)
    // belong to this rule set's own level.
    depth_ = depth;
    return check_invariants(frame, record);
  }

  // `ensure`: the finished record against every invariant that applies to it. An invariant
  // whose condition or value fails to evaluate is broken too: it could not be shown to hold.
  bool must_check(const detail::CompiledInvariant& invariant) const {
    return check_proved_invariants_ || !invariant.proved;
  }
  // Whether a record's frame needs its field slots: some invariant is checked (kept in
  // checks_invariants_, decided once per evaluation).
  bool some_invariant_checked() const {
    return std::any_of(
        rules_.invariants.begin(), rules_.invariants.end(),
        [this](const detail::CompiledInvariant& invariant) { return must_check(invariant); });
  }

  bool check_invariants(Frame& frame, const WorkingRecord& record) {
    if (!checks_invariants_) return true;
    for (std::size_t k = 0; k < rules_.fields.size(); ++k)
      frame.set_input(rules_.field_slot(k),
                      static_cast<int>(k) == rules_.rationale_field ? RValue{} : record.field(k));
    for (std::size_t k = 0; k < rules_.invariants.size(); ++k) {
      const detail::CompiledInvariant& invariant = rules_.invariants[k];
      if (!must_check(invariant)) continue;
      bool holds = false;
      {
        // Invariants are not rules: their conditions leave no steps in a trace.
        struct Untraced {
          std::vector<TraceStep>*& trace;
          std::vector<TraceStep>* saved = std::exchange(trace, nullptr);
          ~Untraced() { trace = saved; }
        } untraced{trace_};
        try {
          if (!fires(invariant.condition, frame, kNoTable)) continue;
          const RValue v = value(invariant.require, frame);
          holds = v.kind == Kind::boolean && v.b;
        } catch (const EvaluationFailure&) {
          holds = false;
        }
      }
      if (holds) continue;
      broken_invariant_ = static_cast<int>(k);
      return fail(EvaluationErrorKind::rule_error, std::string(render(invariant.message, frame)));
    }
    return true;
  }

  // ---- inputs --------------------------------------------------------------------------
  // Input binding off the fast path (by name, check_inputs(), refusals): inputs.cpp.

  bool bind(const Inputs& inputs, Frame& frame) {
    return gather(inputs, frame.input_values()) && bind_in_place(frame);
  }

  bool check_given(const Inputs& inputs);
  bool gather(const Inputs& inputs, RValue* given);

  // By position: gather() with the slots found once (input_slots), then the same binding.
  bool produce_at(std::span<const int> slots, std::span<const Value> values,
                  WorkingRecord& record) {
    Frame frame(rules_, store_, checks_invariants_);
    RValue* const given = frame.input_values();
    std::uninitialized_fill_n(given, rules_.inputs.size(), RValue{});
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (!place(slots[k], values[k], given)) return false;
    return bind_in_place(frame) && run_frame(frame, record, 0);
  }

  // One input's value into its slot as both binders take it: its length checked, a null
  // value left as not given (the default applies).
  bool place(int slot, const Value& value, RValue* given) {
    if (!check_length(rules_.inputs[static_cast<std::size_t>(slot)].name, value)) return false;
    if (!value.is_null()) given[slot] = detail::from_public(value, store_);
    return true;
  }

  bool produce_by_slot(std::span<const RValue> inputs, WorkingRecord& record) {
    Frame frame(rules_, store_, checks_invariants_);
    const std::size_t count = rules_.inputs.size();
    for (std::size_t k = 0; k < count && k < inputs.size(); ++k)
      if (!check_length(rules_.inputs[k].name, inputs[k])) return false;
    if (inputs.size() >= count)  // every slot given (null or not): bound from the caller's values
      return bind_values(inputs.first(count), frame) && run_frame(frame, record, 0);
    RValue* given = store_.values(count);
    std::uninitialized_fill_n(given, count, RValue{});
    std::copy(inputs.begin(), inputs.end(), given);
    return bind_values({given, count}, frame) && run_frame(frame, record, 0);
  }

  bool check_length(const std::string& name, const RValue& value) {
    if (value.kind == Kind::string && value.s().size() > kMaxInputStringBytes)
      return fail(EvaluationErrorKind::bad_input,
                  messages::input_too_long(name, value.s().size(), kMaxInputStringBytes));
    if (value.kind == Kind::list)
      for (const RValue& item : value.list())
        if (!check_length(name, item)) return false;
    return true;
  }

  bool check_length(const std::string& name, const Value& value) {
    if (value.is_string() && value.as_string().size() > kMaxInputStringBytes)
      return fail(EvaluationErrorKind::bad_input,
                  messages::input_too_long(name, value.as_string().size(), kMaxInputStringBytes));
    if (value.is_list())
      for (const Value& item : value.as_list())
        if (!check_length(name, item)) return false;
    return true;
  }

  // Inputs by slot (null: not given) -> the frame's inputs with defaults applied, values
  // normalised and checked against their allowed values.
  bool bind_values(std::span<const RValue> given, Frame& frame) {
    std::memcpy(static_cast<void*>(frame.input_values()), given.data(),
                rules_.inputs.size() * sizeof(RValue));
    return bind_in_place(frame);
  }

  // bind_values() for inputs already written to the frame's input slots.
  bool bind_in_place(Frame& frame) {
    const detail::CompiledInput* const inputs = rules_.inputs.data();
    const std::size_t count = rules_.inputs.size();
    RValue* const values = frame.input_values();
    for (std::size_t k = 0; k < count; ++k) {
      const auto& input = inputs[k];
      if (values[k].kind == Kind::null) {
        // A default is typed by the checker and lowered by the compiler: taken as it is.
        if (!input.default_value)
          return fail(EvaluationErrorKind::bad_input, messages::missing_input(input.name));
        values[k] = *input.default_value;
      } else if (!normalise(k, values[k])) {
        return false;
      }
    }
    frame.inputs_bound(count);
    // Allowed values are checked once every input is bound, so messages may mention any.
    for (int k : rules_.restricted_inputs)
      if (!validate(static_cast<std::size_t>(k), frame)) return false;
    return true;
  }

  // A value of the input's type as binding takes it: lowered when the input says so. The
  // common case (a scalar of the right kind) inline; lists and refusals out of line.
  [[gnu::always_inline]] bool normalise(std::size_t k, RValue& v) {
    const auto& input = rules_.inputs[k];
    if (!(detail::kind_bit(v) & input.type.kinds) || v.kind == Kind::list)
      return normalise_checked(k, v);
    if (input.lower && v.kind == Kind::string) v = language::lowered(v, store_);
    return true;
  }

  [[gnu::noinline]] bool normalise_checked(std::size_t k, RValue& v);

  bool validate(std::size_t k, Frame& frame) {
    const auto& input = rules_.inputs[k];
    if (input.one_of.empty()) return true;
    const RValue& v = lookup(static_cast<int>(k), frame);
    // A nullable input's null is allowed whatever its one_of lists: the `?` of its type says so.
    if (v.kind == Kind::null && (input.type.kinds & syntax::kNull)) return true;
    for (const RValue& option : input.one_of)
      if (detail::values_equal(v, option)) return true;
    return refuse(input, v, frame);
  }

  [[gnu::cold, gnu::noinline]] bool refuse(const detail::CompiledInput& input, const RValue& v,
                                           Frame& frame);

  // ---- record --------------------------------------------------------------------------
  bool new_record(Frame& frame, WorkingRecord& record) {
    record.start(rules_.default_record.data(), rules_.fields.size(), store_);
    for (int k : rules_.initialised_fields) {
      const auto& field = rules_.fields[static_cast<std::size_t>(k)];
      const RValue v = value(*field.init, frame);
      check_field(field, v, field.init->location);
      record.write(static_cast<std::size_t>(k), v);
    }
    return true;
  }

  // A value against its field's type: the common case (a scalar of an allowed kind) decided
  // inline; a list's items and the refusal out of line.
  [[gnu::always_inline]] void check_field(const detail::CompiledField& field, const RValue& v,
                                          const SourceLocation& at) {
    if ((detail::kind_bit(v) & field.type.kinds) && v.kind != Kind::list) return;
    check_field_items(field, v, at);
  }

  // check_field() past its fast path only: `v` is a list, or of a kind the field refuses.
  [[gnu::noinline]] void check_field_items(const detail::CompiledField& field, const RValue& v,
                                           const SourceLocation& at) {
    bool ok = detail::kind_bit(v) & field.type.kinds;
    if (ok)
      for (const RValue& item : v.list())
        ok = ok && (detail::kind_bit(item) & field.type.element_kinds);
    if (!ok) {
      type_failure(at,
                   messages::type_mismatch(fmt::format("record field '{}'", field.name),
                                           syntax::describe(field.type.kinds), detail::display(v)));
    }
  }

  // The finished record as a Record, and as views (the fast path of the views API and of
  // batches).
  bool views(const WorkingRecord& record, std::vector<ValueView>& out) {
    // The defaults' views copied whole, then only the fields the evaluation wrote (and any
    // whose default has no ready view, and any past the 64 the mask tracks) converted.
    const std::size_t count = rules_.fields.size();
    if (out.size() != count) out.resize(count);  // a reused Evaluation: already the size
    ValueView* const fields = out.data();
    static_assert(std::is_trivially_copyable_v<ValueView>);
    std::copy_n(rules_.default_views.data(), count, fields);  // default_views: one per field
    std::uint64_t pending = record.written() | rules_.unviewed_defaults;
    while (pending != 0) {
      const auto k = static_cast<std::size_t>(std::countr_zero(pending));
      pending &= pending - 1;
      if (!view_field(record, k, fields[k])) return false;
    }
    for (std::size_t k = 64; k < count; ++k)
      if (!view_field(record, k, fields[k])) return false;
    if (rules_.rationale_field >= 0) {
      const std::size_t n_lines = record.rationale.size();
      auto* lines = static_cast<ValueView*>(store_.allocate_bytes(
          std::max<std::size_t>(n_lines, 1) * sizeof(ValueView), alignof(ValueView)));
      for (std::size_t n = 0; n < n_lines; ++n)
        new (lines + n) ValueView(ValueView::of_string(record.rationale[n]));
      fields[rules_.rationale_field] = ValueView::of_list({lines, n_lines});
    }
    return true;
  }

  [[gnu::always_inline]] bool view_field(const WorkingRecord& record, std::size_t k, ValueView& v) {
    const RValue& field = record.field(k);
    if (detail::scalar_view(field, v)) return true;
    // The rationale field holds its lines in record.rationale, written by views().
    if (static_cast<int>(k) == rules_.rationale_field) return true;
    // A list of 64-bit integers (a mesh shape, a layout) is written without recursion.
    if (field.kind == Kind::list && int64_list_view(field, v)) return true;
    return view_of(field, rules_.fields[k].name, v);
  }

  // `list` as a view when every item is an integer that fits 64 bits; false (nothing
  // written) otherwise, for view_of() to decide.
  bool int64_list_view(const RValue& list, ValueView& out) {
    const std::size_t size = list.items.size;
    for (std::size_t n = 0; n < size; ++n) {
      const RValue& item = list.items.data[n];
      if (item.kind != Kind::integer || !detail::fits_int64(item.i)) return false;
    }
    auto* items = static_cast<ValueView*>(store_.allocate_bytes(
        std::max<std::size_t>(size, 1) * sizeof(ValueView), alignof(ValueView)));
    for (std::size_t n = 0; n < size; ++n)
      new (items + n) ValueView(ValueView::of_int(static_cast<std::int64_t>(list.items.data[n].i)));
    out = ValueView::of_list({items, size});
    return true;
  }

  EvaluationResult finish(const WorkingRecord& record) {
    std::vector<Value> values;
    values.reserve(rules_.fields.size());
    for (std::size_t k = 0; k < rules_.fields.size(); ++k) {
      if (static_cast<int>(k) == rules_.rationale_field) {
        Value::List lines;
        lines.reserve(record.rationale.size());
        for (std::string_view line : record.rationale) lines.emplace_back(std::string(line));
        values.emplace_back(std::move(lines));
      } else if (!append_public(record.field(k), rules_.fields[k].name, values)) {
        return std::move(*failure_);
      }
    }
    return Record(rules_.field_names, std::move(values));
  }

  // The record's values in their public forms off the fast path: record_output.cpp.
  bool view_of(const RValue& v, const std::string& field, ValueView& out);
  bool append_public(const RValue& v, const std::string& field, std::vector<Value>& out);


  // ---- tables --------------------------------------------------------------------------
  bool run_table(int table_index, Frame& frame, WorkingRecord& record, int depth) {
    if (depth > detail::kMaxCallDepth)
      return fail(EvaluationErrorKind::rule_error, messages::chain_too_deep(detail::kMaxCallDepth));
    const auto& table = rules_.tables[static_cast<std::size_t>(table_index)];
    depth_ = depth;
    if (trace_) note(TraceStep::Kind::enter_table, table.name, "", SourceLocation{}, "");
    // The index only skips rules the plain walk would reject on their first conditions; a
    // trace must show every rule, so explain() always walks.
    if (table.index && !trace_) {
      if (const int fired = first_indexed(*table.index, table, frame); fired != kNotDecided) {
        if (fired < 0)
          return fail(EvaluationErrorKind::rule_error, messages::no_rule_matched(table.name));
        return act(table.rules[static_cast<std::size_t>(fired)], frame, record, depth, table.name);
      }
    }
    for (const auto& rule : table.rules)
      if (fires(rule, frame, table.name)) return act(rule, frame, record, depth, table.name);
    return fail(EvaluationErrorKind::rule_error, messages::no_rule_matched(table.name));
  }

  static constexpr int kNotDecided = -2;

  // The first rule that fires among those the index leaves for the inputs' key (-1: none),
  // or kNotDecided when the key cannot be computed and the plain walk must decide.
  int first_indexed(const detail::RuleIndex& index, const detail::CompiledTable& table,
                    Frame& frame) {
    std::pmr::string key(store_.resource());
    try {
      for (int slot : index.key_slots)
        if (!compile::append_index_key(key, lookup(slot, frame))) return kNotDecided;
    } catch (const EvaluationFailure&) {
      return kNotDecided;  // the plain walk reports the failure where it reaches it
    }
    static const std::vector<detail::RuleIndex::Entry> kNone;
    auto found = index.keyed.find(std::string_view(key));
    const auto& keyed = found == index.keyed.end() ? kNone : found->second;
    const std::size_t key_matchers = index.key_slots.size();
    // Merge the two ascending lists: the first hit in table order.
    std::size_t a = 0, b = 0;
    while (a < keyed.size() || b < index.unkeyed.size()) {
      if (a < keyed.size() && (b == index.unkeyed.size() || keyed[a].rule < index.unkeyed[b])) {
        const auto& entry = keyed[a++];
        if (entry.slot >= 0 && frame.ready(entry.slot) && !holds(frame.value(entry.slot), entry))
          continue;
        // A keyed rule's first conditions are its key, which the lookup has already matched.
        if (fires(table.rules[static_cast<std::size_t>(entry.rule)], frame, table.name,
                  key_matchers))
          return entry.rule;
      } else {
        const int r = index.unkeyed[b++];
        if (fires(table.rules[static_cast<std::size_t>(r)], frame, table.name)) return r;
      }
    }
    return -1;
  }

  // The entry's integer condition on `fact`, when both are integers; true (undecided here)
  // otherwise, so the rule's own walk decides.
  static bool holds(const RValue& fact, const detail::RuleIndex::Entry& entry) {
    return fact.kind != Kind::integer || entry.holds(fact.i, entry.constant);
  }

  bool act(const detail::CompiledRule& rule, Frame& frame, WorkingRecord& record, int depth,
           const std::string& table) {
    if (trace_) note(TraceStep::Kind::rule_fired, table, rule.name, rule.location, "");
    for (const auto& assignment : rule.set) {
      // A constant's type was checked against the field's at load (the checker refuses a
      // mismatch); only a computed value is checked here.
      if (assignment.value.kind == ExprKind::literal) {
        record.write(static_cast<std::size_t>(assignment.target), assignment.value.constant);
        continue;
      }
      if (std::string failure; !settle_leading_search(assignment.value, frame, failure))
        return fail(EvaluationErrorKind::rule_error, std::move(failure));
      const RValue v = value(assignment.value, frame);
      const auto& field = rules_.fields[static_cast<std::size_t>(assignment.target)];
      check_field(field, v, assignment.value.location);
      record.write(static_cast<std::size_t>(assignment.target), v);
    }
    for (const auto& line : rule.because) record.rationale.push_back(render(line, frame));
    if (rule.error)
      return fail(EvaluationErrorKind::rule_error, std::string(render(*rule.error, frame)));
    if (rule.next >= 0 && !run_table(rule.next, frame, record, depth + 1)) return false;
    if (rule.fallback) return run_fallback(*rule.fallback, frame, record, depth, table, rule);
    return true;
  }

  // Evaluates another table with some inputs overridden and adopts its result: every field
  // not kept, and its rationale lines (without a header) appended.
  bool run_fallback(const detail::CompiledFallback& fallback, Frame& frame, WorkingRecord& record,
                    int depth, const std::string& table, const detail::CompiledRule& rule) {
    Frame callee = frame.with_inputs_only(store_);
    std::string overrides;
    for (const auto& override_ : fallback.with) {
      const auto k = static_cast<std::size_t>(override_.target);
      RValue v = value(override_.value, frame);
      if (!normalise(k, v)) return false;
      if (trace_)
        overrides += fmt::format("{}{} = {}", overrides.empty() ? "" : ", ", rules_.inputs[k].name,
                                 detail::repr(v));
      callee.set_input(override_.target, v);
    }
    if (trace_) {
      note(TraceStep::Kind::fallback, table, rule.name, rule.location,
           fmt::format("to table '{}' with {}",
                       rules_.tables[static_cast<std::size_t>(fallback.table)].name,
                       overrides.empty() ? "no overrides" : overrides));
    }
    for (const auto& override_ : fallback.with)
      if (!validate(static_cast<std::size_t>(override_.target), callee)) return false;
    WorkingRecord result(store_);
    if (!new_record(callee, result) || !run_table(fallback.table, callee, result, depth + 1))
      return false;
    for (std::size_t k = 0; k < rules_.fields.size(); ++k) {
      if (!fallback.keep[k] && static_cast<int>(k) != rules_.rationale_field)
        record.write(k, result.field(k));
    }
    record.rationale.append(result.rationale);
    return true;
  }

  bool fires(const detail::CompiledRule& rule, Frame& frame, const std::string& table,
             std::size_t from = 0) {
    const detail::CompiledMatcher* const when = rule.when.data();
    const std::size_t count = rule.when.size();
    for (std::size_t k = from; k < count; ++k) {
      const auto& matcher = when[k];
      if (matches(matcher, frame)) continue;
      if (trace_) note_skipped(rule, matcher, frame, table);
      return false;
    }
    return true;
  }

  [[gnu::cold, gnu::noinline]] void note_skipped(const detail::CompiledRule& rule,
                                                 const detail::CompiledMatcher& matcher,
                                                 Frame& frame, const std::string& table);

  bool matches(const detail::CompiledMatcher& m, Frame& frame) {
    const RValue& fact = lookup(m.slot, frame);
    RValue scratch;
    return language::decide(*m.info, fact, operand(m.operand, frame, scratch), m.operand.location);
  }

  // ---- expressions: defined in expressions.hpp ------------------------------------------
  [[gnu::always_inline]] inline const RValue& operand(const Node& n, Frame& frame, RValue& scratch);
  [[gnu::always_inline]] inline RValue value(const Node& n, Frame& frame);
  inline const RValue& lookup(int slot, Frame& frame);
  [[gnu::noinline]] inline const RValue& compute(int slot, Frame& frame);
  inline bool settle_leading_search(const Node& n, Frame& frame, std::string& failure);
  [[gnu::cold, gnu::noinline]] inline void note_derived(int slot, std::size_t let, const RValue& v);
  inline RValue call(const detail::CompiledCall& call, Frame& frame);
  inline std::string_view render(const CompiledTemplate& t, Frame& frame);
  inline RValue eval(const Node& n, Frame& frame);
  [[gnu::noinline]] inline RValue binary(const Node& n, Frame& frame);
  inline RValue combine(const Node& n, const RValue& a, const RValue& b);
  [[gnu::noinline]] inline RValue list(const Node& n, Frame& frame);
  [[gnu::noinline]] inline RValue unary(const Node& n, Frame& frame);
  [[gnu::noinline]] inline RValue member(const Node& n, Frame& frame);
  class OnDemand;
  [[gnu::always_inline]] inline RValue call_builtin(const Node& n, Frame& frame);

  // ---- searches: defined in search.cpp ----------------------------------------------------
  struct SearchRun;
  RValue search(const detail::CompiledSearch& search, Frame& frame);
  bool run_search(const detail::CompiledSearch& search, Frame& frame, RValue& out, std::string& failure);
  void enumerate(SearchRun& run, std::size_t level, Frame& frame);
  bool meets_constraints(SearchRun& run, int level, bool innermost, Frame& frame);
  [[gnu::cold]] std::size_t candidates_under(SearchRun& run, std::size_t level, Frame& frame);
  void test_candidate(SearchRun& run, Frame& frame);
  std::string describe_candidate(const SearchRun& run, Frame& frame) const;
  std::string describe_fields(const detail::CompiledSearch& search, const RValue* values) const;
  [[gnu::cold]] void note_candidate(const SearchRun& run, TraceStep::Kind kind,
                                    const detail::CompiledConstraint& c, Frame& frame);
  [[gnu::cold]] void note_search_summary(const SearchRun& run);
  // ---- a tier's candidates all at once: defined in search_columns.cpp ---------------------
  class Columns;
  bool decide_tier_by_columns(SearchRun& run, Frame& frame);

  inline static const std::string kNoTable;

  const CompiledRules& rules_;
  std::vector<TraceStep>* trace_;
  detail::ValueStore& store_;
  std::optional<EvaluationError> failure_;
  int depth_ = 0;
  int broken_invariant_ = -1;  // the invariant the record broke (index into rules_.invariants)
  bool check_proved_invariants_ = false;  // also those the analysis proved (for the proof itself)
  bool checks_invariants_;                // some invariant is checked on the record
};

}  // namespace snnplan::evaluate::internal
