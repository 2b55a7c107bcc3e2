#include "snnplan/decision_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <system_error>

#include "decisions/messages.hpp"
#include "decisions/record_json.hpp"

namespace snnplan {
namespace {

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (begin <= text.size() && !text.empty()) {
    const std::size_t end = std::min(text.find(separator, begin), text.size());
    if (end > begin) items.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// Set by a front end before the environment's log is opened (the Python module at import).
std::function<void(const std::string&)>& environment_failure_report() {
  static std::function<void(const std::string&)> report;
  return report;
}

}  // namespace

void DecisionLog::set_environment_failure_report(std::function<void(const std::string&)> report) {
  environment_failure_report() = std::move(report);
}

DecisionLog::DecisionLog(std::string path, DecisionLogOptions options)
    : path_(std::move(path)), options_(std::move(options)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), messages::decision_log_cannot_open(path_));
}

DecisionLog::~DecisionLog() {
  if (fd_ >= 0) ::close(fd_);
}

std::string DecisionLog::line_of(const Decision& decision) const {
  return decisions::record_line(decision, decisions::RecordMasking{options_.labels, options_.drop_inputs,
                                                                   options_.mask_inputs});
}

void DecisionLog::record(const Decision& decision) noexcept {
  std::string why;
  try {
    std::string line = line_of(decision);
    line += '\n';
    // One write: with O_APPEND the kernel places it whole at the end, whoever else appends.
    ssize_t written = -1;
    do written = ::write(fd_, line.data(), line.size());
    while (written < 0 && errno == EINTR);
    if (written == static_cast<ssize_t>(line.size())) return;
    why = written < 0 ? std::strerror(errno) : messages::decision_log_short_write(written, line.size());
  } catch (const std::exception& error) {  // std::bad_alloc: the decision stands, the line is lost
    why = error.what();
  }
  if (failed_.fetch_add(1) != 0) return;
  try {
    const std::string message = messages::decision_log_write_failed(path_, why);
    if (options_.on_first_failure) options_.on_first_failure(message);
    else std::cerr << message << std::endl;
  } catch (...) {  // a listener that throws must not fail the decision
  }
}

std::shared_ptr<DecisionLog> DecisionLog::from_environment() {
  static const std::shared_ptr<DecisionLog> log = []() -> std::shared_ptr<DecisionLog> {
    const std::string path = environment("SNNPLAN_DECISION_LOG");
    if (path.empty()) return nullptr;
    DecisionLogOptions options;
    for (const std::string& label : split(environment("SNNPLAN_DECISION_LOG_LABELS"), ',')) {
      const std::size_t eq = label.find('=');
      if (eq == std::string::npos) options.labels.emplace_back(label, "");
      else options.labels.emplace_back(label.substr(0, eq), label.substr(eq + 1));
    }
    options.drop_inputs = split(environment("SNNPLAN_DECISION_LOG_DROP"), ',');
    options.mask_inputs = split(environment("SNNPLAN_DECISION_LOG_MASK"), ',');
    options.on_first_failure = environment_failure_report();
    try {
      return std::make_shared<DecisionLog>(path, std::move(options));
    } catch (const std::system_error& error) {
      std::cerr << messages::decision_log_not_opened(path, error.code().message()) << std::endl;
      return nullptr;
    }
  }();
  return log;
}

RuleSet with_environment_log(const RuleSet& rules) {
  std::shared_ptr<DecisionLog> log = DecisionLog::from_environment();
  return log ? rules.with_decision_sink(std::move(log)) : rules;
}

}  // namespace snnplan
