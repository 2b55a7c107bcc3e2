#include "compile/compiler.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "check/checker.hpp"
#include "compile/rule_index.hpp"
#include "language/operations.hpp"

namespace snnplan::compile {
namespace {

using namespace syntax;
using detail::CompiledRules;
using detail::CompiledTemplate;
using detail::Node;
using detail::RValue;

class Compiler {
 public:
  Compiler(const RuleFile& file, CompiledRules& out,
           const std::map<std::string, std::shared_ptr<const CompiledRules>>& used)
      : file_(file), out_(out), used_(used) {}

  void run() {
    out_.file_name = file_.file_name;
    for (const Use& use : file_.uses) {
      used_index_[use.name.value] = static_cast<int>(out_.used.size());
      out_.used.push_back(used_.at(use.name.value));
      out_.used_names.push_back(use.name.value);
    }
    for (const InputDecl& input : file_.inputs) {
      out_.input_slots[input.name.value] = static_cast<int>(out_.inputs.size());
      slots_[input.name.value] = static_cast<int>(out_.inputs.size());
      out_.inputs.push_back({input.name.value, detail::NameKey::of(input.name.value), input.type.value, std::nullopt,
                             input.lower, {}, std::nullopt, input.name.location,
                             input.one_of ? input.one_of->location : SourceLocation{},
                             input.description ? input.description->value : std::string{}});
    }
    for (const LetDecl& let : file_.lets) {
      slots_[let.name.value] = static_cast<int>(out_.inputs.size() + out_.let_names.size());
      out_.let_names.push_back(let.name.value);
    }
    // Inputs' defaults, options and messages may refer to any fact, so resolve them now.
    for (std::size_t k = 0; k < file_.inputs.size(); ++k) {
      const InputDecl& input = file_.inputs[k];
      auto& compiled = out_.inputs[k];
      // A default is stored as binding makes a given value (the checker has checked its type):
      // lowered here once, so the evaluator takes it as it is.
      if (input.default_value) {
        compiled.default_value = expr(*input.default_value).constant;
        if (compiled.lower && compiled.default_value->kind == RValue::Kind::string)
          compiled.default_value = language::lowered(*compiled.default_value, out_.constants);
      }
      if (input.one_of)
        for (const Value& option : input.one_of->value) compiled.one_of.push_back(constant(option));
      if (input.error) compiled.error = text(*input.error);
      if (!compiled.one_of.empty()) out_.restricted_inputs.push_back(static_cast<int>(k));
      out_.input_info.push_back(detail::input_info(compiled));
    }
    // Known before any expression is compiled, so `rec.field` resolves wherever it appears.
    for (const LetDecl& let : file_.lets)
      if (let.call) call_lets_[let.name.value] = used_index_.at(let.call->rules.value);
    for (const LetDecl& let : file_.lets) {
      out_.searches.push_back(nullptr);
      if (let.call) {
        const int callee = used_index_.at(let.call->rules.value);
        detail::CompiledCall call{callee, {}};
        for (const Assignment& a : let.call->with)
          call.with.push_back({out_.used[static_cast<std::size_t>(callee)]->input_slots.at(a.target.value), expr(a.value)});
        out_.calls.push_back(std::move(call));
        out_.lets.push_back(Node{});
      } else if (let.search) {
        out_.calls.push_back(std::nullopt);
        out_.lets.push_back(Node{});
        pending_searches_.push_back(out_.searches.size() - 1);
      } else {
        out_.calls.push_back(std::nullopt);
        out_.lets.push_back(expr(let.expr));
      }
    }
    // A search's names take slots after every let's, so they are compiled once all lets are.
    for (std::size_t k : pending_searches_) out_.searches[k] = compile_search(file_.lets[k]);
    if (auto order = check::let_order(file_)) out_.let_order = *order;

    auto names = std::make_shared<std::vector<std::string>>();
    for (const FieldDecl& field : file_.fields) {
      detail::CompiledField compiled{field.name.value, field.type.value, RValue{}, std::nullopt};
      if (field.type.value.is_rationale) out_.rationale_field = static_cast<int>(out_.fields.size());
      if (field.default_value) compiled.default_value = expr(*field.default_value).constant;
      if (field.init) compiled.init = expr(*field.init);
      names->push_back(field.name.value);
      out_.add_field(std::move(compiled));
    }
    out_.field_names = names;
    if (file_.rationale_header) out_.header = text(*file_.rationale_header);

    for (const Table& table : file_.tables) tables_[table.name.value] = static_cast<int>(tables_.size());
    out_.start = file_.start ? tables_.at(file_.start->value) : 0;
    for (const Table& table : file_.tables) {
      detail::CompiledTable compiled{table.name.value, {}, std::nullopt, table.name.location};
      for (const Rule& rule : table.rules) compiled.rules.push_back(compile_rule(rule));
      compiled.index = build_rule_index(compiled);
      out_.tables.push_back(std::move(compiled));
    }
    compile_invariants();
  }

 private:
  // ---- searches -------------------------------------------------------------------------------

  // A new local slot for `name`, in scope from now on; `value` is computed on first use (an
  // empty node for the slots the search sets itself).
  int local(const std::string& name, Node value = Node{}) {
    const int slot = static_cast<int>(out_.inputs.size() + out_.lets.size() + out_.local_values.size());
    out_.local_names.push_back(name);
    out_.local_values.push_back(std::move(value));
    slots_[name] = slot;
    return slot;
  }
  Node& local_value(int slot) {
    return out_.local_values[static_cast<std::size_t>(slot) - out_.inputs.size() - out_.lets.size()];
  }

  // The deepest enumeration `e` depends on, through the candidate's values: its index, or -1
  // when it depends on none.
  int level_of(const Expr& e, const Search& search, std::map<std::string, int>& memo) {
    int level = -1;
    if (e.kind == ExprKind::name) {
      for (std::size_t k = 0; k < search.enumerations.size(); ++k)
        if (search.enumerations[k].name.value == e.name) level = static_cast<int>(k);
      for (const LetDecl& value : search.lets) {
        if (value.name.value != e.name) continue;
        auto [it, fresh] = memo.emplace(e.name, -1);  // -1 while computing: a cycle ends here
        if (fresh) it->second = level_of(value.expr, search, memo);
        level = std::max(level, it->second);
      }
    }
    for (const Expr& child : e.children) level = std::max(level, level_of(child, search, memo));
    return level;
  }

  detail::CompiledConstraint constraint(const Constraint& c, const Search& search, std::map<std::string, int>& memo) {
    // A constraint of no enumeration is checked with the outermost one.
    return {c.name.value, c.name.location, expr(c.holds), c.message ? std::optional(text(*c.message)) : std::nullopt,
            std::max(0, level_of(c.holds, search, memo))};
  }

  // A failure's values and message, in the scope of the facts (and aggregates, when given).
  detail::CompiledSearchFailure failure(const SearchFailure& f) {
    detail::CompiledSearchFailure out;
    for (const LetDecl& value : f.lets) out.value_slots.push_back(local(value.name.value));
    for (std::size_t k = 0; k < f.lets.size(); ++k) local_value(out.value_slots[k]) = expr(f.lets[k].expr);
    out.error = text(f.error);
    return out;
  }

  std::shared_ptr<const detail::CompiledSearch> compile_search(const LetDecl& let) {
    const Search& search = *let.search;
    auto out = std::make_shared<detail::CompiledSearch>();
    out->location = search.location;
    out->name = let.name.value;
    const std::map<std::string, int> facts = slots_;
    if (search.none_valid) out->none_valid = failure(*search.none_valid);
    slots_ = facts;
    // Tier values are computed from facts when their tier starts; every tier sets the slots
    // of the first tier's names (the checker makes them give the same names).
    std::map<std::string, int> tier_slots;
    if (!search.tiers.empty())
      for (const LetDecl& value : search.tiers.front().lets) tier_slots[value.name.value] = -1;
    auto names = std::make_shared<std::vector<std::string>>();
    std::vector<detail::CompiledTier> tiers;
    for (const Tier& tier : search.tiers) {
      detail::CompiledTier compiled{tier.name.value, {}, {}};
      for (const LetDecl& value : tier.lets) compiled.values.push_back({value.name.value, -1, expr(value.expr)});
      tiers.push_back(std::move(compiled));
    }
    if (tiers.empty()) tiers.push_back(detail::CompiledTier{"", {}, {}});
    for (const Enumeration& e : search.enumerations) {
      Node values = expr(e.values);
      const int slot = local(e.name.value);
      out->enumerations.push_back({e.name.value, slot, std::move(values)});
      names->push_back(e.name.value);
      out->field_slots.push_back(slot);
    }
    if (!search.tiers.empty()) {
      for (const LetDecl& value : search.tiers.front().lets) {
        tier_slots[value.name.value] = local(value.name.value);
        names->push_back(value.name.value);
        out->field_slots.push_back(tier_slots[value.name.value]);
      }
      for (detail::CompiledTier& tier : tiers)
        for (detail::CompiledSlotValue& value : tier.values) value.slot = tier_slots.at(value.name);
    }
    for (const LetDecl& value : search.lets) {
      out->candidate_slots.push_back(local(value.name.value));
      names->push_back(value.name.value);
      out->field_slots.push_back(out->candidate_slots.back());
    }
    for (std::size_t k = 0; k < search.lets.size(); ++k)
      local_value(out->candidate_slots[k]) = expr(search.lets[k].expr);
    std::map<std::string, int> memo;
    for (const LetDecl& value : search.lets)
      out->candidate_levels.push_back(level_of(value.expr, search, memo));
    for (const Constraint& c : search.constraints) out->constraints.push_back(constraint(c, search, memo));
    for (std::size_t t = 0; t < search.tiers.size(); ++t)
      for (const Constraint& c : search.tiers[t].constraints) tiers[t].constraints.push_back(constraint(c, search, memo));
    out->tiers = std::move(tiers);
    if (search.fits) out->fits = constraint(*search.fits, search, memo);
    out->minimize = expr(search.minimize);
    names->push_back(kTierField);
    out->field_names = names;
    // The failure when nothing fits reads facts and aggregates of the candidates' values.
    std::map<std::string, int> candidate_values;
    for (std::size_t k = 0; k + 1 < names->size(); ++k) candidate_values[(*names)[k]] = out->field_slots[k];
    slots_ = facts;
    if (search.none_fits) {
      aggregated_ = &candidate_values;
      aggregates_ = &out->aggregates;
      out->none_fits = failure(*search.none_fits);
      aggregated_ = nullptr;
      aggregates_ = nullptr;
    }
    slots_ = facts;
    detail::mark_candidate_levels(*out, out_.local_values, out_.inputs.size() + out_.lets.size());
    return out;
  }

  // smallest(v), largest(v), count() in a `none_fits` value: a read of the aggregate's slot
  // (one per distinct aggregate).
  Node aggregate(const Expr& e) {
    using Kind = detail::CompiledAggregate::Kind;
    const Kind kind = e.name == kSmallestAggregate ? Kind::smallest
                      : e.name == kLargestAggregate ? Kind::largest
                                                    : Kind::count;
    const int of = kind == Kind::count ? -1 : aggregated_->at(e.children[0].name);
    int slot = -1;
    for (const detail::CompiledAggregate& a : *aggregates_)
      if (a.kind == kind && a.of_slot == of) slot = a.slot;
    if (slot < 0) {
      slot = local(fmt::format("{}({})", e.name, of < 0 ? "" : e.children[0].name));
      aggregates_->push_back({kind, slot, of});
    }
    Node n;
    n.kind = ExprKind::name;
    n.slot = slot;
    n.location = e.location;
    n.name = e.name;
    return n;
  }

  int field_index(const std::string& name) const {
    for (std::size_t k = 0; k < file_.fields.size(); ++k)
      if (file_.fields[k].name.value == name) return static_cast<int>(k);
    throw std::logic_error("compile: unknown record field " + name);  // the checker rules this out
  }

  // In `ensure`, a record field's name means the field (checker.cpp says the same).
  void compile_invariants() {
    if (file_.invariants.empty()) return;
    const std::map<std::string, int> facts = slots_;
    for (std::size_t k = 0; k < file_.fields.size(); ++k)
      if (!file_.fields[k].type.value.is_rationale)
        slots_[file_.fields[k].name.value] = out_.field_slot(k);
    for (const Invariant& invariant : file_.invariants) {
      Rule condition;
      condition.name = invariant.name;
      condition.when = invariant.when;
      detail::CompiledInvariant compiled{invariant.name.value, invariant.name.location,
                                         compile_rule(condition), expr(invariant.require),
                                         text(invariant.message)};
      out_.invariants.push_back(std::move(compiled));
    }
    slots_ = facts;
  }

  detail::CompiledRule compile_rule(const Rule& rule) {
    detail::CompiledRule out;
    out.name = rule.name.value;
    out.location = rule.name.location;
    for (const Matcher& m : rule.when) {
      out.when.push_back({slots_.at(m.fact.value), m.op, &language::matcher(m.op), expr(m.operand), m.fact.value,
                          m.fact.location, m.text});
    }
    for (const Assignment& a : rule.set) out.set.push_back({field_index(a.target.value), expr(a.value)});
    for (const Template& t : rule.because) out.because.push_back(text(t));
    if (rule.error) out.error = text(*rule.error);
    if (rule.next) out.next = tables_.at(rule.next->value);
    if (rule.fallback) {
      detail::CompiledFallback fb;
      fb.table = tables_.at(rule.fallback->table.value);
      for (const Assignment& a : rule.fallback->with) fb.with.push_back({out_.input_slots.at(a.target.value), expr(a.value)});
      fb.keep.assign(file_.fields.size(), false);
      for (const auto& keep : rule.fallback->keep) fb.keep[static_cast<std::size_t>(field_index(keep.value))] = true;
      out.fallback = std::move(fb);
    }
    return out;
  }

  CompiledTemplate text(const Template& t) {
    CompiledTemplate out;
    out.reserve(t.pieces.size());
    out.source_text = t.text;
    std::string fixed;
    out.is_fixed = true;
    for (const auto& piece : t.pieces) {
      if (piece.is_placeholder) {
        out.add({"", slots_.at(piece.text), piece.python_repr});
        out.is_fixed = false;
      } else {
        out.add({out_.constants.keep(piece.text), -1, false});
        fixed += piece.text;
      }
    }
    if (out.is_fixed) out.fixed_text = out_.constants.keep(fixed);
    return out;
  }

  // A literal as a compiled constant: its text and items copied into the rule set's store.
  RValue constant(const Value& literal) {
    if (literal.is_string()) return out_.constants.string(literal.as_string());
    if (literal.is_list()) {
      std::vector<RValue> items;
      for (const Value& item : literal.as_list()) items.push_back(constant(item));
      return out_.constants.list(items);
    }
    detail::ValueStore unused;
    return detail::from_public(literal, unused);
  }

  Node expr(const Expr& e) {
    Node n;
    n.kind = e.kind;
    n.op = e.op;
    n.location = e.location;
    n.name = e.name;
    switch (e.kind) {
      case ExprKind::literal:
        n.constant = constant(e.literal);
        return n;
      case ExprKind::name:
        n.slot = slots_.at(e.name);
        return n;
      case ExprKind::call:
        if (aggregated_ && is_aggregate(e.name))
          return aggregate(e);
        n.builtin = language::find_builtin(e.name);
        // The checker refuses an unknown function; a call left without one would crash here.
        if (!n.builtin) throw std::logic_error("compile: a call of unknown function '" + e.name + "'");
        break;
      case ExprKind::member:
        // Resolve the field index now when the record comes from a known call.
        if (e.children[0].kind == ExprKind::name) {
          if (auto it = call_lets_.find(e.children[0].name); it != call_lets_.end()) {
            const auto& names = *out_.used[static_cast<std::size_t>(it->second)]->field_names;
            for (std::size_t k = 0; k < names.size(); ++k)
              if (names[k] == e.name) n.slot = static_cast<int>(k);
          }
          // A search compiled already (record fields and rules come after every search).
          for (const auto& search : out_.searches)
            if (search && search->name == e.children[0].name)
              for (std::size_t k = 0; k < search->field_names->size(); ++k)
                if ((*search->field_names)[k] == e.name) n.slot = static_cast<int>(k);
        }
        break;
      default:
        break;
    }
    for (const Expr& child : e.children) n.children.push_back(expr(child));
    // A list of constants is itself a constant: build it once here, not per evaluation.
    if (e.kind == ExprKind::list &&
        std::all_of(n.children.begin(), n.children.end(), [](const Node& c) { return c.kind == ExprKind::literal; })) {
      std::vector<RValue> items;
      for (const Node& c : n.children) items.push_back(c.constant);
      n.children.clear();
      n.kind = ExprKind::literal;
      n.constant = out_.constants.list(items);
    }
    return n;
  }

  const RuleFile& file_;
  CompiledRules& out_;
  const std::map<std::string, std::shared_ptr<const CompiledRules>>& used_;
  std::map<std::string, int> used_index_;
  std::map<std::string, int> call_lets_;  // let name -> index of the called rules
  std::map<std::string, int> slots_;
  std::map<std::string, int> tables_;
  std::vector<std::size_t> pending_searches_;  // lets with `search`, compiled after the others
  // While a `none_fits` failure is compiled: the candidate values its aggregates may follow,
  // and the search's aggregates.
  const std::map<std::string, int>* aggregated_ = nullptr;
  std::vector<detail::CompiledAggregate>* aggregates_ = nullptr;
};

}  // namespace

std::shared_ptr<detail::CompiledRules> compile_rules(
    const syntax::RuleFile& file, std::string source_text,
    const std::map<std::string, std::shared_ptr<const detail::CompiledRules>>& used) {
  auto out = std::make_shared<detail::CompiledRules>();
  out->source_text = std::move(source_text);
  Compiler(file, *out, used).run();
  return out;
}

}  // namespace snnplan::compile

namespace snnplan::detail {

InputInfo input_info(const CompiledInput& input) {
  using namespace syntax;
  const KindSet kinds = input.type.kinds;
  InputInfo info;
  info.name = input.name;
  info.type = kinds & kList     ? (input.type.element_kinds & kString ? "list[string]" : "list[int]")
              : kinds & kString ? "string"
              : kinds & kBool   ? "bool"
              : kinds & kFloat  ? "float"
                                : "int";
  info.required = !input.default_value;
  if (input.default_value) info.default_value = to_public(*input.default_value);
  for (const RValue& option : input.one_of) info.one_of.push_back(to_public(option));
  info.description = input.description;
  return info;
}

}  // namespace snnplan::detail
