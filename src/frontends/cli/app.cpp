// The `snnplan` command line: the app's own options (--version, --help), the subcommands'
// setup (one file each, cli/commands/), and the dispatch that maps every outcome to an exit
// code (frontends/cli/exit_code.hpp).

#include "frontends/cli/app.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "api/rule_set_access.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/interrupt.hpp"
#include "frontends/cli/messages.hpp"
#include "frontends/cli/output.hpp"
#include "frontends/cli/rule_files.hpp"
#include "core/messages.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/recommendation.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/version.hpp"

namespace snnplan::cli {
namespace {

// Runs a parsed command with its output (standard output or -o FILE); what it throws becomes
// "error: ..." lines on stderr and an exit code.
ExitCode dispatch(const Command& command, const Streams& io) {
  auto fail = [&](const std::string& message, ExitCode code) {
    io.err << "error: " << message << '\n';
    return code;
  };
  // Declared outside the try: the handlers below name the file it was to replace. Its
  // destructor removes the temporary whenever the run does not get to commit().
  std::optional<AtomicFileOutput> file;
  const std::optional<std::string> output_path =
      given_value(command.output->option, command.output->path);
  try {
    if (output_path) {
      if (output_path->empty()) throw UsageError{messages::output_path_empty()};
      file.emplace(*output_path);
    }
    const Streams streams{io.in, file ? file->stream() : io.out, io.err};
    const ExitCode code = command.run(streams);
    if (const int signal = interrupt::pending()) throw Interrupted{signal, std::nullopt};
    if (file) file->commit();
    return code;
  } catch (const Interrupted& e) {
    if (file) file->discard();
    const std::string where = file ? file->path() : "";
    // A batch says how far it got, even when that is 0 lines (a signal before the first).
    io.err << "snnplan: "
           << (e.lines_written ? messages::batch_interrupted(e.signal, *e.lines_written, where)
                               : messages::interrupted(e.signal, where))
           << '\n';
    return interrupted_by(e.signal);
  } catch (const WriteFailed& e) {
    return fail(messages::cannot_write_output(e.reason), ExitCode::write_failed);
  } catch (const UsageError& e) {
    return fail(e.message, ExitCode::bad_input);
  } catch (const EvaluationFailed& e) {
    return fail(e.error.message, exit_code_of(e.error.kind));
  } catch (const RuleError& e) {
    return fail(e.what(), ExitCode::rule_error);
  } catch (const InputError& e) {
    return fail(e.what(), ExitCode::bad_input);
  } catch (const LoadError& e) {
    for (const Diagnostic& d : e.diagnostics()) io.err << format(d) << '\n';
    return ExitCode::rules_unusable;
  }
}

// Everything the run printed on standard output reached it, or the run fails: a full disk
// or a reader that went away is never a success.
int checked(int code, std::ostream& out, std::ostream& err) {
  out.flush();
  if (out || code == as_int(ExitCode::write_failed)) return code;
  err << "error: " << messages::cannot_write_output(write_failure_reason(out)) << '\n';
  return as_int(ExitCode::write_failed);
}

// CLI11 says only "A subcommand is required" for `snnplan recomend` or `snnplan --bogus`;
// these name the word and the nearest known one. An empty result: the first word is fine.
std::string refusal_of_first_word(const CommandLine& cli, std::string_view word) {
  std::vector<std::string> names;
  for (const Command& command : cli.commands) names.push_back(command.app->get_name());
  if (word.empty() || word[0] != '-')
    return std::find(names.begin(), names.end(), word) == names.end()
               ? messages::unknown_subcommand(word, names, messages::closest_match(word, names))
               : std::string();
  const std::string flag(word.substr(0, word.find('=')));
  std::vector<std::string> own;
  for (const CLI::Option* option : cli.app.get_options()) {
    for (const std::string& name : option->get_lnames()) own.push_back("--" + name);
    for (const std::string& name : option->get_snames()) own.push_back("-" + name);
  }
  if (std::find(own.begin(), own.end(), flag) != own.end()) return {};
  return messages::unknown_option(flag, messages::closest_match(flag, own));
}

}  // namespace

namespace {

/// Every subcommand, in the order of `snnplan --help`. `whole_tree`: it reads the other
/// subcommands (help, completion), so it is never built alone -- and comes last, so that every
/// other subcommand is there when it is set up.
struct CommandRow {
  const char* name;
  Command (*setup)(CLI::App& app);
  bool whole_tree;
};
constexpr CommandRow kCommandRows[] = {
    {"recommend", setup_recommend, false},   {"explain", setup_explain, false},
    {"microbatches", setup_microbatches, false}, {"check", setup_check, false},
    {"test", setup_test, false},             {"graph", setup_graph, false},
    {"plan", setup_plan, false},             {"plan-training", setup_plan_training, false},
    {"schema", setup_schema, false},
    {"diff", setup_diff, false},             {"map", setup_map, false},
    {"replay", setup_replay, false},         {"lsp", setup_lsp, false},
    {"serve", setup_serve, false},
    {"completion", setup_completion, true},  {"help", setup_help, true},
};
constexpr bool whole_tree_rows_last() {
  bool seen = false;
  for (const CommandRow& row : kCommandRows) {
    if (row.whole_tree) seen = true;
    else if (seen) return false;
  }
  return true;
}
static_assert(whole_tree_rows_last(), "help and completion must be set up after every subcommand they list");

}  // namespace

CommandLine::CommandLine(std::string_view only)
    // Named here: CLI11 would take the name of the usage lines from argv[0], a path.
    : app("snnplan: choose a parallel training strategy for spiking neural networks from a YAML "
          "rule table.",
          "snnplan") {
  app.set_version_flag("--version", std::string(snnplan::version),
                       "print the version, the rule format and the built-in rules' SHA-256");
  app.require_subcommand(1);
  const auto alone = std::find_if(std::begin(kCommandRows), std::end(kCommandRows),
                                  [&](const CommandRow& row) { return !row.whole_tree && row.name == only; });
  const bool version_only = only == "--version";
  for (const CommandRow& row : kCommandRows) {
    if (version_only || (alone != std::end(kCommandRows) && &row != alone)) continue;
    commands.push_back(row.setup(app));
    if (commands.back().app->get_name() != row.name)
      throw std::logic_error("snnplan: subcommand row " + std::string(row.name) + " sets up " +
                             commands.back().app->get_name());
  }
  for (const Command& command : commands) refuse_flag_names_as_values(*command.app);
}

namespace {

// The subcommand whose flags a run builds (see CommandLine): a run of one subcommand builds only
// that one's (most of the start-up cost). `--version` alone builds none; followed by more words,
// they are parsed as before.
std::string_view subcommand_to_build(int argc, const char* const* argv) {
  const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  return first == "--version" && argc > 2 ? std::string_view() : first;
}

int run_unchecked(CommandLine& cli, int argc, const char* const* argv, std::istream& in,
                  std::ostream& out, std::ostream& err) {
  CLI::App& app = cli.app;
  if (argc > 1) {
    if (const std::string refusal = refusal_of_first_word(cli, argv[1]); !refusal.empty()) {
      err << "error: " << refusal << '\n' << messages::run_with_help() << '\n';
      return as_int(ExitCode::bad_input);
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the parsed subcommand's, its usage line starting "snnplan CMD"
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForVersion&) {
    // A built-in file that uses others is named in decision records by its revision (the hash
    // of its hash and its used files' revisions), so that is printed beside its own hash.
    std::vector<messages::BuiltinRevision> builtins;
    for (const auto& [file, sha256] : RuleSet::builtin_sha256()) {
      std::string revision = RuleSetAccess::builtin_revision(file);
      builtins.push_back({file, sha256, revision == sha256 ? std::string() : std::move(revision)});
    }
    out << messages::version_report(snnplan::version, snnplan::rule_format_version, builtins);
    return as_int(ExitCode::ok);
  } catch (const CLI::ParseError& e) {
    err << "error: " << e.what() << '\n' << messages::run_with_help() << '\n';
    return as_int(ExitCode::bad_input);
  }
  const Streams io{in, out, err};
  for (const Command& command : cli.commands)
    if (command.app->parsed()) return as_int(dispatch(command, io));
  return as_int(ExitCode::bad_input);
}

}  // namespace

// The command line a run with CommandLineLifetime::process leaves to the process's exit. A
// pointer with external linkage: the compiler keeps the store (a write-only static it may drop),
// and a leak checker finds the tree reachable from it, not leaked.
CommandLine* command_line_left_to_exit = nullptr;

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err,
        CommandLineLifetime lifetime) {
  reset_cache_choice();
  auto cli = std::make_unique<CommandLine>(subcommand_to_build(argc, argv));
  const int code = checked(run_unchecked(*cli, argc, argv, in, out, err), out, err);
  if (lifetime == CommandLineLifetime::process && command_line_left_to_exit == nullptr)
    command_line_left_to_exit = cli.release();
  return code;
}

}  // namespace snnplan::cli
