#include "check/checker.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "check/declarations.hpp"
#include "check/dependency_graph.hpp"
#include "check/narrowing.hpp"
#include "check/overwritten_sets.hpp"
#include "check/messages.hpp"
#include "language/builtins.hpp"
#include "language/operations.hpp"

namespace snnplan::check {
namespace {

using namespace syntax;

constexpr KindSet kNumeric = kInt | kFloat;

KindSet kind_of(const Value& v) {
  if (v.is_null()) return kNull;
  if (v.is_bool()) return kBool;
  if (v.is_int()) return kInt;
  if (v.is_float()) return kFloat;
  if (v.is_string()) return kString;
  return kList;
}

bool comparable_for_equality(KindSet a, KindSet b) {
  return (a & b) || ((a & kNumeric) && (b & kNumeric)) || (a & kNull) || (b & kNull);
}
bool orderable(KindSet a, KindSet b) {
  return ((a & kNumeric) && (b & kNumeric)) || ((a & kString) && (b & kString));
}

class Checker {
 public:
  Checker(const RuleFile& file, const std::map<std::string, UsedRules>& used) : file_(file), used_rules_(used) {}

  std::vector<Diagnostic> run() {
    declare_facts();
    check_lets();
    check_record();
    if (file_.rationale_header) check_template(*file_.rationale_header);
    check_tables();
    check_invariants();
    warn_unused();
    sort_by_position(out_);
    return std::move(out_);
  }

 private:
  void report(Severity severity, const SourceLocation& loc, const char* code, std::string message) {
    if (quiet_ > 0) return;
    out_.push_back(Diagnostic{severity, loc, code, std::move(message)});
  }
  void error(const SourceLocation& loc, const char* code, std::string message) {
    report(Severity::error, loc, code, std::move(message));
  }

  std::vector<std::string> fact_names() const {
    std::vector<std::string> names;
    for (const auto& [name, kinds] : facts_) names.push_back(name);
    return names;
  }
  std::vector<std::string> field_names() const {
    std::vector<std::string> names;
    for (const auto& f : file_.fields) names.push_back(f.name.value);
    return names;
  }

  void declare_facts() {
    const std::set<std::string> maybe_null = inputs_that_may_be_null(file_);
    for (const InputDecl& input : file_.inputs) {
      // A null input means "not given": the default applies, and an input without one is
      // missing. So a nullable input is null only where its default is, or where a fallback
      // may pass null on.
      facts_[input.name.value] = maybe_null.count(input.name.value)
                                     ? input.type.value.kinds
                                     : input.type.value.kinds & ~KindSet{kNull};
      declared_at_[input.name.value] = input.name.location;
      if (input.default_value &&
          check_value(*input.default_value, input.type.value,
                      fmt::format("the default of input '{}'", input.name.value)))
        check_allowed(*input.default_value, input.name.value, restriction_of(input), "the default");
      if (input.one_of) {
        for (const Value& option : input.one_of->value) {
          if (!(kind_of(option) & input.type.value.kinds)) {
            error(input.one_of->location, "type-mismatch",
                  messages::type_mismatch(fmt::format("one_of of input '{}'", input.name.value),
                                          describe(input.type.value.kinds), describe(kind_of(option))));
            break;
          }
        }
      }
      if (input.lower && !(input.type.value.kinds & kString)) {
        error(input.type.location, "type-mismatch",
              messages::type_mismatch(fmt::format("input '{}' with lower: true", input.name.value), "string",
                                      describe(input.type.value.kinds)));
      }
    }
    for (const LetDecl& let : file_.lets) {
      if (auto it = declared_at_.find(let.name.value); it != declared_at_.end()) {
        error(let.name.location, "duplicate-name",
              messages::duplicate_name("name", let.name.value, to_string(it->second)));
        continue;
      }
      facts_[let.name.value] = kAny;  // refined in dependency order by check_lets
      declared_at_[let.name.value] = let.name.location;
      if (let.call) {
        auto it = used_rules_.find(let.call->rules.value);
        if (it == used_rules_.end()) {
          std::vector<std::string> names;
          for (const auto& [name, rules] : used_rules_) names.push_back(name);
          error(let.call->rules.location, "unknown-name",
                messages::unknown_name("rule set (declare it under uses)", let.call->rules.value,
                                       messages::closest_match(let.call->rules.value, names)));
        } else {
          record_of_[let.name.value] = &it->second;
        }
      }
    }
    // Input error templates may use any fact.
    for (const InputDecl& input : file_.inputs)
      if (input.error) check_template(*input.error);
  }

  template <typename Body>
  auto narrowed(const std::set<std::string>& names, Body body) {
    return with_non_null(facts_, names, body);
  }

  void check_lets() {
    auto order = let_order(file_);
    if (!order) {
      DependencyGraph graph = let_graph(file_);
      std::vector<int> cycle = find_cycle(graph);
      std::string path;
      for (int v : cycle) path += (path.empty() ? "" : " -> ") + file_.lets[static_cast<std::size_t>(v)].name.value;
      const auto& first = file_.lets[static_cast<std::size_t>(cycle.empty() ? 0 : cycle.front())];
      error(first.name.location, "let-cycle", messages::let_cycle(path));
      for (const LetDecl& let : file_.lets)
        if (!let.call) infer(let.expr);
      return;
    }
    for (int k : *order) {
      const LetDecl& let = file_.lets[static_cast<std::size_t>(k)];
      facts_[let.name.value] = let.call ? check_call(let) : let.search ? check_search(let) : infer(let.expr);
    }
  }

  // ---- searches -------------------------------------------------------------------------------

  // A search's names are in scope inside it only: each is declared for its part, checked, and
  // the outer facts restored after. Its value is a record of the candidate's names.
  KindSet check_search(const LetDecl& let) {
    const Search& search = *let.search;
    const auto outer_facts = facts_;
    const auto outer_declared = declared_at_;
    UsedRules& record = search_records_[let.name.value];
    record = UsedRules{};
    auto declare = [&](const Located<std::string>& name, KindSet kinds) {
      if (auto it = declared_at_.find(name.value); it != declared_at_.end()) {
        error(name.location, "duplicate-name", messages::duplicate_name("name", name.value, to_string(it->second)));
        return;
      }
      declared_at_[name.value] = name.location;
      facts_[name.value] = kinds;
      record.fields.emplace_back(name.value, kinds);
    };
    auto condition = [&](const Constraint& c) {
      const KindSet k = infer(c.holds);
      if (!(k & kBool))
        error(c.holds.location, "type-mismatch",
              messages::type_mismatch(messages::search_constraint(c.name.value), "bool", describe(k)));
      else
        require(c.holds, k, kBool, messages::search_constraint(c.name.value));
      if (c.message) check_template(*c.message);
    };
    auto unique = [&](std::map<std::string, SourceLocation>& names, const Located<std::string>& name, const char* kind) {
      if (auto [it, fresh] = names.emplace(name.value, name.location); !fresh)
        error(name.location, "duplicate-name", messages::duplicate_name(kind, name.value, to_string(it->second)));
    };
    // The failure when every candidate breaks a constraint sees the facts only.
    if (search.none_valid) check_failure(*search.none_valid, nullptr);  // no candidate was tested: no aggregates
    // Tier values are computed from facts when the tier starts, before any enumeration.
    // Every tier gives the same names (a candidate's values may read them); their kinds join.
    std::map<std::string, KindSet> tier_kinds;
    std::map<std::string, SourceLocation> tier_names;
    for (const Tier& tier : search.tiers) {
      unique(tier_names, tier.name, "tier");
      for (const LetDecl& value : tier.lets) tier_kinds[value.name.value] |= infer(value.expr);
    }
    for (const Tier& tier : search.tiers) {
      for (const auto& entry : tier_kinds) {
        // Not a structured binding: clang before 16 cannot capture one in a lambda.
        const std::string& name = entry.first;
        const bool given = std::any_of(tier.lets.begin(), tier.lets.end(),
                                       [&](const LetDecl& l) { return l.name.value == name; });
        if (!given) error(tier.name.location, "missing-key", messages::tier_without_value(tier.name.value, name));
      }
    }
    for (const Enumeration& e : search.enumerations) {
      const KindSet k = infer(e.values);
      if (!(k & kList))
        error(e.values.location, "type-mismatch",
              messages::type_mismatch(messages::search_enumeration(e.name.value), "list", describe(k)));
      declare(e.name, enumerated_kinds(e.values));
    }
    if (!search.tiers.empty())
      for (const LetDecl& value : search.tiers.front().lets) declare(value.name, tier_kinds[value.name.value]);
    // A candidate's values may use each other in any order (each is computed on first use):
    // all are declared first, their kinds refined in a second pass.
    for (const LetDecl& value : search.lets) declare(value.name, kAny);
    for (int pass = 0; pass < 2; ++pass) {
      ++quiet_;
      for (const LetDecl& value : search.lets) facts_[value.name.value] = infer(value.expr);
      --quiet_;
    }
    for (const LetDecl& value : search.lets) {
      const KindSet k = infer(value.expr);
      facts_[value.name.value] = k;
      for (auto& field : record.fields)
        if (field.first == value.name.value) field.second = k;
    }
    std::map<std::string, SourceLocation> constraint_names;
    for (const Constraint& c : search.constraints) {
      unique(constraint_names, c.name, "constraint");
      condition(c);
    }
    for (const Tier& tier : search.tiers)
      for (const Constraint& c : tier.constraints) {
        unique(constraint_names, c.name, "constraint");
        condition(c);
      }
    if (search.fits) condition(*search.fits);
    check_key(search.minimize);
    record.fields.emplace_back(kTierField, kString);
    // The failure when nothing fits sees the facts and aggregates of the candidates' values.
    std::map<std::string, KindSet> candidate_values;
    for (const auto& [name, kinds] : record.fields) candidate_values[name] = kinds;
    facts_ = outer_facts;
    declared_at_ = outer_declared;
    if (search.none_fits) check_failure(*search.none_fits, &candidate_values);
    record_of_[let.name.value] = &record;
    return kRecord;
  }

  // The kinds of an enumeration's items: divisors() gives ints, a list literal its items'.
  KindSet enumerated_kinds(const Expr& values) {
    if (values.kind == ExprKind::call && values.name == "divisors") return kInt;
    if (values.kind == ExprKind::list) {
      KindSet items = 0;
      for (const Expr& item : values.children) items |= kinds_of(item);
      return items ? items : KindSet{kAny};
    }
    const KindSet items = declared_items(file_, values, record_of_);
    return items ? items : KindSet{kAny};
  }

  // A failure's own values (with aggregates over `candidate_values` when given: none_fits), then
  // its message.
  void check_failure(const SearchFailure& failure, const std::map<std::string, KindSet>* candidate_values) {
    const auto outer_facts = facts_;
    const auto outer_declared = declared_at_;
    aggregated_ = candidate_values;
    for (const LetDecl& value : failure.lets) {
      const KindSet k = infer(value.expr);
      if (auto it = declared_at_.find(value.name.value); it != declared_at_.end()) {
        error(value.name.location, "duplicate-name", messages::duplicate_name("name", value.name.value, to_string(it->second)));
        continue;
      }
      declared_at_[value.name.value] = value.name.location;
      facts_[value.name.value] = k;
    }
    aggregated_ = nullptr;
    check_template(failure.error);
    facts_ = outer_facts;
    declared_at_ = outer_declared;
  }

  // smallest(v), largest(v), count() in a failure's values: `v` a candidate's value.
  KindSet infer_aggregate(const Expr& e) {
    const bool counts = e.name == kCountAggregate;
    if (e.children.size() != (counts ? 0u : 1u)) {
      error(e.location, "wrong-arity", messages::wrong_arity(e.name, counts ? "0" : "1", e.children.size()));
      return kAny;
    }
    if (counts) return kInt;
    const Expr& value = e.children[0];
    if (value.kind != ExprKind::name || !aggregated_->count(value.name)) {
      std::vector<std::string> names;
      for (const auto& [name, kinds] : *aggregated_) names.push_back(name);
      error(value.location, "unknown-name",
            messages::unknown_name(messages::aggregated_value(e.name), value.kind == ExprKind::name ? value.name : "(an expression)",
                                   value.kind == ExprKind::name ? messages::closest_match(value.name, names) : ""));
      return kAny;
    }
    const KindSet k = aggregated_->at(value.name);
    if (k == kAny) return kAny;  // not known (reported already, if it is a mistake)
    if (!(k & (kNumeric | kString)))
      error(value.location, "type-mismatch",
            messages::type_mismatch(messages::builtin_argument(1, e.name), "int, float or string", describe(k)));
    // Not null: `none_fits` is raised only when some candidate was tested.
    return k & (kNumeric | kString);
  }

  // The key of a search's choice: a value or a list of values that order (numbers, strings);
  // a conditional's branches and a list literal's items are checked one by one.
  void check_key(const Expr& key) {
    const KindSet k = infer(key);
    const KindSet orderable_kinds = kNumeric | kString;
    if (key.kind == ExprKind::conditional) {
      ++quiet_;
      check_key(key.children[1]);
      check_key(key.children[2]);
      --quiet_;
      return;
    }
    if (key.kind == ExprKind::list) {
      for (const Expr& item : key.children) {
        const KindSet ik = kinds_of(item);
        if (ik != kAny && (ik & ~orderable_kinds))
          report(Severity::error, item.location, "type-mismatch",
                 messages::type_mismatch(messages::search_key_item(), "int, float or string", describe(ik)));
      }
      return;
    }
    if (k != kAny && (k & ~(orderable_kinds | kList)))
      report(Severity::error, key.location, "type-mismatch",
             messages::type_mismatch(messages::search_key(), "int, float, string or a list of them", describe(k)));
  }

  // A `let` that calls another rule set: its `with` must name that set's inputs with values
  // of the right kinds and give every input that has no default.
  KindSet check_call(const LetDecl& let) {
    auto it = record_of_.find(let.name.value);
    for (const Assignment& a : let.call->with) {
      if (it == record_of_.end()) {
        infer(a.value);
        continue;
      }
      const UsedRules& callee = *it->second;
      auto input = callee.inputs.find(a.target.value);
      if (input == callee.inputs.end()) {
        infer(a.value);
        std::vector<std::string> names;
        for (const auto& [name, kinds] : callee.inputs) names.push_back(name);
        error(a.target.location, "unknown-name",
              messages::unknown_name(fmt::format("input of '{}'", let.call->rules.value), a.target.value,
                                     messages::closest_match(a.target.value, names)));
        continue;
      }
      const auto restriction = callee.restrictions.find(a.target.value);
      check_input_value(a, TypeSpec{input->second, kAny, false},
                        restriction == callee.restrictions.end() ? UsedRules::Restriction{}
                                                                 : restriction->second);
    }
    if (it != record_of_.end()) {
      for (const std::string& required : it->second->required_inputs) {
        const bool given = std::any_of(let.call->with.begin(), let.call->with.end(),
                                       [&](const Assignment& a) { return a.target.value == required; });
        if (!given) {
          error(let.call->rules.location, "missing-input",
                messages::call_missing_input(let.call->rules.value, required));
        }
      }
    }
    return kRecord;
  }

  void check_record() {
    int rationale_fields = 0;
    for (const FieldDecl& field : file_.fields) {
      if (field.type.value.is_rationale && ++rationale_fields > 1) {
        error(field.type.location, "rationale-field", messages::one_rationale_field());
      }
      if (field.default_value)
        check_value(*field.default_value, field.type.value,
                    fmt::format("the default of record field '{}'", field.name.value));
      if (field.init)
        check_value(*field.init, field.type.value,
                    fmt::format("the init of record field '{}'", field.name.value));
      if (!field.type.value.is_rationale && !field.default_value && !field.init &&
          !(field.type.value.kinds & kNull)) {
        error(field.name.location, "missing-key",
              messages::missing_key("default", fmt::format("record field '{}' (or give it an init)", field.name.value)));
      }
    }
  }

  void check_template(const Template& t) {
    for (const auto& piece : t.pieces) {
      if (!piece.is_placeholder) continue;
      use(piece.text);
      const auto fact = facts_.find(piece.text);
      if (fact == facts_.end()) {
        error(piece.location, "unknown-name",
              messages::unknown_name("fact", piece.text, messages::closest_match(piece.text, fact_names())));
      } else if (fact->second == kRecord) {
        // A called rule set's whole record: a template writes one of its fields (a `let`).
        error(piece.location, "type-mismatch",
              messages::type_mismatch(messages::template_placeholder(piece.text),
                                      messages::template_value_kinds(), describe(kRecord)));
      }
    }
  }

  void check_tables() {
    std::vector<std::string> table_names;
    for (const Table& table : file_.tables) table_names.push_back(table.name.value);
    const std::map<std::string, int> table_index = index_tables(file_, out_);
    auto resolve_table = [&](const Located<std::string>& name) -> int {
      auto it = table_index.find(name.value);
      if (it != table_index.end()) return it->second;
      error(name.location, "unknown-name",
            messages::unknown_name("table", name.value, messages::closest_match(name.value, table_names)));
      return -1;
    };
    int start = -1;
    if (file_.start) start = resolve_table(*file_.start);

    DependencyGraph calls{static_cast<int>(file_.tables.size()), {}};
    // Where each call is written (the first `next` or `fallback` from one table to another).
    std::map<std::pair<int, int>, SourceLocation> call_at;
    auto add_call = [&](std::size_t from, const Located<std::string>& to_name) {
      if (const int to = resolve_table(to_name); to >= 0) {
        calls.edges.emplace_back(static_cast<int>(from), to);
        call_at.emplace(std::make_pair(static_cast<int>(from), to), to_name.location);
      }
    };
    std::map<std::string, SourceLocation> rule_names;
    for (std::size_t t = 0; t < file_.tables.size(); ++t) {
      const Table& table = file_.tables[t];
      const Rule* catch_all = nullptr;
      for (const Rule& rule : table.rules) {
        auto [it, inserted] = rule_names.emplace(rule.name.value, rule.name.location);
        if (!inserted) {
          error(rule.name.location, "duplicate-name",
                messages::duplicate_name("rule name", rule.name.value, to_string(it->second)));
        }
        if (catch_all) {
          report(Severity::warning, rule.name.location, "unreachable-rule",
                 messages::unreachable_rule(rule.name.value, table.name.value) +
                     fmt::format(" (rule '{}' above matches every input)", catch_all->name.value));
        } else if (rule.when.empty()) {
          catch_all = &rule;
        }
        check_rule(rule);
        if (rule.next) add_call(t, *rule.next);
        if (rule.fallback) add_call(t, rule.fallback->table);
      }
    }
    // The cycle is reported at the call that closes it, found from the start table first.
    if (std::vector<int> cycle = find_cycle(calls, std::max(start, 0)); !cycle.empty()) {
      std::string path;
      for (int v : cycle) path += (path.empty() ? "" : " -> ") + file_.tables[static_cast<std::size_t>(v)].name.value;
      const auto closing = call_at.find({cycle[cycle.size() - 2], cycle.back()});
      error(closing != call_at.end() ? closing->second
                                     : file_.tables[static_cast<std::size_t>(cycle.front())].name.location,
            "table-cycle", messages::table_cycle(path));
    }
    else {
      for (Diagnostic& d : overwritten_sets(file_, table_index)) report(d.severity, d.location, d.code.c_str(), std::move(d.message));
      if (start >= 0) {
        // Deeper nesting than the evaluator allows fails every evaluation that goes that way.
        if (const std::vector<int> path = longest_path_from(calls, start); path.size() > syntax::kMaxTableCallDepth + 1u) {
          std::string shown;
          for (int v : path) shown += (shown.empty() ? "" : " -> ") + file_.tables[static_cast<std::size_t>(v)].name.value;
          report(Severity::warning, file_.tables[static_cast<std::size_t>(start)].name.location, "table-calls-too-deep",
                 messages::table_calls_too_deep(path.size() - 1, syntax::kMaxTableCallDepth, shown));
        }
      }
    }
    if (start >= 0) {
      std::vector<bool> reached = reachable_from(calls, start);
      for (std::size_t t = 0; t < file_.tables.size(); ++t) {
        if (!reached[t]) {
          report(Severity::warning, file_.tables[t].name.location, "unreachable-table",
                 messages::unreachable_table(file_.tables[t].name.value, file_.start->value));
        }
      }
    }
  }

  // `ensure`: conditions and values over the facts and the record's fields (a field's name
  // means the field there, even where an input has the same name).
  void check_invariants() {
    if (file_.invariants.empty()) return;
    const std::map<std::string, KindSet> facts = facts_;
    for (const FieldDecl& field : file_.fields)
      if (!field.type.value.is_rationale) facts_[field.name.value] = field.type.value.kinds;
    std::map<std::string, SourceLocation> names;
    for (const Invariant& invariant : file_.invariants) {
      auto [it, inserted] = names.emplace(invariant.name.value, invariant.name.location);
      if (!inserted)
        error(invariant.name.location, "duplicate-name",
              messages::duplicate_name("invariant", invariant.name.value, to_string(it->second)));
      check_when(invariant.when);
      const KindSet k = narrowed(non_null_under(invariant.when), [&] { return infer(invariant.require); });
      if (!(k & kBool))
        error(invariant.require.location, "type-mismatch",
              messages::type_mismatch(
                  fmt::format("the require of invariant '{}'", invariant.name.value), "bool",
                  describe(k)));
      check_template(invariant.message);
    }
    facts_ = facts;
  }

  void check_rule(const Rule& rule) {
    check_when(rule.when);
    // The actions run only where `when` holds: typed under what it proves.
    narrowed(non_null_under(rule.when), [&] { check_actions(rule); });
  }

  void check_actions(const Rule& rule) {
    for (const Assignment& a : rule.set) check_field_assignment(a);
    for (const Template& t : rule.because) check_template(t);
    if (!rule.because.empty() && std::none_of(file_.fields.begin(), file_.fields.end(),
                                               [](const FieldDecl& f) { return f.type.value.is_rationale; })) {
      error(rule.because.front().location, "no-rationale-field",
            messages::because_needs_rationale_field());
    }
    if (rule.error) check_template(*rule.error);
    if (rule.fallback) {
      for (const Assignment& a : rule.fallback->with) {
        auto input = std::find_if(file_.inputs.begin(), file_.inputs.end(),
                                  [&](const InputDecl& i) { return i.name.value == a.target.value; });
        if (input == file_.inputs.end()) {
          infer(a.value);
          error(a.target.location, "unknown-name", messages::not_an_input(a.target.value));
        } else {
          check_input_value(a, input->type.value, restriction_of(*input));
        }
      }
      for (const auto& keep : rule.fallback->keep) {
        if (std::none_of(file_.fields.begin(), file_.fields.end(), [&](const FieldDecl& f) { return f.name.value == keep.value; })) {
          error(keep.location, "unknown-name",
                messages::unknown_name("record field", keep.value, messages::closest_match(keep.value, field_names())));
        }
      }
    }
  }

  void check_when(const std::vector<Matcher>& when) {
    for (const Matcher& m : when) {
      use(m.fact.value);
      auto it = facts_.find(m.fact.value);
      const KindSet operand = infer(m.operand);
      if (it == facts_.end()) {
        error(m.fact.location, "unknown-name",
              messages::unknown_name("fact", m.fact.value,
                                     messages::closest_match(m.fact.value, fact_names())));
        continue;
      }
      const KindSet fact = it->second;
      // Each item of a list operand, or the one operand, is compared with the fact by order
      // or by equality, as the matcher's row says.
      const language::MatcherInfo& info = language::matcher(m.op);
      auto comparable = [&](KindSet k) {
        return info.orders ? orderable(fact, k) : comparable_for_equality(fact, k);
      };
      if (info.operand == language::OperandShape::list) {
        for (const Expr& item : m.operand.children) {
          const KindSet k = infer(item);
          if (!comparable(k))
            error(item.location, "type-mismatch",
                  messages::incomparable(info.name, describe(fact), describe(k)));
        }
      } else if (!comparable(operand)) {
        error(m.operand.location, "type-mismatch",
              messages::incomparable(info.name, describe(fact), describe(operand)));
      } else if (info.orders) {
        warn_unless_surely(m.operand, info.name, fact, operand, false);
      }
    }
  }

  void check_field_assignment(const Assignment& a) {
    auto field = std::find_if(file_.fields.begin(), file_.fields.end(),
                              [&](const FieldDecl& f) { return f.name.value == a.target.value; });
    if (field == file_.fields.end()) {
      infer(a.value);
      error(a.target.location, "unknown-name",
            messages::unknown_name("record field", a.target.value, messages::closest_match(a.target.value, field_names())));
      return;
    }
    if (field->type.value.is_rationale) {
      infer(a.value);
      error(a.target.location, "rationale-field", messages::rationale_field_set(a.target.value));
      return;
    }
    const std::optional<std::string> meant = named_fact(a.value, field->type.value);
    if (check_value(a.value, field->type.value, fmt::format("record field '{}'", a.target.value),
                    meant ? messages::expression_meant(*meant) : std::string()) &&
        meant)
      warn_literal_name(a.value, *meant);
  }

  // ---- values and their places ----

  // The value `e` in a place that accepts `type` (`what` names the place). A mismatch of the
  // whole is reported at the value (with `hint`, if any); otherwise each part that is a value
  // of its own -- a branch of `?:`, an argument min(), max() or try() may return, an item of a
  // list literal for a typed list -- is checked at its own position. False when it reported.
  bool check_value(const Expr& e, const TypeSpec& type, const std::string& what,
                   const std::string& hint = {}) {
    const KindSet k = infer(e);
    if (!(k & type.kinds)) {
      const std::string message = messages::type_mismatch(what, describe(type.kinds), describe(k));
      error(e.location, "type-mismatch", hint.empty() ? message : messages::with_hint(message, hint));
      return false;
    }
    return check_parts(e, type, what);
  }

  // A part that has no parts of its own and only partly fits -- an input that may be null, a
  // builtin that may return null -- cannot be decided without inputs: a `type-unproven`
  // warning says so rather than passing it.
  bool check_parts(const Expr& e, const TypeSpec& type, const std::string& what,
                   const std::string& part_name = {}) {
    bool ok = true;
    auto part = [&](const Expr& p, const TypeSpec& expected, const std::string& place,
                    const std::string& name) {
      const KindSet k = kinds_of(p);
      if (!(k & expected.kinds)) {
        error(p.location, "type-mismatch",
              messages::part_type_mismatch(place, describe(expected.kinds), name, describe(k)));
        ok = false;
      } else if (!check_parts(p, expected, place, name)) {
        ok = false;
      }
    };
    if (e.kind == ExprKind::conditional) {
      const Expr& condition = e.children[0];
      narrowed(non_null_when(condition, true), [&] { part(e.children[1], type, what, messages::branch_after('?')); });
      narrowed(non_null_when(condition, false), [&] { part(e.children[2], type, what, messages::branch_after(':')); });
      return ok;
    }
    if (e.kind == ExprKind::call) {
      const language::BuiltinInfo* sig = language::find_builtin(e.name);
      if (sig && sig->result_from_arguments && e.children.size() >= sig->min_args &&
          e.children.size() <= sig->max_args) {
        for (std::size_t k = 0; k < e.children.size(); ++k)
          part(e.children[k], type, what,
               e.name == "try" ? messages::try_argument(k + 1) : messages::builtin_argument(k + 1, e.name));
        return ok;
      }
      // repeat(item, n) into a list[int]: the item is an int.
      if (const auto from = static_cast<std::size_t>(sig ? sig->items_from_argument : -1); from < e.children.size() && (type.kinds & kList) && type.element_kinds != kAny)
        return part(e.children[from], TypeSpec{type.element_kinds, kAny, false}, messages::items_of(what), messages::builtin_argument(from + 1, e.name)), ok;
    }
    if (e.kind == ExprKind::list && (type.kinds & kList)) {
      if (type.element_kinds != kAny) {
        const TypeSpec item{type.element_kinds, kAny, false};
        const std::string items = messages::items_of(what);
        for (std::size_t k = 0; k < e.children.size(); ++k)
          part(e.children[k], item, items, messages::list_item(k + 1));
      }
      return ok;
    }
    // A list's items are typed only where it is written: through `+`, and into a derived value.
    const bool typed_items = (type.kinds & kList) && type.element_kinds != kAny && (kinds_of(e) & kList);
    if (typed_items && e.kind == ExprKind::binary && e.op == Op::add) {
      part(e.children[0], type, what, messages::left_operand("+"));
      part(e.children[1], type, what, messages::right_operand("+"));
      return ok;
    }
    if (const LetDecl* let = e.kind == ExprKind::name ? derived_value(file_, e.name) : nullptr;
        let && !let->call && ((kinds_of(e) & ~type.kinds) || typed_items) && descending_.insert(e.name).second) {
      // Reported where the derived value is written: its `? 0 :` is the mistake, not the reader.
      part(let->expr, type, what, messages::derived_value_part(e.name));
      descending_.erase(e.name);
      return ok;
    }
    const KindSet k = kinds_of(e);
    const KindSet outside = k & ~type.kinds;
    const bool elements_unproven = (type.kinds & kList) && type.element_kinds != kAny &&
                                   (declared_items(file_, e, record_of_) & ~type.element_kinds);
    if ((outside && k != kAny) || elements_unproven) {
      const std::string expected = describe(type.kinds);
      const std::string got = outside ? describe(outside) : messages::list_holding(describe(declared_items(file_, e, record_of_)));
      report(Severity::warning, e.location, "type-unproven",
             part_name.empty() ? messages::type_unproven(what, expected, got)
                               : messages::part_type_unproven(what, expected, part_name, got));
    }
    return ok;
  }

  // `e`, of kinds `k` that meet `accepted`, as an operand that must be `accepted`: where some
  // of its kinds are not, its parts are checked (an error at a part that cannot fit, a warning
  // where the checker cannot tell).
  void require(const Expr& e, KindSet k, KindSet accepted, const std::string& what) {
    if (k != kAny && (k & accepted) && (k & ~accepted)) check_parts(e, TypeSpec{accepted, kAny, false}, what);
  }

  // Two operands an ordering (`<`, `ge`) or `+` takes whatever their values: both numbers, or
  // both strings (for `+`, also both lists). kAny: a problem reported already (unknown name).
  void warn_unless_surely(const Expr& at, const char* op, KindSet l, KindSet r, bool lists) {
    const auto within = [](KindSet k, KindSet of) { return k && !(k & ~of); };
    const bool sure = l == kAny || r == kAny || (within(l, kNumeric) && within(r, kNumeric)) || (within(l, kString) && within(r, kString)) ||
                      (lists && within(l, kList) && within(r, kList));
    if (!sure)
      report(Severity::warning, at.location, "type-unproven",
             messages::type_unproven(messages::operands_of(op), messages::operand_pairs(lists),
                                     messages::kinds_and(describe(l), describe(r))));
  }

  // The kinds of an expression whose problems are reported already.
  KindSet kinds_of(const Expr& e) {
    ++quiet_;
    const KindSet k = infer(e);
    --quiet_;
    return k;
  }

  // A fallback's or a call's `with` value for an input of `type` (and one_of).
  void check_input_value(const Assignment& a, const TypeSpec& type,
                         const UsedRules::Restriction& restriction) {
    const std::optional<std::string> meant = named_fact(a.value, type);
    if (!check_value(a.value, type, fmt::format("input '{}'", a.target.value),
                     meant ? messages::expression_meant(*meant) : std::string()))
      return;
    if (meant) warn_literal_name(a.value, *meant);
    check_allowed(a.value, a.target.value, restriction, "the value");
  }

  UsedRules::Restriction restriction_of(const InputDecl& input) {
    if (!input.one_of) return {};
    auto [it, inserted] = one_of_values_.try_emplace(input.name.value);
    if (inserted)
      for (const Value& option : input.one_of->value)
        it->second.push_back(detail::from_public(option, store_));
    return {&it->second, input.lower};
  }

  // Each literal `e` may be (itself, a branch of `?:`, ...) must be among the input's one_of,
  // lower-cased first where the input says so: no evaluation could accept any other.
  void check_allowed(const Expr& e, const std::string& input, const UsedRules::Restriction& restriction,
                     std::string_view what) {
    if (!restriction.one_of) return;
    if (e.kind == ExprKind::conditional) {
      check_allowed(e.children[1], input, restriction, what);
      check_allowed(e.children[2], input, restriction, what);
      return;
    }
    if (e.kind != ExprKind::literal || e.literal.is_null()) return;  // null: the default
    detail::RValue v = detail::from_public(e.literal, store_);
    if (restriction.lower && v.kind == detail::RValue::Kind::string) v = language::lowered(v, store_);
    std::string options;
    for (const detail::RValue& option : *restriction.one_of) {
      if (detail::values_equal(v, option)) return;
      options += (options.empty() ? "" : ", ") + detail::display(option);
    }
    error(e.location, "not-one-of",
          messages::not_one_of(what, detail::repr(detail::from_public(e.literal, store_)), input, options));
  }

  // A `set` or `with` value that is a text naming an input or derived value whose value the
  // place would accept, as written without the '=' that makes it an expression. (`mode: fast`
  // beside a bool input `fast` is the text: the input's value could not go there.)
  std::optional<std::string> named_fact(const Expr& e, const TypeSpec& type) const {
    if (e.kind != ExprKind::literal || !e.literal.is_string()) return std::nullopt;
    const std::string& text = e.literal.as_string();
    const auto fact = facts_.find(text);
    if (!declared_at_.count(text) || fact == facts_.end() || !(fact->second & type.kinds))
      return std::nullopt;
    return text;
  }

  void warn_literal_name(const Expr& e, const std::string& name) {
    const bool input = std::any_of(file_.inputs.begin(), file_.inputs.end(),
                                   [&](const InputDecl& i) { return i.name.value == name; });
    report(Severity::warning, e.location, "literal-names-value",
           messages::literal_names_value(name, input ? "input" : "derived value"));
  }

  void use(const std::string& name) { used_.insert(name); }

  void warn_unused() {
    for (const InputDecl& input : file_.inputs) {
      if (!used_.count(input.name.value))
        report(Severity::warning, input.name.location, "unused", messages::unused("input", input.name.value));
    }
    for (const LetDecl& let : file_.lets) {
      if (!used_.count(let.name.value))
        report(Severity::warning, let.name.location, "unused", messages::unused("derived value", let.name.value));
    }
  }

  // Infers the kinds an expression may evaluate to, reporting unknown names and type errors.
  KindSet infer(const Expr& e) {
    switch (e.kind) {
      case ExprKind::literal: return kind_of(e.literal);
      case ExprKind::list:
        for (const Expr& item : e.children) infer(item);
        return kList;
      case ExprKind::name: {
        use(e.name);
        auto it = facts_.find(e.name);
        if (it != facts_.end()) return it->second;
        error(e.location, "unknown-name", messages::unknown_name("fact", e.name, messages::closest_match(e.name, fact_names())));
        return kAny;
      }
      case ExprKind::unary: {
        const KindSet k = infer(e.children[0]);
        if (e.op == Op::negate) {
          if (!(k & kNumeric)) error(e.location, "type-mismatch", messages::type_mismatch("the operand of unary '-'", "int or float", describe(k)));
          else require(e.children[0], k, kNumeric, "the operand of unary '-'");
          return k & kNumeric ? (k & kNumeric) : kAny;
        }
        if (!(k & kBool)) error(e.location, "type-mismatch", messages::type_mismatch("the operand of '!'", "bool", describe(k)));
        else require(e.children[0], k, kBool, "the operand of '!'");
        return kBool;
      }
      case ExprKind::binary: return infer_binary(e);
      case ExprKind::conditional: {
        const KindSet c = infer(e.children[0]);
        if (!(c & kBool)) error(e.children[0].location, "type-mismatch", messages::type_mismatch("the condition of '?:'", "bool", describe(c)));
        else require(e.children[0], c, kBool, "the condition of '?:'");
        // Each branch is typed under what the condition proves where that branch is computed.
        const KindSet then = narrowed(non_null_when(e.children[0], true), [&] { return infer(e.children[1]); });
        const KindSet otherwise = narrowed(non_null_when(e.children[0], false), [&] { return infer(e.children[2]); });
        return then | otherwise;
      }
      case ExprKind::call: return infer_call(e);
      case ExprKind::member: return infer_member(e);
    }
    return kAny;
  }

  KindSet infer_member(const Expr& e) {
    const Expr& object = e.children[0];
    const KindSet k = infer(object);
    if (!(k & kRecord)) {
      error(e.location, "type-mismatch", messages::type_mismatch(fmt::format("the value before '.{}'", e.name), "a record", describe(k)));
      return kAny;
    }
    if (object.kind != ExprKind::name) return kAny;
    auto it = record_of_.find(object.name);
    if (it == record_of_.end()) return kAny;
    std::vector<std::string> names;
    for (const auto& [name, kinds] : it->second->fields) {
      if (name == e.name) return kinds;
      names.push_back(name);
    }
    error(e.location, "unknown-name", messages::unknown_name("record field", e.name, messages::closest_match(e.name, names)));
    return kAny;
  }

  KindSet infer_binary(const Expr& e) {
    const KindSet l = infer(e.children[0]);
    // `a && b` computes b only where a holds, `a || b` only where it fails.
    const KindSet r =
        e.op == Op::logical_and   ? narrowed(non_null_when(e.children[0], true), [&] { return infer(e.children[1]); })
        : e.op == Op::logical_or ? narrowed(non_null_when(e.children[0], false), [&] { return infer(e.children[1]); })
                                 : infer(e.children[1]);
    const char* op = spelling(e.op);
    if ((l == kAny || r == kAny) && !is_comparison(e.op) && e.op != Op::logical_and && e.op != Op::logical_or) return kAny;  // reported
    switch (e.op) {
      case Op::add: {
        KindSet result = (l & r) & (kString | kList);
        if ((l & kNumeric) && (r & kNumeric)) result |= (l | r) & kNumeric;
        if (!result) {
          error(e.location, "type-mismatch", messages::operand_kinds("+", describe(l), describe(r)));
          return kAny;
        }
        warn_unless_surely(e, "+", l, r, true);
        return result;
      }
      case Op::true_divide:
        if (!(l & kNumeric) || !(r & kNumeric)) {
          error(e.location, "type-mismatch", messages::operand_kinds(op, describe(l), describe(r)));
          return kAny;
        }
        require(e.children[0], l, kNumeric, messages::left_operand(op));
        require(e.children[1], r, kNumeric, messages::right_operand(op));
        return kFloat;
      case Op::subtract: case Op::multiply: case Op::divide: case Op::floor_divide: case Op::modulo:
        if (!(l & kNumeric) || !(r & kNumeric)) {
          error(e.location, "type-mismatch", messages::operand_kinds(op, describe(l), describe(r)));
          return kAny;
        }
        require(e.children[0], l, kNumeric, messages::left_operand(op));
        require(e.children[1], r, kNumeric, messages::right_operand(op));
        return (l | r) & kNumeric;
      case Op::equal: case Op::not_equal:
        if (!comparable_for_equality(l, r)) error(e.location, "type-mismatch", messages::incomparable(op, describe(l), describe(r)));
        return kBool;
      case Op::less: case Op::less_equal: case Op::greater: case Op::greater_equal:
        if (!orderable(l, r)) error(e.location, "type-mismatch", messages::incomparable(op, describe(l), describe(r)));
        else warn_unless_surely(e, op, l, r, false);
        return kBool;
      case Op::logical_and: case Op::logical_or:
        if (!(l & kBool)) error(e.children[0].location, "type-mismatch", messages::type_mismatch(messages::left_operand(op), "bool", describe(l)));
        else require(e.children[0], l, kBool, messages::left_operand(op));
        if (!(r & kBool)) error(e.children[1].location, "type-mismatch", messages::type_mismatch(messages::right_operand(op), "bool", describe(r)));
        else if (e.op == Op::logical_and) narrowed(non_null_when(e.children[0], true), [&] { require(e.children[1], r, kBool, messages::right_operand(op)); });
        else narrowed(non_null_when(e.children[0], false), [&] { require(e.children[1], r, kBool, messages::right_operand(op)); });
        return kBool;
      default: return kAny;
    }
  }

  KindSet infer_call(const Expr& e) {
    if (aggregated_ && is_aggregate(e.name))
      return infer_aggregate(e);
    std::vector<KindSet> args;
    for (const Expr& arg : e.children) args.push_back(infer(arg));
    const language::BuiltinInfo* sig = language::find_builtin(e.name);
    if (!sig) {
      std::vector<std::string> names;
      for (const auto& s : language::builtins()) names.push_back(s.name);
      error(e.location, "unknown-name", messages::unknown_name("builtin", e.name, messages::closest_match(e.name, names)));
      return kAny;
    }
    if (args.size() < sig->min_args || args.size() > sig->max_args) {
      const std::string expected = sig->min_args == sig->max_args ? std::to_string(sig->min_args)
                                   : sig->max_args == SIZE_MAX ? fmt::format("at least {}", sig->min_args)
                                   : fmt::format("{} to {}", sig->min_args, sig->max_args);
      error(e.location, "wrong-arity", messages::wrong_arity(sig->name, expected, args.size()));
      return sig->result;
    }
    KindSet all = 0;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const language::BuiltinParameter& parameter = sig->parameter(k);
      if (!(args[k] & parameter.kinds))
        error(e.children[k].location, "type-mismatch",
              messages::type_mismatch(messages::builtin_argument(k + 1, sig->name), parameter.expected, describe(args[k])));
      else if (parameter.kinds != kAny)
        check_parts(e.children[k], TypeSpec{parameter.kinds, kAny, false},
                    messages::builtin_argument(k + 1, sig->name));
      all |= args[k];
    }
    // contains(text, item) needs a string item when the text is a string (a list takes any).
    if (e.name == "contains" && args.size() == 2 && (args[0] & kString) && (args[1] & ~kString)) {
      const bool surely = args[0] == kString && !(args[1] & kString);
      report(surely ? Severity::error : Severity::warning, e.children[1].location, surely ? "type-mismatch" : "type-unproven",
             (surely ? messages::type_mismatch : messages::type_unproven)(messages::builtin_argument(2, e.name), "string", describe(args[1] & ~kString)));
    }
    if (sig->result_from_arguments && (all & sig->result)) return all & sig->result;
    return sig->result;
  }

  const RuleFile& file_;
  const std::map<std::string, UsedRules>& used_rules_;
  std::map<std::string, const UsedRules*> record_of_;  // call-let name -> the called rules
  std::map<std::string, UsedRules> search_records_;     // search-let name -> its record's fields
  // In a search failure's values: the candidates' values smallest() and largest() may read.
  const std::map<std::string, KindSet>* aggregated_ = nullptr;
  std::map<std::string, KindSet> facts_;
  std::map<std::string, SourceLocation> declared_at_;
  std::set<std::string> used_;
  std::vector<Diagnostic> out_;
  int quiet_ = 0;
  std::set<std::string> descending_;  // derived values whose parts check_parts is checking  // > 0: infer() is asked for kinds only, its problems are reported already
  detail::ValueStore store_;  // literals compared with one_of as the evaluator compares them
  std::map<std::string, std::vector<detail::RValue>> one_of_values_;

};

}  // namespace

std::optional<std::vector<int>> let_order(const RuleFile& file) {
  return dependencies_first(let_graph(file));
}

void sort_by_position(std::vector<Diagnostic>& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.location.line, a.location.column) < std::tie(b.location.line, b.location.column);
  });
}

void drop_repeats(std::vector<Diagnostic>& diagnostics) {
  std::set<std::tuple<std::string, std::uint32_t, std::uint32_t, std::string, std::string>> seen;
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    return !seen.emplace(d.location.file, d.location.line, d.location.column, d.code, d.message)
                .second;
  });
}

std::vector<Diagnostic> check_rule_file(const syntax::RuleFile& file, const std::map<std::string, UsedRules>& used) {
  return Checker(file, used).run();
}

}  // namespace snnplan::check
