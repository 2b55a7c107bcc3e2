// The `snnplan` command line: the app's own options (--version, --help), the subcommands'
// setup (one file each, cli/commands/), and the dispatch that maps every outcome to an exit
// code (cli/exit_code.hpp).

#include "cli/app.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <vector>

#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/interrupt.hpp"
#include "cli/output.hpp"
#include "core/messages.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/recommendation.hpp"
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
    if (const int signal = interrupt::pending()) throw Interrupted{signal, 0};
    if (file) file->commit();
    return code;
  } catch (const Interrupted& e) {
    if (file) file->discard();
    const std::string where = file ? file->path() : "";
    io.err << "snnplan: "
           << (e.lines_written || file
                   ? messages::batch_interrupted(e.signal, e.lines_written, where)
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

int run_unchecked(int argc, const char* const* argv, std::istream& in, std::ostream& out,
                  std::ostream& err) {
  CLI::App app{
      "snnplan: choose a parallel training strategy for spiking neural networks from a YAML rule "
      "table."};
  app.set_version_flag("--version", std::string(snnplan::version));
  app.require_subcommand(1);
  const std::vector<Command> commands = {
      setup_recommend(app), setup_explain(app), setup_microbatches(app), setup_check(app),
      setup_test(app),      setup_graph(app),   setup_plan(app)};

  // `snnplan recomend ...`: CLI11 would only say that a subcommand is required.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const Command& command : commands) names.push_back(command.app->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      err << "error: "
          << messages::unknown_subcommand(argv[1], messages::closest_match(argv[1], names)) << '\n'
          << messages::run_with_help() << '\n';
      return as_int(ExitCode::bad_input);
    }
  }
  for (const Command& command : commands) refuse_flag_names_as_values(*command.app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    CLI::App* target = &app;
    for (CLI::App* sub : app.get_subcommands()) target = sub;
    out << target->help();
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return as_int(ExitCode::ok);
  } catch (const CLI::CallForVersion&) {
    out << snnplan::version << '\n';
    return as_int(ExitCode::ok);
  } catch (const CLI::ParseError& e) {
    err << "error: " << e.what() << '\n' << messages::run_with_help() << '\n';
    return as_int(ExitCode::bad_input);
  }
  const Streams io{in, out, err};
  for (const Command& command : commands)
    if (command.app->parsed()) return as_int(dispatch(command, io));
  return as_int(ExitCode::bad_input);
}

}  // namespace

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  return checked(run_unchecked(argc, argv, in, out, err), out, err);
}

}  // namespace snnplan::cli
