// `snnplan recommend`: one recommendation from flags, or many from JSON Lines (--batch, with
// --watch for hot reload of the rule file).

#include <memory>
#include <optional>
#include <ostream>

#include "frontends/cli/batch.hpp"
#include "frontends/cli/batch_flags.hpp"
#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/input_flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "render/format.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/live_rule_set.hpp"

namespace snnplan::cli {
namespace {

struct RecommendFlags {
  InputFlags inputs;
  BatchFlags batch;
  bool watch = false;
};

// --batch --watch: the rule file is re-read between lines when it changed.
ExitCode watch(const std::string& batch, const InputFlags& flags, const BatchOptions& options,
               const Streams& io) {
  const std::optional<std::string> path = rules_path(flags.rules_flag());
  if (!path) throw UsageError{messages::watch_needs_rules()};
  if (*path == "-") throw UsageError{messages::watch_stdin()};
  LiveRuleSet live(*path, flags.load_options());
  live.set_decision_sink(DecisionLog::from_environment());
  live.on_rejected([&io](const std::vector<Diagnostic>& diagnostics) {
    io.err << messages::rejected_edit() << '\n';
    for (const Diagnostic& d : diagnostics) io.err << format(d) << '\n';
  });
  return with_batch_input(batch, io.in, [&](std::istream& lines, const std::string& source_name) {
    return run_batch(lines, io.out, io.err, live, source_name, options);
  });
}

ExitCode recommend(const RecommendFlags& f, const Streams& io) {
  const std::optional<std::string> batch = f.batch.file();
  const render::Format format =
      render::parse_format(f.inputs.format, render::Output::recommendation);
  f.batch.refuse_flags_with_batch(f.inputs.first_given(), format, f.inputs.format);
  if (f.batch.trace && !render::supports(format, render::Output::traced_recommendation))
    throw UsageError{messages::trace_format(f.inputs.format)};
  f.batch.refuse_jobs_and_stdin(rules_path(f.inputs.rules_flag()));
  BatchOptions batch_options = f.batch.options();
  if (batch) batch_options.probed = f.inputs.probe_torch(io.err);
  if (f.watch) {
    if (!batch) throw UsageError{messages::watch_needs_batch()};
    return watch(*batch, f.inputs, batch_options, io);
  }
  // SNNPLAN_DECISION_LOG: every answer recorded (explain, which answers nothing, is not).
  const RuleSet rules = with_environment_log(load_rules(f.inputs.rules_flag(), io.in, f.inputs.load_options()));
  if (batch) {
    return with_batch_input(*batch, io.in,
                            [&](std::istream& lines, const std::string& source_name) {
                              return run_batch(lines, io.out, io.err, rules, source_name, batch_options);
                            });
  }
  const Inputs inputs = f.inputs.collect_probed(rules, io.err);
  if (f.batch.trace) {
    const Explanation explanation = rules.explain(inputs);
    if (!explanation.result.ok()) throw EvaluationFailed{explanation.result.error()};
    io.out << render::render_traced(explanation, format);
    return ExitCode::ok;
  }
  const EvaluationResult result = rules.evaluate(inputs);
  if (!result.ok()) throw EvaluationFailed{result.error()};
  io.out << render::render(result.record(), format);
  return ExitCode::ok;
}

}  // namespace

Command setup_recommend(CLI::App& app) {
  return make_command<RecommendFlags>(
      app, "recommend", "Recommend a strategy for one input (flags) or many (--batch).",
      [](CLI::App& command, RecommendFlags& f) {
        f.inputs.attach(command, render::Output::recommendation);
        f.batch.attach(command, "input");
        command.add_flag("--trace", f.batch.trace,
                         "add the evaluation steps (as `explain` shows them) to the JSON output; "
                         "with --batch each line also gets \"rules\", the fired table/rule path");
        command.add_flag(
            "--watch", f.watch,
            "with --batch: re-read the rule file between lines when it or a file it uses changed");
      },
      &recommend);
}

}  // namespace snnplan::cli
