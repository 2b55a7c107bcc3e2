#include "soundness/mutator.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "language/builtins.hpp"

namespace snnplan::soundness {
namespace {

using namespace syntax;

// Where an expression sits decides what it may be replaced by: a default must stay a
// literal (the loader reads only literals there), a one_of operand must stay a list.
struct ExprSite {
  Expr* expr = nullptr;
  bool literal_only = false;
  bool list_operand = false;
};

template <typename T>
struct Owned {
  std::vector<T>* owner = nullptr;
  std::size_t index = 0;
  T& get() const { return (*owner)[index]; }
  void erase() const { owner->erase(owner->begin() + static_cast<std::ptrdiff_t>(index)); }
};

// Every place of `file` a mutation can change, collected afresh after each mutation (a
// structural change moves what the pointers point at).
struct Sites {
  std::vector<ExprSite> exprs;
  std::vector<Owned<Matcher>> matchers;
  std::vector<Owned<Assignment>> sets, withs;
  std::vector<Owned<Rule>> rules;
  std::vector<Template::Piece*> placeholders;
  std::vector<Owned<Located<std::string>>> keeps;
  std::vector<Owned<InputDecl>> inputs;
  std::vector<Owned<FieldDecl>> fields;
  std::vector<Owned<LetDecl>> lets;
  std::vector<Owned<Table>> tables;
  // The names a misspelling may become instead (a real name of another thing is the slip a
  // checker is most likely to miss).
  std::vector<std::string> facts, field_names, table_names, strings;

  void expr(Expr& e, bool literal_only = false, bool list_operand = false) {
    exprs.push_back(ExprSite{&e, literal_only, list_operand});
    if (e.kind == ExprKind::literal && e.literal.is_string()) strings.push_back(e.literal.as_string());
    for (Expr& child : e.children) expr(child, literal_only && e.kind == ExprKind::list, false);
  }
  void templ(Template& t) {
    for (Template::Piece& p : t.pieces)
      if (p.is_placeholder) placeholders.push_back(&p);
  }
  void when(std::vector<Matcher>& matchers_of) {
    for (std::size_t k = 0; k < matchers_of.size(); ++k) {
      matchers.push_back({&matchers_of, k});
      const bool list = language::matcher(matchers_of[k].op).operand == language::OperandShape::list;
      expr(matchers_of[k].operand, false, list);
    }
  }
  void assignments(std::vector<Assignment>& of, std::vector<Owned<Assignment>>& into) {
    for (std::size_t k = 0; k < of.size(); ++k) {
      into.push_back({&of, k});
      expr(of[k].value);
    }
  }

  explicit Sites(RuleFile& file) {
    for (std::size_t k = 0; k < file.inputs.size(); ++k) {
      InputDecl& input = file.inputs[k];
      inputs.push_back({&file.inputs, k});
      facts.push_back(input.name.value);
      if (input.default_value) expr(*input.default_value, true);
      if (input.error) templ(*input.error);
    }
    for (std::size_t k = 0; k < file.lets.size(); ++k) {
      LetDecl& let = file.lets[k];
      lets.push_back({&file.lets, k});
      facts.push_back(let.name.value);
      if (let.call) assignments(let.call->with, withs);
      else expr(let.expr);
    }
    for (std::size_t k = 0; k < file.fields.size(); ++k) {
      FieldDecl& field = file.fields[k];
      fields.push_back({&file.fields, k});
      field_names.push_back(field.name.value);
      if (field.default_value) expr(*field.default_value, true);
      if (field.init) expr(*field.init);
    }
    if (file.rationale_header) templ(*file.rationale_header);
    for (std::size_t t = 0; t < file.tables.size(); ++t) {
      Table& table = file.tables[t];
      tables.push_back({&file.tables, t});
      table_names.push_back(table.name.value);
      for (std::size_t k = 0; k < table.rules.size(); ++k) {
        Rule& rule = table.rules[k];
        rules.push_back({&table.rules, k});
        when(rule.when);
        assignments(rule.set, sets);
        for (Template& b : rule.because) templ(b);
        if (rule.error) templ(*rule.error);
        if (rule.fallback) {
          assignments(rule.fallback->with, withs);
          for (std::size_t j = 0; j < rule.fallback->keep.size(); ++j)
            keeps.push_back({&rule.fallback->keep, j});
        }
      }
    }
    for (Invariant& invariant : file.invariants) {
      when(invariant.when);
      expr(invariant.require);
      templ(invariant.message);
    }
  }
};

class Mutator {
 public:
  Mutator(RuleFile& file, std::mt19937_64& random) : file_(file), random_(random), sites_(file) {}

  Mutation run() {
    // Each operator gets its turn in proportion to one: an operator with few sites (start,
    // keep) is tried as often as one with many (literals), and the rare slips stay in the mix.
    using Op = Mutation (Mutator::*)();
    static constexpr Op kOperators[] = {
        &Mutator::retype_literal, &Mutator::retype_literal, &Mutator::conditional_branch,
        &Mutator::misspell_name,  &Mutator::replace_expression, &Mutator::change_operator,
        &Mutator::change_builtin, &Mutator::change_matcher, &Mutator::change_assignment,
        &Mutator::change_rule,    &Mutator::retarget_call,  &Mutator::change_placeholder,
        &Mutator::change_keep,    &Mutator::change_input,   &Mutator::change_field,
        &Mutator::change_let,     &Mutator::change_table,   &Mutator::change_list,
        &Mutator::change_member,
    };
    for (int attempt = 0; attempt < 64; ++attempt) {
      Mutation m = (this->*kOperators[pick(std::size(kOperators))])();
      if (!m.op.empty()) return m;
    }
    return {};
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  template <typename T>
  T& any(std::vector<T>& v) { return v[pick(v.size())]; }
  bool coin() { return pick(2) == 0; }

  // A misspelling, or another real name of the same sort.
  std::string other_name(const std::string& name, const std::vector<std::string>& pool) {
    std::vector<std::string> others;
    for (const std::string& n : pool)
      if (n != name) others.push_back(n);
    if (others.empty() || pick(3) == 0) return name + (coin() ? "s" : "_");
    return any(others);
  }

  Expr literal_of_any_kind(const SourceLocation& at) {
    Expr e;
    e.location = at;
    switch (pick(12)) {
      case 0: e.literal = Value("x"); break;
      case 1: e.literal = sites_.strings.empty() ? Value("none") : Value(any(sites_.strings)); break;
      case 2: e.literal = Value(0); break;
      case 3: e.literal = Value(1); break;
      case 4: e.literal = Value(-1); break;
      case 5: e.literal = Value(true); break;
      case 6: e.literal = Value(false); break;
      case 7: e.literal = Value(nullptr); break;
      case 8: e.literal = Value(0.5); break;
      case 9: e.kind = ExprKind::list; break;
      case 10: e.kind = ExprKind::list; e.children.push_back(literal_item(at, Value(2))); break;
      default: e.kind = ExprKind::list; e.children.push_back(literal_item(at, Value("dp"))); break;
    }
    return e;
  }
  static Expr literal_item(const SourceLocation& at, Value v) {
    Expr e;
    e.location = at;
    e.literal = std::move(v);
    return e;
  }
  Expr name_expr(const SourceLocation& at, std::string name) {
    Expr e;
    e.kind = ExprKind::name;
    e.location = at;
    e.name = std::move(name);
    return e;
  }

  template <typename Keep>
  std::vector<ExprSite*> exprs_where(Keep keep) {
    std::vector<ExprSite*> out;
    for (ExprSite& s : sites_.exprs)
      if (keep(s)) out.push_back(&s);
    return out;
  }

  // A random expression of `kind`, or nullptr when the file has none.
  Expr* any_of_kind(ExprKind kind) {
    auto found = exprs_where([kind](const ExprSite& s) { return s.expr->kind == kind; });
    return found.empty() ? nullptr : any(found)->expr;
  }

  Mutation retype_literal() {
    Expr* site = any_of_kind(ExprKind::literal);
    if (!site) return {};
    Expr& e = *site;
    e = literal_of_any_kind(e.location);
    return {"retype-literal", fmt::format("literal at {}:{}", e.location.line, e.location.column)};
  }

  Mutation conditional_branch() {
    Expr* site = any_of_kind(ExprKind::conditional);
    if (!site) return {};
    Expr& e = *site;
    const std::string at = fmt::format("conditional at {}:{}", e.location.line, e.location.column);
    switch (pick(5)) {
      case 0: { Expr then = e.children[1]; e = std::move(then); return {"branch-then", at}; }
      case 1: { Expr other = e.children[2]; e = std::move(other); return {"branch-else", at}; }
      case 2: std::swap(e.children[1], e.children[2]); return {"branch-swap", at};
      default: {
        const bool value = coin();
        e.children[0] = literal_item(e.children[0].location, Value(value));
        return {value ? "condition-true" : "condition-false", at};
      }
    }
  }

  Mutation misspell_name() {
    Expr* site = any_of_kind(ExprKind::name);
    if (!site) return {};
    Expr& e = *site;
    e.name = other_name(e.name, sites_.facts);
    return {"rename-fact", e.name};
  }

  Mutation change_member() {
    Expr* site = any_of_kind(ExprKind::member);
    if (!site) return {};
    Expr& e = *site;
    e.name = other_name(e.name, sites_.field_names);
    return {"rename-member", e.name};
  }

  Mutation replace_expression() {
    auto found = exprs_where([](const ExprSite& s) { return !s.literal_only && !s.list_operand; });
    if (found.empty()) return {};
    Expr& e = *any(found)->expr;
    if (coin() && !sites_.facts.empty()) e = name_expr(e.location, any(sites_.facts));
    else e = literal_of_any_kind(e.location);
    return {"replace-expression", fmt::format("at {}:{}", e.location.line, e.location.column)};
  }

  Mutation change_operator() {
    auto found = exprs_where([](const ExprSite& s) {
      return s.expr->kind == ExprKind::binary || s.expr->kind == ExprKind::unary;
    });
    if (found.empty()) return {};
    Expr& e = *any(found)->expr;
    if (e.kind == ExprKind::unary) { Expr operand = e.children[0]; e = std::move(operand); return {"drop-unary", ""}; }
    switch (pick(4)) {
      case 0: std::swap(e.children[0], e.children[1]); return {"swap-operands", spelling(e.op)};
      case 1: { Expr left = e.children[0]; e = std::move(left); return {"keep-left-operand", ""}; }
      default:
        e.op = static_cast<Op>(pick(static_cast<std::size_t>(Op::logical_or) - static_cast<std::size_t>(Op::add) + 1) +
                               static_cast<std::size_t>(Op::add));
        return {"change-operator", spelling(e.op)};
    }
  }

  Mutation change_builtin() {
    Expr* site = any_of_kind(ExprKind::call);
    if (!site) return {};
    Expr& e = *site;
    switch (pick(3)) {
      case 0:
        if (e.children.size() < 2) return {};
        std::swap(e.children[0], e.children[1 + pick(e.children.size() - 1)]);
        return {"swap-arguments", e.name};
      case 1: {
        const auto& all = language::builtins();
        e.name = all[pick(all.size())].name;
        return {"change-builtin", e.name};
      }
      default:
        if (e.children.empty()) return {};
        e.children.erase(e.children.begin() + static_cast<std::ptrdiff_t>(pick(e.children.size())));
        return {"drop-argument", e.name};
    }
  }

  Mutation change_list() {
    Expr* site = any_of_kind(ExprKind::list);
    if (!site) return {};
    Expr& e = *site;
    if (!e.children.empty() && coin()) {
      e.children.erase(e.children.begin() + static_cast<std::ptrdiff_t>(pick(e.children.size())));
      return {"drop-list-item", ""};
    }
    Expr item = literal_of_any_kind(e.location);
    if (item.kind == ExprKind::list) item = literal_item(e.location, Value("tp"));
    e.children.push_back(std::move(item));
    return {"add-list-item", ""};
  }

  Mutation change_matcher() {
    if (sites_.matchers.empty()) return {};
    const Owned<Matcher> site = any(sites_.matchers);
    Matcher& m = site.get();
    switch (pick(4)) {
      case 0: site.erase(); return {"drop-matcher", ""};
      case 1: m.fact.value = other_name(m.fact.value, sites_.facts); return {"rename-matcher-fact", m.fact.value};
      default: {
        const auto& rows = language::matchers();
        const language::MatcherInfo& to = rows[pick(rows.size())];
        const bool was_list = language::matcher(m.op).operand == language::OperandShape::list;
        const bool is_list = to.operand == language::OperandShape::list;
        // The operand keeps a shape the loader would have given the new matcher.
        if (was_list && !is_list) {
          Expr first = m.operand.children.empty() ? literal_item(m.operand.location, Value(nullptr))
                                                  : m.operand.children.front();
          m.operand = std::move(first);
        } else if (!was_list && is_list) {
          Expr list;
          list.kind = ExprKind::list;
          list.location = m.operand.location;
          list.children.push_back(std::move(m.operand));
          m.operand = std::move(list);
        }
        m.op = to.op;
        return {"change-matcher", to.name};
      }
    }
  }

  Mutation change_assignment() {
    const bool set = coin();
    auto& pool = set ? sites_.sets : sites_.withs;
    if (pool.empty()) return {};
    const Owned<Assignment> site = any(pool);
    if (coin()) { site.erase(); return {set ? "drop-set" : "drop-with", ""}; }
    Assignment& a = site.get();
    a.target.value = other_name(a.target.value, set ? sites_.field_names : sites_.facts);
    return {set ? "retarget-set" : "retarget-with", a.target.value};
  }

  Mutation change_rule() {
    if (sites_.rules.empty()) return {};
    const Owned<Rule> site = any(sites_.rules);
    Rule& rule = site.get();
    switch (pick(6)) {
      case 0: site.erase(); return {"drop-rule", ""};
      case 1: rule.when.clear(); return {"catch-all", rule.name.value};
      case 2:
        if (site.index + 1 >= site.owner->size()) return {};
        std::swap(rule, (*site.owner)[site.index + 1]);
        return {"swap-rules", ""};
      case 3:
        if (!rule.next && !rule.fallback && !rule.error) return {};
        rule.next.reset();
        rule.fallback.reset();
        rule.error.reset();
        return {"drop-action", rule.name.value};
      case 4:
        rule.because.clear();
        return {"drop-because", rule.name.value};
      default:
        if (rule.next) {
          // `next` made a fallback without overrides, and the other way round.
          Fallback f;
          f.location = rule.next->location;
          f.table = *rule.next;
          rule.fallback = std::move(f);
          rule.next.reset();
          return {"next-to-fallback", rule.name.value};
        }
        if (rule.fallback) {
          rule.next = rule.fallback->table;
          rule.fallback.reset();
          return {"fallback-to-next", rule.name.value};
        }
        return {};
    }
  }

  Mutation retarget_call() {
    std::vector<Located<std::string>*> targets;
    for (Owned<Rule>& r : sites_.rules) {
      if (r.get().next) targets.push_back(&*r.get().next);
      if (r.get().fallback) targets.push_back(&r.get().fallback->table);
    }
    if (file_.start) targets.push_back(&*file_.start);
    for (Owned<LetDecl>& l : sites_.lets)
      if (l.get().call) targets.push_back(&l.get().call->rules);
    if (targets.empty()) return {};
    Located<std::string>& t = *any(targets);
    t.value = other_name(t.value, sites_.table_names);
    return {"retarget-table", t.value};
  }

  Mutation change_placeholder() {
    if (sites_.placeholders.empty()) return {};
    Template::Piece& p = *any(sites_.placeholders);
    if (coin()) {
      p.python_repr = !p.python_repr;
      return {"toggle-repr", p.text};
    }
    p.text = other_name(p.text, coin() ? sites_.facts : sites_.field_names);
    return {"rename-placeholder", p.text};
  }

  Mutation change_keep() {
    if (sites_.keeps.empty()) return {};
    const Owned<Located<std::string>> site = any(sites_.keeps);
    if (coin()) { site.erase(); return {"drop-keep", ""}; }
    site.get().value = other_name(site.get().value, sites_.field_names);
    return {"rename-keep", site.get().value};
  }

  TypeSpec other_type(bool rationale_allowed) {
    const std::vector<std::string> names = type_names(rationale_allowed);
    return *parse_type(names[pick(names.size())]);
  }

  Mutation change_input() {
    if (sites_.inputs.empty()) return {};
    InputDecl& input = any(sites_.inputs).get();
    switch (pick(6)) {
      case 0: input.type.value = other_type(false); return {"retype-input", input.name.value};
      case 1: input.type.value.kinds ^= kNull; return {"toggle-nullable-input", input.name.value};
      case 2: input.default_value.reset(); return {"drop-input-default", input.name.value};
      case 3: input.one_of.reset(); return {"drop-one-of", input.name.value};
      case 4:
        if (!input.default_value) {
          input.default_value = literal_of_any_kind(input.name.location);
          return {"add-input-default", input.name.value};
        }
        return {};
      default: input.lower = !input.lower; return {"toggle-lower", input.name.value};
    }
  }

  Mutation change_field() {
    if (sites_.fields.empty()) return {};
    const Owned<FieldDecl> site = any(sites_.fields);
    FieldDecl& field = site.get();
    switch (pick(5)) {
      case 0: field.type.value = other_type(true); return {"retype-field", field.name.value};
      case 1: field.type.value.kinds ^= kNull; return {"toggle-nullable-field", field.name.value};
      case 2: field.default_value.reset(); return {"drop-field-default", field.name.value};
      case 3: field.init.reset(); return {"drop-field-init", field.name.value};
      default: site.erase(); return {"drop-field", ""};
    }
  }

  Mutation change_let() {
    if (sites_.lets.empty()) return {};
    const Owned<LetDecl> site = any(sites_.lets);
    if (coin()) { site.erase(); return {"drop-let", ""}; }
    site.get().name.value = other_name(site.get().name.value, sites_.facts);
    return {"rename-let", site.get().name.value};
  }

  Mutation change_table() {
    if (sites_.tables.empty()) return {};
    const Owned<Table> site = any(sites_.tables);
    if (coin()) { site.erase(); return {"drop-table", ""}; }
    site.get().name.value = other_name(site.get().name.value, sites_.table_names);
    return {"rename-table", site.get().name.value};
  }

  RuleFile& file_;
  std::mt19937_64& random_;
  Sites sites_;
};

}  // namespace

Mutation mutate(RuleFile& file, std::mt19937_64& random) { return Mutator(file, random).run(); }

}  // namespace snnplan::soundness
