// Mutants of a rule file (mutants.hpp): found on the compiled original, applied to a fresh
// compilation of the same syntax tree, so every mutant is a rule file the evaluator runs as
// it runs any other.

#include "analyse/mutants.hpp"

#include <map>
#include <utility>

#include "analyse/coverage.hpp"
#include "analyse/exclusion.hpp"
#include "compile/compiler.hpp"
#include "compile/rule_index.hpp"
#include "evaluate/evaluator.hpp"
#include "load/rule_file_loader.hpp"

namespace snnplan::analyse {
namespace {

using detail::CompiledRules;
using detail::Node;
using detail::RValue;
using syntax::ExprKind;
using syntax::MatchOp;
using syntax::Op;

// clang-format off
constexpr MutationOperatorRow kOperators[] = {
    {MutationOperator::threshold_up, "threshold+1", "an integer a condition compares with, plus 1 (matchers and comparisons in let values)"},
    {MutationOperator::threshold_down, "threshold-1", "the same integer minus 1"},
    {MutationOperator::ordering, "ordering", "an ordering operator to its neighbour: ge <-> gt, le <-> lt (>= <-> >, <= <-> < in let values)"},
    {MutationOperator::drop_matcher, "drop-matcher", "a matcher of a rule's when left out"},
    {MutationOperator::flip_boolean, "flip-boolean", "a boolean literal negated: a matcher's operand, a set value, a fallback's with value"},
    {MutationOperator::swap_rules, "swap-rules", "two adjacent rules of a table in the other order"},
    {MutationOperator::change_set_literal, "change-set-literal", "a literal of a rule's set changed: an integer or float plus 1, a string with text appended"},
    {MutationOperator::drop_rationale_line, "drop-rationale-line", "a line of a rule's because left out"},
    {MutationOperator::drop_fallback_override, "drop-fallback-override", "an input of a fallback's with left out"},
};
// clang-format on

constexpr bool rows_in_enum_order() {
  for (std::size_t k = 0; k < std::size(kOperators); ++k)
    if (kOperators[k].op != static_cast<MutationOperator>(k)) return false;
  return true;
}
static_assert(rows_in_enum_order(), "one row per MutationOperator, in enum order");

std::optional<Op> ordering_neighbour(Op op) {
  switch (op) {
    case Op::greater_equal:
      return Op::greater;
    case Op::greater:
      return Op::greater_equal;
    case Op::less_equal:
      return Op::less;
    case Op::less:
      return Op::less_equal;
    default:
      return std::nullopt;
  }
}

bool integer_literal(const Node& n) {
  return n.kind == ExprKind::literal && n.constant.kind == RValue::Kind::integer;
}

// A literal as the rule file writes it: 'dp', 8, true.
std::string shown(const RValue& v) {
  if (v.kind == RValue::Kind::boolean) return v.b ? "true" : "false";
  return detail::repr(v);
}

// Where a node of a let value is: the let, then child indices from its root.
Node& node_at(CompiledRules& rules, std::size_t let, const std::vector<std::size_t>& path) {
  Node* n = &rules.lets[let];
  for (std::size_t k : path) n = &n->children[k];
  return *n;
}

class Finder {
 public:
  Finder(const CompiledRules& rules, std::vector<Mutant>& out) : rules_(rules), out_(out) {}

  void run() {
    for (std::size_t t = 0; t < rules_.tables.size(); ++t) {
      const auto& table = rules_.tables[t];
      for (std::size_t r = 0; r < table.rules.size(); ++r) rule(t, r);
      for (std::size_t r = 0; r + 1 < table.rules.size(); ++r) {
        add(MutationOperator::swap_rules, table.rules[r].location, owner(t, r),
            "rules '" + table.rules[r].name + "' and '" + table.rules[r + 1].name + "' swapped",
            [t, r](CompiledRules& m) {
              std::swap(m.tables[t].rules[r], m.tables[t].rules[r + 1]);
            });
        out_.back().proved_equivalent =
            swap_is_equivalent(rules_, table.rules[r], table.rules[r + 1]);
      }
    }
    for (std::size_t k = 0; k < rules_.lets.size(); ++k)
      if (!rules_.computed_elsewhere(k)) let_node(k, rules_.lets[k], {});
  }

 private:
  std::string owner(std::size_t t, std::size_t r) const {
    return rules_.tables[t].name + "/" + rules_.tables[t].rules[r].name;
  }

  void add(MutationOperator op, const SourceLocation& at, std::string owner,
           std::string description, std::function<void(CompiledRules&)> apply) {
    out_.push_back(Mutant{op, at, std::move(owner), std::move(description), std::move(apply)});
  }

  void rule(std::size_t t, std::size_t r) {
    const auto& rule = rules_.tables[t].rules[r];
    const std::string who = owner(t, r);
    for (std::size_t k = 0; k < rule.when.size(); ++k) {
      const auto& m = rule.when[k];
      const std::string text = m.fact + " " + m.info->name + " ";
      if (m.info->compares_as && integer_literal(m.operand)) {
        const detail::Wide v = m.operand.constant.i;
        for (const int delta : {1, -1})
          add(delta > 0 ? MutationOperator::threshold_up : MutationOperator::threshold_down,
              m.operand.location, who,
              text + m.text + " -> " + text + detail::wide_to_string(v + delta),
              [t, r, k, delta](CompiledRules& c) {
                c.tables[t].rules[r].when[k].operand.constant.i += delta;
              });
      }
      if (const std::optional<MatchOp> other = m.info->ordering_neighbour) {
        const language::MatcherInfo* info = &language::matcher(*other);
        add(MutationOperator::ordering, m.location, who,
            text + m.text + " -> " + m.fact + " " + info->name + " " + m.text,
            [t, r, k, other, info](CompiledRules& c) {
              auto& matcher = c.tables[t].rules[r].when[k];
              matcher.op = *other;
              matcher.info = info;
            });
      }
      if (m.operand.kind == ExprKind::literal && m.operand.constant.kind == RValue::Kind::boolean)
        add(MutationOperator::flip_boolean, m.operand.location, who,
            text + m.text + " -> " + text + (m.operand.constant.b ? "false" : "true"),
            [t, r, k](CompiledRules& c) {
              auto& b = c.tables[t].rules[r].when[k].operand.constant.b;
              b = !b;
            });
      add(MutationOperator::drop_matcher, m.location, who, text + m.text + " left out",
          [t, r, k](CompiledRules& c) {
            auto& when = c.tables[t].rules[r].when;
            when.erase(when.begin() + static_cast<std::ptrdiff_t>(k));
          });
    }
    for (std::size_t k = 0; k < rule.set.size(); ++k) {
      const auto& value = rule.set[k].value;
      if (value.kind != ExprKind::literal) continue;
      const std::string field = rules_.fields[static_cast<std::size_t>(rule.set[k].target)].name;
      const RValue& v = value.constant;
      auto changed = [&](RValue to, std::string to_text, MutationOperator op) {
        add(op, value.location, who, "set " + field + ": " + shown(v) + " -> " + std::move(to_text),
            [t, r, k, to](CompiledRules& c) { c.tables[t].rules[r].set[k].value.constant = to; });
      };
      if (v.kind == RValue::Kind::boolean)
        changed(RValue::of_bool(!v.b), v.b ? "false" : "true", MutationOperator::flip_boolean);
      if (v.kind == RValue::Kind::integer)
        changed(RValue::of_int(v.i + 1), detail::wide_to_string(v.i + 1),
                MutationOperator::change_set_literal);
      if (v.kind == RValue::Kind::floating)
        changed(RValue::of_float(v.f + 1), shown(RValue::of_float(v.f + 1)),
                MutationOperator::change_set_literal);
      if (v.kind == RValue::Kind::string) {
        // The new text lives in the mutant's own constants, made when it is applied.
        const std::string text = std::string(v.s()) + "_mutant";
        add(MutationOperator::change_set_literal, value.location, who,
            "set " + field + ": " + shown(v) + " -> '" + text + "'",
            [t, r, k, text](CompiledRules& c) {
              c.tables[t].rules[r].set[k].value.constant = c.constants.string(text);
            });
      }
    }
    for (std::size_t k = 0; k < rule.because.size(); ++k)
      add(MutationOperator::drop_rationale_line, rule.location, who,
          "rationale line " + std::to_string(k + 1) + " left out", [t, r, k](CompiledRules& c) {
            auto& because = c.tables[t].rules[r].because;
            because.erase(because.begin() + static_cast<std::ptrdiff_t>(k));
          });
    if (rule.fallback) {
      for (std::size_t k = 0; k < rule.fallback->with.size(); ++k) {
        const auto& w = rule.fallback->with[k];
        const std::string input = rules_.inputs[static_cast<std::size_t>(w.target)].name;
        add(MutationOperator::drop_fallback_override, w.value.location, who,
            "fallback with " + input + " left out", [t, r, k](CompiledRules& c) {
              auto& with = c.tables[t].rules[r].fallback->with;
              with.erase(with.begin() + static_cast<std::ptrdiff_t>(k));
            });
        if (w.value.kind == ExprKind::literal && w.value.constant.kind == RValue::Kind::boolean)
          add(MutationOperator::flip_boolean, w.value.location, who,
              "fallback with " + input + ": " +
                  (w.value.constant.b ? "true -> false" : "false -> true"),
              [t, r, k](CompiledRules& c) {
                auto& b = c.tables[t].rules[r].fallback->with[k].value.constant.b;
                b = !b;
              });
      }
    }
  }

  void let_node(std::size_t let, const Node& n, std::vector<std::size_t> path) {
    const std::string who = "let " + rules_.let_names[let];
    if (n.kind == ExprKind::binary && syntax::is_comparison(n.op)) {
      if (const auto other = ordering_neighbour(n.op))
        add(MutationOperator::ordering, n.location, who,
            std::string(syntax::spelling(n.op)) + " -> " + syntax::spelling(*other),
            [let, path, other](CompiledRules& c) { node_at(c, let, path).op = *other; });
      for (std::size_t side = 0; side < 2; ++side) {
        if (!integer_literal(n.children[side])) continue;
        std::vector<std::size_t> at = path;
        at.push_back(side);
        const detail::Wide v = n.children[side].constant.i;
        for (const int delta : {1, -1})
          add(delta > 0 ? MutationOperator::threshold_up : MutationOperator::threshold_down,
              n.children[side].location, who,
              std::string(syntax::spelling(n.op)) + " " + detail::wide_to_string(v) + " -> " +
                  detail::wide_to_string(v + delta),
              [let, at, delta](CompiledRules& c) { node_at(c, let, at).constant.i += delta; });
      }
    }
    for (std::size_t k = 0; k < n.children.size(); ++k) {
      std::vector<std::size_t> child = path;
      child.push_back(k);
      let_node(let, n.children[k], std::move(child));
    }
  }

  const CompiledRules& rules_;
  std::vector<Mutant>& out_;
};

bool same_answer(const EvaluationResult& a, const EvaluationResult& b) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return a.error().message == b.error().message;
  return a.record().names() == b.record().names() && a.record().values() == b.record().values();
}

}  // namespace

std::span<const MutationOperatorRow> mutation_operators() {
  return kOperators;
}

const MutationOperatorRow& mutation_operator(MutationOperator op) {
  return kOperators[static_cast<std::size_t>(op)];
}

struct MutantFactory::State {
  explicit State(const CompiledRules& rules)
      : original(rules), loaded(load::load_rule_file(rules.source_text, rules.file_name)) {
    for (std::size_t k = 0; k < rules.used.size() && k < rules.used_names.size(); ++k)
      used[rules.used_names[k]] = rules.used[k];
    std::vector<Mutant> found;
    Finder(rules, found).run();
    // Grouped by operator, in file order within each.
    for (const MutationOperatorRow& row : kOperators)
      for (Mutant& m : found)
        if (m.op == row.op) mutants.push_back(std::move(m));
  }
  const CompiledRules& original;
  load::LoadedFile loaded;
  std::map<std::string, std::shared_ptr<const CompiledRules>> used;
  std::vector<Mutant> mutants;
};

MutantFactory::MutantFactory(const CompiledRules& original)
    : state_(std::make_unique<State>(original)) {}

MutantFactory::~MutantFactory() = default;

const std::vector<Mutant>& MutantFactory::mutants() const {
  return state_->mutants;
}

std::shared_ptr<const CompiledRules> MutantFactory::build(const Mutant& mutant) const {
  std::shared_ptr<CompiledRules> compiled =
      compile::compile_rules(state_->loaded.file, state_->original.source_text, state_->used);
  mutant.apply(*compiled);
  // The rule indexes hold copies of rule positions and constants: rebuilt from the change.
  for (auto& table : compiled->tables)
    if (table.index) table.index = compile::build_rule_index(table);
  return compiled;
}

std::optional<Inputs> distinguishing_input(const CompiledRules& a, const CompiledRules& b,
                                           bool& complete) {
  complete = true;
  std::optional<Inputs> found;
  double best = 0;
  const auto visit = [&](const Inputs& inputs) {
    if (same_answer(evaluate::evaluate(a, inputs), evaluate::evaluate(b, inputs))) return true;
    const Inputs shown = without_defaults(a, inputs);
    const double score = plainness(shown);
    if (!found || score < best) {
      found = shown;
      best = score;
    }
    return true;
  };
  std::string why;
  // Agreement proves nothing where the representatives are not exact (a call of another rule
  // set, an opaque builtin in a condition): then the mutant is not called equivalent.
  for (const CompiledRules* rules : {&a, &b}) {
    bool exact = false;
    if (!for_each_representative(*rules, visit, why, &exact) || !exact) complete = false;
  }
  return found;
}

}  // namespace snnplan::analyse
