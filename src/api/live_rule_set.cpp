#include "snnplan/live_rule_set.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"

namespace snnplan {

LiveRuleSet::LiveRuleSet(std::string path, LoadOptions options)
    : path_(std::move(path)), options_(std::move(options)) {
  const Stamps before = stamps({path_});
  current_ = std::make_shared<const RuleSet>(RuleSet::from_file(path_, options_));
  watched_ = files_of(*current_);
  // The used files are stamped after the load: an edit to one of them during the first load
  // is caught by the next check only if it happened after this point.
  last_attempt_ = stamps(watched_);
  last_attempt_.front() = before.front();
  status_.path = path_;
  status_.version = 1;
  status_.last_good_load = std::chrono::system_clock::now();
}

LiveRuleSet::~LiveRuleSet() { stop_watching(); }

void LiveRuleSet::set_decision_sink(std::shared_ptr<DecisionSink> sink) {
  std::lock_guard lock(mutex_);
  sink_ = std::move(sink);
  current_ = std::make_shared<const RuleSet>(current_->with_decision_sink(sink_));
}

std::shared_ptr<const RuleSet> LiveRuleSet::current() const {
  std::lock_guard lock(mutex_);
  return current_;
}

EvaluationResult LiveRuleSet::evaluate(const Inputs& inputs) const {
  // The snapshot keeps these rules alive for the whole evaluation, whatever reloads do.
  return current()->evaluate(inputs);
}

LiveRuleSet::Stamps LiveRuleSet::stamps(const std::vector<std::string>& files) {
  // stat(2) rather than std::filesystem: it gives the inode too, which changes when an editor
  // or deploy tool replaces the file by renaming a new one over it.
  Stamps out;
  out.reserve(files.size());
  for (const std::string& file : files) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) {
      out.emplace_back();
      continue;
    }
    out.push_back(FileStamp{static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec,
                            static_cast<std::uintmax_t>(info.st_size), static_cast<std::uint64_t>(info.st_ino)});
  }
  return out;
}

std::vector<std::string> LiveRuleSet::files_of(const RuleSet& rules) const {
  std::vector<std::string> files{path_};
  std::vector<const detail::CompiledRules*> pending{&RuleSetAccess::compiled(rules)};
  while (!pending.empty()) {
    const detail::CompiledRules* r = pending.back();
    pending.pop_back();
    for (const auto& used : r->used) {
      // A file used twice is watched once. A built-in rule file is named "rules/NAME": it
      // never changes, and stat finds no such file unless one exists there, whose edits then
      // cause a reload that changes nothing.
      if (std::find(files.begin(), files.end(), used->file_name) == files.end()) files.push_back(used->file_name);
      pending.push_back(used.get());
    }
  }
  return files;
}

bool LiveRuleSet::reload() {
  std::lock_guard reloading(reload_mutex_);
  std::vector<std::string> watched;
  {
    std::lock_guard lock(mutex_);
    watched = watched_;
  }
  const Stamps before = stamps(watched);
  std::vector<Diagnostic> problems;
  std::shared_ptr<const RuleSet> fresh;
  try {
    // Load and fully check outside the lock: evaluations keep running on the old rules.
    fresh = std::make_shared<const RuleSet>(RuleSet::from_file(path_, options_));
  } catch (const LoadError& e) {
    problems = e.diagnostics();
  }
  // What to watch from now on: the files the new rules were loaded from, or after a rejected
  // edit, also every file its diagnostics name (the edit may use a new file that is the
  // broken one: fixing it must be noticed). Files watched before keep their stamps from
  // before the load, so an edit made during the load is noticed too; new ones start now.
  std::vector<std::string> files = fresh ? files_of(*fresh) : watched;
  if (!fresh)
    for (const Diagnostic& d : problems)
      if (!d.location.file.empty() && std::find(files.begin(), files.end(), d.location.file) == files.end())
        files.push_back(d.location.file);
  Stamps stamped = stamps(files);  // taken before locking: stat may be slow
  for (std::size_t k = 0; k < files.size(); ++k)
    if (auto at = std::find(watched.begin(), watched.end(), files[k]); at != watched.end())
      stamped[k] = before[static_cast<std::size_t>(at - watched.begin())];
  RejectedListener listener;
  {
    std::lock_guard lock(mutex_);
    watched_ = std::move(files);
    last_attempt_ = std::move(stamped);
    if (fresh) {
      current_ = sink_ ? std::make_shared<const RuleSet>(fresh->with_decision_sink(sink_)) : std::move(fresh);
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
  std::vector<std::string> watched;
  Stamps last;
  {
    std::lock_guard lock(mutex_);
    watched = watched_;
    last = last_attempt_;
  }
  if (stamps(watched) == last) return false;
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
