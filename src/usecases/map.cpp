#include "usecases/map.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>

#include "analyse/partition.hpp"
#include "api/rule_set_access.hpp"
#include "core/runtime_value.hpp"
#include "render/json.hpp"
#include "render/messages.hpp"
#include "snnplan/evaluation.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::usecases {

using render::DecisionMap;
using render::MapAnswer;
using render::MapOutcome;

namespace {

// The names of a --color-by: one, or several joined by commas.
std::vector<std::string> colour_parts(const std::string& color_by) {
  std::vector<std::string> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = color_by.find(',', begin);
    parts.push_back(color_by.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (comma == std::string::npos) return parts;
    begin = comma + 1;
  }
}

// One part of a cell's colour: "mode" and any record field by its value, "rule" by the path.
std::string colour_part(const std::string& part, const MapAnswer& a) {
  if (part == "rule") {
    std::string path;
    for (const std::string& r : a.rules) path += (path.empty() ? "" : " > ") + r;
    return path;
  }
  const Value* v = a.record->find(part);
  if (!v) return "null";
  return v->is_string() ? v->as_string() : render::json_line(render::to_json(*v));
}

// What a cell is coloured by: one part's value, or "name=value, ..." of several.
std::string colour_key(const std::string& color_by, const MapAnswer& a) {
  if (a.error) return messages::map_error_key();  // one legend entry; each cell has its message
  const std::vector<std::string> parts = colour_parts(color_by);
  if (parts.size() == 1) return colour_part(parts.front(), a);
  std::string key;
  for (const std::string& part : parts) key += (key.empty() ? "" : ", ") + part + "=" + colour_part(part, a);
  return key;
}

std::string path_key(const std::vector<std::string>& rules) {
  std::string key;
  for (const std::string& r : rules) key += r + '\x1f';
  return key;
}

// One rule file over the grid: per cell, the index of its distinct answer.
class CellEvaluator {
 public:
  explicit CellEvaluator(const RuleSet& rules)
      : rules_(rules),
        compiled_(RuleSetAccess::compiled(rules)),
        files_{&compiled_},
        partition_(files_, {}),
        exact_(partition_.undecided().empty()),
        values_(compiled_.inputs.size()),
        omitted_(new bool[compiled_.inputs.size()]()) {}

  // The answer's index for `inputs` (which give every input the map sets).
  std::uint32_t evaluate(const Inputs& inputs) {
    const bool ok = rules_.evaluate(inputs, evaluation_);
    std::vector<std::string> path;
    if (exact_) {
      store_.reset();
      for (std::size_t k = 0; k < compiled_.inputs.size(); ++k)
        values_[k] = compiled_.inputs[k].default_value.value_or(detail::RValue{});
      for (const auto& [name, value] : inputs)
        values_[static_cast<std::size_t>(compiled_.input_slots.at(name))] =
            detail::from_public(value, store_);
      // The partition's cell of the point (not the grid's): where exact, one rule path.
      const analyse::Cell cell = partition_.cell_of({values_, {omitted_.get(), values_.size()}});
      auto it = paths_.find(cell);
      if (it == paths_.end()) it = paths_.emplace(cell, region_at(inputs).path).first;
      path = it->second;
    } else {
      path = region_at(inputs).path;
    }
    key_ = path_key(path);
    if (ok)
      render::append_json_line(key_, evaluation_);
    else
      key_ += "error:" + evaluation_.error().message;
    auto [it, fresh] = ids_.try_emplace(key_, static_cast<std::uint32_t>(answers_.size()));
    if (fresh) {
      MapAnswer a;
      a.rules = std::move(path);
      if (ok)
        a.record = evaluation_.to_record();
      else
        a.error = evaluation_.error().message;
      answers_.push_back(std::move(a));
    }
    return it->second;
  }
  [[nodiscard]] const std::vector<MapAnswer>& answers() const { return answers_; }

 private:
  analyse::Region region_at(const Inputs& inputs) const {
    const Explanation explanation = rules_.explain(inputs);
    return analyse::region_of(explanation.result, explanation.steps);
  }

  const RuleSet& rules_;
  const detail::CompiledRules& compiled_;
  const detail::CompiledRules* files_[1];
  analyse::Partition partition_;
  bool exact_;
  Evaluation evaluation_;
  detail::ValueStore store_;
  std::vector<detail::RValue> values_;
  std::unique_ptr<bool[]> omitted_;
  // The rule path of each cell of the partition met. Not its Region: the end may differ
  // within a cell (a value beyond the cells fails at some inputs), and comes from evaluate().
  std::map<analyse::Cell, std::vector<std::string>> paths_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<MapAnswer> answers_;
  std::string key_;
};

}  // namespace

namespace {

// The values of `range` for int input `input` (named `name`), at most `most_values` of them.
std::variant<render::MapAxis, AxisProblem> range_axis(const std::string& name,
                                                     const InputInfo& input,
                                                     const AxisRequest::Range& range,
                                                     std::size_t most_values) {
  AxisProblem p;
  p.name = name;
  if (input.type != "int") {
    p.kind = AxisProblem::Kind::range_needs_int;
    p.type = input.type;
    return p;
  }
  if (range.step < 1) {
    p.kind = AxisProblem::Kind::step_below_one;
    p.step = range.step;
    return p;
  }
  if (range.to < range.from) {
    p.kind = AxisProblem::Kind::empty_range;
    return p;
  }
  // Counted in 128 bits: the range may span the whole int64 domain.
  const detail::Wide count = (static_cast<detail::Wide>(range.to) - range.from) / range.step + 1;
  if (count > static_cast<detail::Wide>(most_values)) {
    p.kind = AxisProblem::Kind::too_many_values;
    p.count = static_cast<double>(count);
    return p;
  }
  render::MapAxis axis{name, {}};
  for (detail::Wide v = range.from; v <= range.to; v += range.step)
    axis.values.emplace_back(static_cast<std::int64_t>(v));
  return axis;
}

}  // namespace

std::variant<render::MapAxis, AxisProblem> map_axis(const AxisRequest& request,
                                                     const RuleSet& rules, std::size_t most_values,
                                                     const AxisValueReader& read) {
  const InputInfo* input = rules.input(request.name);
  const auto problem = [&](AxisProblem::Kind kind) {
    AxisProblem p;
    p.kind = kind;
    p.name = request.name;
    return p;
  };
  if (request.name.empty() || !input) return problem(AxisProblem::Kind::unknown_input);
  render::MapAxis axis{request.name, {}};
  if (request.range) return range_axis(request.name, *input, *request.range, most_values);
  if (request.listed) {
    if (*request.listed == 0) return problem(AxisProblem::Kind::empty_list);
    for (std::size_t k = 0; k < *request.listed; ++k) {
      std::variant<Value, std::string> value = read(*input, k);
      if (auto* message = std::get_if<std::string>(&value)) {
        AxisProblem p = problem(AxisProblem::Kind::bad_value);
        p.message = std::move(*message);
        return p;
      }
      axis.values.push_back(std::get<Value>(std::move(value)));
    }
  } else {
    // The input's own finite set of values: its one_of list, in the file's order, else a
    // bool's two.
    const detail::CompiledRules& compiled = RuleSetAccess::compiled(rules);
    const auto slot = static_cast<std::size_t>(compiled.input_slots.at(request.name));
    for (const detail::RValue& v : compiled.inputs[slot].one_of)
      axis.values.push_back(detail::to_public(v));
    if (axis.values.empty() && input->type == "bool") axis.values = {Value(false), Value(true)};
    if (axis.values.empty() && request.default_range && input->type == "int")
      return range_axis(request.name, *input, *request.default_range, most_values);
    if (axis.values.empty()) return problem(AxisProblem::Kind::needs_values);
  }
  if (axis.values.size() > most_values) {
    AxisProblem p = problem(AxisProblem::Kind::too_many_values);
    p.count = static_cast<double>(axis.values.size());
    return p;
  }
  return axis;
}

std::optional<MapGap> map_gap(const DecisionMap& map, const std::vector<RuleSet>& files) {
  const auto fixed = [&](const std::string& name) {
    return std::any_of(map.fixed.begin(), map.fixed.end(),
                       [&](const auto& given) { return given.first == name; });
  };
  for (const RuleSet& file : files) {
    for (const auto& [name, value] : map.fixed)
      if (!file.input(name))
        return MapGap{MapGap::Kind::undeclared_input, name, file.file_name()};
    for (const InputInfo& info : file.inputs())
      if (info.required && info.name != map.x.name && info.name != map.y.name && !fixed(info.name))
        return MapGap{MapGap::Kind::missing_input, info.name, file.file_name()};
  }
  return std::nullopt;
}

bool can_colour_by(const RuleSet& rules, const std::string& color_by) {
  const auto& names = *RuleSetAccess::compiled(rules).field_names;
  for (const std::string& part : colour_parts(color_by))
    if (part != "rule" && part != "mode" && std::find(names.begin(), names.end(), part) == names.end())
      return false;
  return true;
}

std::string default_colour(const RuleSet& rules) {
  const auto& names = *RuleSetAccess::compiled(rules).field_names;
  if (std::find(names.begin(), names.end(), "mode") != names.end()) return "mode";
  return names.empty() ? "rule" : names.front();
}

void evaluate_map(DecisionMap& m, const std::vector<RuleSet>& files) {
  const bool diff = m.diff;
  const std::size_t cells = m.x.values.size() * m.y.values.size();
  std::vector<std::unique_ptr<CellEvaluator>> evaluators;
  for (const RuleSet& file : files) evaluators.push_back(std::make_unique<CellEvaluator>(file));
  Inputs inputs = m.fixed;
  inputs.emplace_back(m.x.name, Value());
  inputs.emplace_back(m.y.name, Value());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> outcome_of;  // (old, new) ids
  m.cells.reserve(cells);
  for (const Value& y : m.y.values) {
    inputs[inputs.size() - 1].second = y;
    for (const Value& x : m.x.values) {
      inputs[inputs.size() - 2].second = x;
      const std::uint32_t now = evaluators.back()->evaluate(inputs);
      const std::uint32_t was = diff ? evaluators.front()->evaluate(inputs) : now;
      auto [it, fresh] =
          outcome_of.try_emplace({was, now}, static_cast<std::uint32_t>(m.outcomes.size()));
      if (fresh) {
        MapOutcome o;
        o.answer = evaluators.back()->answers()[now];
        const std::string key = colour_key(m.color_by, o.answer);
        o.colour_key = key;
        o.outline_key = path_key(o.answer.rules);
        if (diff) {
          const MapAnswer& old_answer = evaluators.front()->answers()[was];
          const std::string old_key = colour_key(m.color_by, old_answer);
          const bool same =
              old_answer.error == o.answer.error &&
              (!old_answer.record || (old_answer.record->names() == o.answer.record->names() &&
                                      old_answer.record->values() == o.answer.record->values()));
          o.outline_key = path_key(old_answer.rules) + "->" + o.outline_key;
          if (same) {
            o.colour_key = messages::map_unchanged_key();
          } else {
            o.previous = old_answer;
            o.colour_key = old_key == key ? messages::map_changed_key(key) : old_key + " -> " + key;
          }
        }
        m.outcomes.push_back(std::move(o));
      }
      m.cells.push_back(it->second);
    }
  }
}

}  // namespace snnplan::usecases
