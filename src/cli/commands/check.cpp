// `snnplan check FILE...`: every problem of each rule file with its position, source line and
// caret, then (text format) one summary line per file. The source lines come from the texts the
// load kept (LoadError::sources() and the compiled rules'), not from the files again: they
// show what was checked.
//
// The warning policy is applied here, on the diagnostics the load returned: `--ignore` drops
// findings by code, `--error` makes them errors, `--strict` makes every warning fail the check.
// Findings a rule file accepts with `allow:` are not among them (check/allowances.hpp);
// `--show-allowed` shows them as notes. `--overlaps` asks the analysis for the rules partly
// covered by earlier ones (notes).

#include <algorithm>
#include <memory>
#include <ostream>
#include <set>

#include "api/rule_set_access.hpp"
#include "check/checker.hpp"
#include "check/messages.hpp"
#include "cli/command.hpp"
#include "cli/flags.hpp"
#include "cli/rule_files.hpp"
#include "core/diagnostic_codes.hpp"
#include "cli/messages.hpp"
#include "load/messages.hpp"
#include "render/format.hpp"

namespace snnplan::cli {
namespace {

struct CheckFlags {
  std::vector<std::string> files;
  bool strict = false;
  std::vector<std::string> error_codes;
  std::vector<std::string> ignored_codes;
  bool show_allowed = false;
  bool overlaps = false;
  std::vector<std::string> rule_roots;
  std::string format;
};

// What --error, --ignore and --strict ask for, with the codes checked against the code table.
class Policy {
 public:
  explicit Policy(const CheckFlags& f) : strict_(f.strict) {
    for (const std::string& code : f.error_codes) errors_.insert(known("--error", code).code);
    for (const std::string& code : f.ignored_codes) {
      const detail::DiagnosticCodeInfo& row = known("--ignore", code);
      if (row.severity == Severity::error) throw UsageError{messages::ignore_error(code)};
      ignored_.insert(row.code);
    }
  }

  /// The diagnostics as the policy has them: ignored ones dropped, --error ones made errors.
  [[nodiscard]] std::vector<Diagnostic> apply(std::vector<Diagnostic> diagnostics) const {
    std::erase_if(diagnostics, [&](const Diagnostic& d) { return ignored_.contains(d.code); });
    for (Diagnostic& d : diagnostics)
      if (errors_.contains(d.code)) d.severity = Severity::error;
    return diagnostics;
  }

  [[nodiscard]] bool fails(std::size_t errors, std::size_t warnings) const {
    return errors > 0 || (strict_ && warnings > 0);
  }
  [[nodiscard]] bool strict() const { return strict_; }

 private:
  static const detail::DiagnosticCodeInfo& known(std::string_view flag, const std::string& code) {
    const detail::DiagnosticCodeInfo* row = detail::find_diagnostic_code(code);
    if (row == nullptr)
      throw UsageError{
          fmt::format("{} {}: {}", flag, code,
                      messages::unknown_code(
                          code, messages::closest_match(code, detail::diagnostic_code_names())))};
    return *row;
  }

  bool strict_;
  std::set<std::string_view> errors_;
  std::set<std::string_view> ignored_;
};

// An accepted finding as `--show-allowed` shows it: a note at its place, with the reason.
Diagnostic shown_allowed(const check::AllowedDiagnostic& a) {
  Diagnostic d = a.diagnostic;
  d.message = messages::allowed_finding(to_string(d.severity), d.message, a.reason);
  d.severity = Severity::note;
  return d;
}

ExitCode check(const CheckFlags& f, const Streams& io) {
  const render::Format format = render::parse_format(f.format, render::Output::diagnostics);
  const Policy policy(f);
  if (std::count(f.files.begin(), f.files.end(), "-") > 1)
    throw UsageError{messages::stdin_read_twice("-", "-")};
  std::vector<Diagnostic> all;
  std::vector<SourceText> sources;
  std::vector<std::string> summaries;
  bool failed = false;
  for (const std::string& path : f.files) {
    std::vector<Diagnostic> diagnostics;
    std::size_t rules = 0;
    std::size_t tables = 0;
    std::size_t allowed = 0;
    bool loaded = false;
    try {
      const RuleSet rule_set = load_rule_file(
          path, io.in,
          LoadOptions{
              .analyse_tables = true, .report_overlaps = f.overlaps, .rule_roots = f.rule_roots});
      const detail::CompiledRules& compiled = RuleSetAccess::compiled(rule_set);
      diagnostics = rule_set.warnings();
      for (const check::AllowedDiagnostic& a : compiled.allowed)
        if (f.show_allowed) diagnostics.push_back(shown_allowed(a));
      check::sort_by_position(diagnostics);
      allowed = compiled.allowed.size();
      tables = compiled.tables.size();
      for (const auto& table : compiled.tables) rules += table.rules.size();
      RuleSetAccess::add_sources(compiled, sources);
      loaded = true;
    } catch (const LoadError& e) {
      diagnostics = e.diagnostics();
      sources.insert(sources.end(), e.sources().begin(), e.sources().end());
    }
    diagnostics = policy.apply(std::move(diagnostics));
    const std::size_t errors = check::count_severity(diagnostics, Severity::error);
    const std::size_t warnings = check::count_severity(diagnostics, Severity::warning);
    const bool file_failed = !loaded || policy.fails(errors, warnings);
    failed = failed || file_failed;
    const std::string name = path == "-" ? std::string(kStdinName) : path;
    summaries.push_back(file_failed
                            ? messages::check_failed(name, errors, warnings, policy.strict())
                            : messages::check_ok(name, rules, tables, warnings, allowed));
    all.insert(all.end(), std::make_move_iterator(diagnostics.begin()),
               std::make_move_iterator(diagnostics.end()));
  }
  io.out << render::render_diagnostics(all, sources, format);
  // The summary is for people; `--format json` stays one JSON array of diagnostics.
  if (format == render::Format::text)
    for (const std::string& line : summaries) io.out << line << '\n';
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
        command.add_flag("--strict", f.strict, "treat warnings as failures (for CI)");
        command
            .add_option("--error", f.error_codes,
                        "make findings with these codes errors (comma-separated; docs/rules.md "
                        "lists the codes)")
            ->delimiter(',')
            ->type_name(kCodesPlaceholder);
        command
            .add_option("--ignore", f.ignored_codes,
                        "drop warnings and notes with these codes (comma-separated)")
            ->delimiter(',')
            ->type_name(kCodesPlaceholder);
        command.add_flag(
            "--show-allowed", f.show_allowed,
            "also show the findings the rule file accepts with allow:, as notes with their reason");
        command.add_flag("--overlaps", f.overlaps,
                         "also note each rule that matches some inputs an earlier rule takes "
                         "first (not a catch-all), with such an input");
        add_rules_root_option(command, f.rule_roots);
        add_format_option(command, f.format, render::Output::diagnostics);
      },
      &check);
}

}  // namespace snnplan::cli
