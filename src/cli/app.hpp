#pragma once
// The `snnplan` command line: recommend, explain, microbatches, check, test, graph, plan
// (one file each under cli/commands/).

#include <iosfwd>

namespace snnplan::cli {

/// Runs the CLI as `main` would; returns the process exit code. Streams are parameters so
/// tests can run it in-process.
int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace snnplan::cli
