// `snnplan completion bash|zsh|fish`: a shell completion script, generated from the command
// line itself (frontends/cli/completion.hpp). `source <(snnplan completion bash)` enables it.

#include "frontends/cli/completion.hpp"

#include <ostream>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"

namespace snnplan::cli {
namespace {

struct CompletionFlags {
  std::string shell;
  const CLI::App* app = nullptr;  // the whole command line
};

ExitCode completion(const CompletionFlags& f, const Streams& io) {
  io.out << completion_script(*f.app, f.shell);
  return ExitCode::ok;
}

}  // namespace

Command setup_completion(CLI::App& app) {
  return make_command<CompletionFlags>(
      app, "completion", "Print a shell completion script for bash, zsh or fish.",
      [](CLI::App& command, CompletionFlags& f) {
        f.app = command.get_parent();
        add_choice_option(command, "shell", f.shell, "the shell", completion_shells())->required();
      },
      &completion);
}

}  // namespace snnplan::cli
