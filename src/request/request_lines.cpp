#include "request/request_lines.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "api/rule_set_access.hpp"
#include "request/json_inputs.hpp"

namespace snnplan::request {
namespace {

LineOutcome refused(const EvaluationError& error, std::vector<TraceStep> steps = {}) {
  return {false, error.kind, error.message, std::move(steps)};
}

// Each fallback for the inputs that leave it out or give it as null.
void fill(const Inputs& fallbacks, Inputs& inputs) {
  for (const auto& [name, fallback] : fallbacks) {
    bool given = false;
    for (auto& [input, value] : inputs) {
      if (input != name) continue;
      given = true;
      if (value.is_null()) value = fallback;  // null means "the default", as None does
    }
    if (!given) inputs.emplace_back(name, fallback);
  }
}

}  // namespace

void add_fallbacks(const RuleSet& rules, const Inputs& fallbacks, Inputs& inputs) {
  Inputs declared;
  for (const auto& fallback : fallbacks)
    if (rules.input(fallback.first)) declared.push_back(fallback);
  fill(declared, inputs);
}

RequestLines::RequestLines(const RuleSet& rules, LineOptions options)
    : rules_(rules),
      options_(std::move(options)),
      reader_(rules),
      writer_(*RuleSetAccess::compiled(rules).field_names) {
  std::erase_if(options_.fallbacks, [&rules](const auto& input) { return !rules.input(input.first); });
}

LineOutcome RequestLines::answer(const std::string& line, std::string& output) {
  // The fast reader binds only what the line gives, so fallbacks need the inputs by name; an
  // observed rule set records each decision by name (the slots bypass it).
  const bool traced = options_.traced;
  if (!traced && options_.fallbacks.empty() && !rules_.observed() && reader_.read(line)) {
    if (!RuleSetAccess::evaluate_by_slot(rules_, reader_.slots(), evaluation_)) return refused(evaluation_.error());
    writer_.append(output, evaluation_.values());
    return {};
  }
  auto parsed = inputs_from_json_line(line, rules_);
  auto* inputs = std::get_if<Inputs>(&parsed);
  if (!inputs) return {false, EvaluationErrorKind::bad_input, std::get<std::string>(parsed), {}};
  fill(options_.fallbacks, *inputs);  // those the rules declare (the constructor kept only them)
  if (traced) {
    Explanation explanation = rules_.explain(*inputs);
    if (!explanation.result.ok()) return refused(explanation.result.error(), std::move(explanation.steps));
    nlohmann::ordered_json traced_line = render::to_json(explanation.result.record());
    render::add_rule_path(traced_line, explanation.steps);
    output += render::json_line(traced_line);
    return {};
  }
  if (rules_.observed()) {
    // One evaluation that records the decision and gives the record: evaluate(inputs,
    // Evaluation&) would evaluate again for the views.
    const EvaluationResult result = rules_.evaluate(*inputs);
    if (!result.ok()) return refused(result.error());
    render::append_json_line(output, result.record());
    return {};
  }
  if (!rules_.evaluate(*inputs, evaluation_)) return refused(evaluation_.error());
  writer_.append(output, evaluation_.values());
  return {};
}

void append_refusal(std::string& out, const LineOutcome& outcome, std::optional<std::size_t> line_number,
                       bool traced) {
  const bool numbered = line_number && outcome.kind == EvaluationErrorKind::bad_input;
  if (!traced) {
    render::append_error_line(out, outcome.message, numbered ? line_number : std::nullopt);
    return;
  }
  nlohmann::ordered_json error_line = {{"error", outcome.message}};
  if (numbered) error_line["line"] = *line_number;
  render::add_rule_path(error_line, outcome.steps);
  out += render::json_line(error_line);
}

}  // namespace snnplan::request
