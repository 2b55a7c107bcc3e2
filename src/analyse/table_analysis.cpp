// Static analysis of each table's rules over the declared input domains: shadowed rules,
// gaps, and notes where the analysis cannot decide. This file is the driver; the pieces:
// input_space.cpp (the space, built as every driver builds it), model.hpp (what is analysed),
// shapes.cpp (what conditions depend on), domains.cpp (the values tried per input),
// search.cpp (sampling and enumeration), terms.cpp (integer terms).
//
// How it works
// ------------
// Every condition of a table is a function of the inputs (derived `let` values are computed
// from them). The analysis splits each input's domain into finitely many classes such that
// every condition it sees is constant on each combination of classes, takes one
// representative value per class, and evaluates the table at every combination of
// representatives with the evaluator itself (evaluate::Probe: the same conditions, operators,
// builtins and lazily computed lets that `recommend` runs, over the same compiled rules):
//
//   * bool inputs: false, true; inputs with one_of: their options; null where it can occur.
//   * string inputs without one_of: every constant the conditions compare them with (through
//     lets such as `starts_with(model, 'spikformer') ? 'spikformer' : model`), for every
//     prefix p they are tested with by starts_with one string that starts with p and with no
//     longer prefix, and one string that matches none of the above.
//   * list inputs read by index_of(list, c), contains(list, c) or len(list) with constants c:
//     every arrangement of distinct such c (each subset in each order), with runs of other
//     items before, between and after them long enough to reach past every constant a
//     position or the length is compared with (none when nothing is, but for one list of an
//     item outside the c). Exact for those results compared with null, with constants and
//     with each other's order; anything else about a list input (arithmetic on a position,
//     a comparison with an int input, the whole list) gets a note.
//   * int inputs without one_of: the integer conditions ("atoms") are comparisons of
//     expressions built from inputs, constants, + - unary-, * by a value that does not depend
//     on an integer input, and / % by constants. Such an expression is periodic-affine: with
//     P the product of its divisors, g(x + P) = g(x) + s on every residue class of x mod P,
//     so on a residue class each atom is a threshold in x. For one int input the analysis
//     takes, per residue class, the points next to each threshold and both ends of the int64
//     domain. For two int inputs related by atoms (batch_size >= world_size * 2) it sweeps:
//     for each value of the outer input the inner input's thresholds are computed exactly,
//     and the outer input is sampled next to every value where two inner thresholds (or a
//     threshold and a domain end) cross or come within 2 of each other, which is exactly
//     where the set of reachable inner cells changes.
//
// What it proves: when a table's conditions (and the lets they use) stay within that subset,
// the representatives cover every combination of condition outcomes that any int64/bool/
// string input can produce, so
//   * "shadowed-rule": the rule fires for no input at all. Either every input it matches is
//     matched by an earlier rule (the message names the earlier rules that fire first on
//     those inputs, so "by 'a' and 'c'" means neither alone covers it), or no input
//     satisfies its conditions. Decided over the whole declared domain of the inputs
//     (one_of, lower, null only where a default or a fallback gives it), independent of how
//     the table is entered, so it also holds for every way of entering it.
//   * "overlapping-rule" note (only when asked, `check --overlaps`): the rule fires for some
//     input and matches another input on which an earlier rule fires first; both inputs were
//     evaluated, so this holds whatever the subset. Catch-all rules overlap by design and are
//     not reported. (A rule that fires for no input is shadowed instead.)
//   * "table-gap" warning: the witness in the message is a concrete input, checked by
//     evaluation, for which the table is entered and no rule matches. A table is entered
//     by the start table with any valid input; through `next` where the calling rule fires
//     (its matchers hold, no earlier rule of its table matches, and its own table is
//     entered); through `fallback` with the `with` inputs fixed to their (normalised,
//     validated) values and the other inputs as the caller saw them; the caller's values of
//     the overridden inputs range over their representatives. Gaps are only looked for when
//     the table has no catch-all rule. With the subset respected, no gap is missed.
// What it does not prove:
//   * Anything outside the subset (builtins whose row says `opaque`, floats, relations among
//     three int inputs, * of two int inputs, division by an input, calls of other rule sets
//     and their record fields, ...): a note "analysis-incomplete" names the construct and no
//     shadowed-rule warning is given for the table. A gap found by evaluation is still
//     reported (its witness is concrete), but others may go unreported. So are tables whose
//     representatives exceed kMaxPoints combinations or kMaxPeriod residue classes.
//   * Entry conditions that cannot be represented exactly (a `with` value that is an
//     expression, or a fallback overriding an int input the caller's conditions depend on)
//     turn a gap into a note ("table-gap", severity note) saying the entry was not modelled.
//   * Errors raised while entering a table (a `set` value or template of the calling rule,
//     a record init) are not modelled: a gap witness may instead stop earlier with that
//     error. A condition that fails to evaluate (division by zero, null > 5) stops the
//     evaluation like the evaluator does, so no rule fires for that input; a rule that only
//     matches where an earlier condition fails gets a note instead of a warning.
//   * Integer overflow beyond 128 bits inside a condition, which the evaluator reports as an
//     error, is treated like any other failing condition when met at a representative, and
//     as a reason for a note when met while computing thresholds.

#include "analyse/table_analysis.hpp"
#include "analyse/search_constraints.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyse/boxes.hpp"
#include "analyse/input_space.hpp"
#include "analyse/invariants.hpp"
#include "analyse/model.hpp"
#include "analyse/search.hpp"
#include "analyse/messages.hpp"
#include "evaluate/evaluator.hpp"

namespace snnplan::analyse {
namespace {

using Outcome = evaluate::Probe::Outcome;

enum class Tri : std::uint8_t { no, yes, unknown };

class Analysis {
 public:
  Analysis(const detail::CompiledRules& rules, const AnalysisOptions& options)
      : options_(options),
        space_(rules, SpaceRequest{Gather::rule_conditions, {},
                                   // The invariants' facts split the inputs' classes too.
                                   [this](Model& model, Shapes& shapes) {
                                     invariants_.emplace(model);
                                     invariants_->gather(shapes);
                                   }}),
        m_(space_.model()),
        probe_(rules) {}

  TableFindings run() {
    for (std::size_t t = 0; t < m_.tables.size(); ++t) analyse(static_cast<int>(t));
    InvariantProof& invariants = *invariants_;
    std::vector<Diagnostic> proved = invariants.prove();
    out_.insert(out_.end(), proved.begin(), proved.end());
    for (const auto& [key, entry] : notes_) {
      const std::string subject =
          (entry.tables.size() == 1 ? "table " : "tables ") + quote_list(entry.tables);
      out_.push_back(Diagnostic{Severity::note, entry.location, "analysis-incomplete",
                                messages::analysis_incomplete(subject, entry.what)});
    }
    return TableFindings{std::move(out_), invariants.proved()};
  }

 private:
  // ---- entry conditions ----
  const Facts& entry_facts(int t) {
    if (auto it = entry_facts_.find(t); it != entry_facts_.end()) return it->second;
    Facts facts;
    for (Path& path : m_.callers[static_cast<std::size_t>(t)]) {
      const TableModel& caller = m_.tables[static_cast<std::size_t>(path.caller)];
      Facts reach;
      for (int k = 0; k <= path.rule; ++k)
        reach.merge(caller.rules[static_cast<std::size_t>(k)].facts, false);
      reach.merge(entry_facts(path.caller), false);
      if (path.fallback) prepare_fallback(path, reach);
      facts.merge(reach, false);
      if (path.fallback) {
        for (const Override& o : caller.rules[static_cast<std::size_t>(path.rule)].with) {
          facts.deps.insert(o.input);
          if (o.value && o.value->kind == RValue::Kind::integer &&
              m_.inputs[static_cast<std::size_t>(o.input)].sampled) {
            Atom a;
            a.term = std::make_shared<Term>(
                Term{Term::Kind::operation, syntax::Op::subtract, 0, -1, term_var(o.input), term_const(o.value->i)});
            a.sampled = {o.input};
            a.location = caller.rules[static_cast<std::size_t>(path.rule)].rule->location;
            facts.atoms.emplace(term_key(*a.term), std::move(a));
          }
        }
      }
    }
    return entry_facts_.emplace(t, std::move(facts)).first->second;
  }

  // The caller's values of the inputs a fallback overrides range over their representatives.
  // For an int input the caller's conditions depend on, the values next to the caller's own
  // thresholds on it are tried: one that enters the table proves the entry; none leaves it
  // unknown (the caller may relate it to other inputs).
  void prepare_fallback(Path& path, const Facts& reach) {
    const RuleModel& rule =
        m_.tables[static_cast<std::size_t>(path.caller)].rules[static_cast<std::size_t>(path.rule)];
    std::size_t product = 1;
    for (const Override& o : rule.with) {
      const InputDomain& in = m_.inputs[static_cast<std::size_t>(o.input)];
      if (!o.possible) path.impossible = true;
      if (!o.value && !path.expression) {
        path.expression = true;
        path.unmodelled = messages::analysis_fallback_expression(rule.rule->name, in.name);
      }
      path.quantified.push_back(o.input);
      std::vector<RValue> candidates = {in.placeholder};
      if (reach.deps.count(o.input) && !in.sampled && !in.reps.empty()) {
        candidates = in.reps;
      } else if (reach.deps.count(o.input)) {
        if (path.unmodelled.empty())
          path.unmodelled =
              messages::analysis_fallback_overrides_condition(rule.rule->name, in.name);
        if (in.sampled) candidates = guesses(o.input, reach);
      }
      product *= candidates.size();
      path.candidates.push_back(std::move(candidates));
    }
    if (product > kMaxExistential) {
      if (path.unmodelled.empty())
        path.unmodelled = messages::analysis_fallback_too_many(rule.rule->name);
      for (auto& candidates : path.candidates) candidates.resize(1);
    }
  }

  std::vector<RValue> guesses(int input, const Facts& reach) {
    std::vector<const Atom*> atoms;
    for (const auto& [key, atom] : reach.atoms)
      if (atom.sampled == std::vector<int>{input} && atom.params.empty()) atoms.push_back(&atom);
    const auto values = sample_one_input(m_, input, atoms);
    std::vector<RValue> out;
    if (values && values->size() <= 256)
      for (Wide v : *values) out.push_back(RValue::of_int(v));
    if (out.empty()) out.push_back(m_.inputs[static_cast<std::size_t>(input)].placeholder);
    if (m_.inputs[static_cast<std::size_t>(input)].null_possible) out.emplace_back();
    return out;
  }

  // Does rule `r` of table `t` fire at `pt`?
  Tri fires(int t, int r, const std::vector<RValue>& pt) {
    const TableModel& table = m_.tables[static_cast<std::size_t>(t)];
    probe_.at(pt);
    for (int k = 0; k < r; ++k)  // an earlier rule fires, or the evaluation fails
      if (probe_.matches(*table.rules[static_cast<std::size_t>(k)].rule) != Outcome::no)
        return Tri::no;
    return probe_.matches(*table.rules[static_cast<std::size_t>(r)].rule) == Outcome::yes ? Tri::yes
                                                                                          : Tri::no;
  }

  static Tri both(Tri a, Tri b) {
    if (a == Tri::no || b == Tri::no) return Tri::no;
    return a == Tri::yes && b == Tri::yes ? Tri::yes : Tri::unknown;
  }

  // Is table `t` entered with inputs `pt`? `why` collects why an answer is unknown.
  Tri entered(int t, const std::vector<RValue>& pt, std::string& why) {
    if (t == m_.rules.start && m_.valid_start(pt)) return Tri::yes;
    Tri result = Tri::no;
    for (const Path& path : m_.callers[static_cast<std::size_t>(t)]) {
      Tri r = Tri::no;
      if (!path.fallback) {
        r = fires(path.caller, path.rule, pt);
        if (r != Tri::no) r = both(r, entered(path.caller, pt, why));
      } else {
        r = through_fallback(path, pt, why);
      }
      if (r == Tri::yes) return r;
      if (r == Tri::unknown) result = r;
    }
    return result;
  }

  Tri through_fallback(const Path& path, const std::vector<RValue>& pt, std::string& why) {
    if (path.impossible) return Tri::no;
    const RuleModel& rule =
        m_.tables[static_cast<std::size_t>(path.caller)].rules[static_cast<std::size_t>(path.rule)];
    for (const Override& o : rule.with)
      if (o.value && !values_equal(pt[static_cast<std::size_t>(o.input)], *o.value)) return Tri::no;
    if (path.expression) {
      if (why.empty()) why = path.unmodelled;
      return Tri::unknown;
    }
    // The caller's values of the overridden inputs: try every candidate.
    std::vector<RValue> q = pt;
    Tri result = Tri::no;
    std::function<bool(std::size_t)> each = [&](std::size_t k) -> bool {
      if (k == path.quantified.size()) {
        Tri r = fires(path.caller, path.rule, q);
        if (r != Tri::no) r = both(r, entered(path.caller, q, why));
        if (r == Tri::unknown) result = r;
        if (r == Tri::yes) {
          result = r;
          return false;
        }
        return true;
      }
      for (const RValue& v : path.candidates[k]) {
        q[static_cast<std::size_t>(path.quantified[k])] = v;
        if (!each(k + 1)) return false;
      }
      return true;
    };
    each(0);
    if (result == Tri::yes || path.unmodelled.empty()) return result;
    if (why.empty()) why = path.unmodelled;
    return Tri::unknown;
  }

  // ---- one table ----
  void note(const Issue& issue, const std::string& table) {
    const std::string key = std::to_string(issue.location.line) + ":" +
                            std::to_string(issue.location.column) + ":" + issue.location.file +
                            "\x1f" + issue.what;
    auto& entry = notes_[key];
    entry.location = issue.location;
    entry.what = issue.what;
    if (std::find(entry.tables.begin(), entry.tables.end(), table) == entry.tables.end())
      entry.tables.push_back(table);
  }

  void analyse(int t) {
    const TableModel& table = m_.tables[static_cast<std::size_t>(t)];
    const std::string& name = table.table->name;
    const std::size_t n = table.active;
    Facts own;
    for (std::size_t k = 0; k < n; ++k) own.merge(table.rules[k].facts);
    if (options_.boxes == true && own.issues.empty())
      if (std::optional<TableScan> by_boxes = box_scan(m_, t, options_.overlaps)) {
        report(t, *by_boxes, true, own);
        return;
      }
    for (const Issue& issue : own.issues) note(issue, name);
    Space space = make_space(m_, own, table.table->location);
    for (const Issue& issue : space.issues) note(issue, name);
    const bool exact = own.issues.empty() && space.issues.empty();

    // Per rule: fires somewhere; matches (in isolation) somewhere; the rules that fire
    // first where it matches; matches somewhere an earlier condition fails to evaluate.
    TableScan scan(n);
    scan.vars = space.vars;
    std::vector<Outcome> outcome(n);
    std::vector<std::string> reason(n);
    std::vector<Wide> overlap_score(n, 0);
    std::string why;
    const Walk walk = enumerate(
        m_, space,
        [&](const std::vector<RValue>& pt) {
          probe_.at(pt);
          std::optional<std::size_t> first, failed;  // the first rule that fires; that fails
          for (std::size_t k = 0; k < n; ++k) {
            outcome[k] = probe_.matches(*table.rules[k].rule, &reason[k]);
            if (first || failed) continue;
            if (outcome[k] == Outcome::yes)
              first = k;
            else if (outcome[k] != Outcome::no)
              failed = k;
          }
          if (first) scan.fired[*first] = true;
          if (!first && !failed) scan.uncovered = true;
          for (std::size_t k = 0; k < n; ++k) {
            if (outcome[k] != Outcome::yes) continue;
            scan.matched[k] = true;
            if (first && *first < k) {
              scan.by[k].insert(*first);
              if (options_.overlaps) {
                for (std::size_t e = 0; e < k; ++e)
                  if (outcome[e] == Outcome::yes) scan.overlapped[k].insert(e);
                const Wide score = m_.niceness(space.vars, pt);
                if (!scan.overlap[k] || score < overlap_score[k]) {
                  scan.overlap[k] = pt;
                  overlap_score[k] = score;
                  scan.overlap_first[k] = *first;
                }
              }
            }
            if (failed && *failed < k && scan.blocked[k].empty())
              scan.blocked[k] = m_.describe_point(space.vars, pt) + ": " + reason[*failed];
          }
          return true;
        },
        why);
    if (walk == Walk::too_many) {
      // Beyond the grid, tables of boxes are split by the rules' own boxes (boxes.hpp): exact
      // at any size. (Within it the grid stays, so its witnesses are as they were.)
      if (options_.boxes != false && own.issues.empty())
        if (std::optional<TableScan> by_boxes = box_scan(m_, t, options_.overlaps)) {
          report(t, *by_boxes, true, own);
          return;
        }
      note(Issue{table.table->location, messages::analysis_too_many_points(kMaxPoints)}, name);
      return;
    }
    if (walk == Walk::failed) {
      note(Issue{table.table->location, why}, name);
      return;
    }
    report(t, scan, exact, own);
  }

  // The diagnostics of table `t` from what a scan of it found.
  void report(int t, const TableScan& scan, bool exact, const Facts& own) {
    const TableModel& table = m_.tables[static_cast<std::size_t>(t)];
    const std::size_t n = table.active;
    if (exact) {
      for (std::size_t k = 0; k < n; ++k) {
        if (scan.fired[k]) continue;
        const detail::CompiledRule& rule = *table.rules[k].rule;
        if (!scan.blocked[k].empty()) {
          // It never fires, but partly because evaluating an earlier condition fails.
          note(Issue{rule.location, messages::analysis_blocked_rule(rule.name, scan.blocked[k])},
               table.table->name);
          continue;
        }
        std::string message;
        if (!scan.matched[k]) {
          message = messages::shadowed_unsatisfiable(rule.name);
        } else {
          std::vector<std::string> names;
          for (std::size_t e : scan.by[k]) names.push_back(table.rules[e].rule->name);
          message = messages::shadowed_by(rule.name, quote_list(names));
        }
        out_.push_back(
            Diagnostic{Severity::warning, rule.location, "shadowed-rule", std::move(message)});
      }
    }
    for (std::size_t k = 0; k < n; ++k) {
      const detail::CompiledRule& rule = *table.rules[k].rule;
      if (!scan.fired[k] || !scan.overlap[k] || rule.when.empty()) continue;
      std::vector<std::string> names;
      for (std::size_t e : scan.overlapped[k]) names.push_back(table.rules[e].rule->name);
      out_.push_back(Diagnostic{
          Severity::note, rule.location, "overlapping-rule",
          messages::overlapping_rule(rule.name,
                                     (names.size() == 1 ? "rule " : "rules ") + quote_list(names),
                                     m_.describe_point(scan.vars, *scan.overlap[k]),
                                     table.rules[scan.overlap_first[k]].rule->name)});
    }
    if (table.has_catch_all || !scan.uncovered) return;
    // The boxes' gap is a gap of the start table, which every valid input enters.
    if (scan.gap && t == m_.rules.start && m_.callers[static_cast<std::size_t>(t)].empty() &&
        m_.valid_start(*scan.gap)) {
      out_.push_back(Diagnostic{Severity::warning, table.table->location, "table-gap",
                                messages::table_gap(table.table->name, shown(own, *scan.gap))});
      return;
    }
    find_gap(t, own);
  }

  // The inputs `own` depends on at `pt`, as a gap's message shows them.
  std::string shown(const Facts& own, const std::vector<RValue>& pt) const {
    const std::vector<int> vars(own.deps.begin(), own.deps.end());
    return vars.empty() ? messages::any_input_reaching_it() : m_.describe_point(vars, pt);
  }

  // Looks for an input that enters table `t` and that no rule matches.
  void find_gap(int t, const Facts& own) {
    const TableModel& table = m_.tables[static_cast<std::size_t>(t)];
    const std::string& name = table.table->name;
    const SourceLocation& at = table.table->location;
    Facts joint = own;
    joint.merge(entry_facts(t), false);
    const Space space = make_space(m_, joint, at);
    std::optional<std::vector<RValue>> gap, maybe;
    Wide gap_score = 0, maybe_score = 0;
    std::string maybe_why, why;
    const Walk walk = enumerate(
        m_, space,
        [&](const std::vector<RValue>& pt) {
          probe_.at(pt);
          for (std::size_t k = 0; k < table.active; ++k)
            if (probe_.matches(*table.rules[k].rule) != Outcome::no) return true;
          std::string unknown_why;
          const Tri e = entered(t, pt, unknown_why);
          const Wide score = m_.niceness(space.vars, pt);
          if (e == Tri::yes && (!gap || score < gap_score)) {
            gap = pt;
            gap_score = score;
          } else if (e == Tri::unknown && (!maybe || score < maybe_score)) {
            maybe = pt;
            maybe_score = score;
            maybe_why = unknown_why;
          }
          return true;
        },
        why);
    auto inputs = [&](const std::vector<RValue>& pt) { return shown(own, pt); };
    if (!gap && (walk == Walk::too_many || walk == Walk::failed))
      note(Issue{at, walk == Walk::too_many ? messages::analysis_entry_too_many_points(kMaxPoints)
                                            : why},
           name);
    if (gap) {
      out_.push_back(
          Diagnostic{Severity::warning, at, "table-gap", messages::table_gap(name, inputs(*gap))});
    } else if (maybe) {
      out_.push_back(Diagnostic{Severity::note, at, "table-gap",
                                messages::table_may_have_gap(name, inputs(*maybe), maybe_why)});
    }
  }

  struct NoteEntry {
    SourceLocation location;
    std::string what;
    std::vector<std::string> tables;
  };

  AnalysisOptions options_;
  std::optional<InvariantProof> invariants_;  // made while the space is gathered
  InputSpace space_;
  Model& m_;
  evaluate::Probe probe_;  // one point at a time: every use starts with probe_.at(point)
  std::map<int, Facts> entry_facts_;
  std::map<std::string, NoteEntry> notes_;  // ordered by position, then text
  std::vector<Diagnostic> out_;
};

}  // namespace

TableFindings analyse_tables(const detail::CompiledRules& rules, const AnalysisOptions& options) {
  TableFindings findings = Analysis(rules, options).run();
  std::vector<Diagnostic> searches = search_constraint_findings(rules);
  findings.diagnostics.insert(findings.diagnostics.end(), searches.begin(), searches.end());
  return findings;
}

}  // namespace snnplan::analyse
