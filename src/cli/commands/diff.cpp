// `snnplan diff OLD NEW`: which inputs get a different answer from NEW than from OLD, over
// the whole declared input domain, grouped by the rule paths that give them (the engine is
// analyse/rule_diff.cpp). Exit codes as diff(1): 0 no change, 1 changes, 2 bad command
// line, 3 a file fails to load (or the two declare different inputs).

#include <map>
#include <ostream>
#include <stdexcept>

#include "analyse/rule_diff.hpp"
#include "api/rule_set_access.hpp"
#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/input_flags.hpp"
#include "cli/rule_files.hpp"
#include "cli/messages.hpp"
#include "render/format.hpp"

namespace snnplan::cli {
namespace {

struct DiffFlags {
  std::string old_file, new_file;
  std::vector<std::string> inputs;
  std::vector<std::string> rule_roots;
  std::string format;
};

ExitCode diff(const DiffFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::diff);
  if (f.old_file == "-" && f.new_file == "-")
    throw UsageError{messages::stdin_read_twice("-", "-")};
  const LoadOptions options{.rule_roots = f.rule_roots};
  const RuleSet old_rules = load_rule_file(f.old_file, io.in, options);
  const RuleSet new_rules = load_rule_file(f.new_file, io.in, options);
  const detail::CompiledRules& before = RuleSetAccess::compiled(old_rules);
  const detail::CompiledRules& after = RuleSetAccess::compiled(new_rules);
  if (const std::string differences = analyse::input_differences(before, after);
      !differences.empty())
    throw LoadError({Diagnostic{Severity::error, SourceLocation{after.file_name, 0, 0},
                                "input-mismatch", differences}});
  Inputs given;
  std::map<std::string, std::string> given_by;
  add_assignments(f.inputs, old_rules, given, given_by);
  std::vector<analyse::FixedInput> fixed;
  for (auto& [name, value] : given) fixed.push_back(analyse::FixedInput{name, std::move(value)});
  analyse::RuleDiff result;
  try {
    result = analyse::diff_rules(before, after, fixed);
  } catch (const std::invalid_argument& e) {
    throw UsageError{e.what()};
  }
  io.out << render::render_diff(result, format);
  // A search that stopped short cannot promise "no change": a gate on the exit code must not
  // pass an edit nobody compared.
  return result.changes.empty() && result.complete ? ExitCode::ok : ExitCode::differences;
}

}  // namespace

Command setup_diff(CLI::App& app) {
  return make_command<DiffFlags>(
      app, "diff",
      "Which inputs get a different answer from NEW than from OLD, over every input; exit 1 "
      "when any does, or when the comparison stopped before it reached every input.",
      [](CLI::App& command, DiffFlags& f) {
        command
            .add_option("old", f.old_file, "the rule file before the edit ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command.add_option("new", f.new_file, "the rule file after the edit ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command
            .add_option("--input", f.inputs,
                        "NAME=VALUE: compare only the inputs with this value (repeatable)")
            ->type_name("NAME=VALUE");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::diff);
      },
      &diff);
}

}  // namespace snnplan::cli
