// The evaluator's input binding off the fast path: inputs given by name (gather, input_slot),
// check_inputs() (check_given), and the refusals of a value of the wrong kind or one an input's
// one_of does not allow. Binding by slot and the common case of normalise() are inline in
// engine.hpp.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "evaluate/expressions.hpp"

namespace snnplan::evaluate::internal {
namespace {

// The element type as a list type names it: list[float] holds ints too, but is "float".
const char* element_type_name(syntax::KindSet kinds) {
  if (kinds & syntax::kString) return "string";
  if (kinds & syntax::kFloat) return "float";
  return kinds & syntax::kBool ? "bool" : "int";
}

// The slot of input `name`, or -1.
int input_slot(const CompiledRules& rules, std::string_view name) {
  // A scan of the inputs' keys (length and first 8 bytes: one comparison each, the bytes past
  // them only on a match) beats building a std::string to hash, up to dozens of inputs: the 26
  // of the planning rules bind in half the time (a refused plan-training request, 0.9 -> 0.4 us).
  constexpr std::size_t kScanUpTo = 64;
  if (rules.inputs.size() <= kScanUpTo) {
    const auto key = detail::NameKey::of(name);
    for (std::size_t k = 0; k < rules.inputs.size(); ++k) {
      const auto& input = rules.inputs[k];
      if (detail::NameKey::same(input.key, key, input.name, name)) return static_cast<int>(k);
    }
    return -1;
  }
  auto it = rules.input_slots.find(std::string(name));
  return it == rules.input_slots.end() ? -1 : it->second;
}

// The refusal of a name that is no input, with the closest input's name.
EvaluationError unknown_input(const CompiledRules& rules, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& input : rules.inputs) names.push_back(input.name);
  return EvaluationError{EvaluationErrorKind::bad_input,
                         messages::unknown_input(name, messages::closest_match(name, names))};
}

}  // namespace

// For check_inputs(): the given inputs bound and checked as bind() checks them, the others
// standing at their default (or null), so an `error` template can still name them.
bool Evaluator::check_given(const Inputs& inputs) {
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
bool Evaluator::gather(const Inputs& inputs, RValue* given) {
  const std::size_t count = rules_.inputs.size();
  std::uninitialized_fill_n(given, count, RValue{});
  std::size_t position = 0;
  for (const auto& [name, value] : inputs) {
    // Callers mostly give inputs in the rule file's order: the input at this position is
    // tried before any scan.
    const int slot = position < count && detail::same_text(name, rules_.inputs[position].name)
                         ? static_cast<int>(position)
                         : input_slot(rules_, name);
    position = static_cast<std::size_t>(slot) + 1;
    if (slot < 0) {
      failure_ = unknown_input(rules_, name);
      return false;
    }
    if (!place(slot, value, given)) return false;
  }
  return true;
}

bool Evaluator::normalise_checked(std::size_t k, RValue& v) {
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

bool Evaluator::refuse(const detail::CompiledInput& input, const RValue& v, Frame& frame) {
  // explain names the input and the line of the rule file that refused it.
  if (trace_)
    note(TraceStep::Kind::error, "", "", input.one_of_location,
         messages::input_refused(input.name, detail::repr(v)));
  if (input.error)
    return fail(EvaluationErrorKind::rule_error, std::string(render(*input.error, frame)));
  return fail(EvaluationErrorKind::rule_error,
              messages::not_allowed(input.name, detail::display(v)));
}

}  // namespace snnplan::evaluate::internal

namespace snnplan::evaluate {

bool input_slots(const detail::CompiledRules& rules, std::span<const std::string_view> names,
                 std::vector<int>& slots, EvaluationError& error) {
  slots.clear();
  for (std::string_view name : names) {
    const int slot = internal::input_slot(rules, name);
    if (slot < 0) {
      error = internal::unknown_input(rules, name);
      return false;
    }
    // By name, the later of two values would win; by position a repeated name is a mistake.
    if (std::find(slots.begin(), slots.end(), slot) != slots.end()) {
      error = EvaluationError{EvaluationErrorKind::bad_input, messages::input_named_twice(name)};
      return false;
    }
    slots.push_back(slot);
  }
  return true;
}

}  // namespace snnplan::evaluate
