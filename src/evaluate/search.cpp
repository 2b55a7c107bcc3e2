// A let's search (detail::CompiledSearch) evaluated: tier after tier, the candidates of the
// nested enumerations, each removed by the first constraint it breaks (checked as soon as
// the enumerations it uses are bound), tested against `fits`, and the one with the smallest
// key kept; the chosen candidate as a record, or the search's error. With a trace, every
// candidate is a step: what removed it, or how it fared against `fits`; and each tier ends with
// its own counts of complete candidates (a prefix a constraint removes counts all below it).

#include <fmt/format.h>

#include "evaluate/expressions.hpp"
#include "evaluate/search_run.hpp"

namespace snnplan::evaluate::internal {
namespace {

// Python's `a < b` for keys: numbers and strings as `<` orders them, lists item by item (the
// first unequal pair decides; a prefix is smaller). NaN is never smaller, as in Python.
bool key_less(const RValue& a, const RValue& b, const SourceLocation& at) {
  if (a.kind == Kind::list && b.kind == Kind::list) {
    const std::size_t n = std::min(a.items.size, b.items.size);
    for (std::size_t k = 0; k < n; ++k) {
      const int c = language::compare_or_fail(a.items.data[k], b.items.data[k], at, "minimize");
      if (c == 0) continue;
      return c == -1;
    }
    return a.items.size < b.items.size;
  }
  return language::compare_or_fail(a, b, at, "minimize") == -1;
}

}  // namespace


RValue Evaluator::search(const detail::CompiledSearch& search, Frame& frame) {
  RValue out;
  if (std::string failure; !run_search(search, frame, out, failure)) rule_failure(std::move(failure));
  return out;
}

bool Evaluator::run_search(const detail::CompiledSearch& search, Frame& frame, RValue& out, std::string& failure) {
  SearchRun run(search);
  run.aggregates.assign(search.aggregates.size(), RValue{});
  const std::size_t fields = search.field_names->size();
  for (const detail::CompiledTier& tier : search.tiers) {
    run.tier = &tier;
    run.chosen = false;
    run.fitting = 0;
    for (const detail::CompiledSlotValue& value : tier.values) frame.set_input(value.slot, eval(value.value, frame));
    // The candidate's values may use the tier's values: computed anew in each tier.
    for (int slot : search.candidate_slots) frame.forget(slot);
    if (trace_) {
      run.removed_by.clear();
      run.tested_before_tier = run.tested;
      run.uncounted = 0;
      note(TraceStep::Kind::search_tier, search.name, tier.name, search.location, "");
    }
    // All candidates at once where the columns hold the tier exactly; else (and traced, where
    // every candidate is a step) one at a time.
    if (trace_ || !decide_tier_by_columns(run, frame)) enumerate(run, 0, frame);
    if (trace_) note_search_summary(run);
    if (!run.chosen) continue;
    RValue* values = store_.values(fields);
    std::uninitialized_copy_n(run.best_fields, fields, values);
    out.kind = Kind::record;
    out.record = store_.record(search.field_names.get(), {values, fields});
    if (trace_)
      note(TraceStep::Kind::search_chosen, search.name, tier.name, search.location,
           fmt::format("{}: the smallest key {} of {} that fit", describe_fields(search, values),
                       detail::repr(run.best_key), run.fitting));
    return true;
  }
  // Nothing fits: the failure's aggregates, then its message.
  const bool none_valid = !run.any_valid;
  const auto& ending = none_valid ? search.none_valid : search.none_fits;
  if (!none_valid)
    for (std::size_t k = 0; k < search.aggregates.size(); ++k)
      frame.set_input(search.aggregates[k].slot, run.aggregates[k]);
  std::string message = ending ? std::string(render(ending->error, frame))
                        : none_valid ? messages::search_none_valid(search.name)
                                     : messages::search_none_fits(search.name);
  if (trace_) note(TraceStep::Kind::error, search.name, "", search.location, message);
  failure = std::move(message);
  return false;
}

// The candidates below enumeration `level`, each item bound in turn.
void Evaluator::enumerate(SearchRun& run, std::size_t level, Frame& frame) {
  const detail::CompiledSlotValue& enumeration = run.search.enumerations[level];
  const RValue list = value(enumeration.value, frame);
  if (list.kind != Kind::list)
    type_failure(enumeration.value.location,
                 messages::type_mismatch(fmt::format("the values of '{}'", enumeration.name), "a list",
                                         detail::kind_name(list)));
  const bool innermost = level + 1 == run.search.enumerations.size();
  for (const RValue& item : list.list()) {
    frame.set_input(enumeration.slot, item);
    run.bound = level + 1;
    // The values of the candidate that use this enumeration or a deeper one are computed anew
    // for each item; those of the enumerations above it stand. Traced, every value is computed
    // anew, so that a candidate's line shows the values its own checks computed.
    const auto& slots = run.search.candidate_slots;
    const auto& levels = run.search.candidate_levels;
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (trace_ || levels[k] >= static_cast<int>(level)) frame.forget(slots[k]);
    if (!meets_constraints(run, static_cast<int>(level), innermost, frame)) continue;
    if (innermost)
      test_candidate(run, frame);
    else
      enumerate(run, level + 1, frame);
  }
}

// The constraints of this level (shared, then the tier's, each in written order); at the
// innermost level those of every deeper level too (a search of one enumeration has level 0).
bool Evaluator::meets_constraints(SearchRun& run, int level, bool innermost, Frame& frame) {
  auto check = [&](const detail::CompiledConstraint& c) {
    if (c.level != level && !(innermost && c.level > level)) return true;
    if (language::truth(value(c.holds, frame), c.holds.location)) return true;
    if (trace_) {  // the counts are the trace's only
      note_candidate(run, TraceStep::Kind::candidate_removed, c, frame);
      run.removed_by[c.name] += candidates_under(run, static_cast<std::size_t>(level), frame);
    }
    return false;
  };
  for (const detail::CompiledConstraint& c : run.search.constraints)
    if (!check(c)) return false;
  for (const detail::CompiledConstraint& c : run.tier->constraints)
    if (!check(c)) return false;
  return true;
}

// Traced, for the counts: the complete candidates under the prefix bound down to enumeration
// `level` (one at the innermost), from the deeper enumerations' lists under it, checking no
// constraint. A deeper list that cannot be evaluated under a prefix (an error, or not a list:
// the walk never evaluates it there) counts that prefix as one, in `run.uncounted`.
std::size_t Evaluator::candidates_under(SearchRun& run, std::size_t level, Frame& frame) {
  const auto& enumerations = run.search.enumerations;
  if (level + 1 >= enumerations.size()) return 1;
  const detail::CompiledSlotValue& deeper = enumerations[level + 1];
  RValue list;
  try {
    list = value(deeper.value, frame);
  } catch (const EvaluationFailure&) {
    list = RValue{};
  }
  if (list.kind != Kind::list) {
    ++run.uncounted;
    return 1;
  }
  if (level + 2 == enumerations.size()) return list.items.size;
  std::size_t count = 0;
  const auto& slots = run.search.candidate_slots;
  const auto& levels = run.search.candidate_levels;
  for (const RValue& item : list.list()) {
    frame.set_input(deeper.slot, item);
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (levels[k] > static_cast<int>(level)) frame.forget(slots[k]);
    count += candidates_under(run, level + 1, frame);
  }
  return count;
}

// A candidate that met every constraint: against `fits`, into the aggregates, and kept when
// its key is the smallest so far.
void Evaluator::test_candidate(SearchRun& run, Frame& frame) {
  const detail::CompiledSearch& search = run.search;
  run.any_valid = true;
  ++run.tested;
  for (std::size_t k = 0; k < search.aggregates.size(); ++k) {
    const detail::CompiledAggregate& a = search.aggregates[k];
    RValue& kept = run.aggregates[k];
    if (a.kind == detail::CompiledAggregate::Kind::count) {
      kept = RValue::of_int(static_cast<Wide>(run.tested));
      continue;
    }
    const RValue& v = lookup(a.of_slot, frame);
    const bool smaller = a.kind == detail::CompiledAggregate::Kind::smallest;
    if (kept.kind == Kind::null ||
        language::compare_or_fail(v, kept, search.location, smaller ? "smallest" : "largest") == (smaller ? -1 : 1))
      kept = v;
  }
  const bool fits = !search.fits || language::truth(value(search.fits->holds, frame), search.fits->holds.location);
  if (trace_ && search.fits) note_candidate(run, fits ? TraceStep::Kind::candidate_fits : TraceStep::Kind::candidate_too_big, *search.fits, frame);
  if (!fits) return;
  ++run.fitting;
  const RValue key = value(search.minimize, frame);
  if (run.chosen && !key_less(key, run.best_key, search.minimize.location)) return;
  run.chosen = true;
  run.best_key = key;
  const std::size_t fields = search.field_names->size();
  if (!run.best_fields) run.best_fields = store_.values(fields);
  for (std::size_t k = 0; k + 1 < fields; ++k) run.best_fields[k] = lookup(search.field_slots[k], frame);
  run.best_fields[fields - 1] = store_.string(run.tier->name);
}

// "tp=2, pp=1, cp=1" and the candidate's values computed so far, for the trace.
std::string Evaluator::describe_candidate(const SearchRun& run, Frame& frame) const {
  std::string out;
  // Only the enumerations bound: a deeper one's slot holds nothing yet, or an earlier prefix's.
  for (std::size_t k = 0; k < run.bound && k < run.search.enumerations.size(); ++k) {
    const detail::CompiledSlotValue& e = run.search.enumerations[k];
    out += fmt::format("{}{}={}", out.empty() ? "" : ", ", e.name, detail::repr(frame.value(e.slot)));
  }
  for (int slot : run.search.candidate_slots)
    if (frame.ready(slot)) out += fmt::format(", {}={}", rules_.slot_name(slot), detail::repr(frame.value(slot)));
  return out;
}

std::string Evaluator::describe_fields(const detail::CompiledSearch& search, const RValue* values) const {
  std::string out;
  for (std::size_t k = 0; k < search.field_names->size(); ++k)
    out += fmt::format("{}{}={}", k ? ", " : "", (*search.field_names)[k], detail::repr(values[k]));
  return out;
}

void Evaluator::note_candidate(const SearchRun& run, TraceStep::Kind kind, const detail::CompiledConstraint& c,
                               Frame& frame) {
  std::string detail = describe_candidate(run, frame);
  if (c.message) detail += fmt::format(": {}", render(*c.message, frame));
  note(kind, run.search.name, c.name, c.location, std::move(detail));
}

void Evaluator::note_search_summary(const SearchRun& run) {
  std::string removed;
  std::size_t total = 0;
  for (const auto& [name, count] : run.removed_by) {
    removed += fmt::format("{}{} by {}", removed.empty() ? "" : ", ", count, name);
    total += count;
  }
  const std::size_t tested = run.tested - run.tested_before_tier;
  std::string detail = fmt::format("{} candidates in this tier: {} removed{}{}{}, {} tested against fits, {} fit",
                                   total + tested, total, removed.empty() ? "" : " (", removed,
                                   removed.empty() ? "" : ")", tested, run.fitting);
  if (run.uncounted == 1)
    detail += "; 1 removed prefix, whose deeper enumeration's list could not be evaluated, counted as one candidate";
  else if (run.uncounted > 1)
    detail += fmt::format(
        "; {} removed prefixes, whose deeper enumerations' lists could not be evaluated, counted as one candidate each",
        run.uncounted);
  note(TraceStep::Kind::search_summary, run.search.name, run.tier->name, run.search.location, std::move(detail));
}

}  // namespace snnplan::evaluate::internal
