#include "usecases/check.hpp"

#include <stdexcept>
#include <utility>

#include "api/rule_set_access.hpp"
#include "check/checker.hpp"
#include "check/messages.hpp"
#include "core/diagnostic_codes.hpp"
#include "usecases/messages.hpp"

namespace snnplan::usecases {
namespace {

const detail::DiagnosticCodeInfo& known_code(std::string_view flag, const std::string& code) {
  const detail::DiagnosticCodeInfo* row = detail::find_diagnostic_code(code);
  if (row == nullptr)
    throw std::invalid_argument(messages::unknown_policy_code(
        flag, code, messages::closest_match(code, detail::diagnostic_code_names())));
  return *row;
}

// An accepted finding as `--show-allowed` shows it: a note at its place, with the reason.
Diagnostic shown_allowed(const check::AllowedDiagnostic& a) {
  Diagnostic d = a.diagnostic;
  d.message = messages::allowed_finding(to_string(d.severity), d.message, a.reason);
  d.severity = Severity::note;
  return d;
}

}  // namespace

WarningPolicy::WarningPolicy(const std::vector<std::string>& error_codes,
                             const std::vector<std::string>& ignored_codes, bool strict)
    : strict_(strict) {
  for (const std::string& code : error_codes) errors_.insert(known_code("--error", code).code);
  for (const std::string& code : ignored_codes) {
    const detail::DiagnosticCodeInfo& row = known_code("--ignore", code);
    if (row.severity == Severity::error) throw std::invalid_argument(messages::ignore_error(code));
    ignored_.insert(row.code);
  }
}

std::vector<Diagnostic> WarningPolicy::apply(std::vector<Diagnostic> diagnostics) const {
  std::erase_if(diagnostics, [&](const Diagnostic& d) { return ignored_.contains(d.code); });
  for (Diagnostic& d : diagnostics)
    if (errors_.contains(d.code)) d.severity = Severity::error;
  return diagnostics;
}

std::string CheckedRules::summary(std::string_view name) const {
  return failed ? messages::check_failed(name, errors, warnings, strict)
                : messages::check_ok(name, rule_count, table_count, warnings, allowed);
}

CheckedRules check_rules(const RuleLoader& load, const CheckRequest& request) {
  CheckedRules out;
  std::vector<Diagnostic> diagnostics;
  try {
    RuleSet rules = load(LoadOptions{.analyse_tables = true,
                                     .report_overlaps = request.overlaps,
                                     .rule_roots = request.rule_roots});
    const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
    diagnostics = rules.warnings();
    if (request.show_allowed)
      for (const check::AllowedDiagnostic& a : compiled.allowed)
        diagnostics.push_back(shown_allowed(a));
    check::sort_by_position(diagnostics);
    out.allowed = compiled.allowed.size();
    out.table_count = compiled.tables.size();
    for (const auto& table : compiled.tables) out.rule_count += table.rules.size();
    RuleSetAccess::add_sources(compiled, out.sources);
    out.rules = std::move(rules);
  } catch (const LoadError& e) {
    diagnostics = e.diagnostics();
    out.sources = e.sources();
  }
  out.diagnostics = request.policy.apply(std::move(diagnostics));
  out.errors = check::count_severity(out.diagnostics, Severity::error);
  out.warnings = check::count_severity(out.diagnostics, Severity::warning);
  out.strict = request.policy.strict();
  out.failed = !out.rules || request.policy.fails(out.errors, out.warnings);
  return out;
}

CheckedRules check_rule_text(std::string_view text, const std::string& path,
                             const CheckRequest& request) {
  return check_rules(
      [&](const LoadOptions& options) { return RuleSetAccess::from_text_at(text, path, options); },
      request);
}

}  // namespace snnplan::usecases
