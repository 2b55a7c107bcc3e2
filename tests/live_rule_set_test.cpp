// Hot reload: a rule file rewritten while many threads evaluate. Run under ThreadSanitizer in
// CI (the tsan preset); in the normal build it checks the same answers without race detection.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "snnplan/live_rule_set.hpp"

namespace fs = std::filesystem;

namespace {

std::string variant(const std::string& mode) {
  return "snnplan: 1\n"
         "inputs:\n  x: {type: int}\n"
         "record:\n  mode: {type: string, default: none}\n  x_seen: {type: int, init: = x}\n"
         "start: main\n"
         "tables:\n  main:\n    - name: only\n      set: {mode: " + mode + "}\n";
}

const char* const kBroken[] = {
    "snnplan: 1\ninputs: [\n",                                                    // YAML syntax
    "snnplan: 1\ninputs:\n  x: {type: int}\nrecord: {}\nstart: nowhere\ntables: {}\n",  // unknown table
    "snnplan: 2\n",                                                                 // unsupported version
};

// Replaces the file atomically, as deploy tools do: write a sibling, rename it over.
void replace_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
  }
  fs::rename(tmp, path);
}

fs::path temp_rule_file(const char* name) {
  fs::path dir = fs::temp_directory_path() / ("snnplan-live-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST_SUITE("hot reload") {
  TEST_CASE("a broken edit is rejected and the last good rules keep serving") {
    const fs::path path = temp_rule_file("keep.yaml");
    replace_file(path, variant("a"));
    snnplan::LiveRuleSet rules(path.string());
    std::vector<snnplan::Diagnostic> reported;
    rules.on_rejected([&](const std::vector<snnplan::Diagnostic>& d) { reported = d; });

    replace_file(path, kBroken[1]);
    CHECK_FALSE(rules.reload());
    const auto error = std::find_if(reported.begin(), reported.end(),
                                    [](const snnplan::Diagnostic& d) { return d.severity == snnplan::Severity::error; });
    REQUIRE(error != reported.end());
    CHECK(error->message == "unknown table 'nowhere'");
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "a");
    CHECK(rules.status().version == 1);
    CHECK(rules.status().rejected_reloads == 1);
    CHECK_FALSE(rules.status().last_error.empty());

    replace_file(path, variant("b"));
    CHECK(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "b");
    CHECK(rules.status().version == 2);
    CHECK(rules.status().last_error.empty());
    CHECK_FALSE(rules.reload_if_changed());  // nothing changed since
  }

  TEST_CASE("an edit to a file the rules use is picked up, and a file newly used is watched from then on") {
    const fs::path inner = temp_rule_file("inner.yaml");
    const fs::path other = temp_rule_file("other.yaml");
    const fs::path outer = temp_rule_file("outer.yaml");
    const auto user_of = [](const std::string& used) {
      return "snnplan: 1\nuses:\n  inner: " + used +
             "\ninputs:\n  x: {type: int}\nlet:\n  r:\n    call: inner\n    with: {x: = x}\n"
             "record:\n  mode: {type: string, init: = r.mode}\nstart: main\ntables:\n  main:\n    - name: only\n      set: {}\n";
    };
    replace_file(inner, variant("a"));
    replace_file(other, variant("c"));
    replace_file(outer, user_of("inner.yaml"));
    snnplan::LiveRuleSet rules(outer.string());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "a");
    CHECK_FALSE(rules.reload_if_changed());

    replace_file(inner, variant("b"));  // only the used file changes
    CHECK(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "b");

    replace_file(outer, user_of("other.yaml"));
    CHECK(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "c");
    CHECK_FALSE(rules.reload_if_changed());
    replace_file(other, variant("d"));
    CHECK(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "d");
    CHECK(rules.status().version == 4);

    // An edit that starts using a broken file is rejected; fixing that file alone is noticed.
    const fs::path broken = temp_rule_file("broken_used.yaml");
    replace_file(broken, kBroken[1]);
    replace_file(outer, user_of("broken_used.yaml"));
    CHECK_FALSE(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "d");
    CHECK_FALSE(rules.reload_if_changed());  // nothing changed since the rejected attempt
    replace_file(broken, variant("e"));
    CHECK(rules.reload_if_changed());
    CHECK(rules.evaluate({{"x", 1}}).record().find("mode")->as_string() == "e");
    CHECK(rules.status().version == 5);
  }

  TEST_CASE("the first load of a broken file throws a LoadError") {
    const fs::path path = temp_rule_file("first.yaml");
    replace_file(path, kBroken[0]);
    CHECK_THROWS_AS(snnplan::LiveRuleSet(path.string()), snnplan::LoadError);
  }

  TEST_CASE("eight threads evaluating while the file is rewritten 1000 times see only valid answers") {
    const fs::path path = temp_rule_file("stress.yaml");
    replace_file(path, variant("a"));
    snnplan::LiveRuleSet rules(path.string());
    rules.watch(std::chrono::milliseconds(1));

    std::atomic<bool> done{false};
    std::atomic<long> evaluations{0};
    std::atomic<long> wrong{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 8; ++t) {
      readers.emplace_back([&, t] {
        while (!done.load()) {
          const snnplan::EvaluationResult r = rules.evaluate({{"x", t}});
          // Every valid variant answers "a" or "b" and echoes x; anything else is wrong.
          const bool ok = r.ok() && (r.record().find("mode")->as_string() == "a" || r.record().find("mode")->as_string() == "b") &&
                          r.record().find("x_seen")->as_int() == t;
          if (!ok) ++wrong;
          ++evaluations;
        }
      });
    }
    for (int k = 0; k < 1000; ++k) {
      // Alternate: valid a, broken, valid b, broken, ...
      if (k % 2 == 0) replace_file(path, variant(k % 4 == 0 ? "a" : "b"));
      else replace_file(path, kBroken[(k / 2) % 3]);
      if (k % 10 == 0) rules.reload_if_changed();  // the writer's own reloads race the watcher's
    }
    replace_file(path, variant("b"));
    rules.reload();
    done = true;
    for (auto& t : readers) t.join();
    rules.stop_watching();

    CHECK(wrong.load() == 0);
    CHECK(evaluations.load() > 0);
    CHECK(rules.evaluate({{"x", 3}}).record().find("mode")->as_string() == "b");
    CHECK(rules.status().version >= 2);
    CHECK(rules.status().rejected_reloads >= 1);
  }
}
