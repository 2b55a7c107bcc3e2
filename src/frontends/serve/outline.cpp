#include "frontends/serve/outline.hpp"

#include <algorithm>

#include "language/matchers.hpp"
#include "render/json.hpp"

namespace snnplan::serve {
namespace {

using json = nlohmann::ordered_json;

std::size_t offset_in(std::string_view text, const SourceLocation& at) {
  if (!at.known()) return text.size();
  std::size_t offset = 0;
  for (std::uint32_t line = 1; line < at.line; ++line) {
    const std::size_t newline = text.find('\n', offset);
    if (newline == std::string_view::npos) return text.size();
    offset = newline + 1;
  }
  const std::size_t line_end = std::min(text.find('\n', offset), text.size());
  return std::min(offset + (at.column == 0 ? 0 : at.column - 1), line_end);
}

json place(const SourceLocation& at) { return json{{"line", at.line}, {"column", at.column}}; }

json rule_row(const syntax::Rule& rule, std::string_view text) {
  json row{{"name", rule.name.value}, {"line", rule.name.location.line},
           {"column", rule.name.location.column}};
  json when = json::array();
  for (const syntax::Matcher& m : rule.when) {
    json condition{{"fact", m.fact.value},
                   {"op", language::matcher(m.op).name},
                   {"operand", m.text}};
    condition.update(place(m.fact.location));
    when.push_back(std::move(condition));
  }
  row["when"] = std::move(when);
  json set = json::array();
  for (const syntax::Assignment& a : rule.set)
    set.push_back(json{{"field", a.target.value}, {"value", written_value(text, a.value.location)}});
  row["set"] = std::move(set);
  row["next"] = rule.next ? json(rule.next->value) : json(nullptr);
  row["fallback"] = rule.fallback ? json(rule.fallback->table.value) : json(nullptr);
  row["error"] = rule.error.has_value();
  return row;
}

}  // namespace

std::string written_value(std::string_view text, const SourceLocation& at) {
  const std::size_t begin = offset_in(text, at);
  int depth = 0;
  char quote = 0;
  std::size_t end = begin;
  for (; end < text.size() && text[end] != '\n'; ++end) {
    const char c = text[end];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{' || c == '(') {
      ++depth;
    } else if (c == ']' || c == '}' || c == ')' || c == ',') {
      if (depth == 0) break;
      if (c != ',') --depth;
    } else if (c == '#' && end > begin && text[end - 1] == ' ') {
      break;  // a comment after a plain scalar
    }
  }
  std::string_view value = text.substr(begin, end - begin);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return std::string(value);
}

nlohmann::ordered_json outline_tables(const syntax::RuleFile& file, std::string_view text) {
  json tables = json::array();
  for (const syntax::Table& table : file.tables) {
    json rows = json::array();
    for (const syntax::Rule& rule : table.rules) rows.push_back(rule_row(rule, text));
    tables.push_back(json{{"name", table.name.value},
                          {"line", table.name.location.line},
                          {"rules", std::move(rows)}});
  }
  return json{{"start", file.start ? json(file.start->value) : json(nullptr)},
              {"tables", std::move(tables)}};
}

nlohmann::ordered_json outline_inputs(const RuleSet& rules) {
  json inputs = json::array();
  for (const InputInfo& info : rules.inputs()) {
    json input{{"name", info.name}, {"type", info.type}, {"required", info.required},
               {"default", info.default_value ? render::to_json(*info.default_value) : json(nullptr)},
               {"one_of", nullptr},
               {"description", info.description.empty() ? json(nullptr) : json(info.description)}};
    if (!info.one_of.empty()) {
      json allowed = json::array();
      for (const Value& v : info.one_of) allowed.push_back(render::to_json(v));
      input["one_of"] = std::move(allowed);
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

}  // namespace snnplan::serve
