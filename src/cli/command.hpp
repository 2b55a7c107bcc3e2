#pragma once
// One file per subcommand (cli/commands/*.cpp), as CLI11's subcom_in_files example has it:
// each adds its subcommand and options to the app and returns how to run it once parsed.
// app.cpp keeps the shared options and the dispatch.

#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>

#include "cli/exit_code.hpp"

namespace snnplan::cli {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  CLI::App* app = nullptr;  ///< the subcommand
  /// Runs the parsed subcommand: returns its exit code or throws (cli/exit_code.hpp).
  std::function<ExitCode(const Streams&)> run;
};

Command setup_recommend(CLI::App& app);
Command setup_explain(CLI::App& app);
Command setup_microbatches(CLI::App& app);
Command setup_check(CLI::App& app);
Command setup_test(CLI::App& app);
Command setup_graph(CLI::App& app);
Command setup_plan(CLI::App& app);

}  // namespace snnplan::cli
