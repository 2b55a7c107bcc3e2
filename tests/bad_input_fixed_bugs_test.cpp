// Bugs the matrix found outside the CLI's own code: rows of the bad-input matrix
// (tests/bad_input_matrix.hpp has the harness and the list of its files).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bad_input_matrix.hpp"
#include "uses_files.hpp"

namespace bad_input_matrix {

// Bugs the matrix found outside the CLI's own code, now fixed; kept as their regression tests.
TEST_SUITE("bad-input matrix: fixed bugs") {
  TEST_CASE(
      "recommend --batch refuses a line that repeats a key, as plan --batch does "
      "(src/request/json_inputs.cpp)") {
    check_batch_rows({"recommend", "--batch", "-"},
                     {{"a repeated key", "{" + kGood + R"(, "model": "resnet"})",
                       "duplicate key 'model' in a JSON object"}});
  }

  TEST_CASE(
      "recommend --batch refuses a NUL byte after the object instead of ignoring the rest "
      "(src/request/json_inputs.cpp)") {
    check_batch_rows({"recommend", "--batch", "-"},
                     {{"a NUL byte after the object", "{" + kGood + "}" + '\0' + "garbage",
                       "a NUL byte at column"}});
  }

  TEST_CASE(
      "a rule-test file reads numbers as rule files do: 08 is 8, and beyond 64 bits or a double is "
      "refused (src/load/rule_tests.cpp)") {
    // Before: YAML::convert read 08 as the float 8.0 (an octal failure), an integer beyond 64
    // bits as a float and 1e400 as a string, so such tests failed for the wrong reason.
    const auto test_file = [](const std::string& world_size) {
      return "tests:\n  - name: t\n    input: {model: vgg, world_size: " + world_size +
             ", prefer: speed, batch_size: 32}\n    expect: {mode: dp}\n";
    };
    const TempFile leading_zero("leading_zero.test.yaml", test_file("08"));
    const TempFile huge_integer("huge_integer.test.yaml", test_file("99999999999999999999"));
    const TempFile huge_float("huge_float.test.yaml", test_file("1e400"));
    check_rows({
        {"a test input 08 is the integer 8",
         {"test", kRules, leading_zero.path()},
         kOk,
         "",
         "1 passed, 0 failed"},
        {"a test input beyond 64 bits",
         {"test", kRules, huge_integer.path()},
         kBadInput,
         huge_integer.path() +
             ":3:37: error: integer 99999999999999999999 does not fit in 64 bits\n"},
        {"a test input beyond the double range",
         {"test", kRules, huge_float.path()},
         kBadInput,
         huge_float.path() + ":3:37: error: float 1e400 is beyond the range of a 64-bit float\n"},
    });
  }

  TEST_CASE(
      "check shows an error in a used file with that file's line, not the checked file's "
      "(src/frontends/cli/commands/check.cpp)") {
    const TempFile used("broken_used.yaml", R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, init: = x *}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    const TempFile user("user.yaml", snnplan::testing::user_of("broken_used.yaml"));
    check_row({"check of a file using a broken one",
               {"check", user.path()},
               kRulesUnusable,
               "",
               used.path() +
                   ":5:31: error: expression: expected a value, found 'end of expression' "
                   "[expression-syntax]\n"
                   "    out: {type: int, init: = x *}\n"
                   "                                ^\n" +
                   user.path() + ":3:10: error: rule file '" + used.path() +
                   "' (used as 'other') has errors [uses]\n"
                   "    other: broken_used.yaml\n"
                   "           ^\n"});
  }

  TEST_CASE(
      "an empty rule file name gets a message without an empty location in front "
      "(src/api/diagnostic.cpp)") {
    const NoRulesVariable no_rules;
    const CliRun run = run_cli({"recommend", "--rules", "", "--model", "x", "--world-size", "1",
                                "--prefer", "speed", "--batch-size", "1"});
    CHECK(run.code == kRulesUnusable);
    CHECK(run.err ==
          "error: cannot read rule file '': No such file or directory\n");  // was ": error: ..."
  }

  TEST_CASE(
      "graph keeps a backslash in a table name as a backslash instead of a DOT line break "
      "(src/render/dot.cpp)") {
    const TempFile rules("odd_names.yaml", R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: 'ma"in\n'
tables:
  'ma"in\n':
    - name: all
      set: {out: 1}
)");
    // The name is m a " i n \ n: in DOT the quote and the backslash are escaped, and the label's
    // own break before the rule count is DOT's \n.
    check_row({"graph of a table named with a quote and a backslash",
               {"graph", "--rules", rules.path(), "--only", "tables"},
               kOk,
               "",
               R"(label="ma\"in\\n\n1 rule")"});
  }

  TEST_CASE(
      "test coverage counts only the tested file's rules, not same-named rules of a file it uses "
      "(src/testing/rule_tests.cpp)") {
    // Both files have main/r1 and main/r2; the outer r1 needs model y, the test gives model x,
    // so only the inner file's r1 fires (through the call) and the outer file's r2.
    const TempFile inner("inner.yaml", R"(snnplan: 1
inputs:
  model: {type: string}
record:
  out: {type: string, default: none}
start: main
tables:
  main:
    - name: r1
      set: {out: inner}
    - name: r2
      set: {out: never}
)");
    const TempFile outer("outer.yaml", R"(snnplan: 1
uses:
  inner: inner.yaml
inputs:
  model: {type: string}
let:
  from_inner:
    call: inner
    with: {model: = model}
record:
  out: {type: string, default: none}
start: main
tables:
  main:
    - name: r1
      when: {model: y}
      set: {out: outer}
    - name: r2
      set: {out: = from_inner.out}
)");
    const TempFile tests("outer.test.yaml", "tests:\n  - name: x\n    input: {model: x}\n    expect: {out: inner}\n");
    check_row({"coverage of a file using another", {"test", outer.path(), tests.path(), "--coverage"}, kOk, "",
               "rule coverage:\n  main/r1  0 cases\n  main/r2  1 case\nnot covered:\n  main/r1\n"
               "    condition: model eq y is true (" + outer.path() + ":16:14)\n"
               "      covered by input: {model: \"y\"}\n"
               "1 passed, 0 failed; rule coverage 50.0% (1 of 2), condition coverage 50.0% (1 of 2), "
               "boundary coverage 100.0% (0 of 0)\nrules no test fired: main/r1\n"});
    check_row({"--min-coverage 100 fails for it", {"test", outer.path(), tests.path(), "--min-coverage", "100"}, kRuleError,
               "error: rule coverage 50.0% is below the minimum 100%\n"});
  }

  TEST_CASE(
      "a test file with a repeated key is refused at the repeat, as rule files are "
      "(src/load/rule_tests.cpp)") {
    const TempFile tests("repeated.test.yaml",
                         "tests:\n  - name: x\n    input: {model: vgg, world_size: 1, prefer: "
                         "speed, batch_size: 8, model: resnet}\n"
                         "    expect: {mode: none}\n");
    check_row({"a repeated input",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() + ":3:70: error: duplicate key 'model'\n"});
  }

  TEST_CASE(
      "a test file with a second YAML document is refused instead of its tests being ignored "
      "(src/load/rule_tests.cpp)") {
    const TempFile tests("two_documents.test.yaml",
                         "tests:\n  - name: x\n    input: {model: vgg, world_size: 1, prefer: "
                         "speed, batch_size: 8}\n"
                         "    expect: {mode: none}\n---\ntests:\n  - name: y\n    input: {model: "
                         "vgg}\n    expect: {mode: dp}\n");
    check_row({"a second document",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() + ":5:1: error: YAML syntax error: a second YAML document starts here "
                              "(a rule file holds one; "
                              "remove the '---' or '...' and what follows)\n"});
  }

  TEST_CASE("a test file's expect_error must be a string, not a mapping (src/load/rule_tests.cpp)") {
    const TempFile tests(
        "bad_expect_error.test.yaml",
        "tests:\n  - name: x\n    input: {model: vgg}\n    expect_error: {a: 1}\n");
    check_row({"expect_error given a mapping",
               {"test", kRules, tests.path()},
               kBadInput,
               tests.path() +
                   ":4:19: error: expect_error must be a string (the expected error message)\n"});
  }

  TEST_CASE(
      "a rule file named with a ./ that uses itself is one cycle error (src/api/rule_set.cpp)") {
    const TempFile self("self.yaml", R"(snnplan: 1
uses:
  again: self.yaml
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: main
tables:
  main:
    - name: all
      set: {}
)");
    const fs::path path(self.path());
    const std::string dotted =
        (path.parent_path() / "." / path.filename()).string();  // .../tmp/./self.yaml
    const CliRun run = run_cli({"check", dotted});
    CHECK(run.code == kRulesUnusable);
    CHECK(run.out == dotted + ":3:10: error: rule files use each other in a cycle: " + dotted +
                         " -> " + self.path() +
                         " [uses]\n"
                         "    again: self.yaml\n"
                         "           ^\n" +
                         dotted + ": failed \u2014 1 error, 0 warnings\n");
  }

  TEST_CASE(
      "recommend --batch takes JSON arrays for list inputs and checks their items "
      "(src/request/json_inputs.cpp, src/evaluate)") {
    // Arrays were refused outright, so a rule file with a required list input could not be
    // used in batch mode; and items of the wrong kind passed the evaluator's input check.
    const TempFile rules("list_inputs.yaml", R"(snnplan: 1
inputs:
  xs: {type: "list[int]"}
  names: {type: "list[string]", default: []}
record:
  n: {type: int, init: = len(xs)}
  why: {type: rationale}
start: main
tables:
  main:
    - name: all
      because: "xs {xs} names {names}"
)");
    const std::string input = R"({"xs": [1, 2, 3]}
{"xs": [], "names": ["a", "b"]}
{"xs": ["a"]}
{"xs": [1.5]}
{"xs": [1], "names": [null]}
{"xs": [1, [2]]}
{"xs": [1, {"a": 1}]}
{"xs": [99999999999999999999]}
{"xs": 1}
)";
    const CliRun run = run_cli({"recommend", "--batch", "-", "--rules", rules.path()}, input);
    CHECK(run.code == kBadInput);
    CHECK(run.out ==
          R"({"n":3,"why":["xs [1, 2, 3] names []"]}
{"n":0,"why":["xs [] names [a, b]"]}
{"error":"input 'xs' must be list[int], got a list holding string","line":3}
{"error":"input 'xs' must be list[int], got a list holding float","line":4}
{"error":"input 'names' must be list[string], got a list holding null","line":5}
{"error":"input 'xs' must be a string, number, boolean, null or an array of those, got an array holding an array","line":6}
{"error":"input 'xs' must be a string, number, boolean, null or an array of those, got an array holding an object","line":7}
{"error":"input 'xs': 99999999999999999999 does not fit in a 64-bit integer","line":8}
{"error":"input 'xs' must be list, got int","line":9}
)");
  }

  TEST_CASE("a directory given as the rule file is reported as unreadable (src/api/rule_set.cpp)") {
    const NoRulesVariable no_rules;
    check_row(
        {"--rules naming a directory", with(kRecommend, {"--rules", kDirectory}), kRulesUnusable,
         kDirectory + ": error: cannot read rule file '" + kDirectory + "': it is a directory\n"});
  }
}

}  // namespace bad_input_matrix
