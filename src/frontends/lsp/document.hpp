#pragma once
// One open rule file as the server knows it: its text, what `snnplan check` says of it, and
// the names in it (every definition and use of a table, rule, input, derived value, record
// field and `uses:` entry, with its place), which hover, definition, references, completion
// and code actions read. Rebuilt from the text at each change.

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "language/syntax.hpp"
#include "frontends/lsp/text.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"
#include "usecases/reach.hpp"

namespace snnplan::lsp {

enum class NameKind { input, let, field, table, rule, use, use_file, builtin };

/// A name where it is written.
struct Occurrence {
  NameKind kind = NameKind::input;
  std::string name;  ///< for rules "table/rule"
  Extent extent;     ///< bytes of the document's text
  bool definition = false;
};

/// Whether a rule fires for some input: a witness from the analysis or "never".
using Reach = usecases::Reach;

class Document {
 public:
  /// Analyses `text`, the content of the rule file at absolute `path`: `uses:` are found from
  /// its directory and may reach `roots` too (LoadOptions::rule_roots).
  /// `previous`, the same file before this change, lends its declarations while this text does
  /// not parse.
  Document(std::string path, std::string text, const std::vector<std::string>& roots,
           const Document* previous = nullptr);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  /// Whether the text is meant as a rule file: its first key is `snnplan:`.
  [[nodiscard]] bool is_rule_file() const { return is_rule_file_; }
  /// What `snnplan check PATH` reports for this file, in source order.
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// The syntax tree (partial where the file has errors).
  [[nodiscard]] const syntax::RuleFile& tree() const { return tree_; }
  /// The rule set, when the file loads.
  [[nodiscard]] const std::optional<RuleSet>& rules() const { return rules_; }
  [[nodiscard]] const std::vector<Occurrence>& occurrences() const { return occurrences_; }
  /// The absolute, normalised paths of the files `uses:` names (found or not).
  [[nodiscard]] const std::vector<std::string>& used_paths() const { return used_paths_; }

  /// The occurrence at byte `at`, or nullptr.
  [[nodiscard]] const Occurrence* occurrence_at(std::size_t at) const;
  /// The definition of `kind` `name`, or nullptr.
  [[nodiscard]] const Occurrence* definition(NameKind kind, const std::string& name) const;

  /// Whether rule "table/rule" fires for some input (computed once, on first use: it runs the
  /// coverage analysis).
  [[nodiscard]] const Reach& reach(const std::string& rule_path) const;

  [[nodiscard]] const syntax::InputDecl* input(const std::string& name) const;
  [[nodiscard]] const syntax::LetDecl* let(const std::string& name) const;
  [[nodiscard]] const syntax::FieldDecl* field(const std::string& name) const;
  [[nodiscard]] const syntax::Table* table(const std::string& name) const;

  /// The text of the value written at `at` (a scalar, quoted or not, or a flow collection), for
  /// showing what a rule sets.
  [[nodiscard]] std::string value_text_at(const SourceLocation& at) const;
  /// The text of the value of the key written at `key` (`key: value`), as value_text_at.
  [[nodiscard]] std::string value_of_key(const syntax::Located<std::string>& key) const;
  /// The declarations completion offers: this text's, or while it does not parse (a half-typed
  /// line), those of the last text that did.
  [[nodiscard]] const syntax::RuleFile& declarations() const { return *declarations_; }

 private:
  void index_names();
  void add(NameKind kind, std::string name, const SourceLocation& at, bool definition);
  void add_reference(const std::string& name, const SourceLocation& at, bool fields_too);
  void add_expression(const syntax::Expr& expr, bool fields_too);
  void add_template(const syntax::Template& text, bool fields_too);
  void add_matchers(const std::vector<syntax::Matcher>& when, bool fields_too);

  std::string path_;
  std::string text_;
  bool is_rule_file_ = false;
  std::vector<Diagnostic> diagnostics_;
  syntax::RuleFile tree_;
  std::shared_ptr<const syntax::RuleFile> declarations_;
  std::string value_text_from(std::size_t begin) const;
  std::optional<RuleSet> rules_;
  std::vector<Occurrence> occurrences_;
  std::vector<std::string> used_paths_;
  mutable std::optional<std::map<std::string, Reach>> reach_;
};

/// Whether `text` starts, after comments and blank lines, with the key `snnplan:`.
bool starts_as_rule_file(std::string_view text);

}  // namespace snnplan::lsp
