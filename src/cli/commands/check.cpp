// `snnplan check FILE...`: every problem of each rule file with its position, source line and
// caret. The source lines come from the texts the load kept (LoadError::sources() and the
// compiled rules'), not from the files again: they show what was checked.

#include <algorithm>
#include <memory>
#include <ostream>

#include "api/rule_set_access.hpp"
#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/rule_files.hpp"
#include "core/messages.hpp"
#include "render/format.hpp"

namespace snnplan::cli {
namespace {

struct CheckFlags {
  std::vector<std::string> files;
  bool strict = false;
  std::vector<std::string> rule_roots;
  std::string format;
};

// The texts of a rule set's file and of the files it uses, as they were loaded.
void add_sources(const detail::CompiledRules& rules, std::vector<SourceText>& out) {
  out.push_back(SourceText{rules.file_name, rules.source_text});
  for (const auto& used : rules.used) add_sources(*used, out);
}

ExitCode check(const CheckFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::diagnostics);
  std::vector<Diagnostic> diagnostics;
  std::vector<SourceText> sources;
  if (std::count(f.files.begin(), f.files.end(), "-") > 1)
    throw UsageError{messages::stdin_read_twice("-", "-")};
  for (const std::string& path : f.files) {
    try {
      const RuleSet rules = load_rule_file(path, io.in, LoadOptions{.analyse_tables = true, .rule_roots = f.rule_roots});
      diagnostics.insert(diagnostics.end(), rules.warnings().begin(), rules.warnings().end());
      add_sources(RuleSetAccess::compiled(rules), sources);
    } catch (const LoadError& e) {
      diagnostics.insert(diagnostics.end(), e.diagnostics().begin(), e.diagnostics().end());
      sources.insert(sources.end(), e.sources().begin(), e.sources().end());
    }
  }
  bool failed = false;
  for (const Diagnostic& d : diagnostics)
    failed =
        failed || d.severity == Severity::error || (f.strict && d.severity == Severity::warning);
  io.out << render::render_diagnostics(diagnostics, sources, format);
  return failed ? ExitCode::rules_unusable : ExitCode::ok;
}

}  // namespace

Command setup_check(CLI::App& app) {
  return make_command<CheckFlags>(
      app, "check", "Check rule files; report every problem with its position.",
      [](CLI::App& command, CheckFlags& f) {
        command.add_option("files", f.files, "rule files ('-': standard input)")
            ->required()
            ->type_name(kFilePlaceholder);
        command.add_flag("--strict", f.strict, "treat warnings as failures");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::diagnostics);
      },
      &check);
}

}  // namespace snnplan::cli
