#include "frontends/lsp/document.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
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

std::string qualified_name(const std::string& search, const SearchName& n) {
  if (n.role != SearchName::Role::failure_value) return search + "/" + n.name->value;
  return search + (n.none_fits ? "/none_fits/" : "/none_valid/") + n.name->value;
}

std::vector<SearchName> aggregated_names(const syntax::Search& search) {
  std::vector<SearchName> out;
  for (const syntax::Enumeration& e : search.enumerations)
    out.push_back({.role = SearchName::Role::enumeration, .name = &e.name, .value = &e.values});
  // The first tier's values, as the checker declares them (it holds the other tiers to them).
  if (!search.tiers.empty())
    for (const syntax::LetDecl& value : search.tiers.front().lets)
      out.push_back({.role = SearchName::Role::tier_value, .name = &value.name, .value = &value.expr});
  for (const syntax::LetDecl& value : search.lets)
    out.push_back({.role = SearchName::Role::candidate_value, .name = &value.name, .value = &value.expr});
  return out;
}

std::vector<SearchName> search_scope(const syntax::Search& search, SearchPart part,
                                     std::size_t index) {
  std::vector<SearchName> out;
  const auto failure_values = [&](const std::optional<syntax::SearchFailure>& failure, bool none_fits) {
    if (!failure) return;
    for (std::size_t k = 0; k < std::min(index, failure->lets.size()); ++k)
      out.push_back({.role = SearchName::Role::failure_value, .name = &failure->lets[k].name,
                     .value = &failure->lets[k].expr, .none_fits = none_fits});
  };
  switch (part) {
    case SearchPart::enumeration:
      for (std::size_t k = 0; k < std::min(index, search.enumerations.size()); ++k)
        out.push_back({.role = SearchName::Role::enumeration, .name = &search.enumerations[k].name,
                       .value = &search.enumerations[k].values});
      break;
    case SearchPart::tier_value:
      break;
    case SearchPart::candidate:
      out = aggregated_names(search);
      break;
    case SearchPart::none_valid:
      failure_values(search.none_valid, false);
      break;
    case SearchPart::none_fits:
      failure_values(search.none_fits, true);
      break;
  }
  return out;
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
      kind == NameKind::rule           ? std::string_view(name).substr(name.find('/') + 1)
      : kind == NameKind::search_value ? std::string_view(name).substr(name.rfind('/') + 1)
                                       : std::string_view(name);
  const std::optional<Extent> extent = name_from(text_, offset_of(text_, at), looked_for);
  if (!extent) return;
  occurrences_.push_back(Occurrence{kind, std::move(name), *extent, definition});
}

void Document::add_reference(const std::string& name, const SourceLocation& at,
                             const Scope& scope) {
  for (const SearchName& local : scope.locals)
    if (local.name->value == name) return add(NameKind::search_value, qualified_name(scope.search, local), at, false);
  if (!scope.facts) return;
  if (input(name))
    add(NameKind::input, name, at, false);
  else if (let(name))
    add(NameKind::let, name, at, false);
  else if (scope.fields && field(name))
    add(NameKind::field, name, at, false);
}

void Document::add_expression(const syntax::Expr& expr, const Scope& scope) {
  if (expr.kind == syntax::ExprKind::name) add_reference(expr.name, expr.location, scope);
  if (expr.kind == syntax::ExprKind::call && !scope.aggregated.empty() && syntax::is_aggregate(expr.name)) {
    // smallest(estimate): the argument is a value of the candidates, not of the failure.
    add(NameKind::aggregate, expr.name, expr.location, false);
    const Scope inside{.facts = false, .search = scope.search, .locals = scope.aggregated};
    for (const syntax::Expr& child : expr.children) add_expression(child, inside);
    return;
  }
  if (expr.kind == syntax::ExprKind::call) add(NameKind::builtin, expr.name, expr.location, false);
  // `layout.tp`: a name of the candidate a search chose.
  if (expr.kind == syntax::ExprKind::member && expr.children.size() == 1 &&
      expr.children[0].kind == syntax::ExprKind::name) {
    const std::string& owner = expr.children[0].name;
    const bool local = std::any_of(scope.locals.begin(), scope.locals.end(),
                                   [&](const SearchName& n) { return n.name->value == owner; });
    if (const syntax::LetDecl* l = let(owner); l && l->search && !local)
      for (const SearchName& n : aggregated_names(*l->search))
        if (n.name->value == expr.name) add(NameKind::search_value, qualified_name(owner, n), expr.location, false);
  }
  for (const syntax::Expr& child : expr.children) add_expression(child, scope);
}

void Document::add_template(const syntax::Template& text, const Scope& scope) {
  for (const syntax::Template::Piece& piece : text.pieces)
    if (piece.is_placeholder) add_reference(piece.text, piece.location, scope);
}

void Document::add_matchers(const std::vector<syntax::Matcher>& when, const Scope& scope) {
  for (const syntax::Matcher& m : when) {
    add_reference(m.fact.value, m.fact.location, scope);
    add_expression(m.operand, scope);
  }
}

// Each expression of a search with the names of the part it is written in (search_scope()).
void Document::index_search(const syntax::LetDecl& let) {
  const syntax::Search& search = *let.search;
  const std::string& owner = let.name.value;
  const auto scope = [&](SearchPart part, std::size_t index) {
    return Scope{.search = owner, .locals = search_scope(search, part, index)};
  };
  const auto declare = [&](const syntax::Located<std::string>& name, SearchName::Role role, bool none_fits) {
    const SearchName n{.role = role, .name = &name, .none_fits = none_fits};
    add(NameKind::search_value, qualified_name(owner, n), name.location, true);
  };
  for (std::size_t k = 0; k < search.enumerations.size(); ++k) {
    const syntax::Enumeration& e = search.enumerations[k];
    declare(e.name, SearchName::Role::enumeration, false);
    add_expression(e.values, scope(SearchPart::enumeration, k));
  }
  const Scope candidate = scope(SearchPart::candidate, 0);
  const auto constraint = [&](const syntax::Constraint& c) {
    add_expression(c.holds, candidate);
    if (c.message) add_template(*c.message, candidate);
  };
  for (const syntax::Tier& tier : search.tiers) {
    for (const syntax::LetDecl& value : tier.lets) {
      declare(value.name, SearchName::Role::tier_value, false);
      add_expression(value.expr, scope(SearchPart::tier_value, 0));
    }
    for (const syntax::Constraint& c : tier.constraints) constraint(c);
  }
  for (const syntax::LetDecl& value : search.lets) {
    declare(value.name, SearchName::Role::candidate_value, false);
    add_expression(value.expr, candidate);
  }
  for (const syntax::Constraint& c : search.constraints) constraint(c);
  if (search.fits) constraint(*search.fits);
  add_expression(search.minimize, candidate);
  const auto failure = [&](const syntax::SearchFailure& f, SearchPart part) {
    const bool none_fits = part == SearchPart::none_fits;
    for (std::size_t k = 0; k < f.lets.size(); ++k) {
      declare(f.lets[k].name, SearchName::Role::failure_value, none_fits);
      Scope values = scope(part, k);
      if (none_fits) values.aggregated = aggregated_names(search);
      add_expression(f.lets[k].expr, values);
    }
    add_template(f.error, scope(part, f.lets.size()));
  };
  if (search.none_valid) failure(*search.none_valid, SearchPart::none_valid);
  if (search.none_fits) failure(*search.none_fits, SearchPart::none_fits);
}

void Document::index_names() {
  for (const syntax::Use& use : tree_.uses) {
    add(NameKind::use, use.name.value, use.name.location, true);
    add(NameKind::use_file, use.file.value, use.file.location, true);
  }
  const Scope facts;
  const Scope facts_and_fields{.fields = true};
  for (const syntax::InputDecl& in : tree_.inputs) {
    add(NameKind::input, in.name.value, in.name.location, true);
    if (in.error) add_template(*in.error, facts);
  }
  for (const syntax::LetDecl& l : tree_.lets) {
    add(NameKind::let, l.name.value, l.name.location, true);
    if (l.call) {
      add(NameKind::use, l.call->rules.value, l.call->rules.location, false);
      for (const syntax::Assignment& a : l.call->with) add_expression(a.value, facts);
    } else if (l.search) {
      index_search(l);
    } else {
      add_expression(l.expr, facts);
    }
  }
  for (const syntax::FieldDecl& f : tree_.fields) {
    add(NameKind::field, f.name.value, f.name.location, true);
    if (f.init) add_expression(*f.init, facts);
  }
  if (tree_.rationale_header) add_template(*tree_.rationale_header, facts);
  if (tree_.start) add(NameKind::table, tree_.start->value, tree_.start->location, false);
  for (const syntax::Table& t : tree_.tables) {
    add(NameKind::table, t.name.value, t.name.location, true);
    for (const syntax::Rule& r : t.rules) {
      add(NameKind::rule, t.name.value + "/" + r.name.value, r.name.location, true);
      add_matchers(r.when, facts);
      for (const syntax::Assignment& a : r.set) {
        add(NameKind::field, a.target.value, a.target.location, false);
        add_expression(a.value, facts);
      }
      for (const syntax::Template& b : r.because) add_template(b, facts);
      if (r.error) add_template(*r.error, facts);
      if (r.next) add(NameKind::table, r.next->value, r.next->location, false);
      if (r.fallback) {
        add(NameKind::table, r.fallback->table.value, r.fallback->table.location, false);
        for (const syntax::Assignment& a : r.fallback->with) {
          add(NameKind::input, a.target.value, a.target.location, false);
          add_expression(a.value, facts);
        }
        for (const auto& kept : r.fallback->keep)
          add(NameKind::field, kept.value, kept.location, false);
      }
    }
  }
  for (const syntax::Invariant& inv : tree_.invariants) {
    add_matchers(inv.when, facts_and_fields);
    add_expression(inv.require, facts_and_fields);
    add_template(inv.message, facts_and_fields);
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

std::optional<SearchName> Document::search_name(const std::string& qualified_name) const {
  const std::size_t slash = qualified_name.find('/');
  const syntax::LetDecl* owner = let(qualified_name.substr(0, slash));
  if (slash == std::string::npos || !owner || !owner->search) return std::nullopt;
  const syntax::Search& search = *owner->search;
  std::vector<SearchName> names;
  const std::string_view rest = std::string_view(qualified_name).substr(slash + 1);
  std::string_view name = rest;
  if (rest.starts_with("none_valid/") || rest.starts_with("none_fits/")) {
    const bool none_fits = rest.starts_with("none_fits/");
    name = rest.substr(rest.find('/') + 1);
    names = search_scope(search, none_fits ? SearchPart::none_fits : SearchPart::none_valid,
                         std::numeric_limits<std::size_t>::max());
  } else {
    names = aggregated_names(search);
  }
  for (const SearchName& n : names)
    if (n.name->value == name) return n;
  return std::nullopt;
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
  std::string value = value_text_from(at);
  if (!value.empty() && value[0] != '>' && value[0] != '|') return value;
  // A block scalar, or a value on the lines below (a block list): those indented more than the
  // key, joined.
  std::size_t key_line_start = 0;
  line_at(text_, extent->begin, &key_line_start);
  const std::size_t key_column = extent->begin - key_line_start;
  std::string joined;
  for (std::size_t next = text_.find('\n', at); next != std::string::npos && next + 1 < text_.size();
       next = text_.find('\n', next + 1)) {
    const std::string_view line = line_at(text_, next + 1);
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos) continue;  // a blank line inside the block
    if (first <= key_column) break;
    std::string_view content = line.substr(first);
    while (!content.empty() && (content.back() == ' ' || content.back() == '\r')) content.remove_suffix(1);
    joined += (joined.empty() ? "" : " ") + std::string(content);
  }
  return joined;
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
