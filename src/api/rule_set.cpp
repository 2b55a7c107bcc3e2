// The public RuleSet: runs the pipeline load -> check -> compile once, then evaluates.

#include "snnplan/rule_set.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "analyse/table_analysis.hpp"
#include "api/builtin_forms.hpp"
#include "api/rule_cache.hpp"
#include "api/rule_set_access.hpp"
#include "check/allowances.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "compile/serialized_rules.hpp"
#include "api/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "load/rule_file_loader.hpp"
#include "snnplan/explain.hpp"

namespace snnplan {

namespace detail {
// Generated at build time from rules/*.yaml (cmake/embed_rules.cmake).
extern const std::pair<std::string_view, std::string_view> kBuiltinRuleFiles[];
extern const std::size_t kBuiltinRuleFileCount;
extern const std::string_view kBuiltinRuleFileSha256[];
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

/// What a rule file read may open: anything but a directory for the file the user named
/// (a pipe from `--rules <(generate)` included), only a regular file for one a rule file uses
/// (a FIFO would hang the load, /dev/zero would never end).
enum class Openable { named_by_user, regular_only };

struct Unreadable {
  std::string why;           ///< the system's reason, or what kind of file it is
  bool not_regular = false;  ///< refused for its kind (Openable::regular_only), not by the system
};

/// A rule file's text, or why it cannot be read. Reads at most one byte beyond the loader's
/// size limit, so that a huge file is refused (by the loader) without being read whole.
std::variant<std::string, Unreadable> read_rule_text(const std::string& path, Openable openable) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int flags = O_RDONLY | O_CLOEXEC | (openable == Openable::regular_only ? O_NONBLOCK : 0);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return Unreadable{std::strerror(errno)};
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) return Unreadable{std::strerror(errno)};
  if (S_ISDIR(info.st_mode)) return Unreadable{"it is a directory"};
  if (openable == Openable::regular_only && !S_ISREG(info.st_mode)) {
    const bool device = S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode);
    return Unreadable{S_ISFIFO(info.st_mode) ? "a FIFO"
                      : device               ? "a device"
                                             : "a special file",
                      true};
  }
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= load::kMaxRuleFileBytes) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Unreadable{std::strerror(errno)};
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  return text;
}

/// The directories `uses:` may reach, as canonical paths (symlinks resolved), so that a path
/// is judged by where it really leads.
class RuleRoots {
 public:
  RuleRoots() = default;
  RuleRoots(const std::string& first_directory, const std::vector<std::string>& more) {
    add(first_directory);
    for (const std::string& root : more) add(root);
  }

  /// Whether `path` (canonical) lies in one of the roots.
  [[nodiscard]] bool contain(const fs::path& path) const {
    return std::any_of(roots_.begin(), roots_.end(), [&](const fs::path& root) {
      const auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
      return r == root.end();
    });
  }

  [[nodiscard]] std::string describe() const {
    std::string out;
    for (const fs::path& root : roots_) out += (out.empty() ? "" : ", ") + root.string();
    return out;
  }

 private:
  void add(const std::string& directory) {
    std::error_code ec;
    fs::path root = fs::weakly_canonical(fs::absolute(directory.empty() ? "." : directory, ec), ec);
    if (ec) return;
    // "/a/b/" iterates with a trailing empty element that "/a/b/c" does not have.
    if (!root.has_filename()) root = root.parent_path();
    roots_.push_back(std::move(root));
  }

  std::vector<fs::path> roots_;
};

// Loads one rule file and, first, the files it uses. `directory` is where the file lives on
// disk ("" for text in memory or built-in files): used files are looked up there, then among
// the built-in files by name.
class PipelineRun {
 public:
  /// `sources` collects the texts of used files that have diagnostics (for LoadError).
  PipelineRun(const LoadOptions& options, RuleRoots roots, std::vector<SourceText>& sources)
      : options_(options), roots_(std::move(roots)), sources_(sources) {}

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
    is_rule_file_ = loaded.is_rule_file;
    std::vector<Diagnostic> diagnostics = std::move(loaded.diagnostics);
    std::map<std::string, std::shared_ptr<const detail::CompiledRules>> used;
    std::map<std::string, check::UsedRules> used_schemas;
    if (!has_errors(diagnostics)) {
      stack_.push_back(file_name);
      for (const syntax::Use& use : loaded.file.uses) {
        if (auto rules = build_used(use, directory, diagnostics)) {
          used_schemas[use.name.value] = RuleSetAccess::used_schema(*rules);
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
        analyse::TableFindings analysis = analyse::analyse_tables(
            *compiled, analyse::AnalysisOptions{.overlaps = options_.report_overlaps});
        found.insert(found.end(), analysis.diagnostics.begin(), analysis.diagnostics.end());
        check::sort_by_position(found);
        // A broken invariant is an error like any other: the rules are refused.
        if (has_errors(analysis.diagnostics))
          compiled.reset();
        else
          compiled->set_proofs(analysis.proved_invariants);
      }
    }
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    check::drop_repeats(diagnostics);
    // Findings accepted in place leave the warnings; `check` only knows every finding that
    // could be accepted when the whole analysis ran, so only then is an unused allow reported.
    std::vector<check::AllowedDiagnostic> allowed = check::apply_allowances(
        loaded.file, diagnostics, options_.analyse_tables && compiled != nullptr,
        options_.report_overlaps ? std::set<std::string>{} : std::set<std::string>{"overlapping-rule"});
    if (compiled) {
      compiled->warnings = diagnostics;
      compiled->allowed = std::move(allowed);
    }
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
    // Only a bare name falls back to a built-in rule file: "/etc/x/snn_distributed.yaml" names
    // that file, and silently using the built-in one instead would hide a wrong path.
    const bool bare = !fs::path(use.file.value).has_parent_path();
    bool on_disk = false;
    fs::path identity;  // where a file on disk really is, for finding cycles
    if (!directory.empty()) {
      // Judged by where the path really leads (symlinks and ".." resolved), before anything
      // is opened: a rule file must not reach files outside its roots.
      std::error_code ec;
      const fs::path real = fs::weakly_canonical(fs::path(directory) / use.file.value, ec);
      if (ec || !roots_.contain(real))
        return fail(messages::uses_outside_root(use.file.value, roots_.describe()));
      on_disk = fs::exists(fs::symlink_status(real, ec));
      if (on_disk) {
        auto read = read_rule_text(real.string(), Openable::regular_only);
        if (auto* problem = std::get_if<Unreadable>(&read)) {
          if (problem->not_regular)
            return fail(messages::uses_not_regular(use.file.value, problem->why));
          return fail(messages::cannot_read(real.string(), problem->why));
        }
        text = std::move(std::get<0>(read));
        // Named as the user's paths lead to it (messages show the path they gave); it is read,
        // and judged, where it really is.
        name = (fs::path(directory) / use.file.value).lexically_normal().string();
        next_directory = fs::path(name).parent_path().string();
        identity = real;
      }
    }
    if (!on_disk) {
      auto builtin = bare ? builtin_file(use.file.value) : std::nullopt;
      if (!builtin) return fail(messages::uses_not_found(use.file.value, directory, bare));
      text = std::string(*builtin);
      name = "rules/" + use.file.value;
    }
    // The top file keeps the name it was given ("./a.yaml"); used files are named normalized.
    const auto same_file = [&](const std::string& f) {
      if (identity.empty()) return fs::path(f).lexically_normal().string() == name;
      std::error_code ec;
      return fs::weakly_canonical(f, ec) == identity;
    };
    if (std::any_of(stack_.begin(), stack_.end(), same_file)) {
      std::string path;
      for (const std::string& f : stack_) path += f + " -> ";
      return fail(messages::uses_cycle(path + name));
    }
    std::vector<Diagnostic> inner;
    // Files used by this one are checked for errors only; their own `check` analyses them.
    PipelineRun nested(LoadOptions{}, roots_, sources_);
    auto rules = nested.build_nested(stack_, text, name, next_directory, inner);
    if (!nested.is_rule_file_) {
      // Probably not meant as a rule file (a `uses:` typo, or a probe for some secret): say
      // so without passing on anything it contains -- no snippet, no key names, no values.
      inner = {Diagnostic{Severity::error, SourceLocation{name, 0, 0}, "not-a-rule-file",
                          messages::not_a_rule_file(name)}};
    } else if (!inner.empty()) {
      sources_.push_back(SourceText{name, std::move(text)});
    }
    diagnostics.insert(diagnostics.end(), inner.begin(), inner.end());
    if (!rules) return fail(messages::uses_has_errors(name, use.name.value));
    return rules;
  }

  LoadOptions options_;
  RuleRoots roots_;
  std::vector<SourceText>& sources_;
  bool is_rule_file_ = true;
  std::vector<std::string> stack_;
};

}  // namespace

static RuleSet build_or_throw(std::string_view text, const std::string& file_name,
                              const std::string& directory, const LoadOptions& options) {
  std::vector<Diagnostic> diagnostics;
  std::vector<SourceText> sources;
  const RuleRoots roots =
      directory.empty() ? RuleRoots() : RuleRoots(directory, options.rule_roots);
  auto compiled =
      PipelineRun(options, roots, sources).build(text, file_name, directory, diagnostics);
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
  auto text = read_rule_text(path, Openable::named_by_user);
  if (auto* problem = std::get_if<Unreadable>(&text)) {
    // A directory opens on Linux and reads as nothing: it is named rather than reported as an
    // empty rule file.
    throw LoadError({Diagnostic{Severity::error, SourceLocation{path, 0, 0}, "cannot-read",
                                messages::cannot_read(path, problem->why)}});
  }
  const std::string directory = fs::path(path).parent_path().string();
  const std::string& source = std::get<0>(text);
  // A cached form holds the findings of the analysis it was built with; --overlaps asks for
  // findings the usual analysis leaves out, so such a load neither reads nor writes the cache.
  const bool cacheable = options.use_cache && !options.report_overlaps;
  const std::string cache =
      cacheable && !api::cache_disabled_by_environment() ? api::cache_directory() : std::string();
  if (!cache.empty()) {
    if (auto cached = api::read_cached(cache, source, path, options.analyse_tables))
      return RuleSetAccess::wrap(std::move(cached));
  }
  RuleSet built = build_or_throw(source, path, directory.empty() ? "." : directory, options);
  if (!cache.empty())
    api::write_cached(cache, source, path, options.analyse_tables, RuleSetAccess::compiled(built));
  return built;
}

check::UsedRules RuleSetAccess::used_schema(const detail::CompiledRules& rules) {
  check::UsedRules schema;
  for (const auto& input : rules.inputs) {
    schema.inputs[input.name] = input.type.kinds;
    if (!input.default_value) schema.required_inputs.insert(input.name);
    if (!input.one_of.empty()) schema.restrictions[input.name] = {&input.one_of, input.lower};
  }
  for (const auto& field : rules.fields) {
    schema.fields.emplace_back(field.name, field.type.kinds);
    const syntax::KindSet items = field.type.is_rationale ? syntax::KindSet{syntax::kString} : field.type.element_kinds;
    if (items != syntax::kAny) schema.field_items[field.name] = items;
  }
  return schema;
}

RuleSet RuleSetAccess::from_text_at(std::string_view text, const std::string& path,
                                    const LoadOptions& options) {
  const std::string directory = fs::path(path).parent_path().string();
  return build_or_throw(text, path, directory.empty() ? "." : directory, options);
}

RuleSet RuleSetAccess::builtin(std::string_view file_name) {
  const std::optional<std::string_view> text = builtin_file(file_name);
  if (!text) throw std::invalid_argument("no built-in rule file " + std::string(file_name));
  for (std::size_t k = 0; k < detail::kBuiltinCompiledRuleCount; ++k) {
    if (detail::kBuiltinCompiledRules[k].file != file_name) continue;
    auto compiled = compile::deserialize_rules(detail::kBuiltinCompiledRules[k].bytes, nullptr,
                                               compile::SerializedOrigin::this_build);
    // Compiled from these very bytes (a stale build would differ): else the YAML decides.
    if (compiled && compiled->source_text == *text) return wrap(std::move(compiled));
  }
  return RuleSet::from_string(*text, "rules/" + std::string(file_name));
}

std::string RuleSetAccess::builtin_revision(std::string_view file_name) {
  std::string texts;
  for (std::size_t k = 0; k < detail::kBuiltinRuleFileCount; ++k)
    texts.append(detail::kBuiltinRuleFileSha256[k]).push_back('\n');
  // Computed at build time from these very texts (else, as builtin() would, from the rules).
  if (texts == detail::kBuiltinCompiledFrom)
    for (std::size_t k = 0; k < detail::kBuiltinCompiledRuleCount; ++k)
      if (detail::kBuiltinCompiledRules[k].file == file_name) return std::string(detail::kBuiltinCompiledRules[k].revision);
  return builtin(file_name).sha256();
}

std::string RuleSetAccess::embedded_form(std::string_view file_name) {
  const std::optional<std::string_view> text = builtin_file(file_name);
  if (!text) throw std::invalid_argument("no built-in rule file " + std::string(file_name));
  const std::string name = "rules/" + std::string(file_name);
  const RuleSet analysed = RuleSet::from_string(*text, name, LoadOptions{.analyse_tables = true});
  // A plain load, through its bytes: the one way to a CompiledRules of our own to mark.
  std::shared_ptr<detail::CompiledRules> plain =
      compile::deserialize_rules(compile::serialize_rules(compiled(RuleSet::from_string(*text, name))));
  if (!plain) throw std::logic_error("the compiled form of " + name + " does not read back");
  std::vector<bool> proofs;
  for (const detail::CompiledInvariant& invariant : compiled(analysed).invariants)
    proofs.push_back(invariant.proved);
  plain->set_proofs(proofs);
  return compile::serialize_rules(*plain);
}

std::string_view RuleSet::builtin_text() noexcept {
  return *builtin_file("snn_distributed.yaml");
}

std::optional<std::string_view> RuleSet::builtin_text(std::string_view file_name) noexcept {
  return builtin_file(file_name);
}

std::vector<std::pair<std::string_view, std::string_view>> RuleSet::builtin_sha256() {
  std::vector<std::pair<std::string_view, std::string_view>> hashes;
  for (std::size_t k = 0; k < detail::kBuiltinRuleFileCount; ++k)
    hashes.emplace_back(detail::kBuiltinRuleFiles[k].first, detail::kBuiltinRuleFileSha256[k]);
  return hashes;
}

const RuleSet& RuleSet::builtin() {
  // Built on first use; thread-safe by the rules for function-local statics.
  // From its compiled form, embedded at build time: no YAML is parsed.
  // Never destroyed: its destructor would only free memory at exit (~60k instructions of a
  // CLI run's start-up budget), and a later static's destructor may still evaluate with it.
  static const RuleSet& rules = *new RuleSet(RuleSetAccess::builtin("snn_distributed.yaml"));
  return rules;
}

EvaluationResult RuleSet::evaluate(const Inputs& inputs) const {
  if (observers_) [[unlikely]] {
    std::vector<TraceStep> steps;
    return observed_decision(inputs, steps).result;
  }
  return evaluate::evaluate(*rules_, inputs);
}

std::optional<EvaluationError> RuleSet::check_inputs(const Inputs& inputs) const {
  return evaluate::check_inputs(*rules_, inputs);
}

Explanation RuleSet::explain(const Inputs& inputs) const {
  std::vector<TraceStep> steps;
  if (observers_) [[unlikely]] {
    Decision decision = observed_decision(inputs, steps);
    return Explanation{std::move(decision.result), std::move(steps)};
  }
  EvaluationResult result = evaluate::evaluate(*rules_, inputs, &steps);
  return Explanation{std::move(result), std::move(steps)};
}

const std::vector<InputInfo>& RuleSet::inputs() const noexcept {
  return rules_->input_info;
}
const InputInfo* RuleSet::input(std::string_view name) const noexcept {
  for (const InputInfo& info : rules_->input_info)
    if (info.name == name) return &info;
  return nullptr;
}
const std::string& RuleSet::file_name() const noexcept {
  return rules_->file_name;
}
const std::vector<Diagnostic>& RuleSet::warnings() const noexcept {
  return rules_->warnings;
}

}  // namespace snnplan
