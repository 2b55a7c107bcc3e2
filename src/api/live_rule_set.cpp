#include "snnplan/live_rule_set.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace snnplan {

LiveRuleSet::LiveRuleSet(std::string path) : path_(std::move(path)) {
  last_attempt_ = stamp();
  current_ = std::make_shared<const RuleSet>(RuleSet::from_file(path_));
  status_.path = path_;
  status_.version = 1;
  status_.last_good_load = std::chrono::system_clock::now();
}

LiveRuleSet::~LiveRuleSet() { stop_watching(); }

std::shared_ptr<const RuleSet> LiveRuleSet::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

EvaluationResult LiveRuleSet::evaluate(const Inputs& inputs) const {
  // The snapshot keeps these rules alive for the whole evaluation, whatever reloads do.
  return current()->evaluate(inputs);
}

std::optional<LiveRuleSet::FileStamp> LiveRuleSet::stamp() const {
  // stat(2) rather than std::filesystem: it gives the inode too, which changes when an editor
  // or deploy tool replaces the file by renaming a new one over it.
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0) return std::nullopt;
  return FileStamp{static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec,
                   static_cast<std::uintmax_t>(info.st_size), static_cast<std::uint64_t>(info.st_ino)};
}

bool LiveRuleSet::reload() {
  std::lock_guard reloading(reload_mutex_);
  const auto before = stamp();
  std::vector<Diagnostic> problems;
  std::shared_ptr<const RuleSet> fresh;
  try {
    // Load and fully check outside the lock: evaluations keep running on the old rules.
    fresh = std::make_shared<const RuleSet>(RuleSet::from_file(path_));
  } catch (const LoadError& e) {
    problems = e.diagnostics();
  }
  RejectedListener listener;
  {
    std::lock_guard lock(mutex_);
    last_attempt_ = before;
    if (fresh) {
      current_ = std::move(fresh);
      ++status_.version;
      status_.last_good_load = std::chrono::system_clock::now();
      status_.last_error.clear();
      return true;
    }
    status_.last_error = problems;
    ++status_.rejected_reloads;
    listener = listener_;
  }
  if (listener) listener(problems);
  return false;
}

bool LiveRuleSet::reload_if_changed() {
  const auto now = stamp();
  {
    std::lock_guard lock(mutex_);
    if (now == last_attempt_) return false;
  }
  return reload();
}

void LiveRuleSet::on_rejected(RejectedListener listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

void LiveRuleSet::watch(std::chrono::milliseconds interval) {
  stop_watching();
  watcher_ = std::jthread([this, interval](std::stop_token stop) {
    while (!stop.stop_requested()) {
      {
        std::unique_lock lock(watch_mutex_);
        // Wakes early when stop is requested.
        wake_.wait_for(lock, stop, interval, [] { return false; });
      }
      if (stop.stop_requested()) break;
      reload_if_changed();
    }
  });
}

void LiveRuleSet::stop_watching() {
  if (watcher_.joinable()) {
    watcher_.request_stop();
    watcher_.join();
  }
}

LiveRuleSet::Status LiveRuleSet::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

}  // namespace snnplan
