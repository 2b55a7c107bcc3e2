// Code actions (the checker's own fixes: the name a "did you mean" suggests, an `allow:` for a
// warning) and code lenses (the decision for input.yaml beside the rule file, with its trace).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/diagnostic_codes.hpp"
#include "load/yaml_values.hpp"
#include "frontends/lsp/features.hpp"
#include "frontends/lsp/messages.hpp"
#include "render/flow_yaml.hpp"
#include "request/json_inputs.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::lsp {
namespace fs = std::filesystem;
namespace {

bool touches(const Range& a, const Range& b) {
  return a.start.line <= b.end.line && b.start.line <= a.end.line;
}

Json text_edit(const Range& range, std::string text) {
  return Json{{"range", to_json(range)}, {"newText", std::move(text)}};
}

Json quick_fix(std::string title, const std::string& uri, Json edits, Json diagnostic,
               bool preferred) {
  return Json{{"title", std::move(title)},
              {"kind", "quickfix"},
              {"diagnostics", Json::array({std::move(diagnostic)})},
              {"isPreferred", preferred},
              {"edit", {{"changes", {{uri, std::move(edits)}}}}}};
}

std::string reason_line() {
  return "reason: \"" + messages::allowance_reason_placeholder() + "\"";
}

// The place an `allow:` for `code` at `at` goes, as an edit: the rule around it (block style),
// else the input whose name it is at. nullopt where no edit fits the text as written.
std::optional<std::pair<Json, std::string>> allowance_edit(const Document& d,
                                                           const SourceLocation& at,
                                                           const std::string& code) {
  const std::string& text = d.text();
  const auto before = [](const SourceLocation& a, const SourceLocation& b) {
    return a.line < b.line || (a.line == b.line && a.column < b.column);
  };
  const auto insert_at = [&](std::size_t offset, std::string inserted) {
    const Position p = position_of(text, offset);
    return text_edit(Range{p, p}, std::move(inserted));
  };
  const auto append_code = [&](const syntax::Allowance& allow) -> std::optional<Json> {
    if (allow.codes.empty()) return std::nullopt;
    const auto& last = allow.codes.back();
    const auto extent = name_from(text, offset_of(text, last.location), last.value);
    if (!extent) return std::nullopt;
    return insert_at(extent->end, ", " + code);
  };
  const auto& tables = d.tree().tables;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const auto& rules = tables[t].rules;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      const SourceLocation& start = rules[r].location;
      const SourceLocation* end = r + 1 < rules.size()    ? &rules[r + 1].location
                                  : t + 1 < tables.size() ? &tables[t + 1].name.location
                                                          : nullptr;
      if (before(at, start) || (end && !before(at, *end))) continue;
      const std::string where = "rule '" + rules[r].name.value + "'";
      if (rules[r].allow) {
        if (auto edit = append_code(*rules[r].allow)) return std::make_pair(*edit, where);
        return std::nullopt;
      }
      // Block style: the rule's keys start at its column; a flow mapping is left alone.
      std::size_t line_start = 0;
      const std::size_t offset = offset_of(text, start);
      const std::string_view line = line_at(text, offset, &line_start);
      if (offset < text.size() && text[offset] == '{') return std::nullopt;
      const std::string indent(offset - line_start, ' ');
      const std::size_t next_line = line_start + line.size() + 1;
      return std::make_pair(
          insert_at(std::min(next_line, text.size()),
                    indent + "allow: [" + code + "]\n" + indent + reason_line() + "\n"),
          where);
    }
  }
  for (const syntax::InputDecl& in : d.tree().inputs) {
    if (in.name.location.line != at.line || in.name.location.column != at.column) continue;
    const std::string where = "input '" + in.name.value + "'";
    if (in.allow) {
      if (auto edit = append_code(*in.allow)) return std::make_pair(*edit, where);
      return std::nullopt;
    }
    std::size_t line_start = 0;
    const std::string_view line = line_at(text, offset_of(text, at), &line_start);
    const std::size_t close = line.rfind('}');
    if (close != std::string_view::npos)  // `name: {type: string}`
      return std::make_pair(
          insert_at(line_start + close, ", allow: [" + code + "], " + reason_line()), where);
    const std::size_t next_line = line_start + line.size() + 1;
    if (next_line >= text.size()) return std::nullopt;
    const std::string indent(indentation(line_at(text, next_line)), ' ');
    return std::make_pair(
        insert_at(next_line, indent + "allow: [" + code + "]\n" + indent + reason_line() + "\n"),
        where);
  }
  return std::nullopt;
}

}  // namespace

Json code_actions(const Document& document, const std::string& uri, const Range& range) {
  Json out = Json::array();
  const Json published = diagnostics_params(document, uri)["diagnostics"];
  for (std::size_t k = 0; k < document.diagnostics().size(); ++k) {
    const Diagnostic& d = document.diagnostics()[k];
    const Range marked = diagnostic_range(document, d);
    if (!touches(marked, range)) continue;
    if (const std::string meant = suggestion_of(d); !meant.empty())
      out.push_back(quick_fix(messages::replace_with(meant), uri,
                              Json::array({text_edit(marked, meant)}), published[k], true));
    const detail::DiagnosticCodeInfo* row = detail::find_diagnostic_code(d.code);
    if (d.severity == Severity::error || !row || row->severity == Severity::error) continue;
    if (auto edit = allowance_edit(document, d.location, d.code))
      out.push_back(quick_fix(messages::allow_here(d.code, edit->second), uri,
                              Json::array({std::move(edit->first)}), published[k], false));
  }
  return out;
}

namespace {

struct InputFile {
  std::string name;  // as the lens shows it: input.yaml or input.json
  std::variant<Inputs, std::string> inputs;
};

// input.yaml (else input.json) beside the rule file, inside the rule roots.
std::optional<InputFile> read_input_file(const Document& document, const RuleRoots& roots) {
  constexpr std::size_t kMaxInputBytes = 1024 * 1024;
  for (const char* name : {"input.yaml", "input.json"}) {
    const fs::path path = fs::path(document.path()).parent_path() / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || !roots.contains(path.string())) continue;
    InputFile out{name, std::string()};
    if (fs::file_size(path, ec) > kMaxInputBytes) {
      out.inputs = "larger than 1 MiB";
      return out;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto read = load::yaml_to_json(buffer.str());  // JSON is YAML too
    if (auto* why = std::get_if<std::string>(&read)) {
      out.inputs = std::move(*why);
      return out;
    }
    const Json& object = std::get<Json>(read);
    if (!object.is_object()) {
      out.inputs = messages::lens_inputs_not_mapping();
      return out;
    }
    out.inputs = request::inputs_from_json(object, *document.rules());
    return out;
  }
  return std::nullopt;
}

std::string record_text(const Record& record) {
  std::string out;
  for (std::size_t k = 0; k < record.names().size(); ++k) {
    const Value& v = record.values()[k];
    if (v.is_list() && record.names()[k] == "rationale") continue;  // shown by the trace
    out += (out.empty() ? "" : ", ") + record.names()[k] + ": " + render::flow_yaml(v);
  }
  return out;
}

Json lens(std::size_t line, std::string title) {
  const Position p{line, 0};
  return Json{{"range", to_json(Range{p, p})},
              {"command", {{"title", std::move(title)}, {"command", ""}}}};
}

}  // namespace

Json code_lenses(const Document& document, const RuleRoots& roots) {
  Json out = Json::array();
  if (!document.rules()) return out;
  const std::optional<InputFile> file = read_input_file(document, roots);
  if (!file) return out;
  if (const auto* why = std::get_if<std::string>(&file->inputs)) {
    out.push_back(lens(0, messages::lens_unreadable_input(file->name, *why)));
    return out;
  }
  const Explanation explanation = document.rules()->explain(std::get<Inputs>(file->inputs));
  out.push_back(
      lens(0, explanation.result.ok()
                  ? messages::lens_decision(file->name, record_text(explanation.result.record()))
                  : messages::lens_error(file->name, explanation.result.error().message)));
  std::size_t number = 0;
  const auto& steps = explanation.steps;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const TraceStep& step = steps[k];
    if (step.kind == TraceStep::Kind::derived_value) continue;
    ++number;
    SourceLocation at = step.location;
    if (step.kind == TraceStep::Kind::enter_table) {
      // Entering a table is shown at its name, when its rules (the steps that follow) are
      // this file's: a used file may have a table of the same name.
      const auto first_rule = std::find_if(
          steps.begin() + static_cast<std::ptrdiff_t>(k) + 1, steps.end(), [&](const TraceStep& s) {
            return s.table == step.table && (s.kind == TraceStep::Kind::rule_fired ||
                                             s.kind == TraceStep::Kind::rule_skipped);
          });
      const syntax::Table* table = document.table(step.table);
      if (first_rule != steps.end() && first_rule->location.file == document.path() && table)
        at = table->name.location;
    }
    if (at.file != document.path() || !at.known()) continue;
    std::string what;
    switch (step.kind) {
      case TraceStep::Kind::enter_table:
        what = messages::lens_entered(step.table);
        break;
      case TraceStep::Kind::rule_fired:
        what = messages::lens_fired(step.detail);
        break;
      case TraceStep::Kind::rule_skipped:
        what = messages::lens_skipped(step.detail);
        break;
      case TraceStep::Kind::fallback:
        what = messages::lens_fallback(step.detail);
        break;
      default:
        what = step.detail;
    }
    out.push_back(lens(at.line - 1, messages::lens_step(number, what)));
  }
  return out;
}

}  // namespace snnplan::lsp
