// Decisions with their provenance (snnplan/decision.hpp): RuleSet::decide(), sha256(), and the
// observed rule sets of with_decision_sink() and with_shadow().

#include "snnplan/decision.hpp"

#include <atomic>
#include <random>

#include "api/rule_set_access.hpp"
#include "core/sha256.hpp"
#include "evaluate/evaluator.hpp"
#include "snnplan/explain.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

struct RuleSet::Observers {
  std::shared_ptr<DecisionSink> sink;
  std::optional<RuleSet> candidate;
  std::shared_ptr<DecisionSink> disagreements;
};

namespace {

std::string revision_of(const detail::CompiledRules& rules) {
  if (rules.used.empty()) return detail::sha256_hex(rules.source_text);
  std::string listing = detail::sha256_hex(rules.source_text) + "\n";
  for (std::size_t k = 0; k < rules.used.size(); ++k)
    listing += rules.used_names[k] + " " + revision_of(*rules.used[k]) + "\n";
  return detail::sha256_hex(listing);
}

// 128 random bits as 32 hex digits. A generator per thread, seeded from the system's entropy:
// ids must not repeat across the processes of one job, which all start at the same moment.
std::string new_decision_id() {
  thread_local std::mt19937_64 generator = [] {
    std::random_device entropy;
    std::seed_seq seed{entropy(), entropy(), entropy(), entropy()};
    return std::mt19937_64(seed);
  }();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(32, '0');
  for (int half = 0; half < 2; ++half) {
    std::uint64_t bits = generator();
    for (int k = 0; k < 16; ++k, bits >>= 4) id[static_cast<std::size_t>(half * 16 + k)] = kHex[bits & 0xF];
  }
  return id;
}

// Named as a built-in file and of its very bytes (the revision of a file with `uses:` is not the
// file's own hash, so the text decides).
bool is_builtin(const RuleSet& rules) {
  const std::string& name = rules.file_name();
  if (name.rfind("rules/", 0) != 0) return false;
  const std::optional<std::string_view> text = RuleSet::builtin_text(std::string_view(name).substr(6));
  return text && *text == RuleSetAccess::compiled(rules).source_text;
}

}  // namespace

bool same_answer(const EvaluationResult& a, const EvaluationResult& b) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return a.error().kind == b.error().kind && a.error().message == b.error().message;
  return a.record().names() == b.record().names() && a.record().values() == b.record().values();
}

const std::string& RuleSet::sha256() const {
  return rules_->revision.get([this] { return revision_of(*rules_); });
}

Decision RuleSet::decide(const Inputs& inputs) const {
  std::vector<TraceStep> steps;
  return observers_ ? observed_decision(inputs, steps) : traced_decision(inputs, steps);
}

Decision RuleSet::traced_decision(const Inputs& inputs, std::vector<TraceStep>& steps) const {
  Decision decision;
  decision.time = std::chrono::system_clock::now();
  const auto start = std::chrono::steady_clock::now();
  decision.result = evaluate::evaluate(*rules_, inputs, &steps);
  decision.took = std::chrono::steady_clock::now() - start;
  decision.id = new_decision_id();
  decision.rules_sha256 = sha256();
  decision.rules_file = file_name();
  decision.builtin_rules = is_builtin(*this);
  decision.inputs = inputs;
  decision.fired_rules = fired_rule_path(steps);
  return decision;
}

Decision RuleSet::observed_decision(const Inputs& inputs, std::vector<TraceStep>& steps,
                                    const Inputs* shown) const {
  Decision decision = traced_decision(inputs, steps);
  if (shown) decision.inputs = *shown;
  if (observers_->sink) observers_->sink->record(decision);
  if (observers_->candidate) {
    std::vector<TraceStep> candidate_steps;
    Decision other = observers_->candidate->traced_decision(inputs, candidate_steps);
    if (!same_answer(decision.result, other.result) && observers_->disagreements) {
      Decision disagreement = decision;
      disagreement.shadow = Decision::Candidate{other.rules_sha256, other.rules_file, std::move(other.result),
                                                std::move(other.fired_rules)};
      observers_->disagreements->record(disagreement);
    }
  }
  return decision;
}

RuleSet RuleSet::with_decision_sink(std::shared_ptr<DecisionSink> sink) const {
  RuleSet copy(rules_);
  Observers observers = observers_ ? *observers_ : Observers{};
  observers.sink = std::move(sink);
  if (observers.sink || observers.candidate)
    copy.observers_ = std::make_shared<const Observers>(std::move(observers));
  return copy;
}

RuleSet RuleSet::with_shadow(RuleSet candidate, std::shared_ptr<DecisionSink> disagreements) const {
  RuleSet copy(rules_);
  Observers observers = observers_ ? *observers_ : Observers{};
  // The candidate's own sinks are not asked: it answers nothing, it is only compared.
  observers.candidate = RuleSet(candidate.rules_);
  observers.disagreements = std::move(disagreements);
  copy.observers_ = std::make_shared<const Observers>(std::move(observers));
  return copy;
}

void RuleSetAccess::observe_as(const RuleSet& rules, const Inputs& evaluated, const Inputs& shown) {
  if (!rules.observers_) return;
  std::vector<TraceStep> steps;
  (void)rules.observed_decision(evaluated, steps, &shown);
}

}  // namespace snnplan
