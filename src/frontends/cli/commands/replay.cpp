// `snnplan replay LOG [--rules NEW]`: the decisions of a decision log evaluated again (the
// engine is decisions/replay.cpp). With --rules, which logged decisions NEW answers
// differently; without, each record against the rule file it names, as it is today. Exit
// codes as `diff`: 0 no change, 1 changes, 2 bad command line or unreadable log, 3 NEW fails to
// load.

#include <ostream>

#include "frontends/cli/batch.hpp"
#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/cli/messages.hpp"
#include "decisions/replay.hpp"

namespace snnplan::cli {
namespace {

struct ReplayFlags {
  std::string log;
  std::string rules;
  std::vector<std::string> rule_roots;
  std::string format;
  CLI::Option* rules_option = nullptr;
};

ExitCode replay(const ReplayFlags& f, const Streams& io) {
  const std::optional<std::string> candidate_path = given_value(f.rules_option, f.rules);
  if (candidate_path && *candidate_path == "-" && f.log == "-")
    throw UsageError{messages::stdin_read_twice("--rules -", "-")};
  decisions::ReplayOptions options;
  options.load = LoadOptions{.rule_roots = f.rule_roots, .use_cache = true};
  if (candidate_path) options.candidate = load_rule_file(*candidate_path, io.in, options.load);
  return with_batch_input(f.log, io.in, [&](std::istream& lines, const std::string& source_name) {
    const decisions::ReplayReport report = decisions::replay(lines, options);
    if (f.format == "json") io.out << decisions::render_json(report);
    else io.out << decisions::render_text(report, source_name, candidate_path);
    return report.changed == 0 ? ExitCode::ok : ExitCode::differences;
  }, messages::kDecisionLogFile);
}

}  // namespace

Command setup_replay(CLI::App& app) {
  return make_command<ReplayFlags>(
      app, "replay",
      "Evaluate the decisions of a decision log again: against NEW (--rules), which would change, "
      "or against the rule files they name; exit 1 when any answer changes.",
      [](CLI::App& command, ReplayFlags& f) {
        command.add_option("log", f.log, "the decision log, JSON Lines ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        f.rules_option = add_rules_option(
            command, f.rules, "the rule file to replay against (default: each record's own file)");
        add_rules_root_option(command, f.rule_roots);
        add_choice_option(command, "--format", f.format, "output format", {"text", "json"});
      },
      &replay);
}

}  // namespace snnplan::cli
