#include "analyse/invariants.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "analyse/search.hpp"
#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "snnplan/explain.hpp"

namespace snnplan::analyse {
namespace {

using detail::CompiledRules;
using detail::Node;
using syntax::ExprKind;

constexpr int kMaxDepth = 64;  // of derived values through derived values, for the two tests below

// Whether `n` has one value on each region: constants, and choices among them made by
// conditions (whose atoms are among the regions' boundaries) or by inputs of a finite domain.
bool value_is_constant(const Model& m, const Node& n, int depth = 0) {
  if (depth > kMaxDepth) return false;
  const CompiledRules& rules = m.rules;
  switch (n.kind) {
    case ExprKind::literal:
      return true;
    case ExprKind::list:
      for (const Node& item : n.children)
        if (!value_is_constant(m, item, depth + 1)) return false;
      return true;
    case ExprKind::conditional:
      return value_is_constant(m, n.children[1], depth + 1) &&
             value_is_constant(m, n.children[2], depth + 1);
    case ExprKind::name: {
      const auto slot = static_cast<std::size_t>(n.slot);
      if (slot < rules.inputs.size())
        return !m.inputs[slot].sampled && m.inputs[slot].issue == std::nullopt;
      if (slot < rules.inputs.size() + rules.lets.size()) {
        const std::size_t let = slot - rules.inputs.size();
        return !rules.computed_elsewhere(let) && value_is_constant(m, rules.lets[let], depth + 1);
      }
      return false;
    }
    default:
      return false;
  }
}

// Whether `n`'s null-ness, and its length when it is a list, is the same on each region: what
// `len(f)`, `f == null` and `f != null` read of a field set to `n`.
bool shape_is_constant(const Model& m, const Node& n, int depth = 0) {
  if (depth > kMaxDepth) return false;
  const CompiledRules& rules = m.rules;
  switch (n.kind) {
    case ExprKind::literal:
    case ExprKind::list:  // as many items as written
    case ExprKind::unary:
    case ExprKind::binary:  // numbers, strings and booleans: never null, never a list
      return true;
    case ExprKind::conditional:
      return shape_is_constant(m, n.children[1], depth + 1) &&
             shape_is_constant(m, n.children[2], depth + 1);
    case ExprKind::name: {
      const auto slot = static_cast<std::size_t>(n.slot);
      // An input's null-ness is one of its representatives; a list input's length is not.
      if (slot < rules.inputs.size()) return !(rules.inputs[slot].type.kinds & detail::kList);
      if (slot < rules.inputs.size() + rules.lets.size()) {
        const std::size_t let = slot - rules.inputs.size();
        return !rules.computed_elsewhere(let) && shape_is_constant(m, rules.lets[let], depth + 1);
      }
      return false;
    }
    case ExprKind::call:
      if (n.builtin->result_from_arguments) {
        for (const Node& argument : n.children)
          if (!shape_is_constant(m, argument, depth + 1)) return false;
        return true;
      }
      return !(n.builtin->result & (detail::kNull | detail::kList));
    case ExprKind::member:
      return false;
  }
  return false;
}

bool is_null_literal(const Node& n) {
  return n.kind == ExprKind::literal && n.constant.kind == detail::RValue::Kind::null;
}

// What an invariant depends on. Parts that read no record field are shapes like any condition
// (their thresholds and compared constants split the regions). A record field it reads is
// recorded with how: its value, or only its null-ness and length (len(f), f == null,
// f != null). Comparing a field with a value computed from the inputs is beyond the proof.
class InvariantFacts {
 public:
  InvariantFacts(const CompiledRules& rules, Shapes& shapes) : rules_(rules), shapes_(shapes) {}

  void matcher(const detail::CompiledMatcher& m) {
    if (!is_field(m.slot)) {
      if (reads_field(m.operand)) return unsupported(m.operand.location);
      facts_.merge(shapes_.matcher(m));
      return;
    }
    const bool null_test = m.info->by_equality &&
                           m.info->operand == language::OperandShape::value &&
                           is_null_literal(m.operand);
    read(m.slot, !null_test);
    if (reads_inputs(m.operand)) unsupported(m.operand.location);
  }

  void node(const Node& n) {
    if (!reads_field(n)) {
      facts_.merge(shapes_.expression(n));
      return;
    }
    if (n.kind == ExprKind::name) return read(n.slot, true);
    if (n.kind == ExprKind::call && std::string_view(n.builtin->name) == "len" &&
        n.children.size() == 1 && n.children[0].kind == ExprKind::name)
      return read(n.children[0].slot, false);
    if (n.kind == ExprKind::binary &&
        (n.op == syntax::Op::equal || n.op == syntax::Op::not_equal)) {
      for (int side = 0; side < 2; ++side) {
        const Node& a = n.children[static_cast<std::size_t>(side)];
        const Node& b = n.children[static_cast<std::size_t>(1 - side)];
        if (a.kind == ExprKind::name && is_null_literal(b)) return read(a.slot, false);
      }
    }
    const bool logical = n.kind == ExprKind::binary &&
                         (n.op == syntax::Op::logical_and || n.op == syntax::Op::logical_or);
    const bool combines =
        n.kind == ExprKind::binary || n.kind == ExprKind::call || n.kind == ExprKind::conditional;
    if (combines && !logical && n.kind != ExprKind::conditional) {
      // A field's value compared or combined with what the inputs decide.
      for (const Node& child : n.children)
        if (!reads_field(child) && reads_inputs(child)) return unsupported(n.location);
    }
    for (const Node& child : n.children) node(child);
  }

  [[nodiscard]] const std::map<std::size_t, bool>& fields() const { return fields_; }
  [[nodiscard]] const Facts& facts() const { return facts_; }

 private:
  [[nodiscard]] bool is_field(int slot) const {
    return slot >= static_cast<int>(rules_.slot_count());
  }
  [[nodiscard]] bool reads_field(const Node& n) const {
    if (n.kind == ExprKind::name && is_field(n.slot)) return true;
    return std::any_of(n.children.begin(), n.children.end(),
                       [&](const Node& c) { return reads_field(c); });
  }
  [[nodiscard]] bool reads_inputs(const Node& n) const {
    if (n.kind == ExprKind::name && !is_field(n.slot)) return true;
    return std::any_of(n.children.begin(), n.children.end(),
                       [&](const Node& c) { return reads_inputs(c); });
  }
  void read(int slot, bool value) {
    bool& uses_value = fields_[static_cast<std::size_t>(slot) - rules_.slot_count()];
    uses_value = uses_value || value;
  }
  void unsupported(const SourceLocation& at) {
    facts_.add_issue(Issue{at, messages::invariant_compares_field_with_inputs()});
  }

  const CompiledRules& rules_;
  Shapes& shapes_;
  Facts facts_;
  std::map<std::size_t, bool> fields_;
};

}  // namespace

void InvariantProof::gather(Shapes& shapes) {
  const CompiledRules& rules = m_.rules;
  if (rules.invariants.empty()) return;
  // The regions: where any rule's conditions change, and where a value a rule sets changes
  // shape. Their constructs beyond the analysis are the table analysis' notes already.
  for (const detail::CompiledTable& table : rules.tables)
    for (const detail::CompiledRule& rule : table.rules) {
      for (const detail::CompiledMatcher& matcher : rule.when)
        joint_.merge(shapes.matcher(matcher), false);
      for (const detail::CompiledAssignment& set : rule.set)
        joint_.merge(shapes.expression(set.value), false);
    }
  for (const detail::CompiledField& field : rules.fields)
    if (field.init) joint_.merge(shapes.expression(*field.init), false);

  why_.resize(rules.invariants.size());
  for (std::size_t k = 0; k < rules.invariants.size(); ++k) {
    const detail::CompiledInvariant& invariant = rules.invariants[k];
    InvariantFacts uses(rules, shapes);
    for (const detail::CompiledMatcher& matcher : invariant.condition.when) uses.matcher(matcher);
    uses.node(invariant.require);
    joint_.merge(uses.facts(), false);
    why_[k] = uses.facts().issues;
    // A field it reads must be constant on each region where the rules set it, or (read
    // only for null-ness and length) of constant shape.
    for (const auto& [field, uses_value] : uses.fields()) {
      const bool reads_value = uses_value;  // clang 14 cannot capture a structured binding
      const auto is_exact = [&](const Node& value) {
        return reads_value ? value_is_constant(m_, value) : shape_is_constant(m_, value);
      };
      const detail::CompiledField& declared = rules.fields[field];
      if (declared.init && !is_exact(*declared.init)) {
        why_[k].push_back(Issue{declared.init->location,
                                messages::invariant_reads_computed_field(declared.name)});
        continue;
      }
      for (const detail::CompiledTable& table : rules.tables)
        for (const detail::CompiledRule& rule : table.rules)
          for (const detail::CompiledAssignment& set : rule.set)
            if (static_cast<std::size_t>(set.target) == field && !is_exact(set.value))
              why_[k].push_back(Issue{set.value.location,
                                      messages::invariant_reads_computed_field(declared.name)});
    }
  }
}

std::vector<Diagnostic> InvariantProof::prove() {
  std::vector<Diagnostic> out;
  const CompiledRules& rules = m_.rules;
  proved_.assign(rules.invariants.size(), false);
  if (rules.invariants.empty()) return out;
  const SourceLocation& where = rules.invariants.front().location;
  const Space space = make_space(m_, joint_, where);

  struct Witness {
    std::vector<RValue> point;
    Wide score = 0;
  };
  std::vector<std::optional<Witness>> found(rules.invariants.size());
  std::string why;
  const Walk walk = enumerate(
      m_, space,
      [&](const std::vector<RValue>& pt) {
        if (!m_.valid_start(pt)) return true;
        const auto broken = evaluate::broken_invariant(rules, pt);
        if (!broken) return true;
        auto& witness = found[static_cast<std::size_t>(broken->invariant)];
        const Wide score = m_.niceness(space.vars, pt);
        if (!witness || score < witness->score) witness = Witness{pt, score};
        return true;
      },
      why);

  for (std::size_t k = 0; k < rules.invariants.size(); ++k) {
    const detail::CompiledInvariant& invariant = rules.invariants[k];
    if (found[k]) {
      // The witness again, traced: the rule path, and the rule that made the record.
      std::vector<TraceStep> trace;
      const auto broken = evaluate::broken_invariant(rules, found[k]->point, &trace);
      SourceLocation at = invariant.location;
      for (const TraceStep& step : trace)
        if (step.kind == TraceStep::Kind::rule_fired) at = step.location;
      std::string path;
      for (const std::string& rule : fired_rule_path(trace))
        path += (path.empty() ? "" : " -> ") + rule;
      const std::string inputs = space.vars.empty()
                                     ? messages::any_input()
                                     : m_.describe_point(space.vars, found[k]->point);
      out.push_back(
          Diagnostic{Severity::error, at, "invariant-violated",
                     messages::invariant_violated(invariant.name, inputs,
                                                  broken ? broken->message : std::string(), path)});
      continue;
    }
    std::vector<Issue> issues = why_[k];
    issues.insert(issues.end(), space.issues.begin(), space.issues.end());
    if (walk == Walk::too_many)
      issues.push_back(Issue{where, messages::analysis_too_many_points(kMaxPoints)});
    if (walk == Walk::failed) issues.push_back(Issue{where, why});
    // One note per invariant, for the first reason: the rest usually say the same.
    if (!issues.empty())
      out.push_back(
          Diagnostic{Severity::note, issues.front().location, "analysis-incomplete",
                     messages::invariant_not_proved(invariant.name, issues.front().what)});
    else
      proved_[k] = true;
  }
  return out;
}

}  // namespace snnplan::analyse
