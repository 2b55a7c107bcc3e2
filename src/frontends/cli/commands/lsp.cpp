// `snnplan lsp`: the language server for rule files (src/frontends/lsp/server.hpp) on standard input and
// output. It writes nothing but protocol messages to standard output.

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/lsp/server.hpp"

namespace snnplan::cli {
namespace {

struct LspFlags {
  std::vector<std::string> rule_roots;
  bool stdio = false;
};

ExitCode lsp(const LspFlags& f, const Streams& io) {
  // The protocol's exit code: 0 after shutdown, 1 when the client exits (or goes) without one.
  return lsp::run(io.in, io.out, lsp::ServerOptions{f.rule_roots}) == 0 ? ExitCode::ok
                                                                        : ExitCode::rule_error;
}

}  // namespace

Command setup_lsp(CLI::App& app) {
  return make_command<LspFlags>(
      app, "lsp",
      "Run the Language Server Protocol server for rule files on standard input and output "
      "(docs/lsp.md).",
      [](CLI::App& command, LspFlags& f) {
        command
            .add_option("--rules-root", f.rule_roots,
                        "a directory the server may read (uses: files, input.yaml) besides the "
                        "client's workspace folders; repeatable")
            ->type_name("DIR");
        // Editors' generic LSP clients pass --stdio; standard input and output is the only way.
        command.add_flag("--stdio", f.stdio, "speak over standard input and output (the default)");
      },
      &lsp);
}

}  // namespace snnplan::cli
