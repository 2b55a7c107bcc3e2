// `snnplan diff` output: the changed regions of two rule files (analyse/rule_diff.hpp) as
// JSON (the shape DESIGN.md and docs/operators.md fix) and as text for reviewers.

#include <fmt/format.h>

#include "render/format.hpp"
#include "render/json.hpp"

namespace snnplan::render {
namespace {

using json = nlohmann::ordered_json;

json answer_json(const analyse::Answer& a) {
  return json{{"rules", a.rules},
              {"record", a.record ? to_json(*a.record) : json(nullptr)},
              {"error", a.error ? json(*a.error) : json(nullptr)}};
}

json inputs_json(const Inputs& inputs) {
  json out = json::object();
  for (const auto& [name, value] : inputs) out[name] = to_json(value);
  return out;
}

// A changed field's old or new value; "varies" when it is not the same across the group.
json change_value(const std::optional<Value>& v) {
  return v ? to_json(*v) : json("varies");
}

std::string compact(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string path_text(const std::vector<std::string>& rules) {
  if (rules.empty()) return "(no rule fired)";
  std::string out;
  for (const std::string& r : rules) out += (out.empty() ? "" : ", ") + r;
  return out;
}

}  // namespace

namespace json_format {
std::string diff(const analyse::RuleDiff& d) {
  json changes = json::array();
  for (const analyse::ChangeGroup& c : d.changes) {
    json fields = json::array();
    for (const analyse::FieldChange& f : c.fields)
      fields.push_back(json{{"field", f.field},
                            {"old", change_value(f.old_value)},
                            {"new", change_value(f.new_value)}});
    changes.push_back(json{{"old", answer_json(c.old_answer)},
                           {"new", answer_json(c.new_answer)},
                           {"fields", std::move(fields)},
                           {"witness", inputs_json(c.witness)},
                           {"region", c.region}});
  }
  return pretty(json{{"changes", std::move(changes)}, {"undecided", d.undecided}, {"complete", d.complete}});
}
}  // namespace json_format

namespace text_format {
std::string diff(const analyse::RuleDiff& d) {
  std::string out;
  if (d.changes.empty())
    out += d.complete ? "no changes: both rule files give every input the same answer\n"
                      : "no changes found, but the comparison stopped before it reached every "
                        "input (below): changes are not ruled out\n";
  for (std::size_t k = 0; k < d.changes.size(); ++k) {
    const analyse::ChangeGroup& c = d.changes[k];
    out += fmt::format("change {} of {}\n", k + 1, d.changes.size());
    out += fmt::format("  old rules: {}\n", path_text(c.old_rules));
    out += fmt::format("  new rules: {}\n", path_text(c.new_rules));
    out += fmt::format("  region:    {}\n", c.region);
    out += fmt::format("  witness:   {}\n", compact(inputs_json(c.witness)));
    for (const analyse::FieldChange& f : c.fields)
      out += fmt::format("    {}: {} -> {}\n", f.field, compact(change_value(f.old_value)),
                         compact(change_value(f.new_value)));
  }
  for (const std::string& u : d.undecided) out += fmt::format("not decided: {}\n", u);
  return out;
}
}  // namespace text_format

}  // namespace snnplan::render
