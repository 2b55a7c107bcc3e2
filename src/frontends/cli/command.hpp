#pragma once
// One file per subcommand (cli/commands/*.cpp), as CLI11's subcom_in_files example has it:
// each adds its subcommand and options to the app and returns how to run it once parsed.
// app.cpp keeps the shared options and the dispatch.

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "frontends/cli/exit_code.hpp"

namespace snnplan::cli {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

/// -o / --output FILE, which every subcommand has: its result goes to FILE, atomically
/// (frontends/cli/output.hpp), instead of standard output.
struct OutputFlag {
  std::string path;
  CLI::Option* option = nullptr;
};

struct Command {
  CLI::App* app = nullptr;  ///< the subcommand
  /// Runs the parsed subcommand: returns its exit code or throws (frontends/cli/exit_code.hpp).
  std::function<ExitCode(const Streams&)> run;
  std::shared_ptr<OutputFlag> output;
};

/// The subcommand `name`, whose options are bound to a Flags object the command owns:
/// `add_options` adds them, `run` runs the parsed subcommand with their values.
template <typename Flags>
Command make_command(CLI::App& app, const char* name, const char* description,
                     void (*add_options)(CLI::App& command, Flags& flags),
                     ExitCode (*run)(const Flags& flags, const Streams& io)) {
  auto flags = std::make_shared<Flags>();
  CLI::App* command = app.add_subcommand(name, description);
  add_options(*command, *flags);
  auto output = std::make_shared<OutputFlag>();
  output->option = command->add_option(
      "-o,--output", output->path,
      "write the result to FILE instead of standard output; FILE is replaced only once the "
      "whole result is written")
      ->type_name("FILE");
  return {command, [flags, run](const Streams& io) { return run(*flags, io); }, output};
}

Command setup_recommend(CLI::App& app);
Command setup_explain(CLI::App& app);
Command setup_microbatches(CLI::App& app);
Command setup_check(CLI::App& app);
Command setup_test(CLI::App& app);
Command setup_graph(CLI::App& app);
Command setup_plan(CLI::App& app);
Command setup_plan_training(CLI::App& app);
Command setup_diff(CLI::App& app);
Command setup_map(CLI::App& app);
Command setup_replay(CLI::App& app);
Command setup_schema(CLI::App& app);
Command setup_completion(CLI::App& app);
Command setup_help(CLI::App& app);
Command setup_lsp(CLI::App& app);
Command setup_serve(CLI::App& app);

}  // namespace snnplan::cli
