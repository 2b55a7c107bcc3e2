// `snnplan explain`: why an input gets its answer (tables walked, rules tried, fallbacks).

#include "snnplan/explain.hpp"

#include <memory>
#include <ostream>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/input_flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "render/format.hpp"

namespace snnplan::cli {
namespace {

struct ExplainFlags {
  InputFlags inputs;
};

ExitCode explain(const ExplainFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.inputs.format, render::Output::explanation);
  const RuleSet rules = load_rules(f.inputs.rules_flag(), io.in, f.inputs.load_options());
  const Explanation explanation = rules.explain(f.inputs.collect_probed(rules, io.err));
  io.out << render::render_explanation(explanation, format);
  const EvaluationResult& result = explanation.result;
  if (result.ok()) return ExitCode::ok;
  // A format whose explanation does not show the error leaves it to stderr.
  if (!render::format_row(format).explanation_shows_error) throw EvaluationFailed{result.error()};
  return exit_code_of(result.error().kind);
}

}  // namespace

Command setup_explain(CLI::App& app) {
  return make_command<ExplainFlags>(
      app, "explain", "Show why an input gets its answer: tables, rules tried, fallbacks.",
      [](CLI::App& command, ExplainFlags& f) {
        f.inputs.attach(command, render::Output::explanation);
      },
      &explain);
}

}  // namespace snnplan::cli
