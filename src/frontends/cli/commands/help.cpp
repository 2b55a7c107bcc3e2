// `snnplan help [COMMAND]`: the help of snnplan or of one subcommand, as --help prints it;
// `snnplan help --man` the manual page (roff) the build installs as snnplan(1).

#include <ostream>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/manual.hpp"

namespace snnplan::cli {
namespace {

struct HelpFlags {
  std::string command;
  bool man = false;
  const CLI::App* app = nullptr;  // the whole command line
};

ExitCode help(const HelpFlags& f, const Streams& io) {
  if (f.man) {
    io.out << man_page(*f.app);
    return ExitCode::ok;
  }
  // App::help() would show the parsed subcommand's help, this one's: format the app itself.
  if (f.command.empty()) {
    io.out << f.app->get_formatter()->make_help(f.app, f.app->get_name(),
                                                CLI::AppFormatMode::Normal);
    return ExitCode::ok;
  }
  io.out << f.app->get_subcommand(f.command)->help(f.app->get_name());  // "snnplan CMD"
  return ExitCode::ok;
}

}  // namespace

Command setup_help(CLI::App& app) {
  return make_command<HelpFlags>(
      app, "help", "Print the help of snnplan or of one of its subcommands.",
      [](CLI::App& command, HelpFlags& f) {
        f.app = command.get_parent();
        std::vector<std::string> names;  // set up last, so every subcommand is there
        for (const CLI::App* sub : f.app->get_subcommands([](const CLI::App*) { return true; }))
          names.push_back(sub->get_name());
        add_choice_option(command, "command", f.command, "the subcommand", names);
        command.add_flag("--man", f.man, "print the manual page snnplan(1) in roff instead");
      },
      &help);
}

}  // namespace snnplan::cli
