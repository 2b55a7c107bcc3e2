// Diagnostics, hover, go to definition and find references.

#include <filesystem>
#include <regex>

#include "language/builtins.hpp"
#include "frontends/lsp/features.hpp"
#include "frontends/lsp/messages.hpp"
#include "render/flow_yaml.hpp"

namespace snnplan::lsp {
namespace fs = std::filesystem;

Json to_json(const Position& position) {
  return Json{{"line", position.line}, {"character", position.character}};
}

Json to_json(const Range& range) {
  return Json{{"start", to_json(range.start)}, {"end", to_json(range.end)}};
}

Range range_of(const Document& document, Extent extent) {
  return Range{position_of(document.text(), extent.begin),
               position_of(document.text(), extent.end)};
}

namespace {

// The first name a message quotes: "unknown table 'memroy' (did you mean 'memory'?)".
std::string first_quoted(const std::string& message) {
  const std::size_t open = message.find('\'');
  if (open == std::string::npos) return {};
  const std::size_t close = message.find('\'', open + 1);
  return close == std::string::npos ? std::string() : message.substr(open + 1, close - open - 1);
}

int severity_number(Severity severity) {
  switch (severity) {
    case Severity::error:
      return 1;
    case Severity::warning:
      return 2;
    case Severity::note:
      return 3;
  }
  return 1;
}

// "(first declared at FILE:LINE:COLUMN)": the other place a duplicate-name message names.
std::optional<SourceLocation> first_declared(const std::string& message) {
  static const std::regex kAt(R"(first declared at (.*):(\d+):(\d+)\))");
  std::smatch m;
  if (!std::regex_search(message, m, kAt)) return std::nullopt;
  return SourceLocation{m[1].str(), static_cast<std::uint32_t>(std::stoul(m[2].str())),
                        static_cast<std::uint32_t>(std::stoul(m[3].str()))};
}

Json location_json(const std::string& uri, const Range& range) {
  return Json{{"uri", uri}, {"range", to_json(range)}};
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : std::string(separator)) + p;
  return out;
}

std::string witness_text(const Inputs& inputs) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : inputs) parts.push_back(name + ": " + render::flow_yaml(value));
  return "{" + joined(parts, ", ") + "}";
}

std::vector<std::string> hover_of_input(const Document& d, const syntax::InputDecl& in) {
  std::vector<std::string> lines{
      messages::hover_input(in.name.value, d.value_text_at(in.type.location))};
  if (in.description) lines.push_back(in.description->value);
  lines.push_back(in.default_value
                      ? messages::hover_default(d.value_text_at(in.default_value->location))
                      : messages::hover_required());
  if (in.one_of) {
    std::vector<std::string> values;
    for (const Value& v : in.one_of->value) values.push_back("`" + render::flow_yaml(v) + "`");
    lines.push_back(messages::hover_allowed(joined(values, ", ")));
  }
  if (in.lower) lines.push_back(messages::hover_lowered());
  return lines;
}

std::vector<std::string> hover_of_rule(const Document& d, const std::string& path) {
  const std::size_t slash = path.find('/');
  const syntax::Table* table = d.table(path.substr(0, slash));
  if (!table) return {};
  const std::string name = path.substr(slash + 1);
  const auto rule = std::find_if(table->rules.begin(), table->rules.end(),
                                 [&](const syntax::Rule& r) { return r.name.value == name; });
  if (rule == table->rules.end()) return {};
  std::vector<std::string> lines{messages::hover_rule(table->name.value, name)};
  std::vector<std::string> sets;
  for (const syntax::Assignment& a : rule->set)
    sets.push_back("`" + a.target.value + ": " + d.value_of_key(a.target) + "`");
  lines.push_back(sets.empty() ? messages::hover_sets_nothing()
                               : messages::hover_sets(joined(sets, ", ")));
  if (rule->next) lines.push_back(messages::hover_continues("next", rule->next->value));
  if (rule->fallback)
    lines.push_back(messages::hover_continues("fallback", rule->fallback->table.value));
  if (!d.rules()) {
    lines.push_back(messages::hover_reach_needs_clean_file());
    return lines;
  }
  const Reach& reach = d.reach(path);
  switch (reach.status) {
    case Reach::Status::witness:
      lines.push_back(reach.witness.empty() ? messages::hover_witness_defaults()
                                            : messages::hover_witness(witness_text(reach.witness)));
      break;
    case Reach::Status::never:
      lines.push_back(messages::hover_never_reached());
      break;
    case Reach::Status::unknown:
      lines.push_back(messages::hover_reach_unknown(reach.why));
      break;
  }
  return lines;
}

std::vector<std::string> hover_of_table(const Document& d, const syntax::Table& table) {
  std::vector<std::string> lines{messages::hover_table(table.name.value, table.rules.size())};
  std::vector<std::string> names;
  for (const syntax::Rule& r : table.rules) names.push_back("`" + r.name.value + "`");
  if (!names.empty()) lines.push_back(joined(names, ", "));
  std::vector<std::string> callers;
  if (d.tree().start && d.tree().start->value == table.name.value)
    callers.push_back(messages::hover_start_table());
  for (const syntax::Table& t : d.tree().tables)
    for (const syntax::Rule& r : t.rules) {
      if (r.next && r.next->value == table.name.value)
        callers.push_back(messages::caller(t.name.value, r.name.value, "next"));
      if (r.fallback && r.fallback->table.value == table.name.value)
        callers.push_back(messages::caller(t.name.value, r.name.value, "fallback"));
    }
  lines.push_back(callers.empty() ? messages::hover_no_callers()
                                  : messages::hover_callers(joined(callers, ", ")));
  return lines;
}

// A search's let: what it enumerates, its tiers and the key of its choice.
std::vector<std::string> hover_of_search(const Document& d, const syntax::LetDecl& let) {
  const syntax::Search& search = *let.search;
  const auto names = [](const auto& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back("`" + e.name.value + "`");
    return joined(out, ", ");
  };
  std::vector<std::string> lines{messages::hover_search(let.name.value)};
  lines.push_back(messages::hover_search_for(names(search.enumerations)));
  if (!search.lets.empty()) lines.push_back(messages::hover_search_values(names(search.lets)));
  if (!search.tiers.empty()) lines.push_back(messages::hover_search_tiers(names(search.tiers)));
  if (search.minimize_key.known())
    lines.push_back(messages::hover_search_minimize(d.value_of_key({"minimize", search.minimize_key})));
  return lines;
}

// A name declared in a search: what it is and the expression that gives it (each tier's).
std::vector<std::string> hover_of_search_name(const Document& d, const std::string& qualified,
                                              const SearchName& n) {
  const std::string search = qualified.substr(0, qualified.find('/'));
  const std::string& name = n.name->value;
  const std::string value = "`" + d.value_of_key(*n.name) + "`";
  switch (n.role) {
    case SearchName::Role::enumeration:
      return {messages::hover_enumeration(name, search, d.value_of_key(*n.name))};
    case SearchName::Role::candidate_value:
      return {messages::hover_candidate_value(name, search), value};
    case SearchName::Role::failure_value:
      return {messages::hover_failure_value(name, n.none_fits ? "none_fits" : "none_valid", search),
              value};
    case SearchName::Role::tier_value: {
      std::vector<std::string> tiers;
      for (const syntax::Tier& tier : d.let(search)->search->tiers)
        for (const syntax::LetDecl& l : tier.lets)
          if (l.name.value == name)
            tiers.push_back("`" + tier.name.value + "`: `" + d.value_of_key(l.name) + "`");
      return {messages::hover_tier_value(name, search), joined(tiers, ", ")};
    }
  }
  return {};
}

std::vector<std::string> hover_lines(const Document& d, NameKind kind, const std::string& name) {
  const struct {
    NameKind kind;
    const std::string& name;
  } o{kind, name};
  switch (o.kind) {
    case NameKind::input:
      if (const auto* in = d.input(o.name)) return hover_of_input(d, *in);
      return {};
    case NameKind::let:
      if (const auto* l = d.let(o.name)) {
        if (l->call) return {messages::hover_let_call(o.name, l->call->rules.value)};
        if (l->search) return hover_of_search(d, *l);
        return {messages::hover_let(o.name), "`" + d.value_of_key(l->name) + "`"};
      }
      return {};
    case NameKind::search_value:
      if (const auto n = d.search_name(o.name)) return hover_of_search_name(d, o.name, *n);
      return {};
    case NameKind::aggregate:
      return {messages::hover_aggregate(o.name)};
    case NameKind::field:
      if (const auto* f = d.field(o.name)) {
        std::vector<std::string> lines{
            messages::hover_field(o.name, d.value_text_at(f->type.location))};
        if (f->default_value)
          lines.push_back(messages::hover_default(d.value_text_at(f->default_value->location)));
        return lines;
      }
      return {};
    case NameKind::table:
      if (const auto* t = d.table(o.name)) return hover_of_table(d, *t);
      return {};
    case NameKind::rule:
      return hover_of_rule(d, o.name);
    case NameKind::use:
    case NameKind::use_file:
      for (const syntax::Use& u : d.tree().uses)
        if ((o.kind == NameKind::use ? u.name.value : u.file.value) == o.name)
          return {messages::hover_use(u.name.value, u.file.value)};
      return {};
    case NameKind::builtin:
      if (const auto* b = language::find_builtin(o.name))
        return {messages::hover_builtin(b->signature, b->summary)};
      return {};
  }
  return {};
}

}  // namespace

Range diagnostic_range(const Document& document, const Diagnostic& diagnostic) {
  const std::string& text = document.text();
  const std::size_t at = offset_of(text, diagnostic.location);
  Extent extent{at, at};
  const std::string named = first_quoted(diagnostic.message);
  if (const auto found = name_from(text, at, named); found && found->begin == at)
    extent = *found;
  else if (at < text.size() && is_name_char(text[at], true))
    extent = name_at(text, at, true);
  if (extent.empty() && at < text.size() && text[at] != '\n' && text[at] != '\r')
    extent.end = at + 1;
  if (extent.begin < at) extent.begin = at;
  return range_of(document, extent);
}

std::string suggestion_of(const Diagnostic& diagnostic) {
  static const std::regex kMeant(R"(did you mean '([^']*)'\?)");
  std::smatch m;
  return std::regex_search(diagnostic.message, m, kMeant) ? m[1].str() : std::string();
}

Json diagnostics_params(const Document& document, const std::string& uri) {
  Json list = Json::array();
  for (const Diagnostic& d : document.diagnostics()) {
    const Range range = diagnostic_range(document, d);
    Json item{{"range", to_json(range)},
              {"severity", severity_number(d.severity)},
              {"code", d.code},
              {"source", "snnplan"},
              {"message", d.message}};
    // The check's hint, as related information: the name it suggests, the earlier declaration.
    Json related = Json::array();
    if (const std::string meant = suggestion_of(d); !meant.empty())
      related.push_back(
          {{"location", location_json(uri, range)}, {"message", "did you mean '" + meant + "'?"}});
    if (const auto first = first_declared(d.message); first && first->file == document.path()) {
      const std::size_t at = offset_of(document.text(), *first);
      related.push_back(
          {{"location", location_json(uri, range_of(document, name_at(document.text(), at, true)))},
           {"message", "first declared here"}});
    }
    if (!related.empty()) item["relatedInformation"] = std::move(related);
    list.push_back(std::move(item));
  }
  return Json{{"uri", uri}, {"diagnostics", std::move(list)}};
}

std::string describe(const Document& document, NameKind kind, const std::string& name) {
  return joined(hover_lines(document, kind, name), "\n\n");
}

Json hover(const Document& document, std::size_t at) {
  const Occurrence* o = document.occurrence_at(at);
  if (!o) return nullptr;
  const std::vector<std::string> lines = hover_lines(document, o->kind, o->name);
  if (lines.empty()) return nullptr;
  return Json{{"contents", {{"kind", "markdown"}, {"value", joined(lines, "\n\n")}}},
              {"range", to_json(range_of(document, o->extent))}};
}

Json definition(const Document& document, const std::string& uri, std::size_t at,
                const RuleRoots& roots) {
  Json out = Json::array();
  const Occurrence* o = document.occurrence_at(at);
  if (!o) return out;
  if (o->kind == NameKind::use_file) {
    const std::string path =
        (fs::path(document.path()).parent_path() / o->name).lexically_normal().string();
    std::error_code ec;
    if (roots.contains(path) && fs::is_regular_file(path, ec))
      out.push_back(location_json(uri_of_path(path), Range{}));
    return out;
  }
  if (const Occurrence* d = document.definition(o->kind, o->name))
    out.push_back(location_json(uri, range_of(document, d->extent)));
  // A `uses:` name is defined by its entry, and that entry stands for the file.
  return out;
}

Json references(const Document& document, const std::string& uri, std::size_t at,
                bool with_definition) {
  Json out = Json::array();
  const Occurrence* o = document.occurrence_at(at);
  if (!o) return out;
  for (const Occurrence& other : document.occurrences())
    if (other.kind == o->kind && other.name == o->name && (with_definition || !other.definition))
      out.push_back(location_json(uri, range_of(document, other.extent)));
  return out;
}

}  // namespace snnplan::lsp
