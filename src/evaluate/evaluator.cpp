#include "evaluate/evaluator.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <optional>
#include <span>

#include "compile/rule_index.hpp"
#include "core/messages.hpp"
#include "language/builtins.hpp"
#include "language/operations.hpp"
#include "language/python_repr.hpp"

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
using language::EvaluationFailure;
using language::rule_failure;
using language::type_failure;

// The record under construction: field values, and rationale lines as views (of the rule
// set's constant text, or of text rendered into the evaluation's store).
struct WorkingRecord {
  // The lines in the store, grown by doubling (the store frees nothing before its reset, so
  // a grown array simply leaves the old one behind).
  class Lines {
   public:
    explicit Lines(detail::ValueStore& store) : store_(store) {}
    void push_back(std::string_view line) {
      if (size_ == capacity_) grow();
      data_[size_++] = line;
    }
    void append(const Lines& other) {
      for (std::string_view line : other) push_back(line);
    }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::string_view operator[](std::size_t k) const { return data_[k]; }
    [[nodiscard]] const std::string_view* begin() const { return data_; }
    [[nodiscard]] const std::string_view* end() const { return data_ + size_; }

   private:
    [[gnu::noinline]] void grow() {
      const std::size_t capacity = capacity_ == 0 ? 8 : 2 * capacity_;
      auto* grown = static_cast<std::string_view*>(
          store_.allocate_bytes(capacity * sizeof(std::string_view), alignof(std::string_view)));
      std::uninitialized_copy(data_, data_ + size_, grown);
      data_ = grown;
      capacity_ = capacity;
    }
    detail::ValueStore& store_;
    std::string_view* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
  };

  explicit WorkingRecord(detail::ValueStore& store) : rationale(store) {}
  // Field k's new value; the views convert only fields written (and those past 64).
  void write(std::size_t k, const RValue& value) {
    fields[k] = value;
    if (k < 64) written |= std::uint64_t{1} << k;
  }
  RValue* fields = nullptr;
  std::uint64_t written = 0;  // bit k: field k (k < 64) no longer holds its default
  Lines rationale;
};

// Facts of one evaluation by slot: inputs bound up front, `let` values computed on first use.
class Frame {
 public:
  /// `field_slots`: room for the record's fields too, for the invariants to read.
  Frame(const CompiledRules& rules, detail::ValueStore& store, bool field_slots)
      : Frame(rules, store, field_slots ? rules.frame_slots() : rules.slot_count()) {}

  void set_input(int slot, const RValue& value) {
    values_[slot] = value;
    state_[slot] = kReady;
  }
  // A frame with the same inputs and no derived values computed (for fallback, which checks
  // no invariants).
  Frame with_inputs_only(detail::ValueStore& store) const {
    Frame copy(*rules_, store, false);
    for (std::size_t k = 0; k < rules_->inputs.size(); ++k)
      copy.set_input(static_cast<int>(k), values_[k]);
    return copy;
  }

  /// The input slots, for a binder to write the inputs in place; inputs_bound() then marks
  /// the first `count` ready.
  RValue* input_values() { return values_; }
  void inputs_bound(std::size_t count) { std::memset(state_, kReady, count); }

  [[nodiscard]] bool ready(int slot) const { return state_[slot] == kReady; }
  [[nodiscard]] const RValue& value(int slot) const { return values_[slot]; }

  // `compute(let_index)` produces a derived value the first time it is needed.
  template <typename Compute>
  const RValue& get(int slot, Compute&& compute) {
    if (state_[slot] == kReady) return values_[slot];
    // Derived values are computed on first use, after what they use (so in dependency
    // order); the checker refuses cycles, this guard only protects against misuse.
    if (state_[slot] == kComputing) rule_failure(messages::let_cycle(rules_->slot_name(slot)));
    state_[slot] = kComputing;
    try {
      values_[slot] = compute(static_cast<std::size_t>(slot) - rules_->inputs.size());
    } catch (...) {
      state_[slot] = kPending;  // a failed computation may be asked again (rule-index fallback)
      throw;
    }
    state_[slot] = kReady;
    return values_[slot];
  }

 private:
  Frame(const CompiledRules& rules, detail::ValueStore& store, std::size_t slots)
      : rules_(&rules),
        values_(store.values(slots)),
        state_(static_cast<std::uint8_t*>(store.allocate_bytes(slots + 1, 1))) {
    // Only the states start known: a value is written (set_input, get) before it is read.
    std::memset(state_, kPending, slots);
  }

  enum : std::uint8_t { kPending, kComputing, kReady };
  const CompiledRules* rules_;
  RValue* values_;
  std::uint8_t* state_;
};

class Evaluator {
 public:
  Evaluator(const CompiledRules& rules, std::vector<TraceStep>* trace, detail::ValueStore& store)
      : rules_(rules), trace_(trace), store_(store), checks_invariants_(some_invariant_checked()) {}

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
    // `out` keeps its size until views() writes it: a reused vector is not resized.
    if (produce(inputs, record) && views(record, out)) return true;
    out.clear();  // no fields without a record, even when a later field failed
    error = std::move(*failure_);
    return false;
  }

  // run_views() for inputs by slot (see evaluate_views_by_slot).
  bool run_views_by_slot(std::span<const RValue> inputs, std::vector<ValueView>& out,
                         EvaluationError& error) {
    WorkingRecord record(store_);
    if (produce_by_slot(inputs, record) && views(record, out)) return true;
    out.clear();
    error = std::move(*failure_);
    return false;
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
    if (rules_.rationale_field >= 0) {
      RValue* lines = store_.values(record.rationale.size());
      for (std::size_t k = 0; k < record.rationale.size(); ++k)
        lines[k] = RValue::of_view(record.rationale[k]);
      record.fields[rules_.rationale_field] = RValue::of_items({lines, record.rationale.size()});
    }
    RValue out;
    out.kind = Kind::record;
    out.record = store_.record(rules_.field_names.get(), {record.fields, count});
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

  bool produce(const Inputs& inputs, WorkingRecord& record) {
    Frame frame(rules_, store_, checks_invariants_);
    return bind(inputs, frame) && run_frame(frame, record, 0);
  }

  [[gnu::cold, gnu::noinline]] void note(TraceStep::Kind kind, const std::string& table,
                                         const std::string& rule, const SourceLocation& at,
                                         std::string detail) {
    trace_->push_back(TraceStep{kind, depth_, table, rule, at, std::move(detail)});
  }

  bool run_frame(Frame& frame, WorkingRecord& record, int depth) {
    if (!new_record(frame, record)) return false;
    if (rules_.header) record.rationale.push_back(render(*rules_.header, frame));
    return run_table(rules_.start, frame, record, depth) && check_invariants(frame, record);
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
                      static_cast<int>(k) == rules_.rationale_field ? RValue{} : record.fields[k]);
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
  int input_slot(std::string_view name) const {
    // A linear scan of a few names beats hashing the name.
    constexpr std::size_t kScanUpTo = 16;
    if (rules_.inputs.size() <= kScanUpTo) {
      const auto key = detail::NameKey::of(name);
      for (std::size_t k = 0; k < rules_.inputs.size(); ++k) {
        const auto& input = rules_.inputs[k];
        if (detail::NameKey::same(input.key, key, input.name, name)) return static_cast<int>(k);
      }
      return -1;
    }
    auto it = rules_.input_slots.find(std::string(name));
    return it == rules_.input_slots.end() ? -1 : it->second;
  }

  bool bind(const Inputs& inputs, Frame& frame) {
    return gather(inputs, frame.input_values()) && bind_in_place(frame);
  }

  // For check_inputs(): the given inputs bound and checked as bind() checks them, the others
  // standing at their default (or null), so an `error` template can still name them.
  bool check_given(const Inputs& inputs) {
    RValue* given = store_.values(rules_.inputs.size());
    if (!gather(inputs, given)) return false;
    Frame frame(rules_, store_, false);
    for (std::size_t k = 0; k < rules_.inputs.size(); ++k) {
      const auto& input = rules_.inputs[k];
      RValue v = given[k];
      if (v.kind != Kind::null && !normalise(k, v)) return false;
      if (v.kind == Kind::null && input.default_value) v = *input.default_value;
      frame.set_input(static_cast<int>(k), v);
    }
    for (int k : rules_.restricted_inputs)
      if (given[k].kind != Kind::null && !validate(static_cast<std::size_t>(k), frame))
        return false;
    return true;
  }

  // The inputs by slot into `given` (null: not given); false with the failure set.
  bool gather(const Inputs& inputs, RValue* given) {
    const std::size_t count = rules_.inputs.size();
    std::uninitialized_fill_n(given, count, RValue{});
    std::size_t position = 0;
    for (const auto& [name, value] : inputs) {
      // Callers mostly give inputs in the rule file's order: the input at this position is
      // tried before any scan.
      const int slot = position < count && detail::same_text(name, rules_.inputs[position].name)
                           ? static_cast<int>(position)
                           : input_slot(name);
      position = static_cast<std::size_t>(slot) + 1;
      if (slot < 0) {
        std::vector<std::string> names;
        for (const auto& input : rules_.inputs) names.push_back(input.name);
        fail(EvaluationErrorKind::bad_input,
             messages::unknown_input(name, messages::closest_match(name, names)));
        return false;
      }
      if (!check_length(name, value)) return false;
      if (!value.is_null()) given[slot] = detail::from_public(value, store_);
    }
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

  // The element type as a list type names it: list[float] holds ints too, but is "float".
  static const char* element_type_name(syntax::KindSet kinds) {
    if (kinds & syntax::kString) return "string";
    if (kinds & syntax::kFloat) return "float";
    return kinds & syntax::kBool ? "bool" : "int";
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

  [[gnu::noinline]] bool normalise_checked(std::size_t k, RValue& v) {
    const auto& input = rules_.inputs[k];
    if (!(detail::kind_bit(v) & input.type.kinds)) {
      return fail(EvaluationErrorKind::bad_input,
                  messages::input_type(input.name, syntax::describe(input.type.kinds),
                                       detail::kind_name(v)));
    }
    if (v.kind == Kind::list) {  // list[int] and list[string] hold only their kind
      for (const RValue& item : v.list())
        if (!(detail::kind_bit(item) & input.type.element_kinds))
          return fail(
              EvaluationErrorKind::bad_input,
              messages::input_list_item(input.name, element_type_name(input.type.element_kinds),
                                        detail::kind_name(item)));
    }
    if (input.lower && v.kind == Kind::string) v = language::lowered(v, store_);
    return true;
  }

  bool validate(std::size_t k, Frame& frame) {
    const auto& input = rules_.inputs[k];
    if (input.one_of.empty()) return true;
    const RValue& v = lookup(static_cast<int>(k), frame);
    for (const RValue& option : input.one_of)
      if (detail::values_equal(v, option)) return true;
    return refuse(input, v, frame);
  }

  [[gnu::cold, gnu::noinline]] bool refuse(const detail::CompiledInput& input, const RValue& v,
                                           Frame& frame) {
    // explain names the input and the line of the rule file that refused it.
    if (trace_)
      note(TraceStep::Kind::error, "", "", input.one_of_location,
           messages::input_refused(input.name, detail::repr(v)));
    if (input.error)
      return fail(EvaluationErrorKind::rule_error, std::string(render(*input.error, frame)));
    return fail(EvaluationErrorKind::rule_error,
                messages::not_allowed(input.name, detail::display(v)));
  }

  // ---- record --------------------------------------------------------------------------
  bool new_record(Frame& frame, WorkingRecord& record) {
    record.fields = store_.values(rules_.fields.size());
    std::memcpy(static_cast<void*>(record.fields), rules_.default_record.data(),
                rules_.default_record.size() * sizeof(RValue));
    for (int k : rules_.initialised_fields) {
      const auto& field = rules_.fields[static_cast<std::size_t>(k)];
      const RValue v = value(*field.init, frame);
      check_field(field, v, field.init->location);
      record.write(static_cast<std::size_t>(k), v);
    }
    return true;
  }

  void check_field(const detail::CompiledField& field, const RValue& v, const SourceLocation& at) {
    bool ok = detail::kind_bit(v) & field.type.kinds;
    if (ok && v.kind != Kind::list) return;
    if (ok)
      for (const RValue& item : v.list())
        ok = ok && (detail::kind_bit(item) & field.type.element_kinds);
    if (!ok) {
      type_failure(at,
                   messages::type_mismatch(fmt::format("record field '{}'", field.name),
                                           syntax::describe(field.type.kinds), detail::display(v)));
    }
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
      } else if (!append_public(record.fields[k], rules_.fields[k].name, values)) {
        return std::move(*failure_);
      }
    }
    return Record(rules_.field_names, std::move(values));
  }

  bool views(const WorkingRecord& record, std::vector<ValueView>& out) {
    // The defaults' views copied whole, then only the fields the evaluation wrote (and any
    // whose default has no ready view, and any past the 64 the mask tracks) converted.
    const std::size_t count = rules_.fields.size();
    if (out.size() != count) out.resize(count);  // a reused Evaluation: already the size
    ValueView* const fields = out.data();
    static_assert(std::is_trivially_copyable_v<ValueView>);
    std::copy_n(rules_.default_views.data(), count, fields);  // default_views: one per field
    std::uint64_t pending = record.written | rules_.unviewed_defaults;
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
    const RValue& field = record.fields[k];
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

  // The public view of `v` (lists copied into the store as views).
  bool view_of(const RValue& v, const std::string& field, ValueView& out) {
    if (detail::scalar_view(v, out)) return true;
    switch (v.kind) {
      case Kind::integer:  // beyond 64 bits (scalar_view took the others)
        return fail(EvaluationErrorKind::rule_error,
                    messages::out_of_64_bits(fmt::format("record field '{}' = {}", field,
                                                         detail::wide_to_string(v.i))));
      case Kind::list: {
        auto* items = static_cast<ValueView*>(store_.allocate_bytes(
            std::max<std::size_t>(v.items.size, 1) * sizeof(ValueView), alignof(ValueView)));
        for (std::size_t n = 0; n < v.items.size; ++n) {
          new (items + n) ValueView();
          if (!view_of(v.items.data[n], field, items[n])) return false;
        }
        out = ValueView::of_list({items, v.items.size});
        return true;
      }
      case Kind::record:
        return fail(EvaluationErrorKind::rule_error, messages::record_in_output(field));
      default:  // the scalars, which scalar_view() took
        return true;
    }
  }

  // Appends the public form of `v` to `out`.
  bool append_public(const RValue& v, const std::string& field, std::vector<Value>& out) {
    switch (v.kind) {
      case Kind::null:
        out.emplace_back();
        return true;
      case Kind::boolean:
        out.emplace_back(v.b);
        return true;
      case Kind::integer:
        if (!detail::fits_int64(v.i))
          return fail(EvaluationErrorKind::rule_error,
                      messages::out_of_64_bits(fmt::format("record field '{}' = {}", field,
                                                           detail::wide_to_string(v.i))));
        out.emplace_back(static_cast<std::int64_t>(v.i));
        return true;
      case Kind::floating:
        out.emplace_back(v.f);
        return true;
      case Kind::string:
        out.emplace_back(std::string(v.s()));
        return true;
      case Kind::list: {
        Value::List items;
        items.reserve(v.items.size);
        for (const RValue& item : v.list())
          if (!append_public(item, field, items)) return false;
        out.emplace_back(std::move(items));
        return true;
      }
      case Kind::record:
        return fail(EvaluationErrorKind::rule_error, messages::record_in_output(field));
    }
    return true;
  }

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
        record.write(k, result.fields[k]);
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

  // Out of line: the walk without a trace stays small.
  [[gnu::cold, gnu::noinline]] void note_skipped(const detail::CompiledRule& rule,
                                                 const detail::CompiledMatcher& matcher,
                                                 Frame& frame, const std::string& table) {
    RValue operand = matcher.operand.kind == ExprKind::literal ? matcher.operand.constant
                                                               : eval(matcher.operand, frame);
    note(TraceStep::Kind::rule_skipped, table, rule.name, matcher.location,
         fmt::format("{} {} {}: {} {} {} is false", matcher.fact, matcher.info->name, matcher.text,
                     detail::repr(lookup(matcher.slot, frame)), matcher.info->symbol,
                     detail::repr(operand)));
  }

  bool matches(const detail::CompiledMatcher& m, Frame& frame) {
    const RValue& fact = lookup(m.slot, frame);
    RValue scratch;
    return language::decide(*m.info, fact, operand(m.operand, frame, scratch), m.operand.location);
  }

  // ---- expressions ---------------------------------------------------------------------
  // `n`'s value as a reference: a constant or a fact without a copy, anything else computed
  // into `scratch`.
  [[gnu::always_inline]] const RValue& operand(const Node& n, Frame& frame, RValue& scratch) {
    if (n.kind == ExprKind::literal) return n.constant;
    if (n.kind == ExprKind::name) return lookup(n.slot, frame);
    scratch = eval(n, frame);
    return scratch;
  }

  // eval() with the two commonest nodes -- a constant, a fact already known -- decided inline.
  [[gnu::always_inline]] RValue value(const Node& n, Frame& frame) {
    if (n.kind == ExprKind::literal) return n.constant;
    if (n.kind == ExprKind::name && frame.ready(n.slot)) return frame.value(n.slot);
    return eval(n, frame);
  }

  const RValue& lookup(int slot, Frame& frame) {
    if (frame.ready(slot)) return frame.value(slot);
    return compute(slot, frame);
  }

  [[gnu::noinline]] const RValue& compute(int slot, Frame& frame) {
    return frame.get(slot, [this, slot, &frame](std::size_t let) {
      RValue v =
          rules_.calls[let] ? call(*rules_.calls[let], frame) : eval(rules_.lets[let], frame);
      if (trace_) {
        note(TraceStep::Kind::derived_value, "", "", rules_.lets[let].location,
             fmt::format("{} = {}", rules_.slot_name(slot), detail::repr(v)));
      }
      return v;
    });
  }

  RValue call(const detail::CompiledCall& call, Frame& frame) {
    const CompiledRules& callee = *rules_.used[static_cast<std::size_t>(call.rules)];
    if (depth_ >= detail::kMaxCallDepth)
      rule_failure(messages::chain_too_deep(detail::kMaxCallDepth));
    RValue* given = store_.values(callee.inputs.size());
    std::uninitialized_fill_n(given, callee.inputs.size(), RValue{});
    for (const auto& assignment : call.with)
      given[assignment.target] = eval(assignment.value, frame);
    return Evaluator(callee, trace_, store_).run_call({given, callee.inputs.size()}, depth_ + 1);
  }

  std::string_view render(const CompiledTemplate& t, Frame& frame) {
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
      for (const std::uint32_t k : t.placeholders) {
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
        for (std::size_t k = 0; k < count; ++k) {
          const auto& piece = pieces[k];
          if (piece.slot < 0) {
            put(piece.text);
          } else if (values[k]->kind == Kind::string) {
            put(values[k]->s());
          } else {
            const fmt::format_int digits(static_cast<std::int64_t>(values[k]->i));
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

  RValue eval(const Node& n, Frame& frame) {
    switch (n.kind) {
      case ExprKind::literal:
        return n.constant;
      case ExprKind::name:
        return lookup(n.slot, frame);
      case ExprKind::list: {
        RValue* items = store_.values(n.children.size());
        for (std::size_t k = 0; k < n.children.size(); ++k)
          new (items + k) RValue(value(n.children[k], frame));
        return RValue::of_items({items, n.children.size()});
      }
      case ExprKind::unary: {
        const RValue v = value(n.children[0], frame);
        if (n.op == Op::logical_not)
          return RValue::of_bool(!language::truth(v, n.children[0].location));
        return language::negate(v, n.location);
      }
      case ExprKind::conditional:
        return language::truth(value(n.children[0], frame), n.children[0].location)
                   ? value(n.children[1], frame)
                   : value(n.children[2], frame);
      case ExprKind::binary:
        return binary(n, frame);
      case ExprKind::call:
        return call_builtin(n, frame);
      case ExprKind::member: {
        RValue object = value(n.children[0], frame);
        if (object.kind != Kind::record)
          type_failure(n.location,
                       messages::type_mismatch(fmt::format("the value before '.{}'", n.name),
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
    }
    return RValue{};
  }

  RValue binary(const Node& n, Frame& frame) {
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
        case Op::modulo: {
          Wide r = 0;  // an overflow or a division by zero: arithmetic() below reports it
          if (language::integer_arithmetic(n.op, a.i, b.i, r) == language::IntegerStatus::ok)
            return RValue::of_int(r);
          break;
        }
        default:
          break;
      }
    }
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
  class OnDemand final : public language::ArgumentSource {
   public:
    OnDemand(Evaluator& evaluator, const Node& call, Frame& frame)
        : evaluator_(evaluator), call_(call), frame_(frame) {}
    RValue evaluate(std::size_t k) override { return evaluator_.value(call_.children[k], frame_); }

   private:
    Evaluator& evaluator_;
    const Node& call_;
    Frame& frame_;
  };

  RValue call_builtin(const Node& n, Frame& frame) {
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

}  // namespace

struct Probe::State {
  explicit State(const CompiledRules& r) : rules(r), evaluator(r, nullptr, store) {}
  const CompiledRules& rules;
  detail::ValueStore store;
  Evaluator evaluator;
  std::optional<Frame> frame;
};

Probe::Probe(const CompiledRules& rules) : state_(std::make_unique<State>(rules)) {}
Probe::~Probe() = default;

void Probe::at(std::span<const RValue> inputs) {
  state_->frame.reset();
  state_->store.reset();
  state_->frame.emplace(state_->rules, state_->store, true);
  for (std::size_t k = 0; k < inputs.size(); ++k)
    state_->frame->set_input(static_cast<int>(k), inputs[k]);
}

Probe::Outcome Probe::matches(const detail::CompiledRule& rule, std::string* why) {
  try {
    return state_->evaluator.rule_matches(rule, *state_->frame) ? Outcome::yes : Outcome::no;
  } catch (EvaluationFailure& failure) {
    if (why) *why = std::move(failure.message);
    return Outcome::error;
  }
}

std::optional<RValue> Probe::normalised(int input, RValue value) {
  if (!state_->evaluator.normalise_input(static_cast<std::size_t>(input), value))
    return std::nullopt;
  return value;
}

std::optional<RValue> Probe::value(const Node& node) {
  try {
    return state_->evaluator.expression(node, *state_->frame);
  } catch (const EvaluationFailure&) {
    return std::nullopt;
  }
}

bool evaluate_views(const detail::CompiledRules& rules, const Inputs& inputs,
                    detail::ValueStore& store, std::vector<ValueView>& out,
                    EvaluationError& error) {
  try {
    return Evaluator(rules, nullptr, store).run_views(inputs, out, error);
  } catch (EvaluationFailure& failure) {
    error = EvaluationError{failure.kind, std::move(failure.message)};
    out.clear();
    return false;
  } catch (...) {
    out.clear();  // no views of a store that is about to be reset (std::bad_alloc)
    throw;
  }
}

bool evaluate_views_by_slot(const detail::CompiledRules& rules,
                            std::span<const detail::RValue> inputs, detail::ValueStore& store,
                            std::vector<ValueView>& out, EvaluationError& error) {
  try {
    return Evaluator(rules, nullptr, store).run_views_by_slot(inputs, out, error);
  } catch (EvaluationFailure& failure) {
    error = EvaluationError{failure.kind, std::move(failure.message)};
    out.clear();
    return false;
  } catch (...) {
    out.clear();  // no views of a store that is about to be reset (std::bad_alloc)
    throw;
  }
}

std::optional<BrokenInvariant> broken_invariant(const detail::CompiledRules& rules,
                                                std::span<const detail::RValue> inputs,
                                                std::vector<TraceStep>* trace) {
  alignas(detail::RValue) std::byte buffer[kEvaluationStackBytes];
  detail::ValueStore store(buffer, sizeof buffer);
  try {
    return Evaluator(rules, trace, store).run_for_invariants(inputs);
  } catch (const EvaluationFailure&) {
    return std::nullopt;
  }
}

EvaluationResult evaluate(const detail::CompiledRules& rules, const Inputs& inputs,
                          std::vector<TraceStep>* trace) {
  // Everything one evaluation computes lives here: on this stack first, then the heap.
  alignas(detail::RValue) std::byte buffer[kEvaluationStackBytes];
  detail::ValueStore store(buffer, sizeof buffer);
  try {
    EvaluationResult result = Evaluator(rules, trace, store).run(inputs);
    if (trace && !result.ok())
      trace->push_back(
          TraceStep{TraceStep::Kind::error, 0, "", "", SourceLocation{}, result.error().message});
    return result;
  } catch (EvaluationFailure& failure) {
    if (trace)
      trace->push_back(
          TraceStep{TraceStep::Kind::error, 0, "", "", SourceLocation{}, failure.message});
    return EvaluationError{failure.kind, std::move(failure.message)};
  }
}

std::optional<EvaluationError> check_inputs(const detail::CompiledRules& rules,
                                            const Inputs& inputs) {
  alignas(detail::RValue) std::byte buffer[kEvaluationStackBytes];
  detail::ValueStore store(buffer, sizeof buffer);
  try {
    return Evaluator(rules, nullptr, store).check(inputs);
  } catch (EvaluationFailure& failure) {  // an `error` template that cannot be rendered
    return EvaluationError{failure.kind, std::move(failure.message)};
  }
}

}  // namespace snnplan::evaluate
