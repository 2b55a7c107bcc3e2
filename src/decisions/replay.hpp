#pragma once
// `snnplan replay`: the decisions of a log evaluated again, against a candidate rule file (what
// an edit would change for the traffic that really ran) or against the files the records name,
// as they are today (whether a log and today's rules still agree).

#include <cstddef>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan::decisions {

struct ReplayOptions {
  /// Every record against these rules; nullopt: each against the file it names.
  std::optional<RuleSet> candidate;
  /// How the files records name are loaded (rule roots, cache).
  LoadOptions load;
};

struct ReplayExample {
  std::size_t line = 0;
  std::string decision_id;
  nlohmann::ordered_json inputs;
  nlohmann::ordered_json old_answer;  // {"answer": ..., "error": ...} as logged
  nlohmann::ordered_json new_answer;  // the same keys, as replayed
};

/// Decisions answered differently, grouped by (old rule path, new rule path) as `snnplan diff`
/// groups its regions.
struct ReplayGroup {
  std::vector<std::string> old_rules;
  std::vector<std::string> new_rules;
  std::size_t count = 0;
  std::vector<ReplayExample> examples;  // the first few, in log order
};

struct NotReplayable {
  std::size_t line = 0;
  std::string reason;
};

/// A rule file whose revision today is not the one its records were answered with.
struct ChangedFile {
  std::string file;
  std::string logged_sha256;
  std::string today_sha256;
  std::size_t records = 0;
};

struct ReplayReport {
  std::size_t records = 0;  // non-empty lines
  std::size_t unchanged = 0;
  std::size_t changed = 0;
  std::size_t not_replayable = 0;
  std::vector<ReplayGroup> groups;
  std::vector<NotReplayable> skipped;  // every line not replayed, with why
  std::vector<ChangedFile> changed_files;
};

inline constexpr std::size_t kReplayExamples = 3;

/// Replays every line of `log`. Never throws for bad lines: each is a NotReplayable.
ReplayReport replay(std::istream& log, const ReplayOptions& options);

std::string render_text(const ReplayReport& report, const std::string& log_name,
                        const std::optional<std::string>& candidate_name);
std::string render_json(const ReplayReport& report);

}  // namespace snnplan::decisions
