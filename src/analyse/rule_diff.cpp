#include "analyse/rule_diff.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <utility>

#include "analyse/boxes.hpp"
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


// The changes found, grouped by the pair of regions (old file's, new file's) that gives them
// (so a group's fields mean one thing: both sides end alike), in order of first appearance.
class Changes {
 public:
  // Adds inputs (of `cells`, scored `score`: smaller is a nicer witness) whose answers differ;
  // `region`, where given, describes the group's region instead of its cells.
  void add(const Inputs& inputs, detail::Wide score, Answer before, Answer after,
           std::span<const Cell> cells, std::string region = {}) {
    auto [it, fresh] =
        index_.emplace(std::make_pair(before.region(), after.region()), groups_.size());
    if (fresh) groups_.emplace_back();
    Group& g = groups_[it->second];
    g.cells.insert(cells.begin(), cells.end());
    if (!region.empty()) g.region = std::move(region);
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
    if (fresh || score < g.witness_score) {
      g.witness_score = score;
      g.change.old_rules = before.rules;
      g.change.new_rules = after.rules;
      g.change.witness = inputs;
      g.change.old_answer = std::move(before);
      g.change.new_answer = std::move(after);
    }
  }

  // The groups, each with its cells described by `describe`.
  std::vector<ChangeGroup> finish(
      const std::function<std::string(const std::vector<Cell>&)>& describe) {
    std::vector<ChangeGroup> out;
    for (Group& g : groups_) {
      for (FieldChange& f : g.change.fields) {
        f.old_value = g.fields[f.field].first;
        f.new_value = g.fields[f.field].second;
      }
      g.change.cells.assign(g.cells.begin(), g.cells.end());
      g.change.region = g.region.empty() ? describe(g.change.cells) : std::move(g.region);
      out.push_back(std::move(g.change));
    }
    return out;
  }

 private:
  struct Group {
    ChangeGroup change;
    detail::Wide witness_score = 0;
    std::set<Cell> cells;
    std::string region;
    std::map<std::string, std::pair<std::optional<Value>, std::optional<Value>>> fields;
  };
  std::vector<Group> groups_;
  std::map<std::pair<Region, Region>, std::size_t> index_;
};

// The diff by the boxes (boxes.hpp) where both files are made of them: every changed region
// (`regions`, where the files allow) or every cell once, one evaluation of each file per pair
// of rule paths (the answer is constant on such a pair's cells), at its nicest cell.
// std::nullopt where the boxes do not apply, stop short, or the evaluator fires other rules
// than the boxes say (then the grid decides).
std::optional<RuleDiff> box_diff(const Partition& partition,
                                 std::span<const detail::CompiledRules* const> files,
                                 BoxMethod method) {
  std::unique_ptr<BoxDiff> boxes = BoxDiff::make(partition.model(), files);
  if (!boxes) return std::nullopt;
  struct Pair {
    std::size_t old_path = 0, new_path = 0;
    Box nicest;
    detail::Wide score = 0;
    std::vector<Box> cells;
    std::optional<BoxRegion> region;  // where described as a box less others
  };
  std::vector<Pair> pairs;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> index;
  auto add = [&](const Box& cell, std::size_t was, std::size_t now) {
    const detail::Wide score = boxes->score(cell);
    auto [it, fresh] = index.emplace(std::make_pair(was, now), pairs.size());
    if (fresh) pairs.push_back(Pair{was, now, cell, score, {}, std::nullopt});
    Pair& pair = pairs[it->second];
    pair.cells.push_back(cell);
    if (score < pair.score) {
      pair.nicest = cell;
      pair.score = score;
    }
  };
  std::optional<bool> done;
  if (method == BoxMethod::regions)
    done = boxes->for_each_region([&](BoxRegion&& region, std::size_t was, std::size_t now) {
      for (const Box& box : region.pieces) add(box, was, now);
      if (!region.less.empty()) pairs[index.at({was, now})].region = std::move(region);
    });
  if (done != true) {  // not regions, or regions past their budget: the cells may decide it
    pairs.clear();
    index.clear();
    done = boxes->for_each_cell(add);
  }
  if (!*done) return std::nullopt;
  const Model& model = partition.model();
  Changes changes;
  for (const Pair& pair : pairs) {
    const std::vector<RValue> point = boxes->point(pair.nicest);
    Inputs inputs;
    for (std::size_t k = 0; k < model.inputs.size(); ++k)
      inputs.emplace_back(model.inputs[k].name, detail::to_public(point[k]));
    Answer before = answer(*files[0], inputs), after = answer(*files[1], inputs);
    if (before.rules != boxes->path_names(0, pair.old_path) ||
        after.rules != boxes->path_names(1, pair.new_path))
      return std::nullopt;
    if (!answers_differ(before, after)) continue;
    std::vector<Cell> cells;
    for (const Box& cell : pair.cells) cells.push_back(boxes->key(cell));
    changes.add(inputs, pair.score, std::move(before), std::move(after), cells,
                pair.region ? boxes->describe(pair.region->within, pair.region->less) : "");
  }
  RuleDiff out;
  out.changes =
      changes.finish([&](const std::vector<Cell>& cells) { return boxes->describe(cells); });
  return out;
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
                    const std::vector<FixedInput>& fixed, BoxMethod boxes) {
  const detail::CompiledRules* files[] = {&old_rules, &new_rules};
  const Partition partition(files, fixed);
  if (boxes != BoxMethod::none)
    if (std::optional<RuleDiff> by_boxes = box_diff(partition, files, boxes))
      return std::move(*by_boxes);
  RuleDiff out;
  for (const Issue& issue : partition.undecided()) out.undecided.push_back(located(issue));

  Changes changes;
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
    changes.add(inputs, niceness(point), std::move(before), std::move(after), {&cell, 1});
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
  out.changes =
      changes.finish([&](const std::vector<Cell>& cells) { return partition.describe(cells); });
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
