#pragma once
/// \file
/// A decision with its provenance -- which rule file, at which revision, fired which rules for
/// which inputs -- and the sinks that record decisions (decision_log.hpp writes them as JSON
/// Lines), so that an answer can be traced after an incident and replayed before an edit.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/evaluation_result.hpp"
#include "snnplan/value.hpp"

namespace snnplan {

/// One evaluation and where its answer came from.
struct Decision {
  /// 32 hex digits, random (128 bits): names this decision in logs and reports.
  std::string id;
  /// RuleSet::sha256() of the rules that answered: the revision a replay must compare with.
  std::string rules_sha256;
  /// RuleSet::file_name() of those rules ("rules/snn_distributed.yaml" for the built-in table).
  std::string rules_file;
  /// The rules are a built-in rule file (a replay finds them in the library, not on disk).
  bool builtin_rules = false;
  std::chrono::system_clock::time_point time;
  /// How long the evaluation took (with its trace).
  std::chrono::nanoseconds took{};
  /// The inputs as given to the evaluation (those left out took the rule file's defaults).
  Inputs inputs;
  /// The answer: a record, or the error the evaluation stopped with.
  EvaluationResult result = EvaluationError{};
  /// The fired rules as "table/rule", in firing order (fired_rule_path(), explain.hpp).
  std::vector<std::string> fired_rules;

  /// Shadow mode (RuleSet::with_shadow): the candidate rule set's answer to the same inputs.
  struct Candidate {
    std::string rules_sha256;
    std::string rules_file;
    EvaluationResult result = EvaluationError{};
    std::vector<std::string> fired_rules;
  };
  std::optional<Candidate> shadow;
};

/// Where an observed RuleSet hands its decisions. record() is called on the evaluating thread,
/// from many threads at once when the rule set is shared; it must not throw: a sink that cannot
/// record says so its own way (DecisionLog: once on stderr) and the decision stands.
class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void record(const Decision& decision) noexcept = 0;
};

/// Whether two answers are the same: the same record, or errors of the same kind and message.
bool same_answer(const EvaluationResult& a, const EvaluationResult& b);

}  // namespace snnplan
