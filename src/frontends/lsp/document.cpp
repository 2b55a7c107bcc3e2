#include "frontends/lsp/document.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "check/checker.hpp"
#include "load/rule_file_loader.hpp"
#include "usecases/check.hpp"
#include "usecases/reach.hpp"

namespace snnplan::lsp {
namespace fs = std::filesystem;

bool starts_as_rule_file(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#' || line.starts_with("---") ||
        line.starts_with("%"))
      continue;
    return line.starts_with("snnplan:");
  }
  return false;
}

Document::Document(std::string path, std::string text, const std::vector<std::string>& roots,
                   const Document* previous)
    : path_(std::move(path)), text_(std::move(text)) {
  declarations_ = std::make_shared<syntax::RuleFile>();
  is_rule_file_ = starts_as_rule_file(text_);
  if (!is_rule_file_) return;
  // What `snnplan check` reports: the warnings (the allowances already applied) or the errors.
  usecases::CheckedRules checked =
      usecases::check_rule_text(text_, path_, usecases::CheckRequest{.rule_roots = roots});
  rules_ = std::move(checked.rules);
  diagnostics_ = std::move(checked.diagnostics);
  // Findings inside the files this one uses are shown on those files; here the loader reports
  // the `uses:` entry that brought them in.
  std::erase_if(diagnostics_, [&](const Diagnostic& d) {
    return !d.location.file.empty() && d.location.file != path_;
  });
  check::sort_by_position(diagnostics_);
  load::LoadedFile loaded = load::load_rule_file(text_, path_);
  tree_ = std::move(loaded.file);
  const bool parsed = std::none_of(loaded.diagnostics.begin(), loaded.diagnostics.end(),
                                   [](const Diagnostic& d) { return d.code == "yaml-syntax"; });
  declarations_ =
      parsed || !previous ? std::make_shared<syntax::RuleFile>(tree_) : previous->declarations_;
  const fs::path directory = fs::path(path_).parent_path();
  for (const syntax::Use& use : tree_.uses)
    used_paths_.push_back((directory / use.file.value).lexically_normal().string());
  index_names();
}

void Document::add(NameKind kind, std::string name, const SourceLocation& at, bool definition) {
  if (!at.known() || name.empty()) return;
  const std::string_view looked_for =
      kind == NameKind::rule ? std::string_view(name).substr(name.find('/') + 1) : name;
  const std::optional<Extent> extent = name_from(text_, offset_of(text_, at), looked_for);
  if (!extent) return;
  occurrences_.push_back(Occurrence{kind, std::move(name), *extent, definition});
}

void Document::add_reference(const std::string& name, const SourceLocation& at, bool fields_too) {
  if (input(name))
    add(NameKind::input, name, at, false);
  else if (let(name))
    add(NameKind::let, name, at, false);
  else if (fields_too && field(name))
    add(NameKind::field, name, at, false);
}

void Document::add_expression(const syntax::Expr& expr, bool fields_too) {
  if (expr.kind == syntax::ExprKind::name) add_reference(expr.name, expr.location, fields_too);
  if (expr.kind == syntax::ExprKind::call) add(NameKind::builtin, expr.name, expr.location, false);
  for (const syntax::Expr& child : expr.children) add_expression(child, fields_too);
}

void Document::add_template(const syntax::Template& text, bool fields_too) {
  for (const syntax::Template::Piece& piece : text.pieces)
    if (piece.is_placeholder) add_reference(piece.text, piece.location, fields_too);
}

void Document::add_matchers(const std::vector<syntax::Matcher>& when, bool fields_too) {
  for (const syntax::Matcher& m : when) {
    add_reference(m.fact.value, m.fact.location, fields_too);
    add_expression(m.operand, fields_too);
  }
}

void Document::index_names() {
  for (const syntax::Use& use : tree_.uses) {
    add(NameKind::use, use.name.value, use.name.location, true);
    add(NameKind::use_file, use.file.value, use.file.location, true);
  }
  for (const syntax::InputDecl& in : tree_.inputs) {
    add(NameKind::input, in.name.value, in.name.location, true);
    if (in.error) add_template(*in.error, false);
  }
  for (const syntax::LetDecl& l : tree_.lets) {
    add(NameKind::let, l.name.value, l.name.location, true);
    if (l.call) {
      add(NameKind::use, l.call->rules.value, l.call->rules.location, false);
      for (const syntax::Assignment& a : l.call->with) add_expression(a.value, false);
    } else {
      add_expression(l.expr, false);
    }
  }
  for (const syntax::FieldDecl& f : tree_.fields) {
    add(NameKind::field, f.name.value, f.name.location, true);
    if (f.init) add_expression(*f.init, false);
  }
  if (tree_.rationale_header) add_template(*tree_.rationale_header, false);
  if (tree_.start) add(NameKind::table, tree_.start->value, tree_.start->location, false);
  for (const syntax::Table& t : tree_.tables) {
    add(NameKind::table, t.name.value, t.name.location, true);
    for (const syntax::Rule& r : t.rules) {
      add(NameKind::rule, t.name.value + "/" + r.name.value, r.name.location, true);
      add_matchers(r.when, false);
      for (const syntax::Assignment& a : r.set) {
        add(NameKind::field, a.target.value, a.target.location, false);
        add_expression(a.value, false);
      }
      for (const syntax::Template& b : r.because) add_template(b, false);
      if (r.error) add_template(*r.error, false);
      if (r.next) add(NameKind::table, r.next->value, r.next->location, false);
      if (r.fallback) {
        add(NameKind::table, r.fallback->table.value, r.fallback->table.location, false);
        for (const syntax::Assignment& a : r.fallback->with) {
          add(NameKind::input, a.target.value, a.target.location, false);
          add_expression(a.value, false);
        }
        for (const auto& kept : r.fallback->keep)
          add(NameKind::field, kept.value, kept.location, false);
      }
    }
  }
  for (const syntax::Invariant& inv : tree_.invariants) {
    add_matchers(inv.when, true);
    add_expression(inv.require, true);
    add_template(inv.message, true);
  }
  // A YAML alias makes the loader read the same text twice: one occurrence per place.
  std::sort(occurrences_.begin(), occurrences_.end(), [](const Occurrence& a, const Occurrence& b) {
    return a.extent.begin != b.extent.begin ? a.extent.begin < b.extent.begin
                                            : a.definition > b.definition;
  });
  occurrences_.erase(std::unique(occurrences_.begin(), occurrences_.end(),
                                 [](const Occurrence& a, const Occurrence& b) {
                                   return a.extent.begin == b.extent.begin;
                                 }),
                     occurrences_.end());
}

const Occurrence* Document::occurrence_at(std::size_t at) const {
  for (const Occurrence& o : occurrences_)
    if (o.extent.begin <= at && at <= o.extent.end) return &o;
  return nullptr;
}

const Occurrence* Document::definition(NameKind kind, const std::string& name) const {
  for (const Occurrence& o : occurrences_)
    if (o.definition && o.kind == kind && o.name == name) return &o;
  return nullptr;
}

const Reach& Document::reach(const std::string& rule_path) const {
  static const Reach kUnknown;
  if (!reach_) {
    if (!rules_) return kUnknown;
    reach_ = usecases::rule_reach(*rules_, path_);
  }
  const auto found = reach_->find(rule_path);
  return found == reach_->end() ? kUnknown : found->second;
}

const syntax::InputDecl* Document::input(const std::string& name) const {
  for (const auto& d : tree_.inputs)
    if (d.name.value == name) return &d;
  return nullptr;
}
const syntax::LetDecl* Document::let(const std::string& name) const {
  for (const auto& d : tree_.lets)
    if (d.name.value == name) return &d;
  return nullptr;
}
const syntax::FieldDecl* Document::field(const std::string& name) const {
  for (const auto& d : tree_.fields)
    if (d.name.value == name) return &d;
  return nullptr;
}
const syntax::Table* Document::table(const std::string& name) const {
  for (const auto& d : tree_.tables)
    if (d.name.value == name) return &d;
  return nullptr;
}

std::string Document::value_text_at(const SourceLocation& at) const {
  if (!at.known()) return {};
  return value_text_from(offset_of(text_, at));
}

std::string Document::value_of_key(const syntax::Located<std::string>& key) const {
  if (!key.location.known()) return {};
  const auto extent = name_from(text_, offset_of(text_, key.location), key.value);
  if (!extent) return {};
  std::size_t at = extent->end;
  if (at < text_.size() && (text_[at] == '"' || text_[at] == '\'')) ++at;  // a quoted key
  if (at >= text_.size() || text_[at] != ':') return {};
  ++at;
  while (at < text_.size() && text_[at] == ' ') ++at;
  return value_text_from(at);
}

std::string Document::value_text_from(std::size_t begin) const {
  std::size_t line_start = 0;
  const std::string_view line = line_at(text_, begin, &line_start);
  const std::string_view rest = line.substr(begin - line_start);
  if (rest.empty()) return {};
  if (rest[0] == '"' || rest[0] == '\'') {
    for (std::size_t k = 1; k < rest.size(); ++k) {
      if (rest[0] == '"' && rest[k] == '\\') {
        ++k;
        continue;
      }
      if (rest[k] == rest[0]) return std::string(rest.substr(0, k + 1));
    }
    return std::string(rest);
  }
  if (rest[0] == '[' || rest[0] == '{') {
    int depth = 0;
    for (std::size_t k = 0; k < rest.size(); ++k) {
      if (rest[k] == '[' || rest[k] == '{') ++depth;
      if ((rest[k] == ']' || rest[k] == '}') && --depth == 0)
        return std::string(rest.substr(0, k + 1));
    }
    return std::string(rest);
  }
  // A plain scalar: inside a flow collection it ends at ',', '}' or ']'.
  const std::string_view before = line.substr(0, begin - line_start);
  const bool in_flow =
      std::count(before.begin(), before.end(), '{') +
          std::count(before.begin(), before.end(), '[') >
      std::count(before.begin(), before.end(), '}') + std::count(before.begin(), before.end(), ']');
  std::size_t end = rest.find(" #");
  if (in_flow) end = std::min(end, rest.find_first_of(",}]"));
  std::string_view value = rest.substr(0, std::min(end, rest.size()));
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return std::string(value);
}

}  // namespace snnplan::lsp
