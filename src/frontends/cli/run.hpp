#pragma once
// Running the `snnplan` command line (frontends/cli/app.cpp), without CLI11's headers: main.cpp and
// whoever runs the CLI in-process need only this.

#include <iosfwd>

namespace snnplan::cli {

/// What becomes of the command line `run` builds (CLI11's tree of the subcommand's options)
/// once it has run.
enum class CommandLineLifetime {
  run,      ///< taken apart before `run` returns: tests, anything that runs the CLI many times
  process,  ///< left to the process's exit: `main`, which returns at once (taking CLI11's tree
            ///< apart costs ~90k instructions, a tenth of a cold `snnplan recommend`). Only the
            ///< first such run's is kept; a later one's is taken apart as with `run`.
};

/// Runs the CLI as `main` would; returns the process exit code. Streams are parameters so
/// tests can run it in-process.
int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err,
        CommandLineLifetime lifetime = CommandLineLifetime::run);

}  // namespace snnplan::cli
