// The batch's fast path (request/json_slots.hpp, frontends/cli/lines.cpp's read_line): every line it
// takes must give the bytes the exact path gives, and every line it leaves must reach the exact
// path unchanged. The exact path is run here line by line, as the batch ran before the fast
// path existed (inputs_from_json_line, evaluation by name, the driver's error lines).

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "frontends/cli/lines.hpp"
#include "cli_runner.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "request/json_slots.hpp"
#include "request/plan_request.hpp"
#include "request/request_lines.hpp"
#include "snnplan/snnplan.hpp"

using snnplan::testing::run_cli;

namespace {

struct Expected {
  std::string out;
  std::string err;
  int code = 0;
};

// `recommend --batch -` of `lines` (one per input line) as the exact path answers them.
Expected exact_batch(const std::vector<std::string>& lines) {
  const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
  snnplan::Evaluation evaluation;
  Expected expected;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::size_t number = k + 1;
    auto parsed = snnplan::request::inputs_from_json_line(lines[k], rules);
    std::string message;
    bool bad_input = true;
    if (auto* inputs = std::get_if<snnplan::Inputs>(&parsed)) {
      if (rules.evaluate(*inputs, evaluation)) {
        snnplan::render::append_json_line(expected.out, evaluation);
        expected.out += '\n';
        continue;
      }
      message = evaluation.error().message;
      bad_input = evaluation.error().kind == snnplan::EvaluationErrorKind::bad_input;
    } else {
      message = std::get<std::string>(parsed);
    }
    nlohmann::ordered_json line = {{"error", message}};
    if (bad_input) {
      line["line"] = number;
      expected.err += fmt::format("<stdin>:{}: error: {}\n", number, message);
    }
    expected.out += snnplan::render::json_line(line) + '\n';
    expected.code = std::max(expected.code, bad_input ? 2 : 1);
  }
  return expected;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  return text;
}

// Two runs of the CLI gave the same: exit code, stderr and stdout.
void check_same_run(const snnplan::testing::CliRun& got, const snnplan::testing::CliRun& want) {
  CHECK(got.code == want.code);
  CHECK(got.err == want.err);
  CHECK(got.out == want.out);
}

// How many of `lines` the fast reader takes.
std::size_t plain_lines(const std::vector<std::string>& lines) {
  snnplan::request::JsonSlotReader reader(snnplan::RuleSet::builtin());
  std::size_t plain = 0;
  for (const std::string& line : lines) plain += reader.read(line) ? 1 : 0;
  return plain;
}

// `extra`: more arguments for `recommend --batch -` (--jobs N).
void check_same_as_exact(const std::vector<std::string>& lines,
                         const std::vector<std::string>& extra = {}) {
  const Expected expected = exact_batch(lines);
  std::vector<std::string> args = {"recommend", "--batch", "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = run_cli(args, joined(lines));
  CHECK(run.code == expected.code);
  CHECK(run.err == expected.err);
  // Line by line, so a difference names its line.
  std::istringstream got(run.out), want(expected.out);
  std::string got_line, want_line;
  std::size_t number = 0;
  while (std::getline(want, want_line)) {
    ++number;
    CAPTURE(number);
    CAPTURE(lines[number - 1]);
    REQUIRE(std::getline(got, got_line));
    CHECK(got_line == want_line);
  }
  CHECK(!std::getline(got, got_line));
}

std::vector<std::string> golden_inputs() {
  std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/golden/recommend.jsonl");
  REQUIRE(in.good());
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    const auto input = nlohmann::ordered_json::parse(line).at("input");
    lines.push_back(input.dump());  // {"model":"x",...}
    if (lines.size() % 3 == 0) lines.back() = "\t" + lines.back() + "\t";
    if (lines.size() % 5 == 0) lines.back() = "  " + lines.back() + " \r";
  }
  return lines;
}

// Random JSON-ish lines over the built-in rules' inputs: plain ones, and every way a line can
// leave the plain path or be refused.
std::vector<std::string> random_lines(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  const std::vector<std::string> keys = {
      "model", "world_size", "prefer", "batch_size", "backend",
      "zero_redundancy_optimizer_available", "pipelining_available", "fsdp2_available",
      "tensor_parallel_available"};
  const std::vector<std::string> odd_keys = {"colour", "Model", "world-size", "mod\\u0065l", "", "prefer "};
  const std::vector<std::string> strings = {
      "\"speed\"", "\"memory\"", "\"capacity\"", "\"SPEED\"", "\"Capacity\"", "\"bogus\"", "\"\"",
      "\"spikformer_8_384\"", "\"cifar10dvs_vgg\"", "\"Spikformer\"", "\"inductor\"", "\"eager\"",
      "\"sp\\u0065ed\"", "\"caf\xc3\xa9\"", "\"bad \xff utf8\"", "\"tab\there\"", "\"quote \\\" in\"",
      "\"\x7f\"", "\"\\/\"", "\"unterminated"};
  const std::vector<std::string> numbers = {
      "0", "1", "2", "4", "8", "16", "64", "256", "7", "12", "-1", "-0", "97", "1000", "01",
      "-", "1.0", "2.5", "1e3", "1E2", "-2", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
      "99999999999999999999", "1234567890123456789", "1e400", "0x10", "+1", ".5"};
  const std::vector<std::string> others = {"true", "false", "null", "tru", "nul", "falsey", "[]",
                                           "[1, 2]", "[\"a\"]", "{}", "{\"a\": 1}", "NaN"};
  auto value = [&]() -> std::string {
    const int which = std::uniform_int_distribution<int>(0, 9)(rng);
    if (which < 4) return pick(strings);
    if (which < 8) return pick(numbers);
    return pick(others);
  };
  auto space = [&]() -> std::string { return chance(0.8) ? "" : pick({" ", "  ", "\t", "\r"}); };
  std::vector<std::string> lines;
  for (std::size_t n = 0; n < count; ++n) {
    std::string line = space() + "{";
    const int members = std::uniform_int_distribution<int>(0, 10)(rng);
    for (int m = 0; m < members; ++m) {
      if (m) line += space() + "," + space();
      const std::string key = chance(0.04) ? pick(odd_keys) : pick(keys);
      line += "\"" + key + "\"" + space() + ":" + space();
      if (key == "world_size" || key == "batch_size") line += chance(0.9) ? pick(numbers) : value();
      else if (key.ends_with("available")) line += chance(0.9) ? pick({"true", "false", "null"}) : value();
      else line += chance(0.9) ? pick(strings) : value();
    }
    line += space() + "}" + space();
    if (chance(0.03)) line += pick({"x", "{}", ",", "\x01"});
    if (chance(0.03)) line.resize(std::uniform_int_distribution<std::size_t>(0, line.size())(rng));
    if (chance(0.01)) line = pick({"", " ", "[1]", "\"text\"", "7", "\xef\xbb\xbf{}"});
    if (chance(0.01)) line.insert(line.size() / 2, 1, '\0');
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

TEST_SUITE("batch") {
  TEST_CASE("the fast reader takes plain lines and leaves every other line to the exact reader") {
    snnplan::request::JsonSlotReader reader(snnplan::RuleSet::builtin());
    for (const char* plain : {
             R"({"model": "m", "world_size": 8, "prefer": "speed", "batch_size": 64})",
             R"( {"model":"m","world_size":-9223372036854775808,"prefer":"x","batch_size":0} )",
             R"({"model": "m", "world_size": 1, "prefer": "memory", "batch_size": 2, "backend": null, "fsdp2_available": false})",
             "{}", "{ }\r", "{\"model\": \"\x7f\"}"}) {
      CAPTURE(plain);
      CHECK(reader.read(plain));
    }
    for (const char* other : {
             "", " ", "[1]", "{", R"({"model": "m",})", R"({"model": "m"} x)", R"({"model": "m"}{})",
             R"({"model": "m", "model": "n"})", R"({"colour": 1})", R"({"mod\u0065l": "m"})",
             R"({"model": "caf\u00e9"})", "{\"model\": \"caf\xc3\xa9\"}", "{\"model\": \"\xff\"}",
             "{\"model\": \"a\tb\"}", R"({"world_size": 9223372036854775808})",
             R"({"world_size": -9223372036854775809})", R"({"world_size": 18446744073709551615})",
             R"({"world_size": 01})", R"({"world_size": 2.0})", R"({"world_size": 1e2})",
             R"({"world_size": -})", R"({"world_size": +1})", R"({"model": ["m"]})",
             R"({"model": {"a": 1}})", R"({"fsdp2_available": tru})", "\xef\xbb\xbf{}"}) {
      CAPTURE(other);
      CHECK_FALSE(reader.read(other));
    }
    // The slots: by the rules' input order, strings as views of the line.
    const std::string line = R"({"prefer": "Speed", "world_size": 8, "fsdp2_available": false})";
    REQUIRE(reader.read(line));
    const auto& inputs = snnplan::RuleSet::builtin().inputs();
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      CAPTURE(inputs[k].name);
      const auto& slot = reader.slots()[k];
      if (inputs[k].name == "prefer") CHECK(std::string(slot.s()) == "Speed");
      else if (inputs[k].name == "world_size") CHECK(slot.i == 8);
      else if (inputs[k].name == "fsdp2_available") CHECK((slot.kind == snnplan::detail::RValue::Kind::boolean && !slot.b));
      else CHECK(slot.kind == snnplan::detail::RValue::Kind::null);
    }
  }

  TEST_CASE("the fast batch path answers every golden input byte for byte as the exact path does") {
    const std::vector<std::string> lines = golden_inputs();
    // Most golden inputs are plain (the others have floats, big integers or unknown values):
    // the fast path answers most of them, the exact path the rest.
    CHECK(plain_lines(lines) * 3 >= lines.size() * 2);
    check_same_as_exact(lines);
  }

  TEST_CASE("the fast batch path answers random lines, invalid ones included, byte for byte as the exact path does") {
    for (const unsigned seed : {1u, 2u, 3u}) {
      CAPTURE(seed);
      const std::vector<std::string> lines = random_lines(4000, seed);
      // Both paths are exercised.
      const std::size_t plain = plain_lines(lines);
      CHECK(plain * 5 >= lines.size());
      CHECK(plain * 5 <= lines.size() * 4);
      check_same_as_exact(lines);
    }
  }

  TEST_CASE("with --jobs the batch answers golden and random lines byte for byte as the exact path does, in input order") {
    std::vector<std::string> lines = golden_inputs();
    const std::vector<std::string> random = random_lines(3000, 7);
    lines.insert(lines.end(), random.begin(), random.end());
    for (const char* jobs : {"2", "3"}) {
      CAPTURE(jobs);
      check_same_as_exact(lines, {"--jobs", jobs});
    }
  }

  TEST_CASE("with --jobs a line over the limit and the plan batch give what one thread gives") {
    std::vector<std::string> lines = random_lines(1500, 11);
    lines.insert(lines.begin() + 700, std::string(snnplan::cli::kMaxBatchLineBytes + 5, ' '));
    const std::string input = joined(lines);
    const auto one = run_cli({"recommend", "--batch", "-"}, input);
    const auto two = run_cli({"recommend", "--batch", "-", "--jobs", "2"}, input);
    CHECK(one.code == 2);
    CHECK(one.err.find("<stdin>:701: error:") != std::string::npos);
    check_same_run(two, one);
    const std::string plans =
        R"({"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64})" "\n"
        "not json\n"
        R"({"objective": "speed", "topology": {"dp": 4}, "batch_size": 16})" "\n";
    std::string many;
    for (int k = 0; k < 300; ++k) many += plans;
    const auto plan_one = run_cli({"plan", "--batch", "-"}, many);
    const auto plan_two = run_cli({"plan", "--batch", "-", "--jobs", "2"}, many);
    CHECK(plan_one.code == 2);
    CHECK(plan_one.out.find("\"error\"") != std::string::npos);
    check_same_run(plan_two, plan_one);
  }

  TEST_CASE("with --jobs, --trace and --watch give what one thread gives") {
    std::vector<std::string> lines = random_lines(1200, 13);
    const std::string input = joined(lines);
    const auto traced_one = run_cli({"recommend", "--batch", "-", "--trace"}, input);
    const auto traced_two = run_cli({"recommend", "--batch", "-", "--trace", "--jobs", "2"}, input);
    CHECK(traced_one.out.find("\"trace\"") != std::string::npos);
    check_same_run(traced_two, traced_one);
    const std::string rules = std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml";
    const auto watched_one = run_cli({"recommend", "--batch", "-", "--watch", "--rules", rules}, input);
    const auto watched_two =
        run_cli({"recommend", "--batch", "-", "--watch", "--rules", rules, "--jobs", "3"}, input);
    CHECK(watched_one.out.size() > 1000);
    check_same_run(watched_two, watched_one);
  }

  TEST_CASE("the direct writers give the JSON library's bytes for records, error lines and plans") {
    // Strings of every length around the writer's 8- and 16-byte steps, from bytes that need
    // escapes, pass as they are, or make UTF-8 (valid or not).
    std::mt19937 rng(5);
    const std::string alphabet = std::string("abc XYZ'=.,:") + '"' + '\\' + "\x01\x1f\x7f\x80\xc3\xa9\xe2\x9c\x93\xff";
    std::vector<std::string> names = {"a", "n\"q", "caf\xc3\xa9"};
    snnplan::render::RecordLineWriter writer(names);
    for (int n = 0; n < 3000; ++n) {
      std::string text(std::uniform_int_distribution<std::size_t>(0, 40)(rng), ' ');
      for (char& c : text) c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
      if (n % 2) for (char& c : text) c = static_cast<char>('a' + (static_cast<unsigned char>(c) % 26));  // plain
      CAPTURE(text);
      const snnplan::Value number = n % 3 ? snnplan::Value(0.5) : snnplan::Value(static_cast<double>(n) / 7);
      const snnplan::Record record(std::make_shared<const std::vector<std::string>>(names),
                                   {snnplan::Value(text), number, snnplan::Value(snnplan::Value::List{snnplan::Value(text)})});
      const std::string library = snnplan::render::json_line(snnplan::render::to_json(record));
      const snnplan::ValueView item = snnplan::ValueView::of_string(text);
      const std::vector<snnplan::ValueView> views = {snnplan::ValueView::of_string(text),
                                                     snnplan::ValueView::of_float(number.as_float()),
                                                     snnplan::ValueView::of_list({&item, 1})};
      std::string direct = "before\n";
      writer.append(direct, views);
      CHECK(direct == "before\n" + library);
      std::string error;
      snnplan::render::append_error_line(error, text, static_cast<std::size_t>(n));
      CHECK(error == snnplan::render::json_line(nlohmann::ordered_json{{"error", text}, {"line", n}}));
      error.clear();
      snnplan::render::append_error_line(error, text);
      CHECK(error == snnplan::render::error_line(text));
    }
    // Plans: every golden plan request that plans.
    std::size_t plans = 0;
    for (const char* file : {"plan.jsonl", "upstream_HEAD.jsonl", "upstream_a0209834.jsonl"}) {
      std::ifstream in(std::string(SNNPLAN_TEST_DATA) + "/plan/" + file);
      REQUIRE(in.good());
      std::string line;
      while (std::getline(in, line)) {
        const auto request = snnplan::request::plan_request_from_json_line(
            nlohmann::ordered_json::parse(line).at("input").dump());
        const auto* r = std::get_if<snnplan::request::PlanRequest>(&request);
        if (!r) continue;
        try {
          const snnplan::Plan planned = snnplan::plan(r->objective, r->topology, r->batch_size, r->options);
          std::string direct;
          snnplan::render::append_json_line(direct, planned);
          CHECK(direct == snnplan::render::json_line(snnplan::render::to_json(planned)));
          ++plans;
        } catch (const std::exception&) {
        }
      }
    }
    CHECK(plans > 1000);
  }

  TEST_CASE("a line is read whole whatever the stream buffer hands over at a time") {
    // A buffer of 3 bytes: lines cross refills; and an unbuffered one, a character per call.
    class Trickle : public std::streambuf {
     public:
      Trickle(std::string text, std::size_t step) : text_(std::move(text)), step_(step) {}

     protected:
      int_type underflow() override {
        if (gptr() && gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (at_ == text_.size()) return traits_type::eof();
        if (step_ == 0) return traits_type::to_int_type(text_[at_]);  // no get area at all
        const std::size_t n = std::min(step_, text_.size() - at_);
        setg(text_.data() + at_, text_.data() + at_, text_.data() + at_ + n);
        at_ += n;
        return traits_type::to_int_type(*gptr());
      }
      int_type uflow() override {
        if (step_ != 0) return std::streambuf::uflow();
        if (at_ == text_.size()) return traits_type::eof();
        return traits_type::to_int_type(text_[at_++]);
      }

     private:
      std::string text_;
      std::size_t step_;
      std::size_t at_ = 0;
    };
    for (const std::size_t step : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
      CAPTURE(step);
      Trickle in("first line\n\nthird is longer than ten\nlast", step);
      std::string line;
      using snnplan::cli::LineRead;
      CHECK(snnplan::cli::read_line(in, line, 10) == LineRead::line);
      CHECK(line == "first line");
      CHECK(snnplan::cli::read_line(in, line, 10) == LineRead::line);
      CHECK(line.empty());
      CHECK(snnplan::cli::read_line(in, line, 10) == LineRead::too_long);
      CHECK(snnplan::cli::read_line(in, line, 10) == LineRead::line);
      CHECK(line == "last");
      CHECK(snnplan::cli::read_line(in, line, 10) == LineRead::end);
    }
  }

  TEST_CASE("a request line takes a fallback only for an input it leaves out or gives as null, and a refusal becomes its error line") {
    const snnplan::RuleSet rules = snnplan::RuleSet::from_string(R"(snnplan: 1
inputs:
  n: {type: int}
  fast: {type: bool, default: true}
record:
  answer: {type: string, default: none}
start: choose
tables:
  choose:
    - name: refuse
      when: {n: {lt: 0}}
      error: "n must not be negative, got {n}"
    - name: quick
      when: {fast: true}
      set: {answer: quick}
    - name: slow
      set: {answer: slow}
)", "fallbacks.yaml");
    using snnplan::request::LineOptions;
    using snnplan::request::RequestLines;
    RequestLines plain(rules);
    // `undeclared` is dropped: the rules do not declare it.
    RequestLines probed(rules, LineOptions{.traced = false,
                                           .fallbacks = {{"fast", snnplan::Value(false)},
                                                         {"undeclared", snnplan::Value(true)}}});
    const auto answer = [](RequestLines& lines, const std::string& line) {
      std::string out;
      const snnplan::request::LineOutcome outcome = lines.answer(line, out);
      if (!outcome.ok) snnplan::request::append_refusal(out, outcome, 7, false);
      return out;
    };
    CHECK(answer(plain, R"({"n": 1})") == R"({"answer":"quick"})");
    CHECK(answer(probed, R"({"n": 1})") == R"({"answer":"slow"})");
    CHECK(answer(probed, R"({"n": 1, "fast": null})") == R"({"answer":"slow"})");
    CHECK(answer(probed, R"({"n": 1, "fast": true})") == R"({"answer":"quick"})");
    // A rule's error has no line number; a bad line has.
    CHECK(answer(probed, R"({"n": -2})") == R"({"error":"n must not be negative, got -2"})");
    CHECK(answer(plain, R"({"n": "x"})").starts_with(R"({"error":"input 'n')"));
    CHECK(answer(plain, R"({"n": "x"})").ends_with(R"(,"line":7})"));
    CHECK(plain.answers_for(rules));
    CHECK_FALSE(plain.answers_for(snnplan::RuleSet::builtin()));
  }
}
