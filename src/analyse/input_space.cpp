#include "analyse/input_space.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "analyse/domains.hpp"
#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

// A fixed input is an input with one allowed value: enumerated, never sampled. Its value is
// taken as the evaluator takes it (type checked, lowered), or refused.
void fix(Model& m, const std::vector<FixedInput>& fixed) {
  evaluate::Probe probe(m.rules);
  for (const FixedInput& held : fixed) {
    const auto slot = m.rules.input_slots.find(held.name);
    if (slot == m.rules.input_slots.end())
      throw std::invalid_argument(messages::diff_unknown_input(held.name));
    InputDomain& in = m.inputs[static_cast<std::size_t>(slot->second)];
    detail::ValueStore scratch;
    const std::optional<RValue> value =
        probe.normalised(slot->second, detail::from_public(held.value, scratch));
    if (!value)
      throw std::invalid_argument(
          messages::diff_input_refused(held.name, messages::diff_wrong_kind()));
    if (in.has_one_of && std::none_of(in.options.begin(), in.options.end(),
                                      [&](const RValue& o) { return values_equal(o, *value); }))
      throw std::invalid_argument(
          messages::diff_input_refused(held.name, messages::diff_not_allowed()));
    in.has_one_of = true;
    in.sampled = false;
    in.issue.reset();
    in.options = {m.strings.copy(*value)};
  }
}

TermP remap(const TermP& t, const std::vector<int>& slot) {
  if (!t) return t;
  auto copy = std::make_shared<Term>(*t);
  if (copy->kind == Term::Kind::var) copy->var = slot[static_cast<std::size_t>(copy->var)];
  copy->a = remap(t->a, slot);
  copy->b = remap(t->b, slot);
  return copy;
}

// Facts of another file, its input slots renamed to the first file's.
Facts remapped(const Facts& facts, const std::vector<int>& slot) {
  Facts out;
  for (int v : facts.deps) out.deps.insert(slot[static_cast<std::size_t>(v)]);
  for (const auto& [key, atom] : facts.atoms) {
    Atom a = atom;
    a.term = remap(atom.term, slot);
    for (int& v : a.sampled) v = slot[static_cast<std::size_t>(v)];
    for (int& v : a.params) v = slot[static_cast<std::size_t>(v)];
    out.atoms.emplace(term_key(*a.term), std::move(a));
  }
  out.issues = facts.issues;
  return out;
}

// What another file compares its inputs with splits the first file's domains too.
void merge_domain(InputDomain& to, const InputDomain& from, Model& first) {
  for (const std::string& c : from.constants) to.constants.insert(c);
  for (const std::string& p : from.prefixes) to.prefixes.insert(p);
  to.item_ints.insert(from.item_ints.begin(), from.item_ints.end());
  to.counts.insert(from.counts.begin(), from.counts.end());
  to.list_tested = to.list_tested || from.list_tested;
  to.null_possible = to.null_possible || from.null_possible;
  if (to.has_one_of && from.has_one_of)
    for (const RValue& option : from.options)
      if (std::none_of(to.options.begin(), to.options.end(),
                       [&](const RValue& o) { return values_equal(o, option); }))
        to.options.push_back(first.strings.copy(option));
  if (to.has_one_of != from.has_one_of)
    for (const RValue& option : (to.has_one_of ? to.options : from.options))
      if (option.kind == RValue::Kind::string) to.constants.insert(std::string(option.s()));
}

// A fallback's `with` value computed from the inputs: where it enters a table, the overridden
// input's representatives are not its classes there. Call after resolve_overrides.
void add_fallback_expressions(const Model& m, std::vector<Issue>& out) {
  for (const TableModel& table : m.tables)
    for (const RuleModel& rule : table.rules)
      for (const Override& o : rule.with)
        if (!o.value && o.possible)
          out.push_back(Issue{rule.rule->location,
                              messages::analysis_fallback_expression(
                                  rule.rule->name, m.inputs[static_cast<std::size_t>(o.input)].name)});
}

}  // namespace

Region region_of(const EvaluationResult& result, const std::vector<TraceStep>& steps) {
  return Region{fired_rule_path(steps), !result.ok()};
}

InputSpace::InputSpace(const detail::CompiledRules& rules, const SpaceRequest& request)
    : InputSpace(std::span<const detail::CompiledRules* const>(
                     std::array<const detail::CompiledRules*, 1>{&rules}),
                 request) {}

InputSpace::InputSpace(std::span<const detail::CompiledRules* const> files,
                       const SpaceRequest& request) {
  model_ = std::make_unique<Model>(*files[0]);
  for (std::size_t f = 1; f < files.size(); ++f)
    others_.push_back(std::make_unique<Model>(*files[f]));
  fix(*model_, request.fixed);
  for (auto& other : others_) fix(*other, request.fixed);

  {
    Shapes shapes(*model_);
    gather(*model_, shapes, facts_, undecided_values_, request.gather);
    if (request.also) request.also(*model_, shapes);
    evaluate::Probe probe(model_->rules);
    resolve_overrides(*model_, shapes, probe);
    add_fallback_expressions(*model_, fallback_issues_);
  }
  for (auto& other : others_) {
    std::vector<int> slot;
    for (const InputDomain& in : other->inputs) {
      const auto it = model_->rules.input_slots.find(in.name);
      slot.push_back(it == model_->rules.input_slots.end() ? -1 : it->second);
    }
    if (std::count(slot.begin(), slot.end(), -1)) continue;  // the caller compares input names
    Shapes shapes(*other);
    Facts facts;
    std::vector<UndecidedValue> values;
    gather(*other, shapes, facts, values, request.gather);
    evaluate::Probe probe(other->rules);
    resolve_overrides(*other, shapes, probe);
    add_fallback_expressions(*other, fallback_issues_);
    facts_.merge(remapped(facts, slot));
    for (UndecidedValue& v : values) {
      for (int& input : v.inputs) input = slot[static_cast<std::size_t>(input)];
      undecided_values_.push_back(std::move(v));
    }
    for (std::size_t k = 0; k < slot.size(); ++k)
      merge_domain(model_->inputs[static_cast<std::size_t>(slot[k])], other->inputs[k], *model_);
  }
  finish_inputs(*model_);
}

InputSpace::~InputSpace() = default;

void InputSpace::gather(Model& m, Shapes& shapes, Facts& facts,
                        std::vector<UndecidedValue>& values, Gather what) {
  for (TableModel& table : m.tables) {
    // Rules after a table's first catch-all are never tried: their conditions split nothing
    // of the decision (the table analysis still wants them, to call them shadowed).
    const std::size_t rules =
        what == Gather::decision_conditions ? table.active : table.rules.size();
    for (std::size_t k = 0; k < rules; ++k) {
      RuleModel& rule = table.rules[k];
      for (const detail::CompiledMatcher& matcher : rule.rule->when)
        rule.facts.merge(shapes.matcher(matcher));
      facts.merge(rule.facts);
      for (const detail::CompiledAssignment& assignment : rule.rule->set) {
        if (what == Gather::rule_conditions) continue;
        const Facts value = shapes.expression(assignment.value);
        if (what == Gather::conditions_and_values) {
          facts.merge(value, false);
        } else if (!value.issues.empty()) {
          values.push_back(UndecidedValue{table.table->name + "/" + rule.rule->name,
                                          {value.deps.begin(), value.deps.end()},
                                          value.issues.front()});
        }
      }
    }
  }
  if (what != Gather::conditions_and_values) return;
  const detail::CompiledRules& rules = m.rules;
  for (std::size_t k = 0; k < rules.lets.size(); ++k)
    if (!rules.computed_elsewhere(k))
      facts.merge(shapes.expression(rules.lets[k]), false);
}

const Space& InputSpace::space() const {
  if (!space_) space_ = make_space(*model_, facts_, SourceLocation{model_->rules.file_name, 0, 0});
  return *space_;
}

bool InputSpace::exact() const {
  return facts_.issues.empty() && space().issues.empty();
}

const std::vector<Issue>& InputSpace::undecided() const {
  if (undecided_) return *undecided_;
  std::vector<Issue> all = fallback_issues_;
  all.insert(all.end(), facts_.issues.begin(), facts_.issues.end());
  all.insert(all.end(), space().issues.begin(), space().issues.end());
  undecided_.emplace();
  for (const Issue& issue : all)
    if (std::none_of(undecided_->begin(), undecided_->end(), [&](const Issue& u) {
          return u.what == issue.what && u.location.line == issue.location.line &&
                 u.location.column == issue.location.column &&
                 u.location.file == issue.location.file;
        }))
      undecided_->push_back(issue);
  return *undecided_;
}

Walk InputSpace::enumerate(const std::function<bool(const std::vector<RValue>&)>& visit,
                           std::string& why) const {
  return analyse::enumerate(*model_, space(), visit, why);
}

}  // namespace snnplan::analyse
