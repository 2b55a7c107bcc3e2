#pragma once
// The manual page snnplan(1), in roff, generated from the command line's own definitions:
// every subcommand with its options, placeholders and help, the exit codes and the
// environment. The build writes it with `snnplan help --man` and installs it.

#include <CLI/CLI.hpp>
#include <string>

namespace snnplan::cli {

std::string man_page(const CLI::App& app);

}  // namespace snnplan::cli
