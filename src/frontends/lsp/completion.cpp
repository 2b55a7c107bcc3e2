// Completion: which names fit where the cursor is, read from the text before it (the line up to
// the cursor and the keys of the lines above it that enclose it), with the candidates taken from
// the language's own definitions: the key rows of load/keys.hpp, the matcher and builtin rows
// of language/, the type names of syntax.hpp, and the document's own declarations. Inside a
// search, an expression is offered the search's names its part sees (search_scope(), as the
// index of names resolves them).

#include <algorithm>
#include <optional>

#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "load/keys.hpp"
#include "frontends/lsp/features.hpp"
#include "frontends/lsp/messages.hpp"
#include "render/flow_yaml.hpp"

namespace snnplan::lsp {
namespace {

// The protocol's CompletionItemKind numbers.
enum ItemKind {
  kFunction = 3,
  kField = 5,
  kVariable = 6,
  kModule = 9,
  kKeyword = 14,
  kEnumMember = 20,
  kConstant = 21,
  kTypeParameter = 25
};

// Where the cursor is: the keys that enclose it (innermost first) and, when it is in a value,
// the key whose value it is.
struct Context {
  std::vector<std::string> parents;
  std::optional<std::string> value_of;
  bool expression = false;  // inside a value that starts with '=' (or a `let` value)
  std::string called;       // the function whose '(' is just before the word: `smallest(`
  std::size_t at = 0;       // where the word starts
};

bool is_blank_or_comment(std::string_view line) {
  const std::size_t first = line.find_first_not_of(' ');
  return first == std::string_view::npos || line[first] == '#';
}

// The key a block line starts with ("  - name: x" -> "name"), and where it starts.
std::optional<std::pair<std::string, std::size_t>> line_key(std::string_view line) {
  std::size_t at = indentation(line);
  if (line.substr(at).starts_with("- ")) at += 2;
  std::size_t end = at;
  while (end < line.size() && is_name_char(line[end], true)) ++end;
  if (end == at || end >= line.size() || line[end] != ':') return std::nullopt;
  return std::make_pair(std::string(line.substr(at, end - at)), at);
}

// The enclosing keys of the lines above the one at `line_start`, for a key at column `column`.
void add_block_parents(std::string_view text, std::size_t line_start, std::size_t column,
                       std::vector<std::string>& parents) {
  std::size_t limit = column;
  std::size_t end = line_start;
  while (end > 0 && limit > 0) {
    std::size_t start = 0;
    const std::string_view line = line_at(text, end - 1, &start);
    end = start;
    if (is_blank_or_comment(line)) continue;
    const auto key = line_key(line);
    if (!key || key->second >= limit) {
      // A sibling key, or a list item whose mapping holds the cursor's key: its dash is the
      // mapping's indentation, so the parent is above that.
      if (key && key->second == limit && line.substr(indentation(line)).starts_with("- "))
        limit = indentation(line);
      continue;
    }
    parents.push_back(key->first);
    limit = indentation(line);
  }
}

// The key whose block scalar (`key: >-` and lines indented more) holds the line at
// `line_start`, with where that key's line starts and its column.
struct BlockOwner {
  std::string key;
  std::size_t line_start = 0;
  std::size_t column = 0;
};
std::optional<BlockOwner> block_scalar_owner(std::string_view text, std::size_t line_start) {
  std::size_t limit = indentation(line_at(text, line_start));
  std::size_t end = line_start;
  while (end > 0) {
    std::size_t start = 0;
    const std::string_view line = line_at(text, end - 1, &start);
    end = start;
    if (is_blank_or_comment(line) || indentation(line) >= limit) continue;
    const auto key = line_key(line);
    if (!key) {  // a line of the same block, less indented than this one
      limit = indentation(line);
      continue;
    }
    if (key->second >= limit) return std::nullopt;  // `- key: >-` and a sibling of `key`
    std::string_view value = line.substr(key->second + key->first.size() + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (value.empty() || (value.front() != '>' && value.front() != '|')) return std::nullopt;
    return BlockOwner{key->first, start, key->second};
  }
  return std::nullopt;
}

// Whether the first non-blank line after the key line at `key_line_start` starts with '='.
bool block_starts_with_equals(std::string_view text, std::size_t key_line_start) {
  for (std::size_t at = text.find('\n', key_line_start); at != std::string_view::npos && at + 1 < text.size();
       at = text.find('\n', at + 1)) {
    const std::string_view line = line_at(text, at + 1);
    if (is_blank_or_comment(line)) continue;
    return line.substr(indentation(line)).starts_with("=");
  }
  return false;
}

// The name of the call whose '(' precedes byte `at` (spaces between): "smallest" in
// `smallest(est`.
std::string called_before(std::string_view text, std::size_t at) {
  while (at > 0 && text[at - 1] == ' ') --at;
  if (at == 0 || text[at - 1] != '(') return {};
  const Extent name = name_at(text, at - 1, false);
  return name.end == at - 1 ? std::string(text.substr(name.begin, name.end - name.begin)) : std::string();
}

Context context_at(std::string_view text, std::size_t word_begin) {
  std::size_t line_start = 0;
  const std::string_view line = line_at(text, word_begin, &line_start);
  // A line of a folded or literal value is in that value.
  if (const auto owner = block_scalar_owner(text, line_start)) {
    Context context;
    context.at = word_begin;
    context.value_of = owner->key;
    context.expression = block_starts_with_equals(text, owner->line_start);
    context.called = called_before(text, word_begin);
    add_block_parents(text, owner->line_start, owner->column, context.parents);
    return context;
  }
  const std::string_view before = line.substr(0, word_begin - line_start);
  // Walk the line: flow collections push the key whose value they are.
  struct Open {
    char bracket;
    std::string key;
  };
  std::vector<Open> open;
  std::string last_key;
  std::string token;
  bool in_value = false;
  bool expression = false;
  std::size_t k = indentation(before);
  if (before.substr(k).starts_with("- ")) k += 2;
  const std::size_t key_column = k;
  for (; k < before.size(); ++k) {
    const char c = before[k];
    if (c == '"' || c == '\'') {
      const std::size_t close = before.find(c, k + 1);
      if (close == std::string_view::npos) {  // the cursor is inside this quoted text
        in_value = true;
        expression = before.substr(k + 1).starts_with("=");
        break;
      }
      k = close;
      continue;
    }
    if (is_name_char(c, true)) {
      token += c;
      continue;
    }
    if (c == ':' && !token.empty()) {
      last_key = token;
      in_value = true;
      expression = false;
    } else if (c == '{' || c == '[') {
      open.push_back(Open{c, last_key});
      in_value = c == '[';
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
    } else if (c == ',') {
      in_value = !open.empty() && open.back().bracket == '[';
    } else if (c == '=' && in_value) {
      expression = true;
    } else if (c == '#') {
      break;
    }
    token.clear();
  }
  Context context;
  context.at = word_begin;
  if (in_value) {
    context.value_of = !open.empty() && open.back().bracket == '[' ? open.back().key : last_key;
    context.expression = expression;
  }
  for (auto it = open.rbegin(); it != open.rend(); ++it)
    if (it->bracket == '{') context.parents.push_back(it->key);
  add_block_parents(text, line_start, key_column, context.parents);
  context.called = called_before(text, word_begin);
  return context;
}

Json item(std::string label, int kind, std::string detail, std::string documentation) {
  Json out{{"label", std::move(label)}, {"kind", kind}, {"detail", std::move(detail)}};
  if (!documentation.empty())
    out["documentation"] = {{"kind", "markdown"}, {"value", std::move(documentation)}};
  return out;
}

std::string_view role_of(SearchName::Role role) {
  switch (role) {
    case SearchName::Role::enumeration:
      return "enumeration";
    case SearchName::Role::tier_value:
      return "tier value";
    case SearchName::Role::candidate_value:
      return "candidate value";
    case SearchName::Role::failure_value:
      return "failure value";
  }
  return {};
}

class Candidates {
 public:
  explicit Candidates(const Document& d) : d_(d) {}

  void keys(load::Section section) {
    for (const load::KeyRow& row : load::keys(section))
      items_.push_back(item(std::string(row.key), kKeyword,
                            messages::detail_key(load::summary(section)),
                            std::string(row.summary)));
  }
  void inputs() {
    for (const auto& in : d_.declarations().inputs)
      items_.push_back(item(in.name.value, kVariable,
                            messages::detail_input(d_.value_text_at(in.type.location)),
                            describe(d_, NameKind::input, in.name.value)));
  }
  // `except`: the let being written (a search's own let, read inside it, is a let-cycle).
  void lets(std::string_view except = {}) {
    for (const auto& l : d_.declarations().lets)
      if (l.name.value != except)
        items_.push_back(item(l.name.value, kConstant, messages::detail_let(),
                              describe(d_, NameKind::let, l.name.value)));
  }
  void fields() {
    for (const auto& f : d_.declarations().fields)
      items_.push_back(item(f.name.value, kField,
                            messages::detail_field(d_.value_text_at(f.type.location)),
                            describe(d_, NameKind::field, f.name.value)));
  }
  void tables() {
    for (const auto& t : d_.declarations().tables)
      items_.push_back(item(t.name.value, kModule, messages::detail_table(t.rules.size()),
                            describe(d_, NameKind::table, t.name.value)));
  }
  void uses() {
    for (const auto& u : d_.declarations().uses)
      items_.push_back(item(u.name.value, kModule, u.file.value, {}));
  }
  void matchers() {
    for (const language::MatcherInfo& m : language::matchers())
      items_.push_back(item(m.name, kKeyword, messages::detail_matcher(), m.summary));
  }
  void builtins() {
    for (const language::BuiltinInfo& b : language::builtins())
      items_.push_back(item(b.name, kFunction, b.signature, b.summary));
  }
  void types(bool with_rationale) {
    for (const std::string& name : syntax::type_names(with_rationale))
      items_.push_back(item(name, kTypeParameter, messages::detail_type(), syntax::type_summary(name)));
  }
  // The values `one_of` allows for `name`, when it is an input that has one.
  bool values_of(const std::string& name) {
    const auto& inputs = d_.declarations().inputs;
    const auto in = std::find_if(inputs.begin(), inputs.end(),
                                 [&](const syntax::InputDecl& i) { return i.name.value == name; });
    if (in == inputs.end() || !in->one_of) return false;
    for (const Value& v : in->one_of->value)
      items_.push_back(item(render::flow_yaml(v), kEnumMember, messages::detail_value_of(name),
                            describe(d_, NameKind::input, name)));
    return true;
  }
  // Names declared in the search let `search`.
  void search_names(const std::vector<SearchName>& names, const std::string& search) {
    for (const SearchName& n : names)
      items_.push_back(item(n.name->value, kVariable,
                            messages::detail_search_name(role_of(n.role), search),
                            describe(d_, NameKind::search_value, qualified_name(search, n))));
  }
  void aggregates() {
    for (const std::string_view name : syntax::kAggregates)
      items_.push_back(item(std::string(name), kFunction, messages::detail_aggregate(),
                            messages::hover_aggregate(name)));
  }
  void tier_name() {
    items_.push_back(item(syntax::kTierField, kVariable, messages::detail_tier_name(), {}));
  }
  Json take() { return std::move(items_); }

 private:
  const Document& d_;
  Json items_ = Json::array();
};

bool has(const std::vector<std::string>& parents, std::string_view key) {
  return std::find(parents.begin(), parents.end(), key) != parents.end();
}

// The expression of a search the value being completed is, and the part it is in.
struct InSearch {
  const syntax::LetDecl* let = nullptr;
  SearchPart part = SearchPart::candidate;
  std::size_t index = 0;
};

// How many of `entries` are written on the lines above the one holding byte `at`: those keep
// their places even in the declarations of an earlier text (the edit is at the cursor).
template <typename Entries>
std::size_t index_of(const Entries& entries, std::string_view text, std::size_t at) {
  std::size_t line_start = 0;
  line_at(text, at, &line_start);
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [&](const auto& e) {
    return e.name.location.known() && offset_of(text, e.name.location) < line_start;
  }));
}

std::optional<InSearch> search_part(const Context& c, const Document& d) {
  std::vector<std::string> p = c.parents;
  std::erase(p, std::string());  // `- {name: x, holds: ...}`: the item of a list
  const auto found = std::find(p.begin(), p.end(), "search");
  const auto i = static_cast<std::size_t>(found - p.begin());
  // A search is the value of a let of the file: `let: NAME: search:`.
  if (found == p.end() || i + 3 != p.size() || p[i + 2] != "let") return std::nullopt;
  const auto& lets = d.declarations().lets;
  const auto let = std::find_if(lets.begin(), lets.end(), [&](const syntax::LetDecl& l) {
    return l.name.value == p[i + 1] && l.search;
  });
  if (let == lets.end()) return std::nullopt;
  const syntax::Search& search = *let->search;
  const std::string& key = *c.value_of;
  const std::string part = i > 0 ? p[i - 1] : std::string();  // the search's key holding it
  const auto in = [&](SearchPart where, std::size_t index = 0) {
    return std::optional<InSearch>(InSearch{&*let, where, index});
  };
  if (i == 0) return key == "minimize" ? in(SearchPart::candidate) : std::nullopt;
  if (i == 1 && part == "for") return in(SearchPart::enumeration, index_of(search.enumerations, d.text(), c.at));
  if (i == 1 && part == "let") return in(SearchPart::candidate);
  if (i == 1 && (part == "require" || part == "fits"))
    return key == "holds" ? in(SearchPart::candidate) : std::nullopt;
  if (i == 2 && part == "tiers" && p[0] == "let") return in(SearchPart::tier_value);
  if (i == 2 && part == "tiers" && p[0] == "require" && key == "holds") return in(SearchPart::candidate);
  if (i == 2 && p[0] == "let" && part == "none_valid" && search.none_valid)
    return in(SearchPart::none_valid, index_of(search.none_valid->lets, d.text(), c.at));
  if (i == 2 && p[0] == "let" && part == "none_fits" && search.none_fits)
    return in(SearchPart::none_fits, index_of(search.none_fits->lets, d.text(), c.at));
  return std::nullopt;
}

// An expression of a search: facts, builtins and the search's names its part sees; in
// none_fits the aggregates, and inside smallest( or largest( the candidates' names they read.
void complete_in_search(const Context& c, const InSearch& in, Candidates& out) {
  const syntax::Search& search = *in.let->search;
  const std::string& name = in.let->name.value;
  if (in.part == SearchPart::none_fits &&
      (c.called == syntax::kSmallestAggregate || c.called == syntax::kLargestAggregate)) {
    out.search_names(aggregated_names(search), name);
    return out.tier_name();
  }
  out.inputs();
  out.lets(name);
  out.search_names(search_scope(search, in.part, in.index), name);
  out.builtins();
  if (in.part == SearchPart::none_fits) out.aggregates();
}

void complete_value(const Document& d, const Context& c, Candidates& out) {
  if (const auto in = search_part(c, d)) return complete_in_search(c, *in, out);
  const std::string& key = *c.value_of;
  const std::string parent = c.parents.empty() ? std::string() : c.parents.front();
  const bool in_let = !c.parents.empty() && c.parents.front() == "let";
  if (c.expression || in_let) {
    out.inputs();
    out.lets();
    if (has(c.parents, "ensure")) out.fields();
    out.builtins();
    return;
  }
  if (key == "next" || key == "table" || key == "start") return out.tables();
  if (key == "type") return out.types(has(c.parents, "record"));
  if (key == "call") return out.uses();
  if (key == "keep") return out.fields();
  if (out.values_of(key)) return;  // `prefer: ` in a when
  if (language::find_matcher(key) && !parent.empty()) out.values_of(parent);  // `{eq: `
}

void complete_key(const Context& c, Candidates& out) {
  const auto& p = c.parents;
  const auto at = [&](std::size_t k) { return k < p.size() ? p[k] : std::string(); };
  if (p.empty()) return out.keys(load::Section::rule_file);
  if (at(0) == "when") {
    out.inputs();
    out.lets();
    if (has(p, "ensure")) out.fields();
    return;
  }
  if (at(1) == "when") return out.matchers();
  if (at(0) == "set") return out.fields();
  if (at(0) == "with" && at(1) == "fallback") return out.inputs();
  if (at(0) == "fallback") return out.keys(load::Section::fallback);
  if (at(0) == "ensure") return out.keys(load::Section::invariant);
  if (at(1) == "inputs") return out.keys(load::Section::input);
  if (at(1) == "record") return out.keys(load::Section::record_field);
  // A search's parts (a let with `search`).
  if (has(p, "search")) {
    if (at(0) == "search") return out.keys(load::Section::search);
    if (at(0) == "tiers") return out.keys(load::Section::search_tier);
    if (at(0) == "require" || at(0) == "fits") return out.keys(load::Section::search_constraint);
    if (at(0) == "none_valid" || at(0) == "none_fits") return out.keys(load::Section::search_failure);
  }
  if (at(1) == "let") {
    out.keys(load::Section::let_call);
    return out.keys(load::Section::let_search);
  }
  if (at(0) == "rules" || at(1) == "tables") return out.keys(load::Section::rule);
}

}  // namespace

Json completion(const Document& document, std::size_t at) {
  const Extent word = name_at(document.text(), at, true);
  const Context context = context_at(document.text(), word.begin);
  Candidates out(document);
  if (context.value_of)
    complete_value(document, context, out);
  else
    complete_key(context, out);
  return Json{{"isIncomplete", false}, {"items", out.take()}};
}

}  // namespace snnplan::lsp
