// The public RuleSet: runs the pipeline load -> check -> compile once, then evaluates.

#include "snnplan/rule_set.hpp"

#include "snnplan/explain.hpp"

#include <fstream>
#include <sstream>

#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "evaluate/evaluator.hpp"
#include "load/rule_file_loader.hpp"
#include "messages.hpp"

namespace snnplan {

namespace detail {
// Generated at build time from rules/snn_distributed.yaml (cmake/embed_rules.cmake).
extern const char kBuiltinRulesText[];
extern const std::size_t kBuiltinRulesSize;
}  // namespace detail

const Value* Record::find(std::string_view name) const noexcept {
  for (std::size_t k = 0; k < names_->size(); ++k)
    if ((*names_)[k] == name) return &values_[k];
  return nullptr;
}

RuleSet RuleSet::from_string(std::string_view text, std::string file_name) {
  load::LoadedFile loaded = load::load_rule_file(text, file_name);
  std::vector<Diagnostic> diagnostics = std::move(loaded.diagnostics);
  // Checking a file whose shape is broken would only add noise about missing pieces.
  if (!has_errors(diagnostics)) {
    std::vector<Diagnostic> found = check::check_rule_file(loaded.file);
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
  }
  if (has_errors(diagnostics)) throw LoadError(std::move(diagnostics));
  auto compiled = compile::compile_rules(loaded.file, std::string(text));
  compiled->warnings = std::move(diagnostics);
  return RuleSet(std::move(compiled));
}

RuleSet RuleSet::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw LoadError({Diagnostic{Severity::error, SourceLocation{path, 0, 0}, "cannot-read",
                                messages::cannot_read(path, "no such file or not readable")}});
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw LoadError({Diagnostic{Severity::error, SourceLocation{path, 0, 0}, "cannot-read",
                                messages::cannot_read(path, "read error")}});
  }
  return from_string(text.str(), path);
}

std::string_view RuleSet::builtin_text() noexcept {
  return std::string_view(detail::kBuiltinRulesText, detail::kBuiltinRulesSize);
}

const RuleSet& RuleSet::builtin() {
  // Built on first use; thread-safe by the rules for function-local statics.
  static const RuleSet rules = from_string(builtin_text(), "rules/snn_distributed.yaml");
  return rules;
}

EvaluationResult RuleSet::evaluate(const Inputs& inputs) const { return evaluate::evaluate(*rules_, inputs); }

Explanation RuleSet::explain(const Inputs& inputs) const {
  std::vector<TraceStep> steps;
  EvaluationResult result = evaluate::evaluate(*rules_, inputs, &steps);
  return Explanation{std::move(result), std::move(steps)};
}

const char* to_string(TraceStep::Kind kind) {
  switch (kind) {
    case TraceStep::Kind::enter_table: return "enter_table";
    case TraceStep::Kind::rule_skipped: return "rule_skipped";
    case TraceStep::Kind::rule_fired: return "rule_fired";
    case TraceStep::Kind::fallback: return "fallback";
    case TraceStep::Kind::derived_value: return "derived_value";
    case TraceStep::Kind::error: return "error";
  }
  return "?";
}

const std::vector<InputInfo>& RuleSet::inputs() const noexcept { return rules_->input_info; }
const std::string& RuleSet::file_name() const noexcept { return rules_->file_name; }
const std::vector<Diagnostic>& RuleSet::warnings() const noexcept { return rules_->warnings; }

}  // namespace snnplan
