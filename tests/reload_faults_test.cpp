// Hot reload under file faults (issue 15): the rule file deleted, replaced by a directory,
// made unreadable, truncated to 0 bytes, written half, swapped for a dangling symlink, or a
// file it uses removed. In each case the last good rules keep serving, the fault is reported
// once (one error, through the listener; on stderr with `recommend --batch --watch`), and
// the next good write is picked up.

#include <doctest/doctest.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "frontends/cli/app.hpp"
#include "snnplan/live_rule_set.hpp"

namespace fs = std::filesystem;
using snnplan::Diagnostic;
using snnplan::LiveRuleSet;

namespace {

std::string rules_text(const std::string& mode, const std::string& uses = "") {
  std::string text = "snnplan: 1\n";
  if (!uses.empty()) text += "uses:\n  part: " + uses + "\n";
  text += "inputs:\n  x: {type: int}\nrecord:\n  mode: {type: string, default: none}\n";
  if (!uses.empty()) text += "let:\n  p: {call: part, with: {x: = x}}\n";
  text += "start: main\ntables:\n  main:\n    - name: only\n      set: {mode: " + mode + "}\n";
  return text;
}

const std::string kPart =
    "snnplan: 1\ninputs:\n  x: {type: int}\nrecord:\n  y: {type: int, init: = x}\nstart: main\n"
    "tables:\n  main:\n    - name: all\n      set: {}\n";

void write_in_place(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

/// A directory every user may enter (the unreadable row runs unprivileged).
struct Scratch {
  fs::path dir;
  fs::path rules;
  Scratch() {
    static int count = 0;
    dir = fs::weakly_canonical(fs::temp_directory_path()) /
          ("snnplan_reload_" + std::to_string(::getpid()) + "_" + std::to_string(++count));
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::all);
    rules = dir / "rules.yaml";
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

struct FaultRow {
  std::string name;
  bool uses_part = false;
  std::function<void(const Scratch&)> fault;
  /// The one error the fault is reported with (formatted); PATH stands for the rule file's.
  std::string expected;
  std::function<void(const Scratch&)> good_write;
};

std::string replace_path(std::string text, const Scratch& s) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"PATH", s.rules.string()},
                                   std::pair<std::string, std::string>{"DIR", s.dir.string()}})
    for (std::size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

/// Runs one row; returns "" when everything held, else what did not.
std::string run_row(const FaultRow& row) {
  const Scratch s;
  if (row.uses_part) write_in_place(s.dir / "part.yaml", kPart);
  write_in_place(s.rules, rules_text("a", row.uses_part ? "part.yaml" : ""));
  LiveRuleSet rules(s.rules.string());
  std::vector<std::vector<Diagnostic>> reports;
  rules.on_rejected([&](const std::vector<Diagnostic>& d) { reports.push_back(d); });
  auto mode = [&] {
    return std::string(rules.evaluate({{"x", 1}}).record().find("mode")->as_string());
  };

  row.fault(s);
  if (rules.reload_if_changed()) return "the fault was taken as new rules";
  if (reports.size() != 1) return "reports after the fault: " + std::to_string(reports.size());
  std::vector<std::string> errors;
  for (const Diagnostic& d : reports[0])
    if (d.severity == snnplan::Severity::error) errors.push_back(snnplan::format(d));
  if (errors.size() != 1)
    return "errors reported: " + std::to_string(errors.size()) +
           (errors.empty() ? "" : ", first: " + errors[0]);
  if (errors[0] != replace_path(row.expected, s)) return "reported: " + errors[0];
  if (mode() != "a") return "the last good rules stopped serving";
  if (rules.reload_if_changed() || reports.size() != 1) return "the same fault was reported again";
  row.good_write(s);
  if (!rules.reload_if_changed()) return "the good write after the fault was not picked up";
  if (mode() != "b") return "the good write was loaded but does not serve";
  return "";
}

/// run_row as the unprivileged user 'nobody' when the tests run as root (permissions do not
/// hold for root), in a child process.
std::string run_row_unprivileged(const FaultRow& row) {
  if (::geteuid() != 0) return run_row(row);
  const passwd* nobody = ::getpwnam("nobody");
  if (!nobody) return "no user 'nobody' to run as";
  int result[2];
  if (::pipe(result) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(result[0]);
    std::string outcome = "could not drop root";
    if (::setgid(nobody->pw_gid) == 0 && ::setuid(nobody->pw_uid) == 0) outcome = run_row(row);
    (void)!::write(result[1], outcome.data(), outcome.size());
    ::_exit(0);
  }
  ::close(result[1]);
  std::string outcome;
  char chunk[512];
  for (ssize_t n; (n = ::read(result[0], chunk, sizeof chunk)) > 0;)
    outcome.append(chunk, static_cast<std::size_t>(n));
  ::close(result[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return outcome;
}

void good_b(const Scratch& s) {
  write_in_place(s.rules, rules_text("b"));
}

std::vector<FaultRow> fault_table() {
  const std::string cannot_read = "PATH: error: cannot read rule file 'PATH': ";
  return {
      {"the rule file is deleted", false, [](const Scratch& s) { fs::remove(s.rules); },
       cannot_read + "No such file or directory", good_b},
      {"the rule file is replaced by a directory", false,
       [](const Scratch& s) {
         fs::remove(s.rules);
         fs::create_directory(s.rules);
       },
       cannot_read + "it is a directory",
       [](const Scratch& s) {
         fs::remove(s.rules);
         good_b(s);
       }},
      {"the rule file is truncated to 0 bytes mid-write", false,
       [](const Scratch& s) { write_in_place(s.rules, ""); },
       "PATH:1:1: error: a rule file must be a mapping with the keys snnplan, inputs, record, "
       "tables, ...",
       good_b},
      {"the rule file is written only half", false,
       [](const Scratch& s) {
         const std::string whole = rules_text("b");
         // Cut inside a flow mapping, as a writer stopped mid-line leaves it.
         write_in_place(s.rules, whole.substr(0, whole.find("default: none")));
       },
       "PATH:5:1: error: YAML syntax error: end of map flow not found", good_b},
      {"the rule file is swapped for a symlink that leads nowhere", false,
       [](const Scratch& s) {
         fs::remove(s.rules);
         fs::create_symlink(s.dir / "missing.yaml", s.rules);
       },
       cannot_read + "No such file or directory",
       [](const Scratch& s) {
         // The symlink is pointed at a good file: picked up through it.
         write_in_place(s.dir / "good.yaml", rules_text("b"));
         fs::remove(s.rules);
         fs::create_symlink(s.dir / "good.yaml", s.rules);
       }},
      {"a file the rules use is removed", true,
       [](const Scratch& s) { fs::remove(s.dir / "part.yaml"); },
       "PATH:3:9: error: cannot find rule file 'part.yaml' in DIR or among the built-in rule files",
       [](const Scratch& s) {
         write_in_place(s.dir / "part.yaml", kPart);
         write_in_place(s.rules, rules_text("b", "part.yaml"));
       }},
  };
}

/// An input stream that runs an action before handing out each line: faults between the
/// lines of a `--watch` batch.
class ScriptedInput : public std::streambuf {
 public:
  struct Step {
    std::function<void()> before;
    std::string line;
  };
  explicit ScriptedInput(std::vector<Step> steps) : steps_(std::move(steps)) {}

 protected:
  int_type underflow() override {
    if (next_ == steps_.size()) return traits_type::eof();
    Step& step = steps_[next_++];
    if (step.before) step.before();
    current_ = step.line + "\n";
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
  }

 private:
  std::vector<Step> steps_;
  std::size_t next_ = 0;
  std::string current_;
};

}  // namespace

TEST_SUITE("hot reload: file faults") {
  TEST_CASE(
      "every file fault keeps the last good rules serving, is reported once, and the next good "
      "write is picked up") {
    for (const FaultRow& row : fault_table()) {
      CAPTURE(row.name);
      CHECK(run_row(row) == "");
    }
  }

  TEST_CASE(
      "an unreadable rule file keeps the last good rules serving, and making it readable again is "
      "picked up") {
    const FaultRow row{"the rule file is made unreadable", false,
                       [](const Scratch& s) {
                         write_in_place(s.rules, rules_text("c"));  // an edit nobody can read
                         fs::permissions(s.rules, fs::perms::none);
                       },
                       "PATH: error: cannot read rule file 'PATH': Permission denied",
                       [](const Scratch& s) {
                         fs::permissions(s.rules, fs::perms::owner_read | fs::perms::owner_write);
                         good_b(s);
                       }};
    CHECK(run_row_unprivileged(row) == "");
  }

  TEST_CASE("with --watch a batch reports each fault once on stderr and answers every line") {
    const Scratch s;
    write_in_place(s.rules, rules_text("a"));
    const std::string line = R"({"x": 1})";
    ScriptedInput script({{nullptr, line},
                          {[&] { fs::remove(s.rules); }, line},
                          {nullptr, line},
                          {[&] { good_b(s); }, line},
                          {[&] { write_in_place(s.rules, ""); }, line},
                          {[&] { write_in_place(s.rules, rules_text("c")); }, line}});
    std::istream in(&script);
    std::ostringstream out, err;
    const std::string rules = s.rules.string();
    const char* argv[] = {"snnplan", "recommend", "--batch",    "-",
                          "--watch", "--rules",   rules.c_str()};
    const int code = snnplan::cli::run(7, argv, in, out, err);
    CHECK(code == 0);
    CHECK(out.str() ==
          "{\"mode\":\"a\"}\n{\"mode\":\"a\"}\n{\"mode\":\"a\"}\n{\"mode\":\"b\"}\n{\"mode\":\"b\"}"
          "\n{\"mode\":\"c\"}\n");
    CHECK(err.str() ==
          "snnplan: rejected an edit of the rule file; the previous rules stay in use:\n" + rules +
              ": error: cannot read rule file '" + rules +
              "': No such file or directory\n"
              "snnplan: rejected an edit of the rule file; the previous rules stay in use:\n" +
              rules +
              ":1:1: error: a rule file must be a mapping with the keys snnplan, inputs, record, "
              "tables, ...\n");
  }
}
