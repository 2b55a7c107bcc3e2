// The public RuleSet: runs the pipeline load -> check -> compile once, then evaluates.

#include "snnplan/rule_set.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyse/table_analysis.hpp"
#include "api/rule_set_access.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "core/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "load/rule_file_loader.hpp"
#include "snnplan/explain.hpp"

namespace snnplan {

namespace detail {
// Generated at build time from rules/*.yaml (cmake/embed_rules.cmake).
extern const std::pair<std::string_view, std::string_view> kBuiltinRuleFiles[];
extern const std::size_t kBuiltinRuleFileCount;
}  // namespace detail

namespace {

namespace fs = std::filesystem;

/// Rule files may name others under `uses`; this bounds how deep that goes.
constexpr std::size_t kMaxUsesDepth = 8;

std::optional<std::string_view> builtin_file(std::string_view name) {
  for (std::size_t k = 0; k < detail::kBuiltinRuleFileCount; ++k)
    if (detail::kBuiltinRuleFiles[k].first == name) return detail::kBuiltinRuleFiles[k].second;
  return std::nullopt;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

// Loads one rule file and, first, the files it uses. `directory` is where the file lives on
// disk ("" for text in memory or built-in files): used files are looked up there, then among
// the built-in files by name.
class PipelineRun {
 public:
  /// `sources` collects the texts of used files that have diagnostics (for LoadError).
  PipelineRun(const LoadOptions& options, std::vector<SourceText>& sources)
      : options_(options), sources_(sources) {}

  // A used file, loaded with the stack of files that led to it (for cycle detection).
  std::shared_ptr<detail::CompiledRules> build_nested(const std::vector<std::string>& stack,
                                                      std::string_view text,
                                                      const std::string& file_name,
                                                      const std::string& directory,
                                                      std::vector<Diagnostic>& out) {
    stack_ = stack;
    return build(text, file_name, directory, out);
  }

  std::shared_ptr<detail::CompiledRules> build(std::string_view text, const std::string& file_name,
                                               const std::string& directory,
                                               std::vector<Diagnostic>& out) {
    load::LoadedFile loaded = load::load_rule_file(text, file_name);
    std::vector<Diagnostic> diagnostics = std::move(loaded.diagnostics);
    std::map<std::string, std::shared_ptr<const detail::CompiledRules>> used;
    std::map<std::string, check::UsedRules> used_schemas;
    if (!has_errors(diagnostics)) {
      stack_.push_back(file_name);
      for (const syntax::Use& use : loaded.file.uses) {
        if (auto rules = build_used(use, directory, diagnostics)) {
          used_schemas[use.name.value] = schema_of(*rules);
          used[use.name.value] = std::move(rules);
        }
      }
      stack_.pop_back();
    }
    // Checking a file whose shape is broken would only add noise about missing pieces.
    std::vector<Diagnostic> found;
    if (!has_errors(diagnostics)) found = check::check_rule_file(loaded.file, used_schemas);
    std::shared_ptr<detail::CompiledRules> compiled;
    if (!has_errors(diagnostics) && !has_errors(found)) {
      compiled = compile::compile_rules(loaded.file, std::string(text), used);
      // Shadowed rules and gaps, decided on the compiled rules the evaluator runs.
      if (options_.analyse_tables) {
        std::vector<Diagnostic> analysis = analyse::analyse_tables(*compiled);
        found.insert(found.end(), analysis.begin(), analysis.end());
        check::sort_by_position(found);
      }
    }
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    if (compiled) compiled->warnings = diagnostics;
    out.insert(out.end(), diagnostics.begin(), diagnostics.end());
    return compiled;
  }

 private:
  std::shared_ptr<const detail::CompiledRules> build_used(const syntax::Use& use,
                                                          const std::string& directory,
                                                          std::vector<Diagnostic>& diagnostics) {
    auto fail = [&](std::string message) {
      diagnostics.push_back(
          Diagnostic{Severity::error, use.file.location, "uses", std::move(message)});
      return nullptr;
    };
    if (stack_.size() >= kMaxUsesDepth) return fail(messages::uses_too_deep(kMaxUsesDepth));
    std::string text;
    std::string name;
    std::string next_directory;
    const fs::path on_disk = directory.empty() ? fs::path() : fs::path(directory) / use.file.value;
    // Only a bare name falls back to a built-in rule file: "/etc/x/snn_distributed.yaml" names
    // that file, and silently using the built-in one instead would hide a wrong path.
    const bool bare = !fs::path(use.file.value).has_parent_path();
    if (!directory.empty() && fs::is_regular_file(on_disk)) {
      auto read = read_file(on_disk.string());
      if (!read) return fail(messages::cannot_read(on_disk.string(), "not readable"));
      text = std::move(*read);
      name = on_disk.lexically_normal().string();
      next_directory = on_disk.parent_path().string();
    } else if (auto builtin = bare ? builtin_file(use.file.value) : std::nullopt) {
      text = std::string(*builtin);
      name = "rules/" + use.file.value;
    } else {
      return fail(messages::uses_not_found(use.file.value, directory, bare));
    }
    // The top file keeps the name it was given ("./a.yaml"); used files are named normalized.
    const auto same_file = [&](const std::string& f) {
      return fs::path(f).lexically_normal().string() == name;
    };
    if (std::any_of(stack_.begin(), stack_.end(), same_file)) {
      std::string path;
      for (const std::string& f : stack_) path += f + " -> ";
      return fail(messages::uses_cycle(path + name));
    }
    std::vector<Diagnostic> inner;
    // Files used by this one are checked for errors only; their own `check` analyses them.
    auto rules = PipelineRun(LoadOptions{}, sources_)
                     .build_nested(stack_, text, name, next_directory, inner);
    if (!inner.empty()) sources_.push_back(SourceText{name, std::move(text)});
    diagnostics.insert(diagnostics.end(), inner.begin(), inner.end());
    if (!rules) return fail(messages::uses_has_errors(name, use.name.value));
    return rules;
  }

  static check::UsedRules schema_of(const detail::CompiledRules& rules) {
    check::UsedRules schema;
    for (const auto& input : rules.inputs) {
      schema.inputs[input.name] = input.type.kinds;
      if (!input.default_value) schema.required_inputs.insert(input.name);
    }
    for (const auto& field : rules.fields) schema.fields.emplace_back(field.name, field.type.kinds);
    return schema;
  }

  LoadOptions options_;
  std::vector<SourceText>& sources_;
  std::vector<std::string> stack_;
};

}  // namespace

static RuleSet build_or_throw(std::string_view text, const std::string& file_name,
                              const std::string& directory, const LoadOptions& options) {
  std::vector<Diagnostic> diagnostics;
  std::vector<SourceText> sources;
  auto compiled = PipelineRun(options, sources).build(text, file_name, directory, diagnostics);
  if (!compiled) {
    sources.insert(sources.begin(), SourceText{file_name, std::string(text)});
    throw LoadError(std::move(diagnostics), std::move(sources));
  }
  return RuleSetAccess::wrap(std::move(compiled));
}

RuleSet RuleSet::from_string(std::string_view text, std::string file_name,
                             const LoadOptions& options) {
  return build_or_throw(text, file_name, "", options);
}

RuleSet RuleSet::from_file(const std::string& path, const LoadOptions& options) {
  // A directory opens as a stream on Linux and reads as nothing: name it rather than report
  // an empty rule file.
  std::error_code ignored;
  const bool directory_given = fs::is_directory(path, ignored);
  auto text = directory_given ? std::nullopt : read_file(path);
  if (!text) {
    throw LoadError({Diagnostic{
        Severity::error, SourceLocation{path, 0, 0}, "cannot-read",
        messages::cannot_read(
            path, directory_given ? "it is a directory" : "no such file or not readable")}});
  }
  const std::string directory = fs::path(path).parent_path().string();
  return build_or_throw(*text, path, directory.empty() ? "." : directory, options);
}

std::string_view RuleSet::builtin_text() noexcept {
  return *builtin_file("snn_distributed.yaml");
}

std::optional<std::string_view> RuleSet::builtin_text(std::string_view file_name) noexcept {
  return builtin_file(file_name);
}

const RuleSet& RuleSet::builtin() {
  // Built on first use; thread-safe by the rules for function-local statics.
  static const RuleSet rules = from_string(builtin_text(), "rules/snn_distributed.yaml");
  return rules;
}

EvaluationResult RuleSet::evaluate(const Inputs& inputs) const {
  return evaluate::evaluate(*rules_, inputs);
}

std::optional<EvaluationError> RuleSet::check_inputs(const Inputs& inputs) const {
  return evaluate::check_inputs(*rules_, inputs);
}

Explanation RuleSet::explain(const Inputs& inputs) const {
  std::vector<TraceStep> steps;
  EvaluationResult result = evaluate::evaluate(*rules_, inputs, &steps);
  return Explanation{std::move(result), std::move(steps)};
}

const std::vector<InputInfo>& RuleSet::inputs() const noexcept {
  return rules_->input_info;
}
const std::string& RuleSet::file_name() const noexcept {
  return rules_->file_name;
}
const std::vector<Diagnostic>& RuleSet::warnings() const noexcept {
  return rules_->warnings;
}

}  // namespace snnplan
