#pragma once
// Runs the built `snnplan` as a child process for the fault-injection tests: its standard
// output to a pipe, a file (/dev/full) or a pipe whose reader has gone; an environment of
// its own (the fault injector's LD_PRELOAD); SIGPIPE ignored or not; optionally as an
// unprivileged user (so that permissions hold when the tests run as root).

#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace snnplan::faults {

enum class StdoutTo { pipe, dev_full, closed_pipe };

struct Spawn {
  // Every member has a default initializer, so that a designated initializer may leave any out.
  std::vector<std::string> args = {};  ///< after the program name
  std::string stdin_text = {};
  std::vector<std::pair<std::string, std::string>> env =
      {};  ///< added to (or replacing) the test's own
  StdoutTo stdout_to = StdoutTo::pipe;
  bool ignore_sigpipe = false;
  bool as_nobody = false;  ///< when root: run as the unprivileged user 'nobody'
  /// When set, the child is sent this signal after `signal_after`. Standard input is fed and
  /// then kept open until the child has ended, so a child that is faster than the delay waits
  /// for more input instead of finishing before the signal.
  int signal = 0;
  std::chrono::milliseconds signal_after{0};
};

struct Outcome {
  int status = 0;  ///< as waitpid gives it
  std::string out;
  std::string err;
  [[nodiscard]] bool exited() const { return WIFEXITED(status); }
  [[nodiscard]] int code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  [[nodiscard]] int killed_by() const { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
};

inline std::string read_all(int fd) {
  std::string text;
  char chunk[1 << 15];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

/// The user id of 'nobody', for running a child without root's privileges.
inline std::pair<uid_t, gid_t> nobody() {
  const passwd* entry = ::getpwnam("nobody");
  if (!entry) throw std::runtime_error("no user 'nobody'");
  return {entry->pw_uid, entry->pw_gid};
}

inline Outcome run(const std::string& program, const Spawn& spawn) {
  // The test itself must survive writing to a child that has exited.
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
  if (spawn.stdout_to == StdoutTo::closed_pipe) {
    ::close(out[0]);
    out[0] = -1;
  }
  std::vector<std::string> env_text;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& [name, value] : spawn.env)
      replaced = replaced || entry.rfind(name + "=", 0) == 0;
    if (!replaced) env_text.push_back(entry);
  }
  for (const auto& [name, value] : spawn.env) env_text.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_text{program};
  argv_text.insert(argv_text.end(), spawn.args.begin(), spawn.args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto user = spawn.as_nobody && ::geteuid() == 0 ? std::optional(nobody()) : std::nullopt;

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Only async-signal-safe calls from here on.
    ::dup2(in[0], 0);
    if (spawn.stdout_to == StdoutTo::dev_full) {
      const int full = ::open("/dev/full", O_WRONLY);
      ::dup2(full, 1);
    } else {
      ::dup2(out[1], 1);
    }
    ::dup2(err[1], 2);
    ::signal(SIGPIPE, spawn.ignore_sigpipe ? SIG_IGN : SIG_DFL);  // inherited across exec
    if (user && (::setgid(user->second) != 0 || ::setuid(user->first) != 0)) ::_exit(125);
    ::execve(program.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  Outcome outcome;
  std::thread feed([&] {
    const char* data = spawn.stdin_text.data();
    std::size_t left = spawn.stdin_text.size();
    while (left > 0) {
      const ssize_t n = ::write(in[1], data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the child stopped reading
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    if (!spawn.signal) ::close(in[1]);
  });
  std::thread collect_out([&] {
    if (out[0] >= 0) outcome.out = read_all(out[0]);
  });
  std::thread collect_err([&] { outcome.err = read_all(err[0]); });
  if (spawn.signal) {
    std::this_thread::sleep_for(spawn.signal_after);
    ::kill(pid, spawn.signal);
  }
  ::waitpid(pid, &outcome.status, 0);
  feed.join();
  if (spawn.signal) ::close(in[1]);
  collect_out.join();
  collect_err.join();
  return outcome;
}

/// A child talked to as a launcher talks to `snnplan --batch -`: a line written, its answer
/// read, then the next. Standard error is not read (keep what the child writes there small).
class Conversation {
 public:
  Conversation(const std::string& program, const std::vector<std::string>& args) {
    ::signal(SIGPIPE, SIG_IGN);
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe failed");
    std::vector<std::string> argv_text{program};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::execv(program.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
  }
  Conversation(const Conversation&) = delete;
  Conversation& operator=(const Conversation&) = delete;
  ~Conversation() {
    if (pid_ > 0) (void)finish();
  }

  void send(const std::string& line) {
    const std::string text = line + "\n";
    if (::write(to_child_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      throw std::runtime_error("write to the child failed");
  }

  /// The child's next output line (without its newline), or nullopt when none came within
  /// `timeout`.
  std::optional<std::string> receive(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (const auto newline = pending_.find('\n'); newline != std::string::npos) {
        std::string line = pending_.substr(0, newline);
        pending_.erase(0, newline + 1);
        return line;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd poll_fd{from_child_, POLLIN, 0};
      if (::poll(&poll_fd, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      pending_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  /// Closes the child's input and waits for it: its exit code (-1 when a signal ended it).
  int finish() {
    ::close(to_child_);
    (void)read_all(from_child_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string pending_;
};

}  // namespace snnplan::faults
