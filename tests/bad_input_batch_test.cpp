// JSON Lines batch inputs of recommend and plan: rows of the bad-input matrix
// (tests/bad_input_matrix.hpp has the harness and the list of its files).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "bad_input_matrix.hpp"

namespace bad_input_matrix {
namespace {

// Malformed JSON is refused the same way on both batch paths.
// `nul_inside_string` is the message for a raw NUL byte inside a string.
std::vector<LineRow> malformed_json_rows(const std::string& good,
                                         const std::string& nul_inside_string) {
  const std::string object = "{" + good + "}";
  return {
      {"an empty line", "", "empty line (expected a JSON object)"},
      {"a line of blanks", " \t \r", "empty line (expected a JSON object)"},
      {"truncated after a key", R"({"model": )",
       "not valid JSON: parse error at line 1, column 11: syntax error while parsing value - "
       "unexpected end of input"},
      {"truncated inside a string", R"({"model": "spik)", "invalid string: missing closing quote"},
      {"truncated before the closing brace", "{" + good,
       "syntax error while parsing object - unexpected end of input; expected '}'"},
      {"an extra closing brace", object + "}", "unexpected '}'; expected end of input"},
      {"two objects on one line", object + " " + object, "unexpected '{'; expected end of input"},
      {"a trailing comma", "{" + good + ",}",
       "syntax error while parsing object key - unexpected '}'; expected string literal"},
      {"single quotes", "{'model': 'x'}",
       "syntax error while parsing object key - invalid literal"},
      {"a key without quotes", "{model: 1}",
       "syntax error while parsing object key - invalid literal"},
      {"a comment", object + " // note", "invalid literal"},
      {"an array instead of an object", "[" + object + "]",
       "a batch line must be a JSON object, got an array"},
      {"a string instead of an object", R"("spikformer")",
       "a batch line must be a JSON object, got a string"},
      {"a number instead of an object", "8", "a batch line must be a JSON object, got a number"},
      {"null instead of an object", "null", "a batch line must be a JSON object, got null"},
      {"arrays nested 10,000 deep", std::string(10000, '[') + std::string(10000, ']'),
       "a batch line must be a JSON object, got an array"},
      {"a number beyond the double range", R"({"batch_size": 1e400})",
       "not valid JSON: number overflow parsing '1e400'"},
      {"a raw NUL byte inside a string", std::string("{\"model\": \"a") + '\0' + "b\"}",
       nul_inside_string},
      {"a raw control character inside a string", "{\"model\": \"a\tb\"}",
       "control character U+0009 (HT) must be escaped"},
      {"invalid UTF-8 in a string (a lone continuation byte)", "{\"model\": \"a\x80\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (0xFF)", "{\"model\": \"\xff\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (an overlong '/')", "{\"model\": \"\xc0\xaf\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a string (a truncated sequence)", "{\"model\": \"\xe2\x82\"}",
       "invalid string: ill-formed UTF-8 byte"},
      {"invalid UTF-8 in a key", "{\"mod\xffl\": 1}",
       "syntax error while parsing object key - invalid string: ill-formed UTF-8 byte"},
      {"a lone UTF-16 surrogate escape", R"({"model": "\ud800"})",
       "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"},
      {"invalid UTF-8 outside strings", object + "\xff", "invalid literal"},
  };
}

}  // namespace

std::vector<LineRow> recommend_line_rows() {
  std::vector<LineRow> rows = malformed_json_rows(
      kGood,
      "a NUL byte at column 13 (JSON text cannot contain one; inside a string write \\u0000)");
  auto line = [](const std::string& fields) { return "{" + kGood + ", " + fields + "}"; };
  auto replaced = [](const std::string& key, const std::string& value) {
    std::string fields = kGood;
    const auto at = fields.find("\"" + key + "\": ");
    const auto end = fields.find(',', at);
    fields.replace(at, (end == std::string::npos ? fields.size() : end) - at,
                   "\"" + key + "\": " + value);
    return "{" + fields + "}";
  };
  const std::vector<LineRow> more = {
      {"the good line", "{" + kGood + "}", ""},
      {"an unknown key is refused, not ignored", line(R"("colour": "red")"),
       "unknown input 'colour'"},
      {"a misspelt key is refused with a suggestion",
       R"({"model": "m", "world_size": 8, "prefer": "speed", "batchsize": 64})",
       "unknown input 'batchsize' (did you mean 'batch_size'?)"},
      {"a key that differs in case",
       R"({"Model": "m", "world_size": 8, "prefer": "speed", "batch_size": 64})",
       "unknown input 'Model' (did you mean 'model'?)"},
      {"an empty key", line(R"("": 1)"), "unknown input ''"},
      {"an object for a string input", replaced("model", R"({"name": "spikformer"})"),
       "input 'model' must be a string, number, boolean, null or an array of those, got an object"},
      {"an array for a string input", replaced("model", R"(["spikformer"])"),
       "input 'model' must be string, got list"},
      {"a number for a string input", replaced("model", "5"),
       "input 'model' must be string, got int"},
      {"a string for an integer input", replaced("world_size", R"("8")"),
       "input 'world_size' must be int, got string"},
      {"a boolean for an integer input", replaced("world_size", "true"),
       "input 'world_size' must be int, got bool"},
      {"a float for an integer input", replaced("world_size", "8.5"),
       "input 'world_size' must be an integer that fits in 64 bits, got 8.5"},
      {"a whole float for an integer input", replaced("world_size", "8.0"),
       "input 'world_size' must be an integer that fits in 64 bits, got 8.0"},
      {"an integer beyond 64 bits", replaced("world_size", "9223372036854775808"),
       "input 'world_size': 9223372036854775808 does not fit in a 64-bit integer"},
      {"a negative integer beyond 64 bits", replaced("world_size", "-99999999999999999999"),
       "input 'world_size': -99999999999999999999 does not fit in a 64-bit integer"},
      {"a string for a boolean input", line(R"("fsdp2_available": "true")"),
       "input 'fsdp2_available' must be bool, got string"},
      {"a number for a boolean input", line(R"("fsdp2_available": 1)"),
       "input 'fsdp2_available' must be bool, got int"},
      {"null for a required input", replaced("model", "null"), "missing required input 'model'"},
      {"a missing required input", R"({"model": "m", "prefer": "speed", "batch_size": 64})",
       "missing required input 'world_size'"},
      {"a string longer than 64 KiB", replaced("model", "\"" + std::string(65537, 'a') + "\""),
       "input 'model' has a string of 65537 bytes, longer than the limit of 65536 bytes"},
      {"null for an optional input takes the default",
       line(R"("fsdp2_available": null, "backend": null)"), ""},
      {"a negative world size goes to the rules, like the reference", replaced("world_size", "-8"),
       ""},
      {"an escaped NUL (\\u0000) is a character of the string",
       replaced("model", R"("spik\u0000former")"), ""},
      {"a byte order mark before the object is skipped", "\xef\xbb\xbf{" + kGood + "}", ""},
      {"a CR before the newline is skipped", "{" + kGood + "}\r", ""},
      {"an unknown prefer is the reference's ValueError, without a line number",
       replaced("prefer", R"("fast")"), "", kRuleError},
  };
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

std::vector<LineRow> plan_line_rows() {
  std::vector<LineRow> rows = malformed_json_rows(
      kGoodPlan,
      "a NUL byte at column 13 (JSON text cannot contain one; inside a string write \\u0000)");
  auto line = [](const std::string& fields) { return "{" + kGoodPlan + ", " + fields + "}"; };
  const std::vector<LineRow> more = {
      {"the good line", "{" + kGoodPlan + "}", ""},
      {"an unknown key is refused, not ignored", line(R"("colour": "red")"),
       "unknown input 'colour'"},
      {"a misspelt key is refused with a suggestion", line(R"("wrld_size": 8)"),
       "unknown input 'wrld_size' (did you mean 'world_size'?)"},
      {"a repeated key is refused", line(R"("objective": "speed")"),
       "duplicate key 'objective' in a JSON object"},
      {"a repeated dimension is refused",
       R"({"objective": "memory", "topology": {"dp": 4, "dp": 2}, "batch_size": 64})",
       "duplicate key 'dp' in a JSON object"},
      {"a NUL byte after the object is refused, not taken for the end of the line",
       "{" + kGoodPlan + "}" + '\0' + "garbage",
       "a NUL byte at column " + std::to_string(kGoodPlan.size() + 3) +
           " (JSON text cannot contain one; inside a string write \\u0000)"},
      {"a topology string instead of an object",
       R"({"objective": "memory", "topology": "dp=4,tp=2", "batch_size": 64})",
       "input 'topology' must be an object of dimension sizes such as {\"dp\": 4, \"tp\": 2}, got "
       "a string"},
      {"a nested object as a dimension size",
       R"({"objective": "memory", "topology": {"dp": {"size": 4}}, "batch_size": 64})",
       "Topology dimension 'dp' must be an integer, but got dict."},
      {"a float batch size", R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": 6.5})",
       "input 'batch_size' must be an integer that fits in 64 bits, got 6.5"},
      {"a string batch size",
       R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": "64"})",
       "input 'batch_size' must be an integer, got a string"},
      {"a batch size beyond 64 bits",
       R"({"objective": "memory", "topology": {"dp": 4}, "batch_size": 18446744073709551616})",
       "input 'batch_size' must be an integer that fits in 64 bits, got 1.8446744073709552e+19"},
      {"a string for a boolean", line(R"("tp_candidates": "yes")"),
       "input 'tp_candidates' must be true or false, got a string"},
      {"a string for a list", line(R"("tp_roots": "a,b")"),
       "input 'tp_roots' must be an array of strings, got a string"},
      {"a feature that is not a boolean", line(R"("features": {"allow_pipeline": "no"})"),
       "feature 'allow_pipeline' must be true or false, got \"no\""},
      {"an unknown objective is the plan rules' error, without a line number",
       R"({"objective": "fast", "topology": {"dp": 4}, "batch_size": 64})", "", kRuleError},
  };
  rows.insert(rows.end(), more.begin(), more.end());
  return rows;
}

TEST_SUITE("bad-input matrix") {
  TEST_CASE(
      "recommend --batch refuses each malformed JSON line on its own output line with exit code "
      "2") {
    check_batch_rows({"recommend", "--batch", "-"}, recommend_line_rows());
  }

  TEST_CASE(
      "plan --batch refuses each malformed JSON line on its own output line with exit code 2") {
    check_batch_rows({"plan", "--batch", "-"}, plan_line_rows());
  }

  TEST_CASE(
      "a batch exits with its worst line: 2 for any bad line, else 1 for any rule error, else 0") {
    const std::string ok = "{" + kGood + "}\n";
    const std::string rule_error =
        R"({"model": "m", "world_size": 8, "prefer": "fast", "batch_size": 64})"
        "\n";
    const std::string bad = "{\"colour\": 1}\n";
    const std::vector<std::pair<std::string, int>> batches = {{"", kOk},
                                                              {ok + ok, kOk},
                                                              {ok + rule_error + ok, kRuleError},
                                                              {rule_error + bad, kBadInput},
                                                              {bad + rule_error + ok, kBadInput}};
    for (const auto& [input, code] : batches) {
      INFO("batch: ", input);
      const CliRun run = run_cli({"recommend", "--batch", "-"}, input);
      CHECK(run.code == code);
      CHECK(std::count(run.out.begin(), run.out.end(), '\n') ==
            std::count(input.begin(), input.end(), '\n'));
    }
  }
}

}  // namespace bad_input_matrix
