#pragma once
/// \file
/// The decision log: one JSON line per decision (decision.hpp), appended whole so that the
/// ranks of a job may share one file; `snnplan replay` re-evaluates it. The record's fields are
/// documented by `snnplan schema decision-log`.
///
///     auto log = std::make_shared<snnplan::DecisionLog>("decisions.jsonl",
///         snnplan::DecisionLogOptions{.labels = {{"job", "42"}}, .mask_inputs = {"model"}});
///     snnplan::RuleSet rules = snnplan::RuleSet::builtin().with_decision_sink(log);
///     rules.evaluate(inputs);   // answered as before, and one line appended

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "snnplan/decision.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

/// The value of the record's "format" key: a replay refuses records of any other.
inline constexpr const char* decision_log_format = "snnplan-decision/1";

struct DecisionLogOptions {
  /// Written into every record as "labels" (host, job, rank, ...: whatever the launcher sets).
  std::vector<std::pair<std::string, std::string>> labels = {};
  /// Inputs left out of the record (OPA's decision-log masking: removal).
  std::vector<std::string> drop_inputs = {};
  /// Inputs whose value is written as "<masked>".
  std::vector<std::string> mask_inputs = {};
  /// Called once, with the message, at the first write that fails (default: a line on
  /// stderr); later failures are only counted (failed_writes()). The decision stands either way.
  std::function<void(const std::string&)> on_first_failure = {};
};

class DecisionLog final : public DecisionSink {
 public:
  /// Opens `path` for appending (created, mode 0644, when missing). Throws std::system_error
  /// when it cannot be opened.
  explicit DecisionLog(std::string path, DecisionLogOptions options = {});
  ~DecisionLog() override;
  DecisionLog(const DecisionLog&) = delete;
  DecisionLog& operator=(const DecisionLog&) = delete;

  /// Appends the decision's line with one write(2) on a descriptor opened with O_APPEND, so
  /// that lines of several threads or processes never interleave. Never throws.
  void record(const Decision& decision) noexcept override;

  /// The line record() appends, without its newline.
  [[nodiscard]] std::string line_of(const Decision& decision) const;
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] std::uint64_t failed_writes() const noexcept { return failed_.load(); }

  /// The log the environment asks for: SNNPLAN_DECISION_LOG=FILE, with labels from
  /// SNNPLAN_DECISION_LOG_LABELS ("host=a,job=7"), and the comma-separated input names of
  /// SNNPLAN_DECISION_LOG_DROP and SNNPLAN_DECISION_LOG_MASK. Opened once per process; nullptr
  /// when SNNPLAN_DECISION_LOG is unset or empty, or when the file cannot be opened (said once on
  /// stderr: the decisions go on).
  static std::shared_ptr<DecisionLog> from_environment();
  /// How the environment's log reports its first failed write (default: a line on stderr). For
  /// a front end that reports its own way -- the Python module, as a RuntimeWarning -- and
  /// taken when that log is opened, so it must be set before the first from_environment().
  /// Not thread-safe against from_environment(): set it at start-up.
  static void set_environment_failure_report(std::function<void(const std::string&)> report);

 private:
  std::string path_;
  DecisionLogOptions options_;
  int fd_ = -1;
  std::atomic<std::uint64_t> failed_{0};
};

/// `rules` with the environment's decision log attached (DecisionLog::from_environment()), or
/// `rules` itself when there is none: what the front ends (CLI, Python, C) do to the rule sets
/// they answer with.
RuleSet with_environment_log(const RuleSet& rules);

}  // namespace snnplan
