// Rule, condition, boundary and search coverage (coverage.hpp). The goals are found once, from the
// compiled rules; an evaluation's trace says which rules fired, and the inputs each table saw
// are rebuilt from the given inputs and the fallbacks' `with` values, with the evaluator's
// Probe computing every value, so a condition is decided exactly as `recommend` decides it.

#include "analyse/coverage.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyse/input_space.hpp"
#include "analyse/messages.hpp"
#include "analyse/sampling.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

using detail::CompiledMatcher;
using detail::CompiledRule;
using detail::CompiledRules;
using detail::Node;
using syntax::ExprKind;
using syntax::Op;

// The values of left - right a boundary goal asks for. At the boundary: the first value on the
// side where the comparison holds (for == and != the value where they flip). Beyond it: the
// value just on the other side (on either side for == and !=).
struct Differences {
  Wide values[2] = {0, 0};
  std::size_t count = 1;
  [[nodiscard]] bool contains(Wide d) const { return d == values[0] || (count == 2 && d == values[1]); }
  [[nodiscard]] bool either_side() const { return count == 2; }
};
Differences wanted_differences(Op op, bool at) {
  if (at) return {{op == Op::greater ? 1 : op == Op::less ? -1 : 0, 0}, 1};
  switch (op) {
    case Op::greater_equal:
      return {{-1, 0}, 1};
    case Op::less_equal:
      return {{1, 0}, 1};
    case Op::greater:
    case Op::less:
      return {{0, 0}, 1};
    default:
      return {{-1, 1}, 2};
  }
}

// An expression as the rules write it, for goal descriptions.
std::string text_of(const Node& n) {
  auto operand = [](const Node& c) {
    const bool group = c.kind == ExprKind::binary || c.kind == ExprKind::conditional;
    return group ? "(" + text_of(c) + ")" : text_of(c);
  };
  switch (n.kind) {
    case ExprKind::literal:
      return detail::repr(n.constant);
    case ExprKind::name:
      return n.name;
    case ExprKind::unary:
      return (n.op == Op::negate ? "-" : "not ") + operand(n.children[0]);
    case ExprKind::binary:
      return operand(n.children[0]) + " " + syntax::spelling(n.op) + " " + operand(n.children[1]);
    case ExprKind::conditional:
      return operand(n.children[0]) + " ? " + operand(n.children[1]) + " : " +
             operand(n.children[2]);
    case ExprKind::list:
    case ExprKind::call: {
      std::string out = n.kind == ExprKind::call ? n.name + "(" : "[";
      for (std::size_t k = 0; k < n.children.size(); ++k)
        out += (k ? ", " : "") + text_of(n.children[k]);
      return out + (n.kind == ExprKind::call ? ")" : "]");
    }
    case ExprKind::member:
      return operand(n.children[0]) + "." + n.name;
  }
  return "?";
}

// "world_size = 8", "batch_size = world_size * 2 - 1", "world_size = 3 or 5".
std::string boundary_point(const std::string& left, const Node& right, const Differences& wanted) {
  const bool either_side = wanted.either_side();
  const Wide offset = wanted.values[0];
  if (right.kind == ExprKind::literal && right.constant.kind == RValue::Kind::integer) {
    const Wide v = right.constant.i;
    if (either_side)
      return left + " = " + detail::wide_to_string(v - 1) + " or " + detail::wide_to_string(v + 1);
    return left + " = " + detail::wide_to_string(v + offset);
  }
  const std::string r = text_of(right);
  if (either_side) return left + " = " + r + " +/- 1";
  if (offset == 0) return left + " = " + r;
  return left + " = " + r + (offset > 0 ? " + " : " - ") + detail::wide_to_string(wide_abs(offset));
}

}  // namespace

double plainness(const Inputs& inputs) {
  // Fewer inputs first (those at their defaults are left out of a suggestion), then small
  // integers.
  double score = 1e3 * static_cast<double>(inputs.size());
  for (const auto& [name, value] : inputs)
    if (value.is_int()) score += std::min(1e15, std::abs(static_cast<double>(value.as_int())));
  return score;
}

Inputs without_defaults(const CompiledRules& rules, const Inputs& inputs) {
  Inputs shown;
  for (const auto& [name, value] : inputs) {
    const auto slot = rules.input_slots.find(name);
    if (slot == rules.input_slots.end()) continue;
    const auto& input = rules.inputs[static_cast<std::size_t>(slot->second)];
    if (!input.default_value || !(detail::to_public(*input.default_value) == value))
      shown.emplace_back(name, value);
  }
  return shown;
}

const char* to_string(GoalKind kind) {
  switch (kind) {
    case GoalKind::rule:
      return "rule";
    case GoalKind::condition:
      return "condition";
    case GoalKind::boundary:
      return "boundary";
    case GoalKind::search:
      return "search";
  }
  return "?";
}

struct CoverageTracker::State {
  // One matcher's goals: its two outcomes, and its boundary when it compares integers.
  struct MatcherGoals {
    CompiledRule alone;  // a rule holding only this matcher, for the probe
    Node fact;           // the matcher's fact as an expression
    std::size_t seen_true = 0, seen_false = 0;
    std::optional<Op> comparison;  // set when the matcher is a boundary goal
    std::size_t at = 0, beyond = 0;
  };
  struct RuleGoals {
    std::size_t fired = 0;
    std::vector<MatcherGoals> matchers;
  };
  // A comparison inside an expression (a let value, an operand, a set value, ...).
  struct ExpressionGoals {
    const Node* node = nullptr;
    std::size_t at = 0, beyond = 0;
  };

  explicit State(const CompiledRules& r) : rules(r), probe(r) {}

  const CompiledRules& rules;
  evaluate::Probe probe;
  detail::ValueStore store;  // the points of the evaluation being followed
  Coverage coverage;
  std::vector<std::vector<RuleGoals>> tables;          // per table, per rule
  std::map<std::string, std::pair<int, int>> rule_at;  // rule location -> (table, rule)
  std::vector<ExpressionGoals> expressions;
  // A search's goals, by where its trace steps point: "location|tier" for a tier choosing,
  // a constraint's (or `fits`') location for a candidate it removed, "location|none_valid" and
  // "location|none_fits" for its failures. Locations name the file, so a search of a file this
  // one uses is another search.
  std::map<std::string, std::size_t> search_goals;
  std::vector<int> integer_lets;  // per let: -1 unknown, 0 no, 1 yes, 2 being decided

  std::size_t add(GoalKind kind, std::string owner, SourceLocation at, std::string what) {
    coverage.goals.push_back(
        Goal{kind, std::move(owner), std::move(at), std::move(what), 0, {}, false});
    return coverage.goals.size() - 1;
  }

  // Whether `n` is an integer wherever it has a value (null aside), from the declared types:
  // what makes a comparison of it a boundary.
  bool integer_valued(const Node& n) {
    switch (n.kind) {
      case ExprKind::literal:
        return n.constant.kind == RValue::Kind::integer;
      case ExprKind::name:
        return integer_slot(n.slot);
      case ExprKind::unary:
        return n.op == Op::negate && integer_valued(n.children[0]);
      case ExprKind::binary:
        return (n.op == Op::add || n.op == Op::subtract || n.op == Op::multiply ||
                n.op == Op::divide || n.op == Op::modulo) &&
               integer_valued(n.children[0]) && integer_valued(n.children[1]);
      case ExprKind::conditional:
        return integer_valued(n.children[1]) && integer_valued(n.children[2]);
      case ExprKind::call: {
        if (!n.builtin) return false;
        if (n.builtin->result_from_arguments)
          return std::all_of(n.children.begin(), n.children.end(),
                             [&](const Node& c) { return integer_valued(c); });
        return (n.builtin->result & ~detail::kNull) == detail::kInt;
      }
      default:
        return false;
    }
  }

  bool integer_slot(int slot) {
    if (slot < 0) return false;
    const auto inputs = rules.inputs.size();
    if (static_cast<std::size_t>(slot) < inputs)
      return (rules.inputs[static_cast<std::size_t>(slot)].type.kinds & ~detail::kNull) ==
             detail::kInt;
    const std::size_t let = static_cast<std::size_t>(slot) - inputs;
    if (let >= rules.lets.size() || rules.computed_elsewhere(let)) return false;
    int& known = integer_lets[let];
    if (known == 2) return false;  // a cycle (refused at load): not an integer
    if (known < 0) {
      known = 2;
      known = integer_valued(rules.lets[let]) ? 1 : 0;
    }
    return known == 1;
  }

  void add_expressions(const Node& n, const std::string& owner) {
    if (n.kind == ExprKind::binary && syntax::is_comparison(n.op) && integer_valued(n.children[0]) &&
        integer_valued(n.children[1])) {
      const std::string text = text_of(n);
      const std::string left = text_of(n.children[0]);
      ExpressionGoals goals;
      goals.node = &n;
      goals.at = add(GoalKind::boundary, owner, n.location,
                     text + " at " + boundary_point(left, n.children[1], wanted_differences(n.op, true)));
      goals.beyond = add(GoalKind::boundary, owner, n.location,
                         text + " at " + boundary_point(left, n.children[1], wanted_differences(n.op, false)));
      expressions.push_back(goals);
    }
    for (const Node& child : n.children) add_expressions(child, owner);
  }

  void find_goals() {
    integer_lets.assign(rules.lets.size(), -1);
    tables.resize(rules.tables.size());
    for (std::size_t t = 0; t < rules.tables.size(); ++t) {
      const auto& table = rules.tables[t];
      for (std::size_t r = 0; r < table.rules.size(); ++r) {
        const CompiledRule& rule = table.rules[r];
        rule_at[to_string(rule.location)] = {static_cast<int>(t), static_cast<int>(r)};
        RuleGoals goals;
        goals.fired = add(GoalKind::rule, table.name + "/" + rule.name, rule.location, "");
        tables[t].push_back(std::move(goals));
      }
    }
    for (std::size_t t = 0; t < rules.tables.size(); ++t) {
      const auto& table = rules.tables[t];
      for (std::size_t r = 0; r < table.rules.size(); ++r) {
        const CompiledRule& rule = table.rules[r];
        const std::string owner = table.name + "/" + rule.name;
        for (const CompiledMatcher& m : rule.when) {
          MatcherGoals goals;
          goals.alone.name = rule.name;
          goals.alone.location = rule.location;
          goals.alone.when = {m};
          goals.fact.kind = ExprKind::name;
          goals.fact.slot = m.slot;
          goals.fact.name = m.fact;
          goals.fact.location = m.location;
          const std::string condition = m.fact + " " + m.info->name + " " + m.text;
          goals.seen_true = add(GoalKind::condition, owner, m.location, condition + " is true");
          goals.seen_false = add(GoalKind::condition, owner, m.location, condition + " is false");
          tables[t][r].matchers.push_back(std::move(goals));
        }
      }
    }
    // Boundaries after every condition, so that goals stay grouped by kind.
    for (std::size_t t = 0; t < rules.tables.size(); ++t) {
      const auto& table = rules.tables[t];
      for (std::size_t r = 0; r < table.rules.size(); ++r) {
        const CompiledRule& rule = table.rules[r];
        const std::string owner = table.name + "/" + rule.name;
        for (std::size_t k = 0; k < rule.when.size(); ++k) {
          const CompiledMatcher& m = rule.when[k];
          MatcherGoals& goals = tables[t][r].matchers[k];
          const std::optional<Op> op = m.info->compares_as;
          if (op && integer_slot(m.slot) && integer_valued(m.operand)) {
            goals.comparison = op;
            const std::string text = m.fact + " " + m.info->symbol + " " + text_of(m.operand);
            goals.at = add(GoalKind::boundary, owner, m.location,
                           text + " at " + boundary_point(m.fact, m.operand, wanted_differences(*op, true)));
            goals.beyond = add(GoalKind::boundary, owner, m.location,
                               text + " at " + boundary_point(m.fact, m.operand, wanted_differences(*op, false)));
          }
          add_expressions(m.operand, owner);
        }
        for (const auto& assignment : rule.set) add_expressions(assignment.value, owner);
        if (rule.fallback)
          for (const auto& assignment : rule.fallback->with)
            add_expressions(assignment.value, owner);
      }
    }
    for (std::size_t k = 0; k < rules.lets.size(); ++k)
      if (!rules.computed_elsewhere(k))
        add_expressions(rules.lets[k], "let " + rules.let_names[k]);
    for (const auto& field : rules.fields)
      if (field.init) add_expressions(*field.init, "record " + field.name);
    for (const auto& search : rules.searches)
      if (search) add_search_goals(*search);
  }

  void add_search_goals(const detail::CompiledSearch& search) {
    const std::string owner = "search " + search.name;
    const std::string at = to_string(search.location);
    for (const detail::CompiledTier& tier : search.tiers)
      search_goals[at + "|" + tier.name] =
          add(GoalKind::search, owner, search.location, messages::goal_tier_chose(tier.name));
    bool constrained = false;
    auto constraint = [&](const detail::CompiledConstraint& c, const std::string& tier) {
      search_goals[to_string(c.location)] =
          add(GoalKind::search, owner, c.location, messages::goal_constraint_removed(c.name, tier));
      constrained = true;
    };
    for (const detail::CompiledConstraint& c : search.constraints) constraint(c, "");
    for (const detail::CompiledTier& tier : search.tiers)
      for (const detail::CompiledConstraint& c : tier.constraints) constraint(c, tier.name);
    if (search.fits)
      search_goals[to_string(search.fits->location)] =
          add(GoalKind::search, owner, search.fits->location, messages::goal_too_big());
    // Without constraints every candidate is valid, and without `fits` every one fits: the
    // failures that cannot happen are no goals.
    if (constrained)
      search_goals[at + "|none_valid"] =
          add(GoalKind::search, owner, search.location, messages::goal_search_failed("none_valid"));
    if (search.fits)
      search_goals[at + "|none_fits"] =
          add(GoalKind::search, owner, search.location, messages::goal_search_failed("none_fits"));
  }

  // The search goals a trace covers.
  void searched(const std::vector<TraceStep>& steps, std::set<std::size_t>& out) {
    auto cover = [&](const std::string& key) {
      const auto found = search_goals.find(key);
      if (found != search_goals.end()) out.insert(found->second);
    };
    std::set<std::string> too_big;  // searches, by location, with a candidate over `fits`
    for (const TraceStep& step : steps) {
      switch (step.kind) {
        case TraceStep::Kind::search_chosen:
          cover(to_string(step.location) + "|" + step.rule);
          break;
        case TraceStep::Kind::candidate_removed:
          cover(to_string(step.location));
          break;
        case TraceStep::Kind::candidate_too_big:
          cover(to_string(step.location));
          too_big.insert(step.table);
          break;
        case TraceStep::Kind::error:
          // A search's failure is traced at the search; which one, by whether any candidate
          // was tested and found too big (none_fits) or none was valid.
          cover(to_string(step.location) + (too_big.count(step.table) ? "|none_fits" : "|none_valid"));
          break;
        default:
          break;
      }
    }
  }

  // The inputs as evaluate() binds them (defaults, lower-casing), or std::nullopt when it
  // refuses them.
  std::optional<std::vector<RValue>> bind(const Inputs& given) {
    std::vector<RValue> point(rules.inputs.size());
    std::vector<bool> set(rules.inputs.size(), false);
    for (const auto& [name, value] : given) {
      const auto slot = rules.input_slots.find(name);
      if (slot == rules.input_slots.end()) return std::nullopt;
      if (value.is_null()) continue;
      point[static_cast<std::size_t>(slot->second)] = detail::from_public(value, store);
      set[static_cast<std::size_t>(slot->second)] = true;
    }
    for (std::size_t k = 0; k < point.size(); ++k) {
      if (!set[k]) {
        if (!rules.inputs[k].default_value) return std::nullopt;
        point[k] = *rules.inputs[k].default_value;
      }
      const auto normal = probe.normalised(static_cast<int>(k), point[k]);
      if (!normal) return std::nullopt;
      point[k] = store.copy(*normal);
    }
    return point;
  }

  static std::optional<Wide> difference(const std::optional<RValue>& a,
                                        const std::optional<RValue>& b) {
    if (!a || !b || a->kind != RValue::Kind::integer || b->kind != RValue::Kind::integer)
      return std::nullopt;
    return a->i - b->i;
  }

  void boundary(Op op, std::optional<Wide> d, std::size_t at, std::size_t beyond,
                std::set<std::size_t>& out) {
    if (!d) return;
    if (wanted_differences(op, true).contains(*d)) out.insert(at);
    if (wanted_differences(op, false).contains(*d)) out.insert(beyond);
  }

  // Rule `r` of table `t` was tried at `point`: what its matchers were there.
  void tried(std::size_t t, std::size_t r, const std::vector<RValue>& point,
             std::set<std::size_t>& out) {
    for (MatcherGoals& goals : tables[t][r].matchers) {
      probe.at(point);
      const auto outcome = probe.matches(goals.alone);
      if (outcome == evaluate::Probe::Outcome::yes) out.insert(goals.seen_true);
      if (outcome == evaluate::Probe::Outcome::no) out.insert(goals.seen_false);
      if (goals.comparison)
        boundary(*goals.comparison,
                 difference(probe.value(goals.fact), probe.value(goals.alone.when.front().operand)),
                 goals.at, goals.beyond, out);
    }
  }

  // The inputs the fallback of `rule` passes on from `point`, or std::nullopt when it fails.
  std::optional<std::vector<RValue>> after_fallback(const CompiledRule& rule,
                                                    std::vector<RValue> point) {
    std::vector<std::pair<int, RValue>> changed;
    probe.at(point);
    for (const auto& assignment : rule.fallback->with) {
      auto v = probe.value(assignment.value);
      if (v) v = probe.normalised(assignment.target, *v);
      if (!v) return std::nullopt;
      changed.emplace_back(assignment.target, store.copy(*v));
    }
    for (const auto& [slot, v] : changed) point[static_cast<std::size_t>(slot)] = v;
    return point;
  }

  // `base` moved onto boundary goal `goal` in one input, each way witnesses_near() says: the
  // candidates, which goals_of() confirms (the other side may move with the input).
  std::vector<Inputs> toward_boundary(std::size_t goal, const Inputs& base) {
    std::vector<Inputs> out;
    store.reset();
    const std::optional<std::vector<RValue>> point = bind(base);
    if (!point) return out;
    // `base` with the input of `side` (when it names one) set so that left - right = d.
    const auto moved = [&](const Node& side, const std::optional<RValue>& other, Wide d, bool left) {
      if (side.kind != ExprKind::name || side.slot < 0 ||
          static_cast<std::size_t>(side.slot) >= rules.inputs.size() || !other ||
          other->kind != RValue::Kind::integer)
        return;
      Wide value = 0;
      if (left ? __builtin_add_overflow(other->i, d, &value) : __builtin_sub_overflow(other->i, d, &value)) return;
      if (!detail::fits_int64(value)) return;
      // A value the input may not take is no suggestion, though the comparison would stand at
      // its threshold there (the evaluator refuses it as a rule error, so say it here).
      const auto& allowed = rules.inputs[static_cast<std::size_t>(side.slot)].one_of;
      if (!allowed.empty() && std::none_of(allowed.begin(), allowed.end(), [&](const RValue& option) {
            return option.kind == RValue::Kind::integer && option.i == value;
          }))
        return;
      Inputs inputs = base;
      set_input(inputs, rules.inputs[static_cast<std::size_t>(side.slot)].name,
                Value(static_cast<std::int64_t>(value)));
      out.push_back(std::move(inputs));
    };
    const auto consider = [&](Op op, const Node& left, const Node& right, bool at) {
      probe.at(*point);
      const std::optional<RValue> l = probe.value(left);
      const std::optional<RValue> r = probe.value(right);
      const Differences wanted = wanted_differences(op, at);
      for (std::size_t k = 0; k < wanted.count; ++k) {
        moved(left, r, wanted.values[k], true);
        moved(right, l, wanted.values[k], false);
      }
    };
    for (const auto& table : tables)
      for (const auto& rule : table)
        for (const auto& m : rule.matchers)
          if (m.comparison && (m.at == goal || m.beyond == goal))
            consider(*m.comparison, m.fact, m.alone.when.front().operand, m.at == goal);
    for (const ExpressionGoals& e : expressions)
      if (e.at == goal || e.beyond == goal)
        consider(e.node->op, e.node->children[0], e.node->children[1], e.at == goal);
    return out;
  }

  std::vector<std::size_t> goals_of(const Inputs& inputs, const std::vector<TraceStep>& steps) {
    store.reset();
    std::set<std::size_t> out;
    std::optional<std::vector<RValue>> point = bind(inputs);
    std::vector<std::vector<RValue>> points;
    if (point) points.push_back(*point);
    for (const TraceStep& step : steps) {
      if (step.kind != TraceStep::Kind::rule_fired) continue;
      const auto found = rule_at.find(to_string(step.location));
      if (found == rule_at.end()) continue;  // a rule of another file
      const auto t = static_cast<std::size_t>(found->second.first);
      const auto r = static_cast<std::size_t>(found->second.second);
      out.insert(tables[t][r].fired);
      if (!point) continue;
      for (std::size_t k = 0; k <= r; ++k) tried(t, k, *point, out);
      const CompiledRule& rule = rules.tables[t].rules[r];
      if (rule.fallback) {
        point = after_fallback(rule, *point);
        if (point) points.push_back(*point);
      }
    }
    if (!search_goals.empty()) searched(steps, out);
    for (const auto& at : points)
      for (const ExpressionGoals& goals : expressions) {
        probe.at(at);
        boundary(
            goals.node->op,
            difference(probe.value(goals.node->children[0]), probe.value(goals.node->children[1])),
            goals.at, goals.beyond, out);
      }
    return {out.begin(), out.end()};
  }
};

CoverageTracker::CoverageTracker(const CompiledRules& rules)
    : state_(std::make_unique<State>(rules)) {
  state_->find_goals();
}

CoverageTracker::~CoverageTracker() = default;

std::vector<std::size_t> CoverageTracker::goals_of(const Inputs& inputs,
                                                   const std::vector<TraceStep>& steps) {
  return state_->goals_of(inputs, steps);
}

void CoverageTracker::record(const Inputs& inputs, const std::vector<TraceStep>& steps) {
  for (std::size_t goal : goals_of(inputs, steps)) ++state_->coverage.goals[goal].cases;
}

const Coverage& CoverageTracker::coverage() const {
  return state_->coverage;
}

void CoverageTracker::witnesses_near(const std::vector<Inputs>& tried, std::size_t at_most) {
  // Requests the rules answer first: a suggestion (or a generated test) that plans something
  // says more than one more error.
  std::vector<const Inputs*> bases;
  for (const Inputs& inputs : tried) bases.push_back(&inputs);
  std::stable_partition(bases.begin(), bases.end(),
                        [&](const Inputs* inputs) { return evaluate::evaluate(state_->rules, *inputs).ok(); });
  if (bases.size() > at_most) bases.resize(at_most);
  std::vector<TraceStep> steps;
  for (std::size_t g = 0; g < state_->coverage.goals.size(); ++g) {
    if (state_->coverage.goals[g].kind != GoalKind::boundary || state_->coverage.goals[g].cases > 0 ||
        state_->coverage.goals[g].witness)
      continue;
    for (const Inputs* base : bases) {
      for (const Inputs& moved : state_->toward_boundary(g, *base)) {
        steps.clear();
        (void)evaluate::evaluate(state_->rules, moved, &steps);
        const std::vector<std::size_t> covered = goals_of(moved, steps);
        if (std::find(covered.begin(), covered.end(), g) == covered.end()) continue;
        state_->coverage.goals[g].witness = without_defaults(state_->rules, moved);
        break;
      }
      if (state_->coverage.goals[g].witness) break;
    }
  }
}

bool CoverageTracker::find_witnesses(std::string& why) {
  Coverage& coverage = state_->coverage;
  std::vector<double> best(coverage.goals.size(), 0);
  bool exact = false;
  std::vector<TraceStep> steps;  // reused: its room outlives each point
  const bool walked = for_each_representative(
      state_->rules,
      [&](const Inputs& inputs) {
        steps.clear();
        (void)evaluate::evaluate(state_->rules, inputs, &steps);
        // The shown input and its plainness only for a point that covers an open goal: most
        // points cover only what the tests already do.
        std::optional<Inputs> shown;
        double score = 0;
        for (std::size_t goal : goals_of(inputs, steps)) {
          Goal& g = coverage.goals[goal];
          if (g.cases > 0) continue;
          if (!shown) {
            shown = without_defaults(state_->rules, inputs);
            score = plainness(*shown);
          }
          if (g.witness && best[goal] <= score) continue;
          g.witness = shown;
          best[goal] = score;
        }
        return true;
      },
      why, &exact);
  // The representatives decide the tables' paths, not what a search finds among its candidates
  // (arithmetic the cells do not split): a search goal none of them covers is not proven
  // unreachable.
  if (walked && exact)
    for (Goal& g : coverage.goals) g.unreachable = g.cases == 0 && !g.witness && g.kind != GoalKind::search;
  return walked;
}

bool decision_regions(const CompiledRules& rules, std::vector<RegionWitness>& out,
                      std::string& why) {
  std::map<Region, std::size_t> seen;
  std::vector<double> best;
  std::vector<TraceStep> steps;  // reused: its room outlives each point
  return for_each_representative(
      rules,
      [&](const Inputs& inputs) {
        steps.clear();
        const EvaluationResult result = evaluate::evaluate(rules, inputs, &steps);
        auto [at, fresh] = seen.emplace(region_of(result, steps), out.size());
        Inputs shown = without_defaults(rules, inputs);
        const double score = plainness(shown);
        if (fresh) {
          out.push_back(RegionWitness{at->first, std::move(shown)});
          best.push_back(score);
        } else if (score < best[at->second]) {
          out[at->second].witness = std::move(shown);
          best[at->second] = score;
        }
        return true;
      },
      why);
}

bool for_each_representative(const CompiledRules& rules,
                             const std::function<bool(const Inputs&)>& visit, std::string& why,
                             bool* exact) {
  const InputSpace space(rules, SpaceRequest{Gather::conditions_and_values, {}, {}});
  if (exact) *exact = space.exact();
  std::vector<bool> enumerated(rules.inputs.size(), false);
  for (int v : space.space().vars) enumerated[static_cast<std::size_t>(v)] = true;
  const Walk walk = space.enumerate(
      [&](const std::vector<RValue>& point) {
        Inputs inputs;
        for (std::size_t k = 0; k < point.size(); ++k) {
          // An input no condition reads is at its placeholder: its default says the same, and
          // for an integer without one, 1 is as good a value as any and plainer.
          if (!enumerated[k] && rules.inputs[k].default_value) continue;
          if (!enumerated[k] && point[k].kind == RValue::Kind::integer &&
              rules.inputs[k].one_of.empty()) {
            inputs.emplace_back(rules.inputs[k].name, Value(1));
            continue;
          }
          if (point[k].kind != RValue::Kind::null)
            inputs.emplace_back(rules.inputs[k].name, detail::to_public(point[k]));
        }
        return visit(inputs);
      },
      why);
  if (walk == Walk::too_many) why = messages::analysis_too_many_points(kMaxPoints);
  return walk == Walk::done || walk == Walk::stopped;
}

}  // namespace snnplan::analyse
