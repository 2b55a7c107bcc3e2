#pragma once
// The `snnplan` command line: recommend, explain, microbatches, check, test, graph, plan,
// schema, completion and help (one file each under cli/commands/).

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "frontends/cli/command.hpp"
#include "frontends/cli/run.hpp"

namespace snnplan::cli {

/// The app's options and every subcommand with its flags, as `run` parses them. The help,
/// the man page (`snnplan help --man`) and the shell completions are generated from it.
/// With `only` naming a subcommand that does not read the others (not help or completion),
/// only that subcommand is built: what a run of it parses is the same. With `only` "--version"
/// none is: `snnplan --version` parses nothing else.
struct CommandLine {
  explicit CommandLine(std::string_view only = {});

  CLI::App app;
  std::vector<Command> commands;
};

/// The command line a run with CommandLineLifetime::process left to the process's exit (see
/// run.hpp); nullptr before.
extern CommandLine* command_line_left_to_exit;

}  // namespace snnplan::cli
