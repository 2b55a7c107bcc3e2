// The compiled form of rule files (compile/serialized_rules.hpp): the built-in rules embedded at
// build time and the compiled-rules cache behave exactly as rules compiled from YAML, and a
// damaged cache is rebuilt, never trusted.
#include "api/rule_cache.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/builtin_forms.hpp"
#include "api/rule_set_access.hpp"
#include "frontends/cli/app.hpp"
#include "compile/serialized_rules.hpp"
#include "render/render.hpp"
#include "snnplan/snnplan.hpp"

namespace {

namespace fs = std::filesystem;
using snnplan::Inputs;
using snnplan::RuleSet;
using snnplan::RuleSetAccess;
using snnplan::Value;

/// A fresh, empty cache home for one test ($XDG_CACHE_HOME), SNNPLAN_NO_CACHE unset; both
/// restored afterwards.
class TemporaryCacheHome {
 public:
  TemporaryCacheHome() {
    std::string pattern = (fs::temp_directory_path() / "snnplan-cache-test.XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    home_ = pattern;
    save("XDG_CACHE_HOME", old_xdg_);
    save(snnplan::api::kNoCacheVariable, old_no_cache_);
    ::setenv("XDG_CACHE_HOME", home_.c_str(), 1);
    ::unsetenv(snnplan::api::kNoCacheVariable);
  }
  ~TemporaryCacheHome() {
    restore("XDG_CACHE_HOME", old_xdg_);
    restore(snnplan::api::kNoCacheVariable, old_no_cache_);
    std::error_code ec;
    fs::remove_all(home_, ec);
  }
  TemporaryCacheHome(const TemporaryCacheHome&) = delete;
  TemporaryCacheHome& operator=(const TemporaryCacheHome&) = delete;

  [[nodiscard]] const std::string& home() const { return home_; }
  [[nodiscard]] std::string directory() const { return home_ + "/snnplan"; }
  /// Every file under the cache home (the cache's, the test's rule files, anything else).
  [[nodiscard]] std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(home_))
      if (entry.is_regular_file()) out.push_back(entry.path());
    return out;
  }
  /// The files in the cache directory.
  [[nodiscard]] std::vector<fs::path> cached() const {
    std::vector<fs::path> out;
    if (!fs::is_directory(directory())) return out;
    for (const auto& entry : fs::directory_iterator(directory()))
      if (entry.is_regular_file()) out.push_back(entry.path());
    return out;
  }

 private:
  static void save(const char* name, std::optional<std::string>& into) {
    if (const char* v = std::getenv(name)) into = v;
  }
  static void restore(const char* name, const std::optional<std::string>& value) {
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  std::string home_;
  std::optional<std::string> old_xdg_;
  std::optional<std::string> old_no_cache_;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

/// Everything an explanation shows: each step (with its location) and the record or error.
std::string describe(const snnplan::Explanation& e) {
  std::string out;
  for (const snnplan::TraceStep& step : e.steps)
    out += std::string(snnplan::to_string(step.kind)) + ' ' + std::to_string(step.depth) + ' ' + step.table + ' ' +
           step.rule + ' ' + snnplan::to_string(step.location) + ' ' + step.detail + '\n';
  if (e.result.ok()) return out + snnplan::render::to_json(e.result.record()).dump();
  return out + "error " + std::to_string(static_cast<int>(e.result.error().kind)) + ": " + e.result.error().message;
}

std::string describe_warnings(const RuleSet& rules) {
  std::string out;
  for (const snnplan::Diagnostic& d : rules.warnings()) out += snnplan::format(d) + '\n';
  for (const auto& a : RuleSetAccess::compiled(rules).allowed)
    out += "allowed " + snnplan::format(a.diagnostic) + " (" + a.reason + ") at " + snnplan::to_string(a.allowed_at) + '\n';
  for (const snnplan::InputInfo& info : rules.inputs())
    out += "input " + info.name + ' ' + info.type + (info.required ? " required" : "") + '\n';
  return out + "file " + rules.file_name();
}

Inputs inputs_of(const nlohmann::json& object) {
  Inputs inputs;
  for (const auto& item : object.items()) {
    const nlohmann::json& v = item.value();
    if (v.is_boolean()) inputs.emplace_back(item.key(), Value(v.get<bool>()));
    else if (v.is_number_integer()) inputs.emplace_back(item.key(), Value(v.get<std::int64_t>()));
    else if (v.is_number_float()) inputs.emplace_back(item.key(), Value(v.get<double>()));
    else if (v.is_string()) inputs.emplace_back(item.key(), Value(v.get<std::string>()));
    else if (v.is_null()) inputs.emplace_back(item.key(), Value());
  }
  return inputs;
}

/// Inputs of the golden recommend cases (every `every`-th), then `random` random ones with
/// odd values (bogus preferences, negative and huge sizes, missing flags).
std::vector<Inputs> recommend_inputs(std::size_t every, int random) {
  std::vector<Inputs> out;
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/golden/recommend.jsonl");
  REQUIRE(in.good());
  std::string line;
  for (std::size_t k = 0; std::getline(in, line); ++k)
    if (!line.empty() && k % every == 0) out.push_back(inputs_of(nlohmann::json::parse(line).at("input")));
  std::mt19937_64 rng(20261201);
  const std::vector<std::string> models = {"cifar10dvs_vgg", "spikformer_8_384", "Spikformer", "sew_resnet18", ""};
  const std::vector<std::string> prefers = {"speed", "memory", "capacity", "SPEED", "bogus", ""};
  const std::vector<std::int64_t> sizes = {-3, 0, 1, 2, 3, 4, 6, 8, 12, 16, 64, 97, 1024, 4611686018427387905};
  const auto pick = [&rng](const auto& list) { return list[rng() % list.size()]; };
  for (int k = 0; k < random; ++k) {
    Inputs inputs = {{"model", Value(pick(models))},
                     {"world_size", Value(pick(sizes))},
                     {"prefer", Value(pick(prefers))},
                     {"batch_size", Value(pick(sizes))}};
    for (const char* flag : {"zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
                             "tensor_parallel_available"})
      if (rng() % 3 != 0) inputs.emplace_back(flag, Value(rng() % 2 == 0));
    if (rng() % 4 == 0) inputs.emplace_back("backend", Value(std::string("eager")));
    if (rng() % 16 == 0) inputs.emplace_back("bogus_input", Value(std::int64_t{1}));
    out.push_back(std::move(inputs));
  }
  return out;
}

/// `a` and `b` answer and explain every input alike.
void check_same_answers(const RuleSet& a, const RuleSet& b, const std::vector<Inputs>& inputs) {
  CHECK(describe_warnings(a) == describe_warnings(b));
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    CAPTURE(k);
    REQUIRE(describe(a.explain(inputs[k])) == describe(b.explain(inputs[k])));
  }
}

/// The rule set `rules` compiled to bytes and read back.
RuleSet round_trip(const RuleSet& rules) {
  const std::string bytes = snnplan::compile::serialize_rules(RuleSetAccess::compiled(rules));
  auto back = snnplan::compile::deserialize_rules(bytes);
  REQUIRE(back != nullptr);
  // The same bytes again: nothing is lost or added on the way.
  CHECK(snnplan::compile::serialize_rules(*back) == bytes);
  return RuleSetAccess::wrap(std::move(back));
}

struct CliRun {
  int code = 0;
  std::string out, err;
  bool operator==(const CliRun&) const = default;
};

CliRun run_cli(std::vector<std::string> args) {
  std::vector<const char*> argv = {"snnplan"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in;
  std::ostringstream out, err;
  const int code = snnplan::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  return CliRun{code, out.str(), err.str()};
}

/// A copy of `source` at a fresh path of its own in `directory` (so its cache file is its own).
std::string copy_rule_file(const std::string& source, const std::string& directory, const std::string& name) {
  const std::string path = directory + "/" + name;
  write_text(path, read_text(source));
  return path;
}

}  // namespace

TEST_SUITE("cache") {
  TEST_CASE("the built-in rules, read from their compiled form, answer as rules/snn_distributed.yaml does") {
    const RuleSet& builtin = RuleSet::builtin();
    // Not compiled from YAML at startup: the embedded compiled form matches the embedded text.
    CHECK(RuleSetAccess::compiled(builtin).source_text == RuleSet::builtin_text());
    const RuleSet from_yaml = RuleSet::from_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml");
    CHECK(describe_warnings(builtin) == describe_warnings(RuleSet::from_string(RuleSet::builtin_text(),
                                                                                 "rules/snn_distributed.yaml")));
    std::vector<Inputs> inputs = recommend_inputs(3, 2000);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      CAPTURE(k);
      // The file's name differs (rules/... against the path given): compare all but locations.
      const auto a = builtin.evaluate(inputs[k]);
      const auto b = from_yaml.evaluate(inputs[k]);
      REQUIRE(a.ok() == b.ok());
      if (a.ok()) CHECK(snnplan::render::to_json(a.record()) == snnplan::render::to_json(b.record()));
      else CHECK(a.error().message == b.error().message);
    }
    check_same_answers(builtin, RuleSet::from_string(RuleSet::builtin_text(), "rules/snn_distributed.yaml"),
                       recommend_inputs(7, 500));
  }

  TEST_CASE("the embedded compiled form is the one the library compiles from the embedded text") {
    for (const char* name : {"snn_distributed.yaml", "snn_plan.yaml"}) {
      CAPTURE(name);
      CHECK(snnplan::compile::serialize_rules(RuleSetAccess::compiled(RuleSetAccess::builtin(name))) ==
            RuleSetAccess::embedded_form(name));
    }
  }

  TEST_CASE("the compiled forms embedded in the library pass every check of bytes from outside") {
    // builtin() reads them as this build's own (SerializedOrigin::this_build), without
    // recomputing the ABI hash and the checksum: both hold, and the bytes are what the library
    // compiles from the embedded text.
    REQUIRE(snnplan::detail::kBuiltinCompiledRuleCount == 3);
    for (std::size_t k = 0; k < snnplan::detail::kBuiltinCompiledRuleCount; ++k) {
      const snnplan::detail::BuiltinCompiledForm& form = snnplan::detail::kBuiltinCompiledRules[k];
      CAPTURE(form.file);
      snnplan::compile::SerializedProblem problem = snnplan::compile::SerializedProblem::truncated;
      CHECK(snnplan::compile::deserialize_rules(form.bytes, &problem) != nullptr);
      CHECK(problem == snnplan::compile::SerializedProblem::none);
      CHECK(form.bytes == RuleSetAccess::embedded_form(form.file));
    }
  }

  TEST_CASE("the revisions computed at build time are those of the built-in rules read back") {
    for (const char* name : {"snn_distributed.yaml", "snn_plan.yaml", "snn_llm_planning.yaml"}) {
      CAPTURE(name);
      CHECK(RuleSetAccess::builtin_revision(name) == RuleSetAccess::builtin(name).sha256());
    }
    CHECK_THROWS_AS((void)RuleSetAccess::builtin_revision("no_such.yaml"), std::invalid_argument);
  }

  TEST_CASE("the built-in rules skip the invariants the analysis proves, and only those") {
    const auto proved = [](const RuleSet& rules) {
      std::vector<bool> flags;
      for (const auto& invariant : RuleSetAccess::compiled(rules).invariants) flags.push_back(invariant.proved);
      return flags;
    };
    const std::string_view text = RuleSet::builtin_text();
    const std::vector<bool> analysed =
        proved(RuleSet::from_string(text, "rules/snn_distributed.yaml", snnplan::LoadOptions{.analyse_tables = true}));
    // The default table's eight invariants are all proved; a plain load proves nothing.
    CHECK(analysed == std::vector<bool>(8, true));
    CHECK(proved(RuleSet::builtin()) == analysed);
    CHECK(proved(RuleSet::from_string(text, "rules/snn_distributed.yaml")) == std::vector<bool>(8, false));
    // Otherwise the embedded form is the plain load's: its warnings, not the analysis' notes.
    const RuleSet plan = RuleSetAccess::builtin("snn_plan.yaml");
    CHECK(plan.warnings().empty());
    // A proof is read back from the bytes.
    CHECK(proved(round_trip(RuleSet::builtin())) == analysed);
    // The evaluator asks once whether all are proved, not each invariant on every evaluation:
    // the summary is kept wherever the proofs are set, and false where any is missing.
    CHECK(RuleSetAccess::compiled(RuleSet::builtin()).every_invariant_proved());
    CHECK(RuleSetAccess::compiled(round_trip(RuleSet::builtin())).every_invariant_proved());
    CHECK_FALSE(RuleSetAccess::compiled(RuleSet::from_string(text, "rules/snn_distributed.yaml"))
                    .every_invariant_proved());
  }

  TEST_CASE("a rule set read back from its bytes explains every input as the one compiled from YAML") {
    std::vector<std::string> files = {std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml",
                                      std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml"};
    for (const auto& entry : fs::directory_iterator(std::string(SNNPLAN_RULES_DIR) + "/history"))
      if (entry.path().extension() == ".yaml" && entry.path().string().find(".test.") == std::string::npos)
        files.push_back(entry.path().string());
    const std::vector<Inputs> inputs = recommend_inputs(11, 300);
    for (const std::string& file : files) {
      CAPTURE(file);
      const RuleSet rules = RuleSet::from_file(file, snnplan::LoadOptions{.analyse_tables = true});
      check_same_answers(rules, round_trip(rules), inputs);
    }
  }

  TEST_CASE("a rule set read back from its bytes describes its inputs as the one compiled from YAML") {
    const RuleSet rules = RuleSet::from_string(R"(snnplan: 2
inputs:
  world: {type: int, description: "GPUs in the run"}
  goal: {type: string, lower: true, default: Speed, one_of: [speed, memory]}
  groups: {type: "int?", default: null}
let:
  doubled: "world * 2"
record:
  n: {type: int, default: 0}
start: t
tables:
  t:
    - name: only
      set: {n: "= doubled"}
)", "inputs.yaml");
    const RuleSet back = round_trip(rules);
    for (const RuleSet* r : {&rules, &back}) {
      const auto& inputs = r->inputs();
      REQUIRE(inputs.size() == 3);
      CHECK(inputs[0].description == "GPUs in the run");
      CHECK(inputs[0].required);
      CHECK_FALSE(inputs[0].default_value.has_value());
      CHECK(inputs[1].description.empty());
      CHECK(inputs[1].default_value == Value("speed"));  // lowered, as a given value would be
      CHECK(inputs[1].one_of == std::vector<Value>{Value("speed"), Value("memory")});
      REQUIRE(inputs[2].default_value.has_value());
      CHECK(inputs[2].default_value->is_null());
      CHECK_FALSE(inputs[2].required);
    }
  }

  TEST_CASE("a rule set loaded from YAML or read back from its bytes keeps one copy of its file name") {
    const std::string file = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    const RuleSet loaded = RuleSet::from_file(file);
    for (const RuleSet& rules : {loaded, round_trip(loaded)}) {
      const auto& compiled = RuleSetAccess::compiled(rules);
      REQUIRE(!compiled.tables.empty());
      const std::string* name = &compiled.tables.front().location.file.str();
      CHECK(*name == file);
      std::size_t locations = 0;
      for (const auto& table : compiled.tables) {
        for (const auto& rule : table.rules) {
          CHECK(&rule.location.file.str() == name);
          for (const auto& matcher : rule.when) CHECK(&matcher.location.file.str() == name);
          locations += 1 + rule.when.size();
        }
      }
      CHECK(locations > 10);
    }
  }

  TEST_CASE("the checker's test files keep their warnings and allowed findings through the bytes") {
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(std::string(SNNPLAN_TEST_DATA) + "/checker")) {
      if (entry.path().extension() != ".yaml") continue;
      CAPTURE(entry.path().string());
      std::optional<RuleSet> rules;
      try {
        rules = RuleSet::from_file(entry.path().string(), snnplan::LoadOptions{.analyse_tables = true});
      } catch (const snnplan::LoadError&) {
        continue;  // files with errors are never compiled, so never cached
      }
      check_same_answers(*rules, round_trip(*rules), {});
      ++files;
    }
    CHECK(files > 5);
  }

  TEST_CASE("the CLI answers, explains and checks a rule file alike from YAML, into the cache and from it") {
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    const std::vector<std::vector<std::string>> commands = {
        {"explain", "--rules", file, "--model", "spikformer_8_384", "--world-size", "8", "--prefer", "speed",
         "--batch-size", "64"},
        {"explain", "--rules", file, "--model", "x", "--world-size", "7", "--prefer", "capacity", "--batch-size",
         "3", "--pipelining-available", "false", "--format", "json"},
        {"recommend", "--rules", file, "--model", "x", "--world-size", "4", "--prefer", "bogus", "--batch-size", "3"},
        {"recommend", "--rules", file, "--model", "x", "--world-size", "4", "--prefer", "memory", "--batch-size", "8",
         "--trace"},
        {"check", file},
        {"check", "--strict", file},
    };
    for (const auto& command : commands) {
      CAPTURE(command[0]);
      std::vector<std::string> no_cache = command;
      no_cache.insert(no_cache.begin() + 1, "--no-cache");
      const CliRun from_yaml = run_cli(no_cache);
      const CliRun writing = run_cli(command);
      const CliRun reading = run_cli(command);
      CHECK(writing == from_yaml);
      CHECK(reading == from_yaml);
    }
    // Two option sets (loaded, analysed by check), one file each.
    CHECK(cache.cached().size() == 2);
  }

  TEST_CASE("a second load of a rule file reads the cache instead of the YAML") {
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    const snnplan::LoadOptions options{.use_cache = true};
    const RuleSet first = RuleSet::from_file(file, options);
    REQUIRE(cache.cached().size() == 1);
    // A cache file with a different compiled form (here: another rule's name) under the right
    // name and with the right text is taken as it is: the second load parsed nothing.
    auto doctored = std::make_shared<snnplan::detail::CompiledRules>();
    {
      const std::string bytes = snnplan::compile::serialize_rules(RuleSetAccess::compiled(first));
      doctored = snnplan::compile::deserialize_rules(bytes);
      REQUIRE(doctored != nullptr);
      doctored->tables.at(0).rules.at(0).name = "from-the-cache";
      write_text(cache.cached().at(0).string(), snnplan::compile::serialize_rules(*doctored));
    }
    const RuleSet second = RuleSet::from_file(file, options);
    CHECK(RuleSetAccess::compiled(second).tables.at(0).rules.at(0).name == "from-the-cache");
    // An edit of the file is another cache entry: the YAML is read again.
    write_text(file, read_text(file) + "\n# edited\n");
    const RuleSet third = RuleSet::from_file(file, options);
    CHECK(RuleSetAccess::compiled(third).tables.at(0).rules.at(0).name ==
          RuleSetAccess::compiled(first).tables.at(0).rules.at(0).name);
    CHECK(cache.cached().size() == 2);
  }

  TEST_CASE("a corrupt, truncated, foreign or wrong-version cache file is rebuilt from the YAML") {
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    const snnplan::LoadOptions options{.use_cache = true};
    const RuleSet reference = RuleSet::from_file(file, snnplan::LoadOptions{});
    static_cast<void>(RuleSet::from_file(file, options));
    REQUIRE(cache.cached().size() == 1);
    const std::string path = cache.cached().at(0).string();
    const std::string good = read_text(path);
    REQUIRE(snnplan::compile::deserialize_rules(good) != nullptr);

    struct Damage {
      const char* what;
      std::string bytes;
      snnplan::compile::SerializedProblem problem;
    };
    using P = snnplan::compile::SerializedProblem;
    std::string flipped = good;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x10);
    std::string wrong_version = good;
    wrong_version[8] = static_cast<char>(wrong_version[8] + 1);
    std::string foreign_build = good;
    foreign_build[16] = static_cast<char>(foreign_build[16] ^ 1);
    std::string bad_magic = good;
    bad_magic[0] = 'X';
    std::string padded = good + "x";
    std::string wrong_size = good;
    const std::uint64_t larger = good.size() - snnplan::compile::kSerializedHeaderBytes + 1000;
    std::memcpy(wrong_size.data() + 24, &larger, sizeof larger);
    const std::vector<Damage> damages = {
        {"a flipped bit", flipped, P::bad_checksum},
        {"half the file", good.substr(0, good.size() / 2), P::truncated},
        {"the header only, cut short", good.substr(0, 20), P::truncated},
        {"an empty file", "", P::truncated},
        {"another format version", wrong_version, P::wrong_version},
        {"another build", foreign_build, P::wrong_version},
        {"not a cache file", bad_magic, P::bad_magic},
        {"a byte too many", padded, P::malformed},
        {"a wrong payload size", wrong_size, P::truncated},
    };
    for (const Damage& damage : damages) {
      CAPTURE(damage.what);
      P problem = P::none;
      CHECK(snnplan::compile::deserialize_rules(damage.bytes, &problem) == nullptr);
      CHECK(problem == damage.problem);
      write_text(path, damage.bytes);
      const RuleSet loaded = RuleSet::from_file(file, options);
      check_same_answers(loaded, reference, recommend_inputs(97, 20));
      // Rebuilt: the cache file is the good one again.
      CHECK(read_text(path) == good);
    }
    // A payload whose checksum was made to fit but whose contents are nonsense: refused by the
    // reader's own checks, never followed.
    std::mt19937_64 rng(7);
    for (int k = 0; k < 200; ++k) {
      std::string bytes = good;
      const std::size_t at = snnplan::compile::kSerializedHeaderBytes +
                             rng() % (bytes.size() - snnplan::compile::kSerializedHeaderBytes);
      bytes[at] = static_cast<char>(rng());
      const std::uint64_t checksum =
          snnplan::compile::content_hash(std::string_view(bytes).substr(snnplan::compile::kSerializedHeaderBytes));
      std::memcpy(bytes.data() + 32, &checksum, sizeof checksum);
      if (auto rules = snnplan::compile::deserialize_rules(bytes)) {
        // Some bytes (text, numbers) may change without breaking anything: such rules still
        // evaluate without crashing.
        const RuleSet odd = RuleSetAccess::wrap(std::move(rules));
        for (const Inputs& inputs : recommend_inputs(499, 5)) static_cast<void>(odd.explain(inputs));
      }
    }
  }

  TEST_CASE("a cache file truncated in place, at a page boundary or inside a page, is mapped, refused and rebuilt") {
    // The cache is read through a read-only mapping of the file: a file cut short in place must
    // be refused from its size alone, never read past its end (beyond the last page a read would
    // be a SIGBUS, inside it zeros).
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    const snnplan::LoadOptions options{.use_cache = true};
    const RuleSet reference = RuleSet::from_file(file, snnplan::LoadOptions{});
    static_cast<void>(RuleSet::from_file(file, options));
    REQUIRE(cache.cached().size() == 1);
    const std::string path = cache.cached().at(0).string();
    const std::string good = read_text(path);
    REQUIRE(good.size() > 3 * 4096);
    for (const std::size_t size : {std::size_t{4096}, std::size_t{2 * 4096}, std::size_t{2 * 4096 + 1},
                                   good.size() - 1, good.size() / 2, std::size_t{1}}) {
      CAPTURE(size);
      write_text(path, good);
      std::filesystem::resize_file(path, size);
      const RuleSet loaded = RuleSet::from_file(file, options);
      check_same_answers(loaded, reference, recommend_inputs(101, 10));
      CHECK(read_text(path) == good);
    }
  }

  TEST_CASE("--no-cache and SNNPLAN_NO_CACHE write nothing to the cache") {
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    const std::vector<std::string> recommend = {"recommend", "--rules", file, "--model", "m", "--world-size", "8",
                                                "--prefer", "speed", "--batch-size", "64"};
    std::vector<std::string> flagged = recommend;
    flagged.insert(flagged.begin() + 1, "--no-cache");
    CHECK(run_cli(flagged).code == 0);
    CHECK(run_cli({"check", "--no-cache", file}).code == 0);
    CHECK(cache.cached().empty());
    ::setenv(snnplan::api::kNoCacheVariable, "1", 1);
    CHECK(run_cli(recommend).code == 0);
    CHECK(run_cli({"check", file}).code == 0);
    CHECK(cache.cached().empty());
    // "0" and "" do not turn it off; the flag of an earlier run is forgotten.
    ::setenv(snnplan::api::kNoCacheVariable, "0", 1);
    CHECK(run_cli(recommend).code == 0);
    CHECK(cache.cached().size() == 1);
  }

  TEST_CASE("a cache that cannot be written is no error") {
    TemporaryCacheHome cache;
    const std::string file = copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml", cache.home(),
                                            "rules.yaml");
    // The cache directory is a file: nothing can be created in it.
    write_text(cache.directory(), "not a directory");
    const CliRun run = run_cli({"recommend", "--rules", file, "--model", "m", "--world-size", "8", "--prefer",
                                "speed", "--batch-size", "64"});
    CHECK(run.code == 0);
    CHECK(run.err.empty());
    CHECK(cache.files().size() == 2);  // the rule file and the file in the cache's place
  }

  TEST_CASE("a rule file with errors is reported the same each time and never cached") {
    TemporaryCacheHome cache;
    const std::string file =
        copy_rule_file(std::string(SNNPLAN_TEST_DATA) + "/broken/let_cycle.yaml", cache.home(), "broken.yaml");
    const CliRun first = run_cli({"check", file});
    const CliRun second = run_cli({"check", file});
    CHECK(first.code != 0);
    CHECK(first == second);
    CHECK(first == run_cli({"check", "--no-cache", file}));
    CHECK(cache.cached().empty());
  }

  TEST_CASE("rule files with uses are not cached") {
    TemporaryCacheHome cache;
    const std::string file =
        copy_rule_file(std::string(SNNPLAN_RULES_DIR) + "/snn_plan.yaml", cache.home(), "plan.yaml");
    const RuleSet rules = RuleSet::from_file(file, snnplan::LoadOptions{.use_cache = true});
    CHECK(cache.cached().empty());
  }
}
