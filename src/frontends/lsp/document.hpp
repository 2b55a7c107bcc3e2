#pragma once
// One open rule file as the server knows it: its text, what `snnplan check` says of it, and
// the names in it (every definition and use of a table, rule, input, derived value, record
// field, `uses:` entry and name of a search, with its place), which hover, definition,
// references, completion and code actions read. Rebuilt from the text at each change.
//
// A search's names (its enumerations, candidate values, tier values and failure values) are
// in scope inside it only, and each part of it sees some of them (search_scope(), the
// checker's rules): a use is resolved against the names of the part it is written in.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "language/syntax.hpp"
#include "frontends/lsp/text.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"
#include "usecases/reach.hpp"

namespace snnplan::lsp {

/// `search_value`: a name declared inside a search; `aggregate`: smallest, largest or count in
/// a search's `none_fits`.
enum class NameKind { input, let, field, table, rule, use, use_file, builtin, search_value, aggregate };

/// A name where it is written.
struct Occurrence {
  NameKind kind = NameKind::input;
  std::string name;  ///< for rules "table/rule", for a search's names "let/name"
  Extent extent;     ///< bytes of the document's text
  bool definition = false;
};

/// Whether a rule fires for some input: a witness from the analysis or "never".
using Reach = usecases::Reach;

/// The part of a search an expression is written in, which decides the search's names it sees.
enum class SearchPart : std::uint8_t {
  enumeration,  ///< an entry of `for`: the enumerations before it
  tier_value,   ///< a tier's `let`: none (facts only)
  candidate,    ///< a candidate's `let`, a `require` or `fits` (and their messages), `minimize`:
                ///< every enumeration, tier value and candidate value
  none_valid,   ///< `none_valid`'s `let` and `error`: its own values before
  none_fits,    ///< `none_fits`'s: its own values before; the aggregates read candidate names
};

/// What a name declared in a search is.
struct SearchName {
  enum class Role : std::uint8_t { enumeration, tier_value, candidate_value, failure_value };
  Role role = Role::enumeration;
  const syntax::Located<std::string>* name = nullptr;  ///< its (first) declaration
  const syntax::Expr* value = nullptr;                 ///< its (first) expression
  bool none_fits = false;                              ///< a failure value of none_fits
};

/// The names of `search` an expression of `part` may use besides the file's inputs and
/// derived values. `index` is the entry the expression belongs to: the enumeration of `for`,
/// the value of a failure's `let` (its `error`: the number of values).
std::vector<SearchName> search_scope(const syntax::Search& search, SearchPart part,
                                     std::size_t index);
/// The names of a search's candidates that none_fits' smallest() and largest() read: its
/// enumerations, tier values and candidate values (and `tier`, the tier's name, beside them).
std::vector<SearchName> aggregated_names(const syntax::Search& search);
/// The name of a search's name `n` in occurrences, for the search let `search`: "layout/tp";
/// a failure's values are apart ("layout/none_fits/budget_bytes"), since none_valid and
/// none_fits may both declare one.
std::string qualified_name(const std::string& search, const SearchName& n);
/// Whether `name` is one of the aggregates of a search's `none_fits`.
bool is_aggregate(std::string_view name);

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
  /// The name a search declares, `qualified` as "let/name"; nullopt when there is none.
  [[nodiscard]] std::optional<SearchName> search_name(const std::string& qualified) const;

  /// The text of the value written at `at` (a scalar, quoted or not, or a flow collection), for
  /// showing what a rule sets.
  [[nodiscard]] std::string value_text_at(const SourceLocation& at) const;
  /// The text of the value of the key written at `key` (`key: value`), as value_text_at; a
  /// block scalar (`key: >-` and more-indented lines) is its lines joined by spaces.
  [[nodiscard]] std::string value_of_key(const syntax::Located<std::string>& key) const;
  /// The declarations completion offers: this text's, or while it does not parse (a half-typed
  /// line), those of the last text that did.
  [[nodiscard]] const syntax::RuleFile& declarations() const { return *declarations_; }

 private:
  // The names a use may mean where it is written: record fields too (in `ensure`), the
  // names of the search `search` it is written in, and inside none_fits' aggregates those
  // they read.
  struct Scope {
    bool fields = false;
    bool facts = true;  // false in smallest()/largest(): a candidate's value only
    std::string search{};
    std::vector<SearchName> locals{};
    std::vector<SearchName> aggregated{};
  };
  void index_names();
  void index_search(const syntax::LetDecl& let);
  void add(NameKind kind, std::string name, const SourceLocation& at, bool definition);
  void add_reference(const std::string& name, const SourceLocation& at, const Scope& scope);
  void add_expression(const syntax::Expr& expr, const Scope& scope);
  void add_template(const syntax::Template& text, const Scope& scope);
  void add_matchers(const std::vector<syntax::Matcher>& when, const Scope& scope);

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
