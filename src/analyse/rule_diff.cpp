#include "analyse/rule_diff.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

// The value of `field` in an answer, as a change compares it.
Value field_value(const Answer& a, const std::string& field) {
  if (field == "error") return a.error ? Value(*a.error) : Value();
  if (!a.record) return Value();
  const Value* v = a.record->find(field);
  return v ? *v : Value();
}

// The fields either answer has, old record's order first, then "error" when either failed.
// Between an error and an answer only "error" is compared: the record is shown whole.
std::vector<std::string> field_names(const Answer& a, const Answer& b) {
  std::vector<std::string> names;
  if (a.error || b.error) return {"error"};
  for (const Answer* x : {&a, &b})
    if (x->record)
      for (const std::string& n : x->record->names())
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  return names;
}

// Smaller is a nicer witness: small integers, inputs given rather than left out.
detail::Wide niceness(const Partition::Point& point) {
  detail::Wide score = 0;
  for (const RValue& v : point.values)
    if (v.kind == RValue::Kind::integer) score += v.i < 0 ? -v.i : v.i;
  return score;
}

std::string located(const Issue& issue) {
  return issue.location.line > 0 ? to_string(issue.location) + ": " + issue.what
                                 : issue.location.file + ": " + issue.what;
}

// Dense sampling where a rule's values are beyond the cells: each dense input over
// kDenseLo..kDenseHi, for at most kMaxDenseBases combinations of the other inputs.
constexpr detail::Wide kDenseLo = -1;
constexpr detail::Wide kDenseHi = 64;
constexpr std::size_t kMaxDenseBases = 512;
constexpr std::size_t kMaxDenseInputs = 2;

// Each rule's undecided value once, where the first file has it.
void add_undecided_values(const Partition& partition, std::vector<std::string>& out) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const UndecidedValue& v : partition.undecided_values())
    if (seen.emplace(v.rule, v.issue.what).second)
      out.push_back(
          located(Issue{v.issue.location, messages::diff_dense_values(v.rule, v.issue.what)}));
}

}  // namespace

Answer answer(const detail::CompiledRules& rules, const Inputs& inputs) {
  std::vector<TraceStep> steps;
  EvaluationResult result = evaluate::evaluate(rules, inputs, &steps);
  Answer out;
  out.rules = region_of(result, steps).path;
  if (result.ok())
    out.record = result.record();
  else
    out.error = result.error().message;
  return out;
}

bool answers_differ(const Answer& a, const Answer& b) {
  if (a.error.has_value() != b.error.has_value()) return true;
  if (a.error) return *a.error != *b.error;
  for (const std::string& name : field_names(a, b))
    if (field_value(a, name) != field_value(b, name)) return true;
  return false;
}

Inputs inputs_at(const Partition& partition, const Partition::Point& point) {
  Inputs inputs;
  const Model& m = partition.model();
  for (std::size_t k = 0; k < m.inputs.size(); ++k)
    if (!point.omitted[k]) inputs.emplace_back(m.inputs[k].name, detail::to_public(point.values[k]));
  return inputs;
}

std::string input_differences(const detail::CompiledRules& old_rules,
                              const detail::CompiledRules& new_rules) {
  std::vector<std::string> only_old, only_new;
  for (const detail::CompiledInput& in : old_rules.inputs)
    if (!new_rules.input_slots.count(in.name)) only_old.push_back(in.name);
  for (const detail::CompiledInput& in : new_rules.inputs)
    if (!old_rules.input_slots.count(in.name)) only_new.push_back(in.name);
  if (only_old.empty() && only_new.empty()) return "";
  return messages::diff_inputs_differ(old_rules.file_name, quote_list(only_old),
                                      new_rules.file_name, quote_list(only_new));
}

RuleDiff diff_rules(const detail::CompiledRules& old_rules, const detail::CompiledRules& new_rules,
                    const std::vector<FixedInput>& fixed) {
  const detail::CompiledRules* files[] = {&old_rules, &new_rules};
  const Partition partition(files, fixed);
  RuleDiff out;
  for (const Issue& issue : partition.undecided()) out.undecided.push_back(located(issue));

  struct Group {
    ChangeGroup change;
    detail::Wide witness_score = 0;
    std::set<Cell> cells;
    std::map<std::string, std::pair<std::optional<Value>, std::optional<Value>>> fields;
  };
  std::vector<Group> groups;
  // By the pair of regions (so a group's fields mean one thing: both sides end alike).
  std::map<std::pair<Region, Region>, std::size_t> index;
  std::set<Cell> changed, unchanged;  // cells with a point that changes / that does not
  // Rules whose set values the cells do not decide, and the inputs those values read.
  std::map<std::string, std::vector<int>> undecided_rules;
  for (const UndecidedValue& v : partition.undecided_values()) {
    auto& inputs = undecided_rules[v.rule];
    inputs.insert(inputs.end(), v.inputs.begin(), v.inputs.end());
  }
  // Points to sample densely: the inputs such a rule's values read vary over a grid, the
  // others stay as at a point where the rule fired. Keyed by those others.
  std::map<std::string, std::pair<std::vector<RValue>, std::vector<int>>> dense_bases;
  const Model& model = partition.model();

  auto consider = [&](const Partition::Point& point) {
    const Inputs inputs = inputs_at(partition, point);
    Answer before = answer(old_rules, inputs);
    Answer after = answer(new_rules, inputs);
    if (!undecided_rules.empty() && dense_bases.size() < kMaxDenseBases) {
      std::set<int> dense;
      for (const std::vector<std::string>* path : {&before.rules, &after.rules})
        for (const std::string& rule : *path)
          if (auto it = undecided_rules.find(rule); it != undecided_rules.end())
            for (int v : it->second)
              if (model.inputs[static_cast<std::size_t>(v)].sampled &&
                  !point.omitted[static_cast<std::size_t>(v)])
                dense.insert(v);
      if (!dense.empty()) {
        std::string key;
        for (std::size_t k = 0; k < point.values.size(); ++k)
          key += (dense.count(static_cast<int>(k)) ? std::string("*")
                                                   : detail::repr(point.values[k])) +
                 (point.omitted[k] ? "-" : "+") + "\x1f";
        for (int v : dense) key += std::to_string(v) + ",";
        dense_bases.try_emplace(key, std::vector<RValue>(point.values.begin(), point.values.end()),
                                std::vector<int>(dense.begin(), dense.end()));
      }
    }
    const Cell cell = partition.cell_of(point);
    if (!answers_differ(before, after)) {
      unchanged.insert(cell);
      return true;
    }
    changed.insert(cell);
    auto [it, fresh] =
        index.emplace(std::make_pair(before.region(), after.region()), groups.size());
    if (fresh) groups.emplace_back();
    Group& g = groups[it->second];
    g.cells.insert(cell);
    for (const std::string& name : field_names(before, after)) {
      Value was = field_value(before, name), now = field_value(after, name);
      if (was == now) continue;
      auto [f, first] = g.fields.try_emplace(name, was, now);
      if (first) {
        g.change.fields.push_back(FieldChange{name, was, now});
        continue;
      }
      if (f->second.first && *f->second.first != was) f->second.first.reset();
      if (f->second.second && *f->second.second != now) f->second.second.reset();
    }
    const detail::Wide score = niceness(point);
    if (fresh || score < g.witness_score) {
      g.witness_score = score;
      g.change.old_rules = before.rules;
      g.change.new_rules = after.rules;
      g.change.witness = inputs;
      g.change.old_answer = std::move(before);
      g.change.new_answer = std::move(after);
    }
    return true;
  };
  std::string why;
  const Walk walk = partition.for_each_point(consider, why);
  if (!dense_bases.empty()) {
    // The grid: every combination of kDenseLo..kDenseHi for the dense inputs of each base.
    std::set<int> dense_inputs;
    for (auto& [key, base] : dense_bases) {
      // Named references, not a structured binding: clang 14 cannot capture a binding in
      // the lambda below.
      const std::vector<RValue>& values = base.first;
      const std::vector<int>& dense = base.second;
      dense_inputs.insert(dense.begin(), dense.end());
      std::vector<RValue> point = values;
      std::unique_ptr<bool[]> omitted(new bool[point.size()]());
      std::function<void(std::size_t)> grid = [&](std::size_t k) {
        if (k == dense.size()) {
          consider(Partition::Point{point, {omitted.get(), point.size()}});
          return;
        }
        for (detail::Wide x = kDenseLo; x <= kDenseHi; ++x) {
          point[static_cast<std::size_t>(dense[k])] = RValue::of_int(x);
          grid(k + 1);
        }
      };
      if (dense.size() <= kMaxDenseInputs) grid(0);
    }
    std::vector<std::string> names;
    for (int v : dense_inputs) names.push_back(model.inputs[static_cast<std::size_t>(v)].name);
    add_undecided_values(partition, out.undecided);
    out.undecided.push_back(messages::diff_dense_sampling(
        quote_list(names), detail::wide_to_string(kDenseLo), detail::wide_to_string(kDenseHi)));
  } else {
    add_undecided_values(partition, out.undecided);
  }
  if (walk != Walk::done) {
    out.undecided.push_back(why.empty() ? messages::analysis_too_many_points(kMaxPoints) : why);
    out.complete = false;
  }
  for (Group& g : groups) {
    for (FieldChange& f : g.change.fields) {
      f.old_value = g.fields[f.field].first;
      f.new_value = g.fields[f.field].second;
    }
    g.change.cells.assign(g.cells.begin(), g.cells.end());
    g.change.region = partition.describe(g.change.cells);
    out.changes.push_back(std::move(g.change));
  }
  // A cell where some points change and others do not, or change differently (in more than
  // one group): its values come from expressions of the inputs, which the cells do not
  // split; said, not hidden.
  std::map<Cell, std::size_t> groups_of;
  for (const ChangeGroup& c : out.changes)
    for (const Cell& cell : c.cells) ++groups_of[cell];
  std::vector<Cell> partial;
  for (const Cell& cell : changed)
    if (unchanged.count(cell) || groups_of[cell] > 1) partial.push_back(cell);
  if (!partial.empty())
    out.undecided.push_back(messages::diff_partial_region(partition.describe(partial)));
  return out;
}

}  // namespace snnplan::analyse
