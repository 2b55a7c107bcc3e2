#include "frontends/serve/workbench.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "check/checker.hpp"
#include "core/sha256.hpp"
#include "load/rule_file_loader.hpp"
#include "render/format.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "frontends/serve/messages.hpp"
#include "frontends/serve/outline.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_tests.hpp"
#include "usecases/diff.hpp"
#include "usecases/map.hpp"

namespace snnplan::serve {

using json = nlohmann::ordered_json;

namespace {

/// The most values one axis of the page's map may have: the page draws every cell.
constexpr std::size_t kMaxAxisValues = 128;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(messages::cannot_read_file(path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json error_body(const std::string& message) { return json{{"error", message}}; }

json diagnostic_json(const Diagnostic& d) {
  json j = render::to_json(d);
  j["text"] = format(d);  // "file:line:column: severity: message", as check prints it
  return j;
}

// The inputs of a request ({"name": value, ...}) for `rules`; a message when they are not.
std::variant<Inputs, std::string> inputs_of(const nlohmann::json& inputs, const RuleSet& rules) {
  if (inputs.is_null()) return Inputs{};
  if (!inputs.is_object()) return messages::missing_member("inputs", "an object");
  return request::inputs_from_json(inputs, rules);
}

// One axis of the map: the request's "values", {"name", "from", "to", "step"} for an int input
// (from 1, to 16 and step 1 unless given), or else the input's one_of values or a bool's two
// (an int input without one_of: 1 to 16).
std::variant<render::MapAxis, std::string> axis_of(const nlohmann::json& spec,
                                                   const RuleSet& rules) {
  if (!spec.is_object() || !spec.contains("name") || !spec["name"].is_string())
    return messages::missing_member("x/y", "an object with a \"name\"");
  usecases::AxisRequest request;
  request.name = spec["name"].get<std::string>();
  const nlohmann::json* values =
      spec.contains("values") && spec["values"].is_array() ? &spec["values"] : nullptr;
  const usecases::AxisRequest::Range range{.from = spec.value("from", std::int64_t{1}),
                                           .to = spec.value("to", std::int64_t{16}),
                                           .step = spec.value("step", std::int64_t{1})};
  if (values)
    request.listed = values->size();
  else if (spec.contains("from") || spec.contains("to") || spec.contains("step"))
    request.range = range;
  request.default_range = range;
  auto axis = usecases::map_axis(
      request, rules, kMaxAxisValues,
      [&](const InputInfo& in, std::size_t k) -> std::variant<Value, std::string> {
        auto one = request::inputs_from_json(nlohmann::json::object({{in.name, (*values)[k]}}), rules);
        if (auto* problem = std::get_if<std::string>(&one)) return std::move(*problem);
        return std::get<Inputs>(std::move(one)).front().second;
      });
  if (auto* made = std::get_if<render::MapAxis>(&axis)) return std::move(*made);
  return messages::axis_refused(std::get<usecases::AxisProblem>(axis), kMaxAxisValues);
}

std::string label_of(const render::MapAnswer& answer) {
  if (answer.error) return "error";
  if (answer.record)
    if (const Value* mode = answer.record->find("mode")) return to_display_string(*mode);
  return answer.rules.empty() ? std::string("?") : answer.rules.back();
}

json map_json(const render::DecisionMap& m) {
  json outcomes = json::array();
  for (const render::MapOutcome& o : m.outcomes) {
    const render::MapAnswer& before = o.previous ? *o.previous : o.answer;
    outcomes.push_back(json{{"changed", o.previous.has_value()},
                            {"old", label_of(before)},
                            {"new", label_of(o.answer)},
                            {"old_rules", before.rules},
                            {"new_rules", o.answer.rules}});
  }
  json rows = json::array();
  std::size_t changed = 0;
  for (std::size_t row = 0; row < m.y.values.size(); ++row) {
    json cells = json::array();
    for (std::size_t column = 0; column < m.x.values.size(); ++column) {
      const std::uint32_t id = m.at(column, row);
      if (m.outcomes[id].previous) ++changed;
      cells.push_back(id);
    }
    rows.push_back(std::move(cells));
  }
  const auto axis = [](const render::MapAxis& a) {
    json values = json::array();
    for (const Value& v : a.values) values.push_back(render::to_json(v));
    return json{{"name", a.name}, {"values", std::move(values)}};
  };
  return json{{"x", axis(m.x)},           {"y", axis(m.y)},  {"outcomes", std::move(outcomes)},
              {"cells", std::move(rows)}, {"changed_cells", changed}};
}

}  // namespace

Workbench::Workbench(WorkbenchOptions options) : options_(std::move(options)) {
  disk_text_ = read_file(options_.path);
  disk_sha256_ = detail::sha256_hex(disk_text_);
  usecases::CheckedRules loaded = load(disk_text_);
  disk_rules_ = loaded.rules;
  if (loaded.rules) {
    last_good_ = loaded.rules;
    last_good_outline_ = outline_tables(load::load_rule_file(disk_text_, options_.path).file, disk_text_);
  }
}

usecases::CheckedRules Workbench::load(const std::string& text) const {
  // The check `snnplan check` makes: the table analysis too, so shadowed rules and gaps show.
  usecases::CheckedRules out = usecases::check_rule_text(
      text, options_.path, usecases::CheckRequest{.rule_roots = options_.rule_roots});
  // The page lists them in source order, those of a text that does not load too.
  check::sort_by_position(out.diagnostics);
  return out;
}

std::optional<RuleSet> Workbench::usable(const std::string& text, bool& stale) {
  usecases::CheckedRules loaded = load(text);
  const std::lock_guard lock(mutex_);
  stale = !loaded.rules;
  if (loaded.rules) last_good_ = loaded.rules;
  return last_good_;
}

std::optional<RuleSet> Workbench::disk_rules() const {
  const std::lock_guard lock(mutex_);
  return disk_rules_;
}

Reply Workbench::file() const {
  const std::lock_guard lock(mutex_);
  return Reply{200, json{{"path", options_.path},
                         {"text", disk_text_},
                         {"sha256", disk_sha256_},
                         {"tests", options_.test_paths}}};
}

Reply Workbench::check(const std::string& text) {
  usecases::CheckedRules loaded = load(text);
  const load::LoadedFile tree = load::load_rule_file(text, options_.path);
  json body{{"ok", loaded.rules.has_value()}, {"errors", loaded.errors}, {"warnings", loaded.warnings}};
  json diagnostics = json::array();
  for (const Diagnostic& d : loaded.diagnostics) diagnostics.push_back(diagnostic_json(d));
  body["diagnostics"] = std::move(diagnostics);
  // What `snnplan check FILE` prints: each diagnostic with its line and caret, then the summary.
  std::string report =
      render::render_diagnostics(loaded.diagnostics, loaded.sources, render::Format::text);
  report += loaded.summary(options_.path);
  body["report"] = report + "\n";
  const std::lock_guard lock(mutex_);
  if (loaded.rules) {
    last_good_ = loaded.rules;
    last_good_outline_ = outline_tables(tree.file, text);
  }
  body["stale"] = !loaded.rules;
  // A text that does not load keeps the last good decision table on the page.
  body["outline"] = last_good_ ? last_good_outline_ : outline_tables(tree.file, text);
  body["inputs"] = last_good_ ? outline_inputs(*last_good_) : json::array();
  return Reply{200, std::move(body)};
}

Reply Workbench::decide(const std::string& text, const nlohmann::json& inputs) {
  bool stale = false;
  const std::optional<RuleSet> rules = usable(text, stale);
  if (!rules) return Reply{409, error_body(messages::nothing_loaded_yet())};
  auto given = inputs_of(inputs, *rules);
  if (const auto* problem = std::get_if<std::string>(&given))
    return Reply{422, error_body(*problem)};
  const Explanation explanation = rules->explain(std::get<Inputs>(given));
  json body{{"stale", stale}};
  if (stale) body["notice"] = messages::text_does_not_load();
  const EvaluationResult& result = explanation.result;
  if (result.ok())
    body["record"] = render::to_json(result.record());
  else
    body["error"] = result.error().message;
  body["rules"] = fired_rule_path(explanation.steps);
  body["steps"] = render::to_json(explanation.steps);
  body["explain"] = render::render_explanation(explanation, render::Format::text);
  // Per rule tried: fired, or the condition that failed (the first failing matcher).
  json tried = json::object();
  for (const TraceStep& step : explanation.steps) {
    if (step.kind == TraceStep::Kind::rule_fired)
      tried[step.table + "/" + step.rule] = json{{"status", "fired"}};
    else if (step.kind == TraceStep::Kind::rule_skipped)
      tried[step.table + "/" + step.rule] = json{{"status", "skipped"}, {"failed", step.detail}};
  }
  body["tried"] = std::move(tried);
  return Reply{200, std::move(body)};
}

Reply Workbench::diff_between(const RuleSet& before, const RuleSet& after,
                              const nlohmann::json& inputs) const {
  const usecases::ComparedRuleSets compared = usecases::compare_rule_sets(
      before, after, [&](const RuleSet& rules) { return inputs_of(inputs, rules); });
  if (!compared.input_mismatch.empty()) return Reply{422, error_body(compared.input_mismatch)};
  if (!compared.refused_inputs.empty()) return Reply{422, error_body(compared.refused_inputs)};
  json body;
  if (compared.sampled) {
    body = json::parse(usecases::sampled_diff_json(*compared.sampled));
    body["text"] = usecases::render_sampled_diff(*compared.sampled);
  } else {
    body = json::parse(render::render_diff(compared.diff, render::Format::json));
    body["text"] = render::render_diff(compared.diff, render::Format::text);
  }
  body["changed"] = compared.changed();
  return Reply{200, std::move(body)};
}

Reply Workbench::diff(const std::string& text, const nlohmann::json& inputs) {
  const std::optional<RuleSet> before = disk_rules();
  if (!before) return Reply{409, error_body(messages::disk_version_does_not_load())};
  const usecases::CheckedRules after = load(text);
  if (!after.rules) return Reply{409, error_body(messages::text_does_not_load())};
  return diff_between(*before, *after.rules, inputs);
}

Reply Workbench::map(const std::string& text, const nlohmann::json& request) {
  const std::optional<RuleSet> before = disk_rules();
  if (!before) return Reply{409, error_body(messages::disk_version_does_not_load())};
  const usecases::CheckedRules after = load(text);
  if (!after.rules) return Reply{409, error_body(messages::text_does_not_load())};
  if (const std::string differences = usecases::input_mismatch(*before, *after.rules);
      !differences.empty())
    return Reply{422, error_body(differences)};
  render::DecisionMap m;
  m.diff = true;
  m.color_by = usecases::default_colour(*after.rules);
  for (auto [axis, key] : {std::pair{&m.x, "x"}, std::pair{&m.y, "y"}}) {
    auto parsed = axis_of(request.contains(key) ? request[key] : nlohmann::json(), *after.rules);
    if (const auto* problem = std::get_if<std::string>(&parsed))
      return Reply{422, error_body(*problem)};
    *axis = std::get<render::MapAxis>(std::move(parsed));
  }
  if (m.x.name == m.y.name) return Reply{422, error_body(messages::same_axis(m.x.name))};
  auto given = inputs_of(request.contains("inputs") ? request["inputs"] : nlohmann::json(),
                         *after.rules);
  if (const auto* problem = std::get_if<std::string>(&given))
    return Reply{422, error_body(*problem)};
  for (auto& [name, value] : std::get<Inputs>(given))
    if (name != m.x.name && name != m.y.name) m.fixed.emplace_back(name, std::move(value));
  // The new version's inputs: the old one declares the same, and the page edits the new one.
  if (const std::optional<usecases::MapGap> gap = usecases::map_gap(m, {*after.rules}))
    return Reply{422, error_body(gap->kind == usecases::MapGap::Kind::undeclared_input
                                     ? messages::unknown_axis(gap->input)
                                     : messages::map_input_required(gap->input))};
  usecases::evaluate_map(m, {*before, *after.rules});
  return Reply{200, map_json(m)};
}

Reply Workbench::tests(const std::string& text, bool mutate) {
  if (options_.test_paths.empty()) return Reply{409, error_body(messages::no_tests())};
  bool stale = false;
  const std::optional<RuleSet> rules = usable(text, stale);
  if (!rules) return Reply{409, error_body(messages::nothing_loaded_yet())};
  RuleTestReport report;
  try {
    report = run_rule_tests(*rules, options_.test_paths, RuleTestOptions{.mutate = mutate});
  } catch (const TestFileError& e) {
    return Reply{409, error_body(e.what())};
  }
  json body = json::parse(to_json(report));
  json problems = json::array();
  for (const Diagnostic& d : report.problems) problems.push_back(diagnostic_json(d));
  body["problems"] = std::move(problems);
  body["ok"] = report.ok();
  body["stale"] = stale;
  if (stale) body["notice"] = messages::text_does_not_load();
  return Reply{200, std::move(body)};
}

Reply Workbench::save(const std::string& text, const std::string& base_sha256) {
  const usecases::CheckedRules loaded = load(text);
  if (!loaded.rules) {
    json body = error_body(messages::save_has_errors(loaded.errors));
    json diagnostics = json::array();
    for (const Diagnostic& d : loaded.diagnostics) diagnostics.push_back(diagnostic_json(d));
    body["diagnostics"] = std::move(diagnostics);
    return Reply{422, std::move(body)};
  }
  // One save at a time: the comparison with the disk and the write must not interleave.
  const std::lock_guard lock(mutex_);
  std::string on_disk;
  try {
    on_disk = read_file(options_.path);
  } catch (const std::runtime_error&) {
    on_disk.clear();  // gone: nothing of anyone's to overwrite
  }
  const std::string expected = base_sha256.empty() ? disk_sha256_ : base_sha256;
  if (detail::sha256_hex(on_disk) != expected) {
    json body = error_body(messages::save_changed_on_disk(options_.path));
    body["disk_text"] = on_disk;
    body["disk_sha256"] = detail::sha256_hex(on_disk);
    try {
      const RuleSet disk = RuleSet::from_string(on_disk, options_.path);
      body["diff"] = diff_between(disk, *loaded.rules, nlohmann::json()).body;
    } catch (const LoadError& e) {
      body["diff"] = error_body(messages::disk_version_does_not_load());
    }
    return Reply{409, std::move(body)};
  }
  try {
    options_.save(options_.path, text);
  } catch (const std::exception& e) {
    return Reply{500, error_body(messages::save_failed(options_.path, e.what()))};
  }
  disk_text_ = text;
  disk_sha256_ = detail::sha256_hex(text);
  disk_rules_ = loaded.rules;
  last_good_ = loaded.rules;
  return Reply{200, json{{"saved", messages::saved(options_.path)}, {"sha256", disk_sha256_}}};
}

}  // namespace snnplan::serve
