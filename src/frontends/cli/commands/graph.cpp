// `snnplan graph`: the table-call and derived-value graphs as Graphviz DOT.

#include <memory>
#include <ostream>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"
#include "render/dot.hpp"

namespace snnplan::cli {
namespace {

struct GraphFlags {
  std::string rules;
  std::string only;
  std::vector<std::string> rule_roots;
  CLI::Option* rules_option = nullptr;
};

ExitCode graph(const GraphFlags& f, const Streams& io) {
  const RuleSet rules = load_rules(given_value(f.rules_option, f.rules), io.in, LoadOptions{.rule_roots = f.rule_roots});
  const render::GraphPart part = f.only == "tables"   ? render::GraphPart::tables
                                 : f.only == "values" ? render::GraphPart::values
                                                      : render::GraphPart::all;
  io.out << render::to_dot(rules, part);
  return ExitCode::ok;
}

}  // namespace

Command setup_graph(CLI::App& app) {
  return make_command<GraphFlags>(
      app, "graph", "Print the table-call and derived-value graphs as Graphviz DOT.",
      [](CLI::App& command, GraphFlags& f) {
        f.rules_option = add_rules_option(
            command, f.rules, "rule file (default: $SNNPLAN_RULES, else the built-in table)");
        add_rules_root_option(command, f.rule_roots);
        add_choice_option(command, "--only", f.only, "which part to draw",
                          {"all", "tables", "values"});
      },
      &graph);
}

}  // namespace snnplan::cli
