// `uses:` reads only inside its rule root (issue 15): the directory of the file loaded first,
// plus any --rules-root / LoadOptions::rule_roots. A path that leads out -- absolute, `..`,
// a symlink to a file or through a directory -- is refused at the `uses:` entry before the
// target is opened; a FIFO or a device is refused without being read; a used file that is
// not a rule file at all is reported without quoting any of it.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "uses_files.hpp"
#include "snnplan/rule_set.hpp"

namespace fs = std::filesystem;
using snnplan::Diagnostic;
using snnplan::LoadError;
using snnplan::LoadOptions;
using snnplan::RuleSet;
using snnplan::testing::run_cli;

namespace {

/// A scratch tree: `root/` holds the rule file loaded first, `outside/` is beside it.
class Tree {
 public:
  Tree() {
    static int count = 0;
    base_ = fs::weakly_canonical(fs::temp_directory_path()) /
            ("snnplan_roots_" + std::to_string(::getpid()) + "_" + std::to_string(++count));
    fs::create_directories(base_ / "root" / "sub");
    fs::create_directories(base_ / "outside");
  }
  ~Tree() {
    std::error_code ignored;
    fs::remove_all(base_, ignored);
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  std::string write(const std::string& relative, const std::string& text) const {
    const fs::path p = base_ / relative;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  [[nodiscard]] std::string path(const std::string& relative) const {
    return (base_ / relative).string();
  }

 private:
  fs::path base_;
};

using snnplan::testing::kUsed;
using snnplan::testing::user_of;

std::vector<std::string> errors_of(const std::string& path, const LoadOptions& options = {}) {
  std::vector<std::string> errors;
  try {
    (void)RuleSet::from_file(path, options);
  } catch (const LoadError& e) {
    for (const Diagnostic& d : e.diagnostics())
      if (d.severity == snnplan::Severity::error) errors.push_back(snnplan::format(d));
  }
  return errors;
}

std::string outside_root(const std::string& user, const std::string& named,
                         const std::string& roots) {
  return user + ":3:10: error: rule file '" + named + "' is outside the rule root (" + roots +
         "): a rule file may use only files under its root (--rules-root DIR adds one)";
}

}  // namespace

TEST_SUITE("loader: rule roots") {
  TEST_CASE(
      "a used file named by an absolute path outside the rule root is refused at its uses: entry") {
    const Tree tree;
    const std::string user = tree.write("root/user.yaml", user_of("/etc/passwd"));
    const auto errors = errors_of(user);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == outside_root(user, "/etc/passwd", tree.path("root")));
  }

  TEST_CASE("a '..' that leads out of the rule root is refused, even to a file that exists") {
    const Tree tree;
    tree.write("outside/used.yaml", kUsed);
    const std::string user = tree.write("root/user.yaml", user_of("../outside/used.yaml"));
    auto errors = errors_of(user);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == outside_root(user, "../outside/used.yaml", tree.path("root")));
    const std::string deep =
        tree.write("root/deep.yaml", user_of("../../../../../../../../etc/shadow"));
    errors = errors_of(deep);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == outside_root(deep, "../../../../../../../../etc/shadow", tree.path("root")));
  }

  TEST_CASE(
      "a symlink that leads out of the rule root is refused, to a file or through a directory") {
    const Tree tree;
    tree.write("outside/used.yaml", kUsed);
    fs::create_symlink(tree.path("outside/used.yaml"), tree.path("root/link.yaml"));
    fs::create_directory_symlink(tree.path("outside"), tree.path("root/linked_dir"));
    const std::string by_file = tree.write("root/by_file.yaml", user_of("link.yaml"));
    const std::string by_dir = tree.write("root/by_dir.yaml", user_of("linked_dir/used.yaml"));
    auto errors = errors_of(by_file);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == outside_root(by_file, "link.yaml", tree.path("root")));
    errors = errors_of(by_dir);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == outside_root(by_dir, "linked_dir/used.yaml", tree.path("root")));
  }

  TEST_CASE("a symlink that stays inside the rule root is followed") {
    const Tree tree;
    tree.write("root/sub/used.yaml", kUsed);
    fs::create_symlink(tree.path("root/sub/used.yaml"), tree.path("root/link.yaml"));
    const std::string user = tree.write("root/user.yaml", user_of("link.yaml"));
    CHECK(RuleSet::from_file(user).evaluate({{"x", 4}}).record().find("out")->as_int() == 8);
  }

  TEST_CASE("a used FIFO or device is refused without waiting on it or reading it") {
    const Tree tree;
    REQUIRE(::mkfifo(tree.path("root/fifo.yaml").c_str(), 0600) == 0);
    const std::string user = tree.write("root/user.yaml", user_of("fifo.yaml"));
    auto errors = errors_of(user);  // would hang on open() if it were opened for reading plainly
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          user + ":3:10: error: cannot use 'fifo.yaml': it is a FIFO, not a regular file");
    const std::string zero = tree.write("root/zero.yaml", user_of("/dev/zero"));
    errors = errors_of(zero, LoadOptions{.rule_roots = {"/dev"}});  // would never end if read
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          zero + ":3:10: error: cannot use '/dev/zero': it is a device, not a regular file");
  }

  TEST_CASE("relative uses: into a subdirectory and back up to the root are allowed") {
    const Tree tree;
    tree.write("root/base.yaml", kUsed);
    tree.write("root/sub/middle.yaml", [] {
      std::string t = user_of("../base.yaml");  // up again, still inside the root
      return t;
    }());
    const std::string user = tree.write("root/user.yaml", user_of("sub/middle.yaml"));
    CHECK(RuleSet::from_file(user).evaluate({{"x", 5}}).record().find("out")->as_int() == 10);
  }

  TEST_CASE("a used file in a subdirectory may not climb above the root the first file set") {
    const Tree tree;
    tree.write("outside/used.yaml", kUsed);
    tree.write("root/sub/middle.yaml", user_of("../../outside/used.yaml"));
    const std::string user = tree.write("root/user.yaml", user_of("sub/middle.yaml"));
    const auto errors = errors_of(user);
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == outside_root(tree.path("root/sub/middle.yaml"), "../../outside/used.yaml",
                                    tree.path("root")));
    CHECK(errors[1] == user + ":3:10: error: rule file '" + tree.path("root/sub/middle.yaml") +
                           "' (used as 'other') has errors");
  }

  TEST_CASE("--rules-root and LoadOptions::rule_roots widen the root") {
    const Tree tree;
    tree.write("outside/used.yaml", kUsed);
    const std::string user = tree.write("root/user.yaml", user_of("../outside/used.yaml"));
    const LoadOptions wider{.rule_roots = {tree.path("outside")}};
    CHECK(RuleSet::from_file(user, wider).evaluate({{"x", 3}}).record().find("out")->as_int() == 6);
    const auto refused = run_cli({"recommend", "--rules", user, "--input", "x=3"});
    CHECK(refused.code == 3);
    CHECK(refused.err == outside_root(user, "../outside/used.yaml", tree.path("root")) + "\n");
    const auto allowed = run_cli(
        {"recommend", "--rules", user, "--rules-root", tree.path("outside"), "--input", "x=3"});
    CHECK(allowed.code == 0);
    CHECK(allowed.out.find("\"out\": 6") != std::string::npos);
    const auto checked = run_cli({"check", "--rules-root", tree.path("outside"), user});
    CHECK(checked.code == 0);
  }

  TEST_CASE("the error names every rule root when there are several") {
    const Tree tree;
    const std::string user = tree.write("root/user.yaml", user_of("/etc/hostname"));
    const auto errors = errors_of(user, LoadOptions{.rule_roots = {tree.path("outside")}});
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] ==
          outside_root(user, "/etc/hostname", tree.path("root") + ", " + tree.path("outside")));
  }

  TEST_CASE("built-in rule files stay reachable by bare name whatever the root") {
    const Tree tree;
    const std::string user = tree.write("root/user.yaml", R"(snnplan: 1
uses:
  base: snn_distributed.yaml
inputs:
  x: {type: int}
record:
  out: {type: int, init: = x}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    CHECK(errors_of(user).empty());
  }

  TEST_CASE("a used file that is not a rule file is reported without quoting any of it") {
    const Tree tree;
    tree.write("root/passwd",
               "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n");
    tree.write("root/config.yaml", "password: hunter2\ntoken: {value: s3cret}\n");
    tree.write("root/broken.yaml", "key: [unclosed secret-value\n");
    for (const std::string used : {"passwd", "config.yaml", "broken.yaml"}) {
      CAPTURE(used);
      const std::string user = tree.write("root/user.yaml", user_of(used));
      const auto run = run_cli({"check", user});
      CHECK(run.code == 3);
      const std::string named = tree.path("root/" + used);
      CHECK(run.out == named + ": error: '" + named +
                           "' is not a rule file (not YAML, or not a mapping with the key "
                           "snnplan); its content is not shown [not-a-rule-file]\n" +
                           user + ":3:10: error: rule file '" + named +
                           "' (used as 'other') has errors [uses]\n    other: " + used +
                           "\n           ^\n" + user + ": failed \u2014 2 errors, 0 warnings\n");
      for (const std::string secret :
           {"root:x", "bash", "hunter2", "password", "s3cret", "token", "secret-value"})
        CHECK(run.out.find(secret) == std::string::npos);
    }
  }

  TEST_CASE("the file the user named is still quoted when it is not a rule file") {
    const Tree tree;
    const std::string named = tree.write("root/notes.yaml", "- just a list\n");
    const auto run = run_cli({"check", named});
    CHECK(run.code == 3);
    CHECK(run.out.find("- just a list") != std::string::npos);
  }
}
