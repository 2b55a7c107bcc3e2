// `snnplan diff OLD NEW`: which inputs get a different answer from NEW than from OLD, over
// the whole declared input domain, grouped by the rule paths that give them (the comparison is
// usecases/diff.hpp's). Exit codes as diff(1): 0 no change, 1 changes, 2 bad command
// line, 3 a file fails to load (or the two declare different inputs).

#include <map>
#include <ostream>
#include <utility>
#include <variant>

#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/input_flags.hpp"
#include "cli/rule_files.hpp"
#include "cli/messages.hpp"
#include "render/format.hpp"
#include "usecases/diff.hpp"

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
  const usecases::ComparedRuleSets compared =
      usecases::compare_rule_sets(old_rules, new_rules, [&](const RuleSet& before) {
        Inputs given;
        std::map<std::string, std::string> given_by;
        add_assignments(f.inputs, before, given, given_by);
        return std::variant<Inputs, std::string>(std::move(given));
      });
  if (!compared.input_mismatch.empty())
    throw LoadError({Diagnostic{Severity::error, SourceLocation{new_rules.file_name(), 0, 0},
                                "input-mismatch", compared.input_mismatch}});
  if (!compared.refused_inputs.empty()) throw UsageError{compared.refused_inputs};
  io.out << render::render_diff(compared.diff, format);
  return compared.changed() ? ExitCode::differences : ExitCode::ok;
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
