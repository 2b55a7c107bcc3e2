// `snnplan explain`: why an input gets its answer (tables walked, rules tried, fallbacks).

#include <memory>
#include <ostream>

#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/input_flags.hpp"
#include "cli/rule_files.hpp"
#include "render/format.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::cli {
namespace {

struct ExplainFlags {
  InputFlags inputs;
  std::string format;
};

ExitCode explain(const ExplainFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::explanation);
  const RuleSet rules = load_rules(f.inputs.rules_flag());
  const Explanation explanation = rules.explain(f.inputs.collect(rules));
  io.out << render::render_explanation(explanation, format);
  const EvaluationResult& result = explanation.result;
  if (result.ok()) return ExitCode::ok;
  // A format whose explanation does not show the error leaves it to stderr.
  if (!render::format_row(format).explanation_shows_error) throw EvaluationFailed{result.error()};
  return exit_code_of(result.error().kind);
}

}  // namespace

Command setup_explain(CLI::App& app) {
  auto f = std::make_shared<ExplainFlags>();
  CLI::App* command = app.add_subcommand("explain", "Show why an input gets its answer: tables, rules tried, fallbacks.");
  f->inputs.attach(*command);
  add_format_option(*command, f->format, render::Output::explanation);
  return {command, [f](const Streams& io) { return explain(*f, io); }};
}

}  // namespace snnplan::cli
