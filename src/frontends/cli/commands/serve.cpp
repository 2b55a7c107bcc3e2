// `snnplan serve FILE`: the operator workbench (src/frontends/serve/, docs/serve.md), a local web page
// that checks, explains, diffs, maps and tests the edited text as the operator types. Saving
// goes through the same atomic replacement as -o (frontends/cli/output.hpp). Runs until SIGINT or
// SIGTERM, which end it as they end any command (exit 130 / 143).

#include <ostream>
#include <stdexcept>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/interrupt.hpp"
#include "frontends/cli/output.hpp"
#include "frontends/cli/rule_files.hpp"
#include "frontends/serve/server.hpp"

namespace snnplan::cli {
namespace {

struct ServeFlags {
  std::string file;
  std::vector<std::string> tests;
  std::string host = "127.0.0.1";
  int port = 8080;
  bool allow_remote = false;
  std::vector<std::string> rule_roots;
};

// The workbench's save: the -o mechanism, so FILE holds its old text or all of the new one.
void save_atomically(const std::string& path, const std::string& text) {
  try {
    AtomicFileOutput file(path);
    file.stream() << text;
    file.commit();
  } catch (const WriteFailed& e) {
    throw std::runtime_error(e.reason);
  }
}

ExitCode serve_command(const ServeFlags& f, const Streams& io) {
  serve::ServerOptions options{
      .workbench = {.path = f.file, .test_paths = f.tests, .rule_roots = f.rule_roots,
                    .save = &save_atomically},
      .host = f.host,
      .port = f.port,
      .allow_remote = f.allow_remote};
  try {
    serve::serve(options, io.out, [] { return interrupt::pending() != 0; });
  } catch (const std::invalid_argument& e) {
    throw UsageError{e.what()};
  } catch (const std::runtime_error& e) {
    throw UsageError{e.what()};
  }
  return ExitCode::ok;
}

}  // namespace

Command setup_serve(CLI::App& app) {
  return make_command<ServeFlags>(
      app, "serve",
      "Run the operator workbench: a local web page that checks, explains, diffs, maps and "
      "tests a rule file as you edit it (docs/serve.md).",
      [](CLI::App& command, ServeFlags& f) {
        command.add_option("file", f.file, "the rule file to edit")
            ->required()
            ->type_name(kFilePlaceholder);
        command.add_option("--tests", f.tests, "rule-test files to run on every edit (repeatable)")
            ->type_name(kFilePlaceholder);
        command.add_option("--host", f.host,
                           "the address to listen on (default 127.0.0.1; another needs "
                           "--allow-remote)")
            ->type_name("HOST");
        command.add_option("--port", f.port, "the port (default 8080; 0: any free port)")
            ->check(CLI::Range(0, 65535))
            ->type_name("INT");
        command.add_flag("--allow-remote", f.allow_remote,
                         "allow a --host other than the loopback; every request then needs "
                         "the token printed at start");
        add_rules_root_option(command, f.rule_roots);
      },
      &serve_command);
}

}  // namespace snnplan::cli
