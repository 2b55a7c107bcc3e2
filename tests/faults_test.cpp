// Fault injection against the built `snnplan` (issue 15): every subcommand with its output on
// a full disk, on a pipe whose reader has gone (SIGPIPE ignored and not), -o into a directory
// it cannot write; the Nth write or fsync failing (ENOSPC, EIO) or coming out short or
// interrupted (LD_PRELOAD of tests/faults/fault_injector.c); SIGINT / SIGTERM at random points
// of a batch. What must hold: no exit 0 after a failed write, and an -o file that holds
// either its complete old content or the complete new one -- never anything in between.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "faults/process.hpp"

namespace fs = std::filesystem;
using snnplan::faults::Outcome;
using snnplan::faults::Spawn;
using snnplan::faults::StdoutTo;

namespace {

const std::string kCli = SNNPLAN_CLI;
const std::string kInjector = SNNPLAN_FAULT_INJECTOR;
const std::string kRules = SNNPLAN_RULES_DIR;

/// A scratch directory every user may write (the unprivileged runs use it too).
class Scratch {
 public:
  Scratch() {
    static int count = 0;
    path_ = fs::temp_directory_path() /
            ("snnplan_faults_" + std::to_string(::getpid()) + "_" + std::to_string(++count));
    fs::create_directories(path_);
    fs::permissions(path_, fs::perms::all);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::permissions(path_, fs::perms::all, ignored);
    fs::remove_all(path_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  [[nodiscard]] std::string file(const std::string& name, const std::string& text) const {
    const fs::path p = path_ / name;
    std::ofstream(p, std::ios::binary) << text;
    fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                           fs::perms::others_read);
    return p.string();
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (path_ / name).string(); }
  [[nodiscard]] const fs::path& dir() const { return path_; }

  /// Files -o left behind: its temporaries are hidden names with ".snnplan-" in them.
  [[nodiscard]] std::vector<std::string> temporaries() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(path_))
      if (entry.path().filename().string().find(".snnplan-") != std::string::npos)
        found.push_back(entry.path().string());
    return found;
  }

 private:
  fs::path path_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Requests that take different branches of the default table, one of them refused.
const std::vector<std::string> kRequests = {
    R"({"model": "spikformer_8_384", "world_size": 8, "prefer": "speed", "batch_size": 64})",
    R"({"model": "cifar10dvs_vgg", "world_size": 4, "prefer": "memory", "batch_size": 32})",
    R"({"model": "vgg", "world_size": 8, "prefer": "capacity", "batch_size": 64})",
    R"({"model": "vgg", "world_size": 3, "prefer": "capacity", "batch_size": 2})",
    R"({"model": "resnet", "world_size": 1, "prefer": "speed", "batch_size": 16})",
    R"({"model": "vgg", "world_size": 8, "prefer": "fast", "batch_size": 64})",
    R"({"model": "spikformer_8_384", "world_size": 16, "prefer": "memory", "batch_size": 256, "fsdp2_available": false})",
};

std::string batch_of(std::size_t lines) {
  std::string text;
  for (std::size_t k = 0; k < lines; ++k) text += kRequests[k % kRequests.size()] + "\n";
  return text;
}

const std::string kPlanRequests =
    R"({"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64})"
    "\n"
    R"({"objective": "speed", "topology": {"dp": 8}, "batch_size": 64})"
    "\n";

struct Subcommand {
  std::string name;
  std::vector<std::string> args;
};

// Every subcommand that prints a result, each with arguments that make it print one.
std::vector<Subcommand> subcommands(const Scratch& scratch) {
  const std::vector<std::string> flags = {"--model",  "vgg",   "--world-size", "8",
                                          "--prefer", "speed", "--batch-size", "64"};
  auto with = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  return {
      {"recommend", with({"recommend"}, flags)},
      {"recommend --batch", {"recommend", "--batch", scratch.file("batch.jsonl", batch_of(50))}},
      {"recommend --batch --jobs 2",
       {"recommend", "--batch", scratch.file("batch.jsonl", batch_of(50)), "--jobs", "2"}},
      {"explain", with({"explain"}, flags)},
      {"microbatches", {"microbatches", "--batch-size", "64", "--num-stages", "4"}},
      {"check", {"check", "--format", "json", kRules + "/snn_distributed.yaml"}},
      {"test", {"test", kRules + "/snn_distributed.yaml", kRules + "/snn_distributed.test.yaml"}},
      {"graph", {"graph"}},
      {"plan", {"plan", "--objective", "memory", "--topology", "dp=4,tp=2", "--batch-size", "64"}},
      {"plan --batch", {"plan", "--batch", scratch.file("plan.jsonl", kPlanRequests)}},
      {"plan --batch --jobs 2",
       {"plan", "--batch", scratch.file("plan.jsonl", kPlanRequests), "--jobs", "2"}},
      {"schema", {"schema", "rules"}},
      {"completion", {"completion", "bash"}},
      {"help", {"help", "recommend"}},
  };
}

std::vector<std::string> with_output(std::vector<std::string> args, const std::string& path) {
  args.push_back("-o");
  args.push_back(path);
  return args;
}

/// The fault injector for the Nth call of `call`, as `kind`.
std::vector<std::pair<std::string, std::string>> injector(const std::string& call, long at,
                                                          const std::string& kind) {
  // ASan wants its runtime first among the preloaded libraries; the shim only wraps two
  // calls, so the order does not matter here.
  const char* asan = std::getenv("ASAN_OPTIONS");
  return {{"LD_PRELOAD", kInjector},
          {"ASAN_OPTIONS",
           std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "verify_asan_link_order=0"},
          {"SNNPLAN_FAULT_CALL", call},
          {"SNNPLAN_FAULT_AT", std::to_string(at)},
          {"SNNPLAN_FAULT_KIND", kind}};
}

bool whole_lines(const std::string& text) {
  return text.empty() || text.back() == '\n';
}

}  // namespace

TEST_SUITE("faults") {
  TEST_CASE("every subcommand whose output goes to a full disk exits 4 with one message") {
    Scratch scratch;
    for (const Subcommand& command : subcommands(scratch)) {
      CAPTURE(command.name);
      const Outcome run =
          snnplan::faults::run(kCli, Spawn{.args = command.args, .stdout_to = StdoutTo::dev_full});
      CHECK(run.code() == 4);
      CHECK(run.err == "error: cannot write output: No space left on device\n");
    }
    for (const char* flag : {"--help", "--version"}) {
      CAPTURE(flag);
      const Outcome run =
          snnplan::faults::run(kCli, Spawn{.args = {flag}, .stdout_to = StdoutTo::dev_full});
      CHECK(run.code() == 4);
    }
  }

  TEST_CASE("with SIGPIPE ignored a reader that went away ends every subcommand with exit 4") {
    Scratch scratch;
    for (const Subcommand& command : subcommands(scratch)) {
      CAPTURE(command.name);
      const Outcome run = snnplan::faults::run(
          kCli,
          Spawn{.args = command.args, .stdout_to = StdoutTo::closed_pipe, .ignore_sigpipe = true});
      CHECK(run.code() == 4);
      CHECK(run.err == "error: cannot write output: Broken pipe\n");
    }
  }

  TEST_CASE(
      "with SIGPIPE at its default a reader that went away ends the run by SIGPIPE, not with exit "
      "0") {
    Scratch scratch;
    for (const Subcommand& command : subcommands(scratch)) {
      CAPTURE(command.name);
      const Outcome run = snnplan::faults::run(
          kCli, Spawn{.args = command.args, .stdout_to = StdoutTo::closed_pipe});
      CHECK(run.killed_by() == SIGPIPE);
    }
  }

  TEST_CASE("-o FILE gets exactly what standard output would, and leaves no temporary behind") {
    Scratch scratch;
    for (const Subcommand& command : subcommands(scratch)) {
      CAPTURE(command.name);
      const Outcome plain = snnplan::faults::run(kCli, Spawn{.args = command.args});
      const std::string target = scratch.file("out.txt", "old content\n");
      const Outcome to_file =
          snnplan::faults::run(kCli, Spawn{.args = with_output(command.args, target)});
      CHECK(to_file.code() == plain.code());
      CHECK(to_file.out.empty());
      CHECK(read_file(target) == plain.out);
      CHECK(scratch.temporaries().empty());
    }
  }

  TEST_CASE("every subcommand whose -o file cannot be written exits 4 and leaves the file as it was") {
    Scratch scratch;
    for (const Subcommand& command : subcommands(scratch)) {
      for (const char* call : {"write", "fsync"}) {
        CAPTURE(command.name);
        CAPTURE(call);
        const std::string target = scratch.file("out.txt", "old content\n");
        const Outcome run = snnplan::faults::run(
            kCli, Spawn{.args = with_output(command.args, target), .env = injector(call, 1, std::string(call) == "write" ? "ENOSPC" : "EIO")});
        CHECK(run.code() == 4);
        CHECK(run.err.find(std::string("error: cannot write output: ") +
                           (std::string(call) == "write" ? "No space left on device" : "Input/output error") + "\n") !=
              std::string::npos);
        CHECK(read_file(target) == "old content\n");
        CHECK(scratch.temporaries().empty());
      }
    }
  }

  TEST_CASE("-o into a directory the run may not write exits 4, and creates nothing") {
    Scratch scratch;
    const fs::path locked = scratch.dir() / "locked";
    fs::create_directories(locked);
    const std::string target = (locked / "out.json").string();
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec);
    const Outcome run = snnplan::faults::run(
        kCli, Spawn{.args = {"recommend", "--model", "vgg", "--world-size", "8", "--prefer",
                             "speed", "--batch-size", "64", "-o", target},
                    .env = {{"ASAN_OPTIONS", "detect_leaks=0"}},
                    .as_nobody = true});
    CHECK(run.code() == 4);
    CHECK(run.err == "error: cannot write output: cannot create a file beside '" + target +
                         "': Permission denied\n");
    CHECK(fs::is_empty(locked));
  }

  TEST_CASE("-o naming a directory exits 4 and changes nothing") {
    Scratch scratch;
    const Outcome run =
        snnplan::faults::run(kCli, Spawn{.args = {"graph", "-o", scratch.dir().string()}});
    CHECK(run.code() == 4);
    CHECK(run.err ==
          "error: cannot write output: '" + scratch.dir().string() + "' is a directory\n");
    CHECK(scratch.temporaries().empty());
  }

  TEST_CASE(
      "a failed Nth write or fsync leaves the -o file complete, old or new, and the exit code says "
      "which") {
    Scratch scratch;
    const std::string input = scratch.file("in.jsonl", batch_of(2000));
    const std::vector<std::string> args = {"recommend", "--batch", input};
    const Outcome reference = snnplan::faults::run(kCli, Spawn{.args = args});
    REQUIRE(reference.code() == 1);  // one request in seven has a `prefer` the rules refuse
    const std::string old_content = "the previous plans\n";
    std::map<std::string, int> faulted_runs;
    int runs = 0, corrupt = 0, leftovers = 0;
    struct Fault {
      std::string call, kind;
      bool fails;  // the run must fail (else it must succeed despite the fault)
    };
    const std::vector<Fault> faults = {{"write", "ENOSPC", true},
                                       {"write", "EIO", true},
                                       {"write", "EINTR", false},
                                       {"write", "short", false},
                                       {"fsync", "EIO", true}};
    for (const Fault& fault : faults) {
      // The output is ~1.3 MB: some 20 writes of 64 KiB; N runs past the last one.
      const long last = fault.call == "fsync" ? 2 : 40;
      for (long n = 1; n <= last; ++n) {
        CAPTURE(fault.call);
        CAPTURE(fault.kind);
        CAPTURE(n);
        const std::string target = scratch.file("out.jsonl", old_content);
        const Outcome run = snnplan::faults::run(
            kCli,
            Spawn{.args = with_output(args, target), .env = injector(fault.call, n, fault.kind)});
        ++runs;
        const std::string now = read_file(target);
        const bool old_kept = now == old_content;
        const bool replaced = now == reference.out;
        if (!old_kept && !replaced) ++corrupt;
        leftovers += static_cast<int>(scratch.temporaries().size());
        if (run.code() == 4) {
          ++faulted_runs[fault.call + " " + fault.kind];
          CHECK(old_kept);
          CHECK(run.err.find("error: cannot write output: ") != std::string::npos);
        } else {
          CHECK(run.code() == reference.code());
          CHECK(replaced);
        }
        if (!fault.fails) CHECK(run.code() == reference.code());
        if (fault.fails && n == 1) CHECK(run.code() == 4);
      }
    }
    int failed_runs = 0;
    for (const auto& [fault, count] : faulted_runs) failed_runs += count;
    MESSAGE("fault injection: ", runs, " runs, ", failed_runs, " of them failed by the fault (write ENOSPC ",
            faulted_runs["write ENOSPC"], ", write EIO ", faulted_runs["write EIO"], ", fsync EIO ",
            faulted_runs["fsync EIO"], "), files left corrupt: ", corrupt, ", temporaries left: ", leftovers);
    CHECK(corrupt == 0);
    CHECK(leftovers == 0);
    CHECK(faulted_runs["write ENOSPC"] >= 10);
    CHECK(faulted_runs["write EIO"] >= 10);
    CHECK(faulted_runs["fsync EIO"] >= 1);
  }

  TEST_CASE(
      "a failed write to standard output stops the batch with whole lines written before it") {
    Scratch scratch;
    const std::string input = scratch.file("in.jsonl", batch_of(2000));
    const Outcome reference =
        snnplan::faults::run(kCli, Spawn{.args = {"recommend", "--batch", input}});
    // With --jobs the output goes out in fewer, larger writes (a block's shares at a time).
    for (const bool jobs : {false, true})
    for (long n : jobs ? std::vector<long>{1, 2, 4} : std::vector<long>{1, 2, 5, 10}) {
      CAPTURE(jobs);
      CAPTURE(n);
      std::vector<std::string> args = {"recommend", "--batch", input};
      if (jobs) args.insert(args.end(), {"--jobs", "2"});
      const Outcome run =
          snnplan::faults::run(kCli, Spawn{.args = args, .env = injector("write", n, "ENOSPC")});
      CHECK(run.code() == 4);
      CHECK(run.err.find("error: cannot write output: No space left on device\n") !=
            std::string::npos);
      CHECK(whole_lines(run.out));
      CHECK(reference.out.compare(0, run.out.size(), run.out) == 0);
      CHECK(run.out.size() < reference.out.size());
    }
  }

  TEST_CASE(
      "SIGINT or SIGTERM during a batch finishes the line, writes whole lines only and exits 130 "
      "or 143") {
    Scratch scratch;
    // The answer to each request, to check every line written.
    std::vector<std::string> answers;
    for (const std::string& request : kRequests) {
      const Outcome one = snnplan::faults::run(
          kCli, Spawn{.args = {"recommend", "--batch", "-"}, .stdin_text = request + "\n"});
      answers.push_back(one.out);
    }
    const std::string input = batch_of(100000);
    // Signals are sent this long after the CLI's own start-up (a run of --version, timed here):
    // a sanitizer build takes a quarter of a second to start, and a signal that arrives before
    // the handler is installed tests nothing.
    const auto started = std::chrono::steady_clock::now();
    (void)snnplan::faults::run(kCli, Spawn{.args = {"--version"}});
    const auto start_up = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    std::mt19937 random(15);
    int stopped = 0;
    int stopped_with_jobs = 0;
    for (int round = 0; round < 8; ++round) {
      const int signal = round % 2 ? SIGTERM : SIGINT;
      const bool to_file = round % 4 >= 2;
      const auto after = start_up + std::chrono::milliseconds(30 + random() % 300);
      CAPTURE(round);
      CAPTURE(after.count());
      const std::string target = scratch.file("out.jsonl", "untouched\n");
      std::vector<std::string> args = {"recommend", "--batch", "-"};
      if (round >= 4) args.insert(args.end(), {"--jobs", "2"});  // each case again on 2 threads
      if (to_file) args = with_output(args, target);
      const Outcome run = snnplan::faults::run(
          kCli, Spawn{.args = args, .stdin_text = input, .signal = signal, .signal_after = after});
      if (run.killed_by() == signal) continue;  // arrived before the handler was installed
      ++stopped;
      if (round >= 4) ++stopped_with_jobs;
      CHECK(run.code() == (signal == SIGINT ? 130 : 143));
      CHECK(whole_lines(run.out));
      std::size_t lines = 0;
      for (std::size_t at = 0; at < run.out.size(); ++lines) {
        const std::size_t end = run.out.find('\n', at) + 1;
        if (run.out.compare(at, end - at, answers[lines % answers.size()]) != 0) {
          FAIL_CHECK("line ", lines + 1, " is not the answer to its request");
          break;
        }
        at = end;
      }
      const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
      if (to_file) {
        CHECK(run.out.empty());
        CHECK(read_file(target) == "untouched\n");
        CHECK(scratch.temporaries().empty());
        CHECK(run.err.rfind("snnplan: interrupted by " + name + " after ", 0) == 0);
        CHECK(run.err.find("'" + target + "' was left as it was\n") != std::string::npos);
      } else {
        CHECK(run.err == "snnplan: interrupted by " + name + ": " + std::to_string(lines) +
                             " complete line" + (lines == 1 ? "" : "s") + " written\n");
      }
    }
    CHECK(stopped >= 4);
    CHECK(stopped_with_jobs >= 2);
  }

  TEST_CASE("a launcher writing one line at a time gets each answer before it writes the next, on one thread or several") {
    for (const bool jobs : {false, true}) {
      CAPTURE(jobs);
      std::vector<std::string> args = {"recommend", "--batch", "-"};
      if (jobs) args.insert(args.end(), {"--jobs", "2"});
      snnplan::faults::Conversation launcher(kCli, args);
      for (int world_size : {1, 2, 4, 8}) {
        CAPTURE(world_size);
        launcher.send(R"({"model": "m", "world_size": )" + std::to_string(world_size) +
                      R"(, "prefer": "speed", "batch_size": 64})");
        // The input stays open: the answer must come without more input or its end.
        const auto answer = launcher.receive(std::chrono::seconds(20));
        REQUIRE(answer.has_value());
        CHECK(answer->find(R"("world_size":)" + std::to_string(world_size) + ",") !=
              std::string::npos);
      }
      CHECK(launcher.finish() == 0);
    }
  }
}
