#include "frontends/cli/torch_probe.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string_view>

#include "frontends/cli/exit_code.hpp"
#include "frontends/cli/messages.hpp"

extern char** environ;

namespace snnplan::cli {

extern const std::string_view kTorchProbeScript;  // generated (cmake/embed_text.cmake)

namespace {

// The probe script's keys (_torch_probe.NAMES) are the probed inputs of a recommend request
// (api/request_inputs.hpp); a script that lacks one is refused as unreadable.
constexpr std::size_t kMaxProbeOutput = 1 << 20;  // warnings included; the answer is one line

struct Ran {
  int status = 0;      // as waitpid() gives it
  std::string output;  // stdout and stderr together, in the order written
};

// `python -c script`, its stdout and stderr into one pipe (so that no second pipe can fill up
// while the first is read), standard input closed.
Ran run_probe(const std::string& python) {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw UsageError{messages::probe_cannot_run(python, std::strerror(errno))};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 2);
  const std::string script(kTorchProbeScript);
  std::string dash_c = "-c";
  std::string program = python;
  char* argv[] = {program.data(), dash_c.data(), const_cast<char*>(script.c_str()), nullptr};
  pid_t child = 0;
  const int spawned = ::posix_spawnp(&child, python.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[1]);
  if (spawned != 0) {
    ::close(pipe_ends[0]);
    throw UsageError{messages::probe_cannot_run(python, std::strerror(spawned))};
  }
  Ran ran;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(pipe_ends[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (ran.output.size() < kMaxProbeOutput) ran.output.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(pipe_ends[0]);
  while (::waitpid(child, &ran.status, 0) < 0 && errno == EINTR) {
  }
  return ran;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

}  // namespace

TorchProbe probe_torch(const std::string& python_flag) {
  const std::string python = python_flag.empty() ? "python3" : python_flag;
  const Ran ran = run_probe(python);
  const std::string answer = last_line(ran.output);
  if (!WIFEXITED(ran.status) || WEXITSTATUS(ran.status) != 0) {
    const std::string how = WIFEXITED(ran.status) ? "exit " + std::to_string(WEXITSTATUS(ran.status))
                                                  : "signal " + std::to_string(WTERMSIG(ran.status));
    throw UsageError{messages::probe_failed(python, how, answer)};
  }
  TorchProbe probe;
  const nlohmann::json found = nlohmann::json::parse(answer, nullptr, false);
  const auto text_at = [&](std::string_view name) -> const nlohmann::json* {
    const std::string key(name);
    return found.is_object() && found.contains(key) ? &found[key] : nullptr;
  };
  for (std::size_t k = 0; k < kProbedInputs.size(); ++k) {
    const nlohmann::json* value = text_at(kProbedInputs[k]);
    if (!value || !value->is_boolean()) throw UsageError{messages::probe_unreadable(python, answer)};
    probe.available[k] = {std::string(kProbedInputs[k]), value->get<bool>()};
  }
  const nlohmann::json* executable = text_at("python");
  const nlohmann::json* torch = text_at("torch");
  if (!executable || !executable->is_string() || !torch || !(torch->is_string() || torch->is_null()))
    throw UsageError{messages::probe_unreadable(python, answer)};
  probe.python = executable->get<std::string>();
  if (torch->is_string()) probe.torch_version = torch->get<std::string>();
  return probe;
}

std::string describe(const TorchProbe& probe) {
  std::string found;
  for (const auto& [name, available] : probe.available)
    found += fmt::format(" {}={}", name, available ? "true" : "false");
  return messages::probe_result(probe.python, probe.torch_version, found);
}

namespace {
bool gives(const Inputs& inputs, std::string_view name) {
  for (const auto& [input, value] : inputs)
    if (input == name && !value.is_null()) return true;
  return false;
}
}  // namespace

bool needs_probe(const RuleSet& rules, const Inputs& inputs) {
  for (std::string_view name : kProbedInputs)
    if (rules.input(name) && !gives(inputs, name)) return true;
  return false;
}

Inputs probed_inputs(const TorchProbe& probe) {
  Inputs out;
  for (const auto& [name, available] : probe.available) out.emplace_back(name, available);
  return out;
}

}  // namespace snnplan::cli
