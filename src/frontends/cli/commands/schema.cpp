// `snnplan schema rules|tests|record|decision-log`: the JSON Schema (draft 2020-12) of rule
// files, rule-test files or the records a rule file returns, generated from the loaders' own
// tables (render/schema.hpp), or of a decision-log line (decisions/record_schema.hpp).

#include "render/schema.hpp"

#include "decisions/record_schema.hpp"

#include <ostream>

#include "frontends/cli/command.hpp"
#include "frontends/cli/flags.hpp"
#include "frontends/cli/rule_files.hpp"

namespace snnplan::cli {
namespace {

struct SchemaFlags {
  std::string kind;
  std::string rules;
  CLI::Option* rules_option = nullptr;
};

ExitCode schema(const SchemaFlags& f, const Streams& io) {
  switch (*render::parse_schema_name(f.kind)) {  // the choice check admits only these
    case render::SchemaKind::rules:
      io.out << render::schema_text(render::rule_file_schema());
      break;
    case render::SchemaKind::tests:
      io.out << render::schema_text(render::rule_test_schema());
      break;
    case render::SchemaKind::record: {
      const RuleSet rules = load_rules(given_value(f.rules_option, f.rules), io.in);
      io.out << render::schema_text(render::record_schema(rules));
      break;
    }
    case render::SchemaKind::decision_log:
      io.out << render::schema_text(decisions::record_schema());
      break;
  }
  return ExitCode::ok;
}

}  // namespace

Command setup_schema(CLI::App& app) {
  return make_command<SchemaFlags>(
      app, "schema", "Print the JSON Schema of rule files, rule-test files, records or decision-log lines.",
      [](CLI::App& command, SchemaFlags& f) {
        add_choice_option(command, "kind", f.kind, "which schema", render::schema_names())
            ->required();
        f.rules_option = add_rules_option(command, f.rules,
                                          "for record: the rule file whose record (default: "
                                          "$SNNPLAN_RULES, else the built-in table)");
      },
      &schema);
}

}  // namespace snnplan::cli
