#include "evaluate/evaluator.hpp"

#include <memory>
#include <optional>
#include <span>

#include "evaluate/expressions.hpp"

// The entry points of evaluate/ and the evaluator's trace notes; the evaluator itself is in
// engine.hpp and expressions.hpp.

namespace snnplan::evaluate {

namespace internal {

// A step of the trace (explain()).
void Evaluator::note(TraceStep::Kind kind, const std::string& table, const std::string& rule,
                     const SourceLocation& at, std::string detail) {
  trace_->push_back(TraceStep{kind, depth_, table, rule, at, std::move(detail)});
}

// Out of line: the walk without a trace stays small.
void Evaluator::note_skipped(const detail::CompiledRule& rule,
                             const detail::CompiledMatcher& matcher, Frame& frame,
                             const std::string& table) {
  RValue operand = matcher.operand.kind == ExprKind::literal ? matcher.operand.constant
                                                             : eval(matcher.operand, frame);
  note(TraceStep::Kind::rule_skipped, table, rule.name, matcher.location,
       fmt::format("{} {} {}: {} {} {} is false", matcher.fact, matcher.info->name, matcher.text,
                   detail::repr(lookup(matcher.slot, frame)), matcher.info->symbol,
                   detail::repr(operand)));
}

}  // namespace internal

using detail::CompiledRules;
using detail::Node;
using detail::RValue;
using language::EvaluationFailure;

struct Probe::State {
  explicit State(const detail::CompiledRules& r) : rules(r), evaluator(r, nullptr, store) {}
  const detail::CompiledRules& rules;
  detail::ValueStore store;
  internal::Evaluator evaluator;
  std::optional<internal::Frame> frame;
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

namespace {

// One evaluation into views, however its inputs are bound (`run` calls the evaluator's run_views
// for them): a failure deep in an expression becomes `error`.
template <typename Run>
bool views_or_error(const detail::CompiledRules& rules, detail::ValueStore& store,
                    std::vector<ValueView>& out, EvaluationError& error, Run&& run) {
  try {
    internal::Evaluator evaluator(rules, nullptr, store);
    return run(evaluator);
  } catch (EvaluationFailure& failure) {
    error = EvaluationError{failure.kind, std::move(failure.message)};
    out.clear();
    return false;
  } catch (...) {
    out.clear();  // no views of a store that is about to be reset (std::bad_alloc)
    throw;
  }
}

}  // namespace

bool evaluate_views(const detail::CompiledRules& rules, const Inputs& inputs,
                    detail::ValueStore& store, std::vector<ValueView>& out,
                    EvaluationError& error) {
  return views_or_error(rules, store, out, error, [&](internal::Evaluator& evaluator) {
    return evaluator.run_views(inputs, out, error);
  });
}

bool evaluate_views_by_slot(const detail::CompiledRules& rules,
                            std::span<const detail::RValue> inputs, detail::ValueStore& store,
                            std::vector<ValueView>& out, EvaluationError& error) {
  return views_or_error(rules, store, out, error, [&](internal::Evaluator& evaluator) {
    return evaluator.run_views_by_slot(inputs, out, error);
  });
}

bool evaluate_views_at(const detail::CompiledRules& rules, std::span<const int> slots,
                       std::span<const Value> values, detail::ValueStore& store,
                       std::vector<ValueView>& out, EvaluationError& error) {
  return views_or_error(rules, store, out, error, [&](internal::Evaluator& evaluator) {
    return evaluator.run_views_at(slots, values, out, error);
  });
}

std::optional<BrokenInvariant> broken_invariant(const detail::CompiledRules& rules,
                                                std::span<const detail::RValue> inputs,
                                                std::vector<TraceStep>* trace) {
  alignas(detail::RValue) std::byte buffer[kEvaluationStackBytes];
  detail::ValueStore store(buffer, sizeof buffer);
  try {
    return internal::Evaluator(rules, trace, store).run_for_invariants(inputs);
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
    EvaluationResult result = internal::Evaluator(rules, trace, store).run(inputs);
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
    return internal::Evaluator(rules, nullptr, store).check(inputs);
  } catch (EvaluationFailure& failure) {  // an `error` template that cannot be rendered
    return EvaluationError{failure.kind, std::move(failure.message)};
  }
}

}  // namespace snnplan::evaluate