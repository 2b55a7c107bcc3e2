#pragma once
// The rule-file loader (private to load/): YAML text -> syntax tree, every problem a diagnostic.
// The YAML structure, locations, keys and values are read in rule_file_loader.cpp; the sections
// of a rule file (inputs, uses, let, record, tables and their rules, ensure) in
// rule_file_sections.cpp.

#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <variant>

#include "load/expression_parser.hpp"
#include "load/keys.hpp"
#include "load/literals.hpp"
#include "load/messages.hpp"
#include "load/rule_file_loader.hpp"
#include "load/yaml_document.hpp"

namespace snnplan::load::internal {

using syntax::Expr;
using syntax::ExprKind;

// What a diagnostic talks about: "inputs", or a kind and a name from the file ("input 'x'").
// The text is put together only when a diagnostic is reported; the name is a scalar of the
// document, which lives as long as the Loader.
class What {
 public:
  What(const char* text) : kind_(text) {}
  What(std::string_view text) : kind_(text) {}
  What(const std::string& text) : kind_(text) {}
  What(std::string_view kind, std::string_view name) : kind_(kind), name_(name), named_(true) {}

  std::string text() const {
    if (!named_) return std::string(kind_);
    return kind_.empty() ? fmt::format("'{}'", name_) : fmt::format("{} '{}'", kind_, name_);
  }

 private:
  std::string_view kind_;
  std::string_view name_;
  bool named_ = false;
};


class Loader {
 public:
  Loader(std::string_view text, const std::string& file_name);
  LoadedFile run();

 private:
  bool within_limits(const yaml::Node& root);

  // ---- locations and diagnostics ----------------------------------------------------------
  // One FileName for the file, copied (shared) into every location made here.
  const FileName& file() const { return file_name_; }
  SourceLocation from_mark(const YAML::Mark& mark) const;
  SourceLocation at(const yaml::Node& node) const { return from_mark(node.Mark()); }
  SourceLocation value_at(const yaml::Node& node) const;
  SourceLocation content_at(const yaml::Node& node) const;
  std::function<SourceLocation(std::size_t)> locator(const yaml::Node& node) const;
  void error(SourceLocation loc, std::string code, std::string message);
  void note(SourceLocation loc, std::string code, std::string message);
  void check_keys(const yaml::Node& map, Section section, const What& where);
  void check_duplicates(const yaml::Node& map);
  bool repeats_earlier_key(std::span<const yaml::Entry> entries, std::size_t k);
  bool expect_map(const yaml::Node& node, const What& what);
  bool expect_sequence(const yaml::Node& node, const What& what);
  std::optional<syntax::Located<std::string>> string_of(const yaml::Node& node, const What& what);
  std::optional<bool> bool_of(const yaml::Node& node, const What& what);
  syntax::Located<std::string> key_of(const yaml::Node& key) { return {key.Scalar(), content_at(key)}; }

  // ---- values and expressions -------------------------------------------------------------
  std::optional<Value> literal_of(const yaml::Node& node);
  std::optional<Expr> parse_expr_text(const std::string& raw, const std::function<SourceLocation(std::size_t)>& locate);
  std::optional<Expr> value_of(const yaml::Node& node, const What& what, bool expression_by_default = false,
                               bool items_too = false);
  std::optional<syntax::Template> template_of(const yaml::Node& node, const What& what);

  // ---- sections -----------------------------------------------------------------------------
  void read_top(const yaml::Node& root);
  void read_inputs(const yaml::Node& node);
  std::optional<syntax::Located<syntax::TypeSpec>> read_type(const yaml::Node& spec, const What& where, bool allow_rationale);
  void read_uses(const yaml::Node& node);
  void read_lets(const yaml::Node& node);
  // search_section.cpp
  std::shared_ptr<const syntax::Search> read_search(const yaml::Node& node, const What& where);
  std::vector<syntax::LetDecl> read_named_expressions(const yaml::Node& node, const What& what);
  std::optional<syntax::Constraint> read_constraint(const yaml::Node& node, const What& what, bool named);
  std::vector<syntax::Constraint> read_constraints(const yaml::Node& node, const What& what);
  std::optional<syntax::SearchFailure> read_search_failure(const yaml::Node& node, const What& what);
  void read_record(const yaml::Node& node);
  void read_tables(const yaml::Node& node);
  std::optional<syntax::Rule> read_rule(const yaml::Node& node);
  void read_ensure(const yaml::Node& node);
  void read_when(const yaml::Node& node, std::vector<syntax::Matcher>& when);
  static std::string written(const yaml::Node& node);
  std::vector<syntax::Assignment> read_assignments(const yaml::Node& node, const What& what);
  std::optional<syntax::Allowance> read_allowance(const yaml::Node& node, const What& where);
  std::optional<syntax::Fallback> read_fallback(const yaml::Node& node);

  std::string_view text_;
  std::vector<std::string_view> lines_;
  std::unordered_set<std::string_view> keys_seen_;  // repeats_earlier_key's, for large maps
  LoadedFile result_;
  FileName file_name_;
  Division division_ = Division::version_1;  // what `/` means: the file's format version's
};

}  // namespace snnplan::load::internal
