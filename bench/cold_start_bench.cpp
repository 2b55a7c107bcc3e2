// Cold start of the CLI against a static C++ hello world, in the same run (issue 21).
//
//   cold_start/ratio     one `snnplan recommend ...` process, then one hello-world process,
//                        alternately, each spawned (posix_spawn, output to /dev/null) and waited
//                        for; counters snnplan_us and hello_us (wall time per process, median of
//                        the iterations' blocks), ratio = snnplan_us / hello_us, and the same for
//                        the children's CPU time (user + system, from wait4): cpu_ratio.
//   cold_start/version   `snnplan --version` (process start, no rules) against hello world.
//   cold_start/rules     `snnplan recommend --rules FILE` (the same table from a file: YAML
//                        parsed, or read from the compiled-rules cache) against hello world.
//   cold_start/static    cold_start/ratio with snnplan-static, the CLI linked statically.
//
// Give the binaries' paths with SNNPLAN_CLI and SNNPLAN_HELLO (CMake sets their defaults).
//
// Every executable is timed in one page-cache state, the one a reboot leaves: before its warm-up
// run, its file's pages are written back and dropped from the cache (fdatasync, Linux's on a
// read-only descriptor, then POSIX_FADV_DONTNEED), so that exec's page faults read them in again.
// Only the executable's own file: the dynamic CLI's shared libraries stay as they are (the static
// CLI and the hello world have none). How a file's pages got into the cache moves a start by
// ~10 % here: a file just written by `cp` sits in large folios and starts faster than the same
// bytes read in by faults or written by `cmake --install`, which sit in single pages that each
// fault maps one by one (/proc/kpageflags, kernel 6.18; bench/results.md, issue 34, 2026-12-05).

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct Cost {
  double wall_us = 0;
  double cpu_us = 0;
};

/// Runs argv to completion with standard output and error on /dev/null.
Cost run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
    std::cerr << "cold_start_bench: cannot run " << args[0] << '\n';
    std::exit(1);
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  const auto end = std::chrono::steady_clock::now();
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "cold_start_bench: " << args[0] << " failed\n";
    std::exit(1);
  }
  const auto us = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_usec); };
  return Cost{std::chrono::duration<double, std::micro>(end - start).count(),
              us(usage.ru_utime) + us(usage.ru_stime)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Drops `path`'s pages from the page cache (written back first: only clean pages are dropped),
// so its next run reads them in by page faults, as the first run after a reboot does.
// Where that cannot be done (a file system without fdatasync), the run goes on with a warning:
// its figures then compare the binaries in whatever state they were.
void read_back_by_faults(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  int error = fd < 0 ? errno : 0;
  if (!error && ::fdatasync(fd) != 0) error = errno;
  if (!error) error = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);  // returns the error
  if (fd >= 0) ::close(fd);
  if (error)
    std::cerr << "cold_start_bench: warning: " << path << " stays in the page cache as it is ("
              << std::strerror(error) << ")\n";
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

void against_hello(benchmark::State& state, std::vector<std::string> command) {
  const std::vector<std::string> hello = {env_or("SNNPLAN_HELLO", SNNPLAN_HELLO)};
  read_back_by_faults(command[0]);
  read_back_by_faults(hello[0]);
  run(command);  // warm the page cache (and the compiled-rules cache)
  run(hello);
  std::vector<double> cli_wall, cli_cpu, hello_wall, hello_cpu;
  for (auto _ : state) {
    const Cost a = run(command);
    const Cost b = run(hello);
    cli_wall.push_back(a.wall_us);
    cli_cpu.push_back(a.cpu_us);
    hello_wall.push_back(b.wall_us);
    hello_cpu.push_back(b.cpu_us);
    state.SetIterationTime((a.wall_us + b.wall_us) / 1e6);
  }
  const double cli = median(cli_wall), base = median(hello_wall);
  state.counters["snnplan_us"] = cli;
  state.counters["hello_us"] = base;
  state.counters["ratio"] = base > 0 ? cli / base : 0;
  state.counters["snnplan_cpu_us"] = median(cli_cpu);
  state.counters["hello_cpu_us"] = median(hello_cpu);
  state.counters["cpu_ratio"] = median(hello_cpu) > 0 ? median(cli_cpu) / median(hello_cpu) : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cli = env_or("SNNPLAN_CLI", SNNPLAN_CLI);
  const std::vector<std::string> recommend = {cli, "recommend", "--model", "spikformer_8_384", "--world-size", "8",
                                              "--prefer", "speed", "--batch-size", "64"};
  std::vector<std::string> from_file = recommend;
  from_file.insert(from_file.begin() + 2, {"--rules", SNNPLAN_DEFAULT_RULES_FILE});
  benchmark::RegisterBenchmark("cold_start/ratio", against_hello, recommend)->UseManualTime()->Iterations(200);
  benchmark::RegisterBenchmark("cold_start/version", against_hello, std::vector<std::string>{cli, "--version"})
      ->UseManualTime()
      ->Iterations(200);
  benchmark::RegisterBenchmark("cold_start/rules", against_hello, from_file)->UseManualTime()->Iterations(200);
#ifdef SNNPLAN_STATIC_CLI
  std::vector<std::string> static_recommend = recommend;
  static_recommend[0] = env_or("SNNPLAN_STATIC", SNNPLAN_STATIC_CLI);
  benchmark::RegisterBenchmark("cold_start/static", against_hello, static_recommend)->UseManualTime()->Iterations(200);
#endif
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
