// `snnplan plan-training`: a training run's parallel layout under a memory budget
// (rules/snn_llm_planning.yaml, SpikingJelly's plan_training()) for one request given by
// flags, or for each line of a JSON Lines file (--batch). Its flags are the planning rules'
// inputs, one each (`num_query_groups` is --num-query-groups): the rule file is the table of
// the request's keys, so an input added there is a flag here.

#include <memory>
#include <ostream>

#include "api/rule_set_access.hpp"
#include "frontends/cli/batch.hpp"
#include "frontends/cli/batch_flags.hpp"
#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/input_flags.hpp"
#include "frontends/cli/messages.hpp"
#include "frontends/cli/rule_files.hpp"
#include "render/flow_yaml.hpp"
#include "render/format.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::cli {
namespace {

constexpr const char* kPlanningRules = "snn_llm_planning.yaml";

struct InputFlag {
  std::string input;  // the rules' input name
  std::string flag;   // --world-size
  std::string value;
  CLI::Option* option = nullptr;
};

struct PlanTrainingFlags {
  std::vector<InputFlag> inputs;  // sized at setup: the options bind to its elements
  std::string rules;
  std::vector<std::string> rule_roots;
  std::string format;
  BatchFlags batch;
  bool explain = false;
  CLI::Option* rules_option = nullptr;
};

// The request's inputs from the flags given; `null` or `none` gives null (the input's
// default, for those that have one).
Inputs collect(const PlanTrainingFlags& f, const RuleSet& rules) {
  Inputs inputs;
  for (const InputFlag& k : f.inputs) {
    if (!k.option->count()) continue;
    if (k.value == "null" || k.value == "none") {
      inputs.emplace_back(k.input, Value());
      continue;
    }
    inputs.emplace_back(k.input, input_value(k.flag, rules, k.input, k.value));
  }
  return inputs;
}

ExitCode plan_training(const PlanTrainingFlags& f, const Streams& io) {
  const std::optional<std::string> batch = f.batch.file();
  // --format was checked for a plan when it was parsed; the search explained takes fewer formats.
  const render::Format format = render::parse_format(f.format, render::Output::recommendation);
  if (f.explain && !render::supports(format, render::Output::explanation))
    throw UsageError{messages::format_with_explain(f.format, render::format_choices(render::Output::explanation))};
  const InputFlag* first_given = nullptr;
  for (const InputFlag& k : f.inputs)
    if (k.option->count() && !first_given) first_given = &k;
  f.batch.refuse_flags_with_batch(first_given ? first_given->flag.c_str() : nullptr, format, f.format);
  if (batch && f.explain) throw UsageError{messages::explain_with_batch()};
  if (f.batch.trace && !batch) throw UsageError{messages::trace_needs_batch("plan-training")};
  f.batch.refuse_jobs_and_stdin(given_value(f.rules_option, f.rules));
  const std::optional<std::string> path = given_value(f.rules_option, f.rules);
  const LoadOptions load{.rule_roots = f.rule_roots};
  // SNNPLAN_DECISION_LOG: every plan recorded, as for recommend and plan.
  const RuleSet rules = with_environment_log(
      path ? load_rule_file(*path, io.in, load) : RuleSetAccess::builtin(kPlanningRules));
  if (batch) {
    return with_batch_input(*batch, io.in, [&](std::istream& lines, const std::string& source_name) {
      return run_batch(lines, io.out, io.err, rules, source_name, f.batch.options());
    });
  }
  const Inputs inputs = collect(f, rules);
  if (f.explain) {
    const Explanation explanation = rules.explain(inputs);
    io.out << render::render_explanation(explanation, format);
    if (explanation.result.ok()) return ExitCode::ok;
    if (!render::format_row(format).explanation_shows_error) throw EvaluationFailed{explanation.result.error()};
    return exit_code_of(explanation.result.error().kind);
  }
  const EvaluationResult result = rules.evaluate(inputs);
  if (!result.ok()) throw EvaluationFailed{result.error()};
  io.out << render::render(result.record(), format);
  return ExitCode::ok;
}

std::string flag_of(const std::string& input) {
  std::string flag = "--" + input;
  for (char& c : flag)
    if (c == '_') c = '-';
  return flag;
}

}  // namespace

Command setup_plan_training(CLI::App& app) {
  return make_command<PlanTrainingFlags>(
      app, "plan-training",
      "Plan a training run's TP/PP/CP layout and recompute under a memory budget (flags, or --batch).",
      [](CLI::App& command, PlanTrainingFlags& f) {
        const RuleSet rules = RuleSetAccess::builtin(kPlanningRules);
        f.inputs.reserve(rules.inputs().size());
        for (const InputInfo& info : rules.inputs()) {
          InputFlag& k = f.inputs.emplace_back();
          k.input = info.name;
          k.flag = flag_of(info.name);
          k.option = command
                         .add_option(k.flag, k.value,
                                     messages::planning_input_help(
                                         info.name, info.description, info.type,
                                         info.default_value ? std::optional(render::flow_yaml(*info.default_value))
                                                            : std::nullopt))
                         ->type_name(placeholder(info.type));
        }
        command.footer(std::string(messages::kPlanningFlagsFooter));
        f.rules_option = add_rules_option(
            command, f.rules, "planning rule file (default: the built-in rules/snn_llm_planning.yaml)");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::recommendation);
        f.batch.attach(command, "request");
        command.add_flag("--explain", f.explain,
                         "show the whole search: every candidate, what removed it or how it fared "
                         "against the budget, and why the chosen one won");
        command.add_flag("--trace", f.batch.trace,
                         "with --batch: each line also gets \"rules\" and the evaluation steps");
      },
      &plan_training);
}

}  // namespace snnplan::cli
