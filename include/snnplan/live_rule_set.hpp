#pragma once
/// \file
/// Hot reload for long-running launchers and schedulers: a rule file that can change while
/// evaluations run.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "snnplan/diagnostic.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan {

/// Holds the current rules of one file and swaps in a new version only after it loaded and
/// checked without errors. A broken edit keeps the last good rules serving.
///
/// Thread safety: every member function may be called from any thread. An evaluation uses the
/// snapshot current when it started, even if a swap happens meanwhile; no evaluation ever
/// sees a half-loaded rule set.
///
///     snnplan::LiveRuleSet rules("rules/site.yaml");          // throws LoadError if broken
///     rules.on_rejected([](const auto& diagnostics) { log(diagnostics); });
///     rules.watch(std::chrono::seconds(2));                   // optional polling thread
///     auto result = rules.evaluate(inputs);
class LiveRuleSet {
 public:
  struct Status {
    std::string path;
    std::uint64_t version = 0;  ///< 1 after the first load, +1 per accepted reload
    std::chrono::system_clock::time_point last_good_load;
    /// Diagnostics of the most recent rejected reload (empty when the last attempt succeeded).
    std::vector<Diagnostic> last_error;
    std::uint64_t rejected_reloads = 0;
  };
  using RejectedListener = std::function<void(const std::vector<Diagnostic>&)>;

  /// Loads `path`; throws LoadError when the first version cannot be used.
  explicit LiveRuleSet(std::string path, LoadOptions options = {});
  ~LiveRuleSet();
  LiveRuleSet(const LiveRuleSet&) = delete;
  LiveRuleSet& operator=(const LiveRuleSet&) = delete;

  /// The rules serving now; keep the pointer for as long as you use them.
  [[nodiscard]] std::shared_ptr<const RuleSet> current() const;
  /// current()->evaluate(inputs).
  [[nodiscard]] EvaluationResult evaluate(const Inputs& inputs) const;

  /// Reads and checks the file now. Returns true when the new rules were swapped in; false
  /// when they were rejected (the listener and status() get the diagnostics).
  bool reload();
  /// reload() when the modification time, size or inode of the file, or of a file it uses
  /// (`uses`, as the serving rules were loaded), changed since the last attempt; returns true
  /// when new rules were swapped in.
  bool reload_if_changed();

  /// Every decision of the serving rules, this version and each one swapped in later, is handed
  /// to `sink` (RuleSet::with_decision_sink; a DecisionLog of decision_log.hpp); its records name
  /// the revision that answered. nullptr stops it.
  void set_decision_sink(std::shared_ptr<DecisionSink> sink);

  /// Called (from the reloading thread) with the diagnostics of each rejected edit.
  void on_rejected(RejectedListener listener);

  /// Starts a background thread calling reload_if_changed() every `interval`.
  void watch(std::chrono::milliseconds interval);
  void stop_watching();

  [[nodiscard]] Status status() const;

 private:
  struct FileStamp {
    std::int64_t modified = 0;
    std::uintmax_t size = 0;
    std::uint64_t inode = 0;
    friend bool operator==(const FileStamp&, const FileStamp&) = default;
  };
  using Stamps = std::vector<std::optional<FileStamp>>;  // one per watched file; nullopt: missing
  static Stamps stamps(const std::vector<std::string>& files);
  // The rule file, then every file the rules in `rules` were loaded from through `uses`.
  std::vector<std::string> files_of(const RuleSet& rules) const;

  const std::string path_;
  const LoadOptions options_;  // every reload loads as the first load did
  mutable std::mutex mutex_;  // guards everything below
  std::shared_ptr<const RuleSet> current_;
  Status status_;
  std::vector<std::string> watched_;  // files_of(current_), and after a rejected edit the files it named
  Stamps last_attempt_;
  RejectedListener listener_;
  std::shared_ptr<DecisionSink> sink_;
  std::mutex reload_mutex_;  // one reload at a time
  std::mutex watch_mutex_;
  std::condition_variable_any wake_;
  std::jthread watcher_;  // last: stopped and joined before the members it uses go away
};

}  // namespace snnplan
