#pragma once
// Shell completion scripts for bash, zsh and fish, generated from the command line's own
// definitions (its subcommands, their options and placeholders), so they cannot fall behind:
// a FILE placeholder completes file names, BOOL true or false, a choice placeholder such as
// {json,yaml,text} its choices.

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::cli {

/// "bash", "zsh", "fish": the shells `snnplan completion` writes a script for.
std::vector<std::string> completion_shells();

/// The script for `shell` (one of completion_shells()), completing the subcommands of `app`
/// and their options.
std::string completion_script(const CLI::App& app, std::string_view shell);

}  // namespace snnplan::cli
