// The workbench of `snnplan serve` without HTTP (src/frontends/serve/workbench.hpp): what each endpoint
// answers for edited text, that a broken text keeps the last good answer, that save refuses a
// file changed on disk, and many request threads at once (sensible under TSan).

#include "frontends/serve/workbench.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "frontends/serve/messages.hpp"
#include "frontends/serve/outline.hpp"

namespace fs = std::filesystem;
using snnplan::serve::Reply;
using snnplan::serve::Workbench;
using snnplan::serve::WorkbenchOptions;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// A copy of the default rules in a fresh directory, with the workbench's save writing plainly.
struct Scratch {
  fs::path dir;
  fs::path rules;
  std::string text;
  explicit Scratch(const char* name, const std::string& rule_file = "snn_distributed")
      // The process id in the name: two test runs on one machine (two build trees) at once
      // must not share a directory.
      : dir(fs::temp_directory_path() /
            (std::string("snnplan-serve-") + std::to_string(::getpid()) + "-" + name)),
        rules(dir / "rules.yaml") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(fs::path(SNNPLAN_RULES_DIR) / (rule_file + ".yaml"), rules);
    fs::copy_file(fs::path(SNNPLAN_RULES_DIR) / (rule_file + ".test.yaml"), dir / "rules.test.yaml");
    text = read(rules);
  }
  ~Scratch() { fs::remove_all(dir); }
  [[nodiscard]] WorkbenchOptions options() const {
    return WorkbenchOptions{.path = rules.string(),
                            .test_paths = {(dir / "rules.test.yaml").string()},
                            .rule_roots = {},
                            .save = [](const std::string& path, const std::string& t) { write(path, t); }};
  }
};

const nlohmann::json kInput = {{"model", "cifar10dvs_vgg"}, {"world_size", 4},
                               {"prefer", "speed"},        {"batch_size", 32}};

// The edit the tests make: CIFAR10DVS VGG gets fsdp2_tp for speed from 8 ranks on, not 4.
std::string edited(const std::string& text) {
  const std::string line = "        model_family: cifar10dvs_vgg\n";
  std::string out = text;
  out.insert(out.find(line) + line.size(), "        world_size: {ge: 8}\n");
  return out;
}

}  // namespace

TEST_SUITE("serve") {
  TEST_CASE("the workbench checks edited text and marks each diagnostic at its line as check words it") {
    Scratch s("check");
    Workbench bench(s.options());
    std::string broken = edited(s.text);
    broken.replace(broken.find("{ge: 8}"), 7, "{gee: 8}");
    const Reply r = bench.check(broken);
    CHECK(r.status == 200);
    CHECK(r.body["ok"] == false);
    REQUIRE(r.body["diagnostics"].size() == 1);
    const auto& d = r.body["diagnostics"][0];
    CHECK(d["line"] == 81);
    CHECK(d["column"] == 22);
    CHECK(d["code"] == "unknown-key");
    CHECK(d["text"].get<std::string>().starts_with(s.rules.string() + ":81:22: error: unknown matcher 'gee'"));
    // A text that does not load keeps the last good decision table.
    CHECK(r.body["stale"] == true);
    CHECK(r.body["outline"]["tables"].size() == 4);
  }

  TEST_CASE("the decision names the fired rules and the condition that failed for the others") {
    Scratch s("decide");
    Workbench bench(s.options());
    const Reply before = bench.decide(s.text, kInput);
    CHECK(before.body["record"]["mode"] == "fsdp2_tp");
    const Reply after = bench.decide(edited(s.text), kInput);
    CHECK(after.body["record"]["mode"] == "dp");
    CHECK(after.body["tried"]["speed/data-parallel"]["status"] == "fired");
    CHECK(after.body["tried"]["speed/fsdp2-tp-for-cifar10dvs-vgg"]["failed"] ==
          "world_size ge 8: 4 >= 8 is false");
    // A half-typed text answers from the last text that loaded, and says so.
    const Reply stale = bench.decide("snnplan: 1\ninputs: {", kInput);
    CHECK(stale.body["stale"] == true);
    CHECK(stale.body["notice"] == snnplan::serve::messages::text_does_not_load());
    CHECK(stale.body["record"]["mode"] == "dp");
  }

  TEST_CASE("the diff and the map of an edit show the changed region and the changed cells") {
    Scratch s("diff");
    Workbench bench(s.options());
    const Reply diff = bench.diff(edited(s.text), nullptr);
    REQUIRE(diff.status == 200);
    CHECK(diff.body["changed"] == true);
    REQUIRE(diff.body["changes"].size() == 1);
    CHECK(diff.body["text"].get<std::string>().find("world_size < 8") != std::string::npos);
    const nlohmann::json request = {{"x", {{"name", "world_size"}, {"from", 1}, {"to", 10}}},
                                    {"y", {{"name", "prefer"}}},
                                    {"inputs", kInput}};
    const Reply map = bench.map(edited(s.text), request);
    REQUIRE(map.status == 200);
    CHECK(map.body["changed_cells"] == 2);  // world sizes 4 and 6, prefer speed
    CHECK(map.body["y"]["values"] == nlohmann::json::array({"speed", "memory", "capacity"}));
    CHECK(bench.map(edited(s.text), {{"x", {{"name", "nope"}}}, {"y", {{"name", "prefer"}}}}).body["error"] ==
          snnplan::serve::messages::unknown_axis("nope"));
    // The CLI's axis checks, worded for the page (usecases::map_axis decides for both).
    const auto refused = [&](const nlohmann::json& x) {
      return bench.map(edited(s.text), {{"x", x}, {"y", {{"name", "prefer"}}}, {"inputs", kInput}});
    };
    const Reply step = refused({{"name", "world_size"}, {"from", 1}, {"to", 4}, {"step", 0}});
    CHECK(step.status == 422);
    CHECK(step.body["error"] == "the axis 'world_size': the step must be at least 1, got 0");
    CHECK(refused({{"name", "world_size"}, {"from", 4}, {"to", 1}}).body["error"] ==
          "the axis 'world_size': \"to\" is below \"from\", so it has no values");
    CHECK(refused({{"name", "world_size"}, {"from", 1}, {"to", 1000}}).body["error"] ==
          "the axis 'world_size' has more than 128 values");
    // A string input without one_of has no values of its own, and no default range.
    CHECK(refused({{"name", "model"}}).body["error"] ==
          "the axis 'model' has no values of its own (not a bool, no one_of): give them as "
          "\"values\"");
    CHECK(refused({{"name", "world_size"}, {"values", nlohmann::json::array()}}).body["error"] ==
          "the axis 'world_size' lists no \"values\"");
    const Reply listed = refused({{"name", "world_size"}, {"values", {2, 8}}});
    REQUIRE(listed.status == 200);
    CHECK(listed.body["x"]["values"] == nlohmann::json::array({2, 8}));
  }

  TEST_CASE("the diff of an edited search is a sample that finds the changed plans and says so") {
    Scratch s("diff-search", "snn_llm_planning");
    Workbench bench(s.options());
    const Reply same = bench.diff(s.text, nullptr);
    REQUIRE(same.status == 200);
    CHECK(same.body["sampled"] == true);
    CHECK(same.body["changed"] == false);
    CHECK(same.body["changed_inputs"] == 0);
    std::string coefficient = s.text;
    const std::string from = "full_activation_overhead: \"1.05\"";
    REQUIRE(coefficient.find(from) != std::string::npos);
    coefficient.replace(coefficient.find(from), from.size(), "full_activation_overhead: \"1.25\"");
    const Reply changed = bench.diff(coefficient, nullptr);
    REQUIRE(changed.status == 200);
    CHECK(changed.body["sampled"] == true);
    CHECK(changed.body["changed"] == true);
    CHECK(changed.body["corpus_from_tests"] == (s.dir / "rules.test.yaml").string());  // the saved file's tests
    CHECK(changed.body["changed_inputs"].get<int>() > 0);
    CHECK(changed.body["text"].get<std::string>().find("sampled, not every input: 2029 inputs compared (21 from the corpus") == 0);
  }

  TEST_CASE("the rule tests run against the edited text with pass, fail and coverage") {
    Scratch s("tests");
    Workbench bench(s.options());
    const Reply good = bench.tests(s.text, false);
    CHECK(good.body["failed"] == 0);
    CHECK(good.body["passed"].get<int>() > 0);
    CHECK(good.body.contains("coverage"));
    std::string wrong = s.text;  // speed's data parallel without ZeRO: the tests that expect it fail
    const std::string zero = "{mode: dp, optimizer_sharding: = zero_sharding, dp_mesh_dim";
    wrong.replace(wrong.find(zero), zero.size(), "{mode: dp, optimizer_sharding: none, dp_mesh_dim");
    const Reply bad = bench.tests(wrong, false);
    CHECK(bad.body["failed"].get<int>() >= 1);
    CHECK(bad.body["ok"] == false);
  }

  TEST_CASE("save writes a text that checks and refuses errors and a file changed on disk") {
    Scratch s("save");
    Workbench bench(s.options());
    std::string broken = s.text + "tables: {";
    const Reply refused = bench.save(broken, "");
    CHECK(refused.status == 422);
    CHECK(read(s.rules) == s.text);
    const Reply saved = bench.save(edited(s.text), "");
    CHECK(saved.status == 200);
    CHECK(read(s.rules) == edited(s.text));
    // Someone else changes the file: the next save shows the diff against that version.
    write(s.rules, s.text);
    const Reply conflict = bench.save(edited(s.text) + "# mine\n", "");
    CHECK(conflict.status == 409);
    CHECK(conflict.body["error"] == snnplan::serve::messages::save_changed_on_disk(s.rules.string()));
    CHECK(conflict.body["diff"]["changes"].size() == 1);
    CHECK(read(s.rules) == s.text);
  }

  TEST_CASE("many request threads share one workbench without a race") {
    Scratch s("threads");
    Workbench bench(s.options());
    std::vector<std::thread> threads;
    std::vector<std::string> modes(8);
    for (std::size_t i = 0; i < modes.size(); ++i)
      threads.emplace_back([&, i] {
        const std::string text = i % 2 == 0 ? s.text : edited(s.text);
        for (int round = 0; round < 3; ++round) {
          (void)bench.check(i % 3 == 0 ? "snnplan: 1\n{" : text);
          modes[i] = bench.decide(text, kInput).body["record"]["mode"].get<std::string>();
        }
      });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < modes.size(); ++i) CHECK(modes[i] == (i % 2 == 0 ? "fsdp2_tp" : "dp"));
  }

  TEST_CASE("a set value is quoted as written up to the comma or brace that ends it") {
    const std::string text = "a: {mode: pp, mesh: \"= [w, 2]\", n: = f(a, b)}\n";
    CHECK(snnplan::serve::written_value(text, {"f", 1, 11}) == "pp");
    CHECK(snnplan::serve::written_value(text, {"f", 1, 21}) == "\"= [w, 2]\"");
    CHECK(snnplan::serve::written_value(text, {"f", 1, 36}) == "= f(a, b)");
  }
}
