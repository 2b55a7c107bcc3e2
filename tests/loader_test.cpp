// Loading and checking rule files: every problem is a positioned diagnostic.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "load/rule_tests.hpp"
#include "cli_runner.hpp"
#include "uses_files.hpp"
#include "load/keys.hpp"
#include "load/rule_file_loader.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::Diagnostic;
using snnplan::LoadError;
using snnplan::RuleSet;
using snnplan::Severity;
using snnplan::testing::TempFile;

// The minimal valid rule file; tests edit one line of it.
const std::string kBase = R"(snnplan: 1
inputs:
  x: {type: int}
let:
  y: "x * 2"
record:
  out: {type: int, default: 0}
  why: {type: rationale}
start: main
tables:
  main:
    - name: only
      set: {out: = y}
      because: "x={x}"
)";

// kBase with the first occurrence of `from` replaced by `to` (which must be there).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kBase;
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "kBase does not contain: " << from);
  text.replace(at, from.size(), to);
  return text;
}

std::vector<Diagnostic> load_errors(const std::string& text) {
  try {
    (void)RuleSet::from_string(text, "test.yaml");
  } catch (const LoadError& e) {
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : e.diagnostics())
      if (d.severity == Severity::error) errors.push_back(d);
    return errors;
  }
  FAIL("the rule file loaded without errors");
  return {};
}

// The first error, formatted "test.yaml:line:column: error: message".
std::string first_error(const std::string& text) {
  const auto errors = load_errors(text);
  REQUIRE_FALSE(errors.empty());
  return snnplan::format(errors.front());
}

}  // namespace

TEST_SUITE("loader") {
  TEST_CASE("the minimal rule file loads and evaluates") {
    const RuleSet rules = RuleSet::from_string(kBase, "test.yaml");
    CHECK(rules.file_name() == "test.yaml");
    CHECK(rules.warnings().empty());
    REQUIRE(rules.inputs().size() == 1);
    CHECK(rules.inputs()[0].name == "x");
    CHECK(rules.inputs()[0].type == "int");
    CHECK(rules.inputs()[0].required);
    const auto result = rules.evaluate({{"x", 21}});
    REQUIRE(result.ok());
    CHECK(result.record().names() == std::vector<std::string>{"out", "why"});
    CHECK(result.record().find("out")->as_int() == 42);
    CHECK(*result.record().find("why") == snnplan::Value(snnplan::Value::List{"x=21"}));
    CHECK(result.record().find("nope") == nullptr);
  }

  TEST_CASE("an unknown top-level key is reported with a did-you-mean suggestion") {
    const auto errors = load_errors(edited("tables:", "tabels:"));
    REQUIRE(errors.size() == 2);
    CHECK(snnplan::format(errors[0]) ==
          "test.yaml:10:1: error: unknown key 'tabels' in the rule file (did you mean 'tables'?)");
    CHECK(errors[0].code == "unknown-key");
    CHECK(snnplan::format(errors[1]) == "test.yaml:1:1: error: missing required key 'tables' in the rule file");
  }

  TEST_CASE("an unknown key far from every allowed key gets no suggestion") {
    CHECK(first_error(edited("start: main", "start: main\ncolour: blue")) ==
          "test.yaml:10:1: error: unknown key 'colour' in the rule file");
  }

  TEST_CASE("unknown keys inside inputs and rules name where they are") {
    CHECK(first_error(edited("x: {type: int}", "x: {type: int, defualt: 3}")) ==
          "test.yaml:3:18: error: unknown key 'defualt' in input 'x' (did you mean 'default'?)");
    CHECK(first_error(edited("      set: {out: = y}", "      wen: {x: 1}\n      set: {out: = y}")) ==
          "test.yaml:13:7: error: unknown key 'wen' in rule 'only' (did you mean 'when'?)");
    CHECK(first_error(edited("      set: {out: = y}",
                             "      when: {x: {gte: 1}}\n      set: {out: = y}")) ==
          "test.yaml:13:18: error: unknown matcher 'gte' (expected eq, ne, lt, le, gt, ge, one_of, "
          "not_one_of); did you mean 'ge'?");
  }

  TEST_CASE("a rule format version other than 1 or 2 is refused at the version number") {
    CHECK(first_error(edited("snnplan: 1", "snnplan: 3")) ==
          "test.yaml:1:10: error: unsupported rule format version 3 (this snnplan reads versions 1 to 2)");
    CHECK(first_error(edited("snnplan: 1", "snnplan: 0")) ==
          "test.yaml:1:10: error: unsupported rule format version 0 (this snnplan reads versions 1 to 2)");
    CHECK(first_error(edited("snnplan: 1", "snnplan: one")) ==
          "test.yaml:1:10: error: unsupported rule format version one (this snnplan reads versions 1 to 2)");
  }

  TEST_CASE("a rule format version beyond 64 bits or the double range gets its range error only") {
    const auto integer = load_errors(edited("snnplan: 1", "snnplan: 99999999999999999999"));
    REQUIRE(integer.size() == 1);
    CHECK(snnplan::format(integer[0]) == "test.yaml:1:10: error: integer 99999999999999999999 does not fit in 64 bits");
    const auto floating = load_errors(edited("snnplan: 1", "snnplan: 1e400"));
    REQUIRE(floating.size() == 1);
    CHECK(snnplan::format(floating[0]) == "test.yaml:1:10: error: float 1e400 is beyond the range of a 64-bit float");
  }

  TEST_CASE("a rule file without the version key is refused") {
    const auto errors = load_errors(edited("snnplan: 1\n", ""));
    REQUIRE(errors.size() == 1);
    CHECK(snnplan::format(errors[0]) ==
          "test.yaml:1:1: error: missing required key 'snnplan' in the rule file (the format version, 1 or 2)");
  }

  TEST_CASE("a YAML syntax error is reported with its line and column") {
    const auto errors = load_errors(edited("start: main", "start: main: x"));
    REQUIRE(errors.size() == 1);
    CHECK(snnplan::format(errors[0]) ==
          "test.yaml:9:12: error: YAML syntax error: a ': ' inside an unquoted text starts a "
          "mapping here; quote the "
          "text (because: \"... : ...\")");
    CHECK(errors[0].code == "yaml-syntax");
  }

  // yaml-cpp stops at the next key or the end of the file; the note points at the bracket.
  TEST_CASE("an unclosed flow mapping or sequence is shown where its bracket opens") {
    const auto diagnostics_of = [](const std::string& text) {
      try {
        (void)RuleSet::from_string(text, "test.yaml");
      } catch (const LoadError& e) {
        std::vector<std::string> formatted;
        for (const Diagnostic& d : e.diagnostics()) formatted.push_back(snnplan::format(d));
        return formatted;
      }
      FAIL("the rule file loaded without errors");
      return std::vector<std::string>{};
    };
    CHECK(diagnostics_of(edited("x: {type: int}", "x: {type: int")) ==
          std::vector<std::string>{
              "test.yaml:4:4: error: YAML syntax error: end of map flow not found",
              "test.yaml:3:6: note: the flow mapping '{' that starts here is not closed with '}'"});
    CHECK(diagnostics_of(edited("because: \"x={x}\"", "because: [\"x={x}\"")) ==
          std::vector<std::string>{
              "test.yaml:15:1: error: YAML syntax error: end of sequence flow not found",
              "test.yaml:14:16: note: the flow sequence '[' that starts here is not closed with ']'"});
    // Other syntax errors inside a flow collection get no note.
    CHECK(diagnostics_of(edited("x: {type: int}", "x: {type: int]")) ==
          std::vector<std::string>{"test.yaml:3:16: error: YAML syntax error: illegal flow end"});
  }

  TEST_CASE("a document that is not a mapping is refused") {
    CHECK(first_error("- just\n- a list\n") ==
          "test.yaml:1:1: error: a rule file must be a mapping with the keys snnplan, inputs, record, tables, ...");
    CHECK(first_error("") ==
          "test.yaml:1:1: error: a rule file must be a mapping with the keys snnplan, inputs, record, tables, ...");
  }

  TEST_CASE("values of the wrong YAML kind are refused with what was expected") {
    CHECK(first_error(edited("x: {type: int}", "x: {type: string, lower: yes}")) ==
          "test.yaml:3:28: error: lower must be true or false");
    CHECK(first_error(edited("x: {type: int}", "x: [int]")) == "test.yaml:3:6: error: input 'x' must be a mapping");
    CHECK(first_error(edited("start: main", "start: [main]")) == "test.yaml:9:8: error: start must be a string");
    CHECK(first_error(edited("  main:\n", "  main: {}\n  other:\n")) ==
          "test.yaml:11:9: error: table 'main' must be a list of rules, or a mapping with rules");
  }

  TEST_CASE("an unknown type name is refused with the list of types") {
    CHECK(first_error(edited("x: {type: int}", "x: {type: integer}")) ==
          "test.yaml:3:13: error: unknown type 'integer' (expected string, int, bool, float, list[int], "
          "list[string], rationale; add '?' to allow null)");
  }

  TEST_CASE("missing required keys are reported at the mapping that lacks them") {
    CHECK(first_error(edited("x: {type: int}", "x: {default: 3}")) ==
          "test.yaml:3:6: error: missing required key 'type' in input 'x'");
    CHECK(first_error(edited("    - name: only\n", "    - set: {out: 1}\n")) ==
          "test.yaml:12:7: error: missing required key 'name' in a rule");
    CHECK(first_error(edited("start: main\n", "")) == "test.yaml:1:1: error: missing required key 'start' in the rule file");
    CHECK(first_error(edited("  out: {type: int, default: 0}", "  out: {type: int}")) ==
          "test.yaml:7:3: error: missing required key 'default' in record field 'out' (or give it an init)");
  }

  TEST_CASE("a rule without any outcome or with two outcomes is refused") {
    CHECK(first_error(edited("      set: {out: = y}\n      because: \"x={x}\"\n", "      when: {x: 1}\n")) ==
          "test.yaml:12:13: error: rule 'only' does nothing: give it set, because, error, next or fallback");
    CHECK(first_error(edited("      because: \"x={x}\"\n", "      error: boom\n      next: main\n")) ==
          "test.yaml:12:7: error: rule 'only' may have only one of error, next and fallback");
  }

  TEST_CASE("a duplicate YAML key is refused at its second occurrence") {
    CHECK(first_error(edited("  x: {type: int}\n", "  x: {type: int}\n  x: {type: int}\n")) ==
          "test.yaml:4:3: error: duplicate key 'x'");
  }

  TEST_CASE("an unknown fact is reported with a suggestion wherever it is used") {
    CHECK(first_error(edited("because: \"x={x}\"", "because: \"x={xx}\"")) ==
          "test.yaml:14:20: error: unknown fact 'xx' (did you mean 'x'?)");
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"z * 2\"")) ==
          "test.yaml:5:7: error: unknown fact 'z' (did you mean 'x'?)");
    CHECK(first_error(edited("      set: {out: = y}", "      when: {zz: 1}\n      set: {out: = y}")) ==
          "test.yaml:13:14: error: unknown fact 'zz'");
  }

  TEST_CASE("an unknown record field is reported with a suggestion") {
    CHECK(first_error(edited("set: {out: = y}", "set: {outt: = y}")) ==
          "test.yaml:13:13: error: unknown record field 'outt' (did you mean 'out'?)");
  }

  TEST_CASE("setting the rationale field directly is refused") {
    CHECK(first_error(edited("set: {out: = y}", "set: {out: = y, why: []}")) ==
          "test.yaml:13:23: error: 'why' collects rationale lines; use `because` instead of setting it");
  }

  TEST_CASE("an unknown table is reported for start, next and fallback") {
    CHECK(first_error(edited("start: main", "start: mian")) ==
          "test.yaml:9:8: error: unknown table 'mian' (did you mean 'main'?)");
    CHECK(first_error(edited("      because: \"x={x}\"", "      next: other")) ==
          "test.yaml:14:13: error: unknown table 'other'");
    CHECK(first_error(edited("      because: \"x={x}\"", "      fallback: {table: mains}")) ==
          "test.yaml:14:25: error: unknown table 'mains' (did you mean 'main'?)");
  }

  TEST_CASE("an unknown builtin is reported at the call") {
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"twice(x)\"")) == "test.yaml:5:7: error: unknown builtin 'twice'");
  }

  TEST_CASE("a duplicate rule name is refused and names the first declaration") {
    const std::string text = kBase + "  other:\n    - name: only\n      set: {out: 1}\n";
    CHECK(first_error(text) == "test.yaml:16:13: error: duplicate rule name 'only' (first declared at test.yaml:12:13)");
  }

  TEST_CASE("a derived value may not reuse the name of an input") {
    CHECK(first_error(edited("  y: \"x * 2\"", "  y: \"x * 2\"\n  x: \"3\"")) ==
          "test.yaml:6:3: error: duplicate name 'x' (first declared at test.yaml:3:3)");
  }

  TEST_CASE("a let cycle is refused with the path of the cycle") {
    CHECK(first_error(edited("  y: \"x * 2\"", "  a: \"b + 1\"\n  b: \"a + 1\"\n  y: \"x * 2\"")) ==
          "test.yaml:5:3: error: derived values depend on each other in a cycle: a -> b -> a");
    CHECK(first_error(edited("  y: \"x * 2\"", "  a: \"b + 1\"\n  b: \"c + 1\"\n  c: \"a\"\n  y: \"x * 2\"")) ==
          "test.yaml:5:3: error: derived values depend on each other in a cycle: a -> b -> c -> a");
    CHECK(first_error(edited("  y: \"x * 2\"", "  y: \"y + x\"")) ==
          "test.yaml:5:3: error: derived values depend on each other in a cycle: y -> y");
  }

  TEST_CASE("tables that call each other in a cycle are refused at the call that closes it") {
    const std::string text = R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: a
tables:
  a:
    - name: to-b
      next: b
  b:
    - name: to-a
      when: {x: 1}
      next: a
    - name: done
      set: {out: 1}
)";
    CHECK(first_error(text) ==
          "test.yaml:14:13: error: tables call each other in a cycle, which could loop forever: a -> b -> a");

    const std::string self = R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, default: 0}
start: a
tables:
  a:
    - name: again
      when: {x: 1}
      fallback: {table: a, with: {x: 2}}
    - name: done
      set: {out: 1}
)";
    CHECK(first_error(self) ==
          "test.yaml:11:25: error: tables call each other in a cycle, which could loop forever: a -> a");
  }

  TEST_CASE("comparing a string with an int is a type error") {
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"x == 'a' ? 1 : 2\"")) ==
          "test.yaml:5:7: error: cannot compare int with string using '=='");
    CHECK(first_error(edited("      set: {out: = y}", "      when: {x: abc}\n      set: {out: = y}")) ==
          "test.yaml:13:17: error: cannot compare int with string using 'eq'");
    CHECK(first_error(edited("      set: {out: = y}", "      when: {x: {gt: abc}}\n      set: {out: = y}")) ==
          "test.yaml:13:22: error: cannot compare int with string using 'gt'");
    CHECK(first_error(edited("      set: {out: = y}", "      when: {x: [1, two]}\n      set: {out: = y}")) ==
          "test.yaml:13:21: error: cannot compare int with string using 'one_of'");
  }

  TEST_CASE("assigning a value of the wrong type to a field or input is a type error") {
    CHECK(first_error(edited("set: {out: = y}", "set: {out: hello}")) ==
          "test.yaml:13:18: error: record field 'out' must be int, but it is string");
    CHECK(first_error(edited("x: {type: int}", "x: {type: int, default: abc}")) ==
          "test.yaml:3:27: error: the default of input 'x' must be int, but it is string");
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"x + 'a'\"")) ==
          "test.yaml:5:7: error: cannot apply '+' to int and string");
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"!x\"")) ==
          "test.yaml:5:7: error: the operand of '!' must be bool, but it is int");
    CHECK(first_error(edited("y: \"x * 2\"", "y: \"x ? 1 : 2\"")) ==
          "test.yaml:5:7: error: the condition of '?:' must be bool, but it is int");
  }

  TEST_CASE("every error of a file is reported in one LoadError, sorted by position within a stage") {
    const std::string text = edited("because: \"x={x}\"", "because: \"{a} {b}\"");
    try {
      (void)RuleSet::from_string(text, "test.yaml");
      FAIL("expected a LoadError");
    } catch (const LoadError& e) {
      REQUIRE(e.diagnostics().size() == 2);
      CHECK(snnplan::format(e.diagnostics()[0]) == "test.yaml:14:18: error: unknown fact 'a' (did you mean 'x'?)");
      CHECK(snnplan::format(e.diagnostics()[1]) == "test.yaml:14:22: error: unknown fact 'b' (did you mean 'x'?)");
      CHECK(std::string(e.what()) == "test.yaml:14:18: unknown fact 'a' (did you mean 'x'?)");
    }
  }

  TEST_CASE("warnings do not prevent loading and are kept on the rule set") {
    const RuleSet rules = RuleSet::from_string(edited("set: {out: = y}", "set: {out: 1}"), "test.yaml");
    REQUIRE(rules.warnings().size() == 1);
    CHECK(snnplan::format(rules.warnings()[0]) == "test.yaml:5:3: warning: derived value 'y' is never used");
    CHECK(rules.warnings()[0].code == "unused");
  }

  TEST_CASE("a rule after a catch-all rule is reported as unreachable") {
    const RuleSet rules =
        RuleSet::from_string(kBase + "    - name: never\n      set: {out: 1}\n", "test.yaml");
    REQUIRE(rules.warnings().size() == 1);
    CHECK(snnplan::format(rules.warnings()[0]) ==
          "test.yaml:15:13: warning: rule 'never' follows a catch-all rule in table 'main' and can never fire "
          "(rule 'only' above matches every input)");
  }

  TEST_CASE("the alias expansion limit counts only what aliases repeat, so a long plain file loads") {
    // 101,000 list items written out: more nodes than the limit allows aliases to add.
    std::string items;
    for (int k = 0; k < 101000; ++k) items += (k ? ", " : "") + std::to_string(k);
    const std::string plain = "snnplan: 1\ninputs:\n  n: {type: int, one_of: [" + items +
                              "]}\nrecord:\n  r: {type: int, default: 0}\nstart: t\ntables:\n  t:\n    - {name: any, set: {r: 1}}\n";
    const RuleSet rules = RuleSet::from_string(plain);
    const auto result = rules.evaluate({{"n", 100999}});
    REQUIRE(result.ok());
    CHECK(result.record().find("r")->as_int() == 1);
    CHECK_FALSE(rules.evaluate({{"n", 101000}}).ok());  // the list is really there

    // The same number of items reached through aliases is refused.
    std::string aliased = "snnplan: 1\nlet:\n  a: &a [" + items.substr(0, items.find(", 1000,")) + "]\n  b: [";
    for (int k = 0; k < 110; ++k) aliased += (k ? ", " : "") + std::string("*a");
    aliased += "]\n";
    try {
      (void)RuleSet::from_string(aliased, "aliased.yaml");
      FAIL("aliases adding 110,000 nodes were accepted");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()).find("has more than 100000 YAML nodes once aliases are expanded") != std::string::npos);
    }
  }

  TEST_CASE("a missing rule file is a LoadError that names the path") {
    try {
      (void)RuleSet::from_file("/nonexistent/dir/rules.yaml");
      FAIL("expected a LoadError");
    } catch (const LoadError& e) {
      REQUIRE(e.diagnostics().size() == 1);
      CHECK(e.diagnostics()[0].message ==
            "cannot read rule file '/nonexistent/dir/rules.yaml': No such file or directory");
      CHECK_FALSE(e.diagnostics()[0].location.known());
      CHECK(snnplan::format(e.diagnostics()[0]) ==
            "/nonexistent/dir/rules.yaml: error: cannot read rule file "
            "'/nonexistent/dir/rules.yaml': No such file "
            "or directory");
    }
  }

  TEST_CASE("an error inside an expression is located in every YAML layout of the value") {
    // The let `y` (line 5 of kBase) written in different YAML forms, each with the unknown
    // fact 'nn'; {line, column} of the 'nn' in the file.
    struct Layout {
      const char* value;  // replaces `"x * 2"` on line 5
      std::uint32_t line;
      std::uint32_t column;
    };
    const Layout layouts[] = {
        {R"("x * 2 + nn")", 5, 15},
        {R"(x * 2 + nn)", 5, 14},
        {R"(&a "x + nn")", 5, 14},                         // an anchor before the value
        {R"(!!str x + nn)", 5, 16},                        // a tag before the value
        {"\"x +\n    nn\"", 6, 5},                         // a double-quoted value over two lines
        {"'x +\n    nn'", 6, 5},                           // single-quoted
        {"\"x \\\n    + nn\"", 6, 7},                      // an escaped line break
        {"\"x +\n\n    nn\"", 7, 5},                       // an empty line inside the quotes
        {"\"x \\\n\n\n    + nn\"", 8, 7},                 // an escaped break, then two empty lines
        {"x +\n    nn", 6, 5},                             // plain over two lines
        {">\n    x +\n    nn", 7, 5},                      // a folded block
        {">-\n    x\n      + nn", 7, 9},                   // a folded block's line indented further
        {">-\n    x\n      + 1\n    + nn", 8, 7},           // and the line after it
        {"|\n    x +\n    nn", 7, 5},                      // a literal block
        {R"("len('\L\P\N\_') + nn")", 5, 25},              // escapes that decode to 2-3 bytes
        {R"("len('\u00e9\x41') + nn")", 5, 27},
    };
    for (const Layout& layout : layouts) {
      const std::string value = layout.value;
      CAPTURE(value);
      for (const bool crlf : {false, true}) {
        CAPTURE(crlf);
        std::string text = edited(R"(y: "x * 2")", std::string("y: ") + layout.value);
        if (crlf) {
          std::string converted;
          for (const char c : text) converted += c == '\n' ? std::string("\r\n") : std::string(1, c);
          text = converted;
        }
        const auto errors = load_errors(text);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].message == "unknown fact 'nn'");
        CHECK(errors[0].location.line == layout.line);
        CHECK(errors[0].location.column == layout.column);
      }
    }
  }

  TEST_CASE("a chain of table calls deeper than the evaluator allows is a checker warning") {
    // t0 -> t1 -> ... -> t{n-1} through `next`; the evaluator allows 32 nested calls.
    const auto chain = [](int tables) {
      std::string text = "snnplan: 1\ninputs:\n  x: {type: int}\nrecord:\n  out: {type: int, init: = x}\nstart: t0\ntables:\n";
      for (int k = 0; k < tables; ++k) {
        text += "  t" + std::to_string(k) + ":\n    - name: r" + std::to_string(k) + "\n";
        text += k + 1 < tables ? "      next: t" + std::to_string(k + 1) + "\n" : "      set: {out: 1}\n";
      }
      return text;
    };
    const auto warnings_of = [](const RuleSet& rules) {
      std::vector<std::string> codes;
      for (const Diagnostic& d : rules.warnings()) codes.push_back(d.code);
      return codes;
    };
    const RuleSet fits = RuleSet::from_string(chain(33), "test.yaml");  // 32 calls
    CHECK(warnings_of(fits).empty());
    CHECK(fits.evaluate({{"x", 1}}).ok());

    const RuleSet deep = RuleSet::from_string(chain(34), "test.yaml");  // 33 calls
    REQUIRE(deep.warnings().size() == 1);
    CHECK(deep.warnings()[0].code == "table-calls-too-deep");
    CHECK(deep.warnings()[0].location.line == 8);
    CHECK(deep.warnings()[0].message.rfind(
              "table calls can nest 33 levels deep, beyond the limit of 32: an evaluation that follows t0 -> t1 -> t2 -> ", 0) == 0);
    CHECK(deep.warnings()[0].message.find("-> t33 fails") != std::string::npos);
    CHECK_FALSE(deep.evaluate({{"x", 1}}).ok());
  }

  TEST_CASE("columns on the first line count from after a byte order mark") {
    const auto errors = load_errors("\xEF\xBB\xBF" + edited("snnplan: 1", "snnplan: \"2\""));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].location.line == 1);
    CHECK(errors[0].location.column == 11);  // the 2 inside the quotes, as without the mark
    CHECK(load_errors(edited("snnplan: 1", "snnplan: \"2\""))[0].location.column == 11);
  }

  TEST_CASE("format_with_source shows the offending line with a caret under the column") {
    const std::string text = edited("start: main", "start: mian");
    const auto errors = load_errors(text);
    REQUIRE_FALSE(errors.empty());
    CHECK(snnplan::format_with_source(errors[0], text) ==
          "test.yaml:9:8: error: unknown table 'mian' (did you mean 'main'?)\n  start: mian\n      "
          "   ^");
  }

  TEST_CASE("format_with_source puts the caret under characters, not bytes, and leaves out what is not shown") {
    const Diagnostic d{Severity::error, snnplan::SourceLocation{"f.yaml", 1, 8}, "c", "m"};
    // "é" is two bytes: column 8 is the 'x', the seventh character, so six spaces go before the caret.
    CHECK(snnplan::format_with_source(d, "k: \"\xC3\xA9 x\"") == "f.yaml:1:8: error: m\n  k: \"\xC3\xA9 x\"\n        ^");
    // A byte order mark is not part of the first line's columns; a CRLF line ends before its '\r'.
    const Diagnostic d2{Severity::error, snnplan::SourceLocation{"f.yaml", 1, 4}, "c", "m"};
    CHECK(snnplan::format_with_source(d2, "\xEF\xBB\xBFk: v\r\nx: 1\r\n") == "f.yaml:1:4: error: m\n  k: v\n     ^");
    // No text to show (a pipe read once): the message alone, not an empty line with a caret.
    CHECK(snnplan::format_with_source(d2, "") == "f.yaml:1:4: error: m");
  }

  TEST_CASE("a quoted string left open at the end of the file is a YAML syntax error at its quote") {
    // yaml-cpp alone takes the rest of the file into the string when a newline ends the file.
    for (const char* ending : {"\n", "\n\n# a comment\n"}) {
      CAPTURE(ending);
      const auto errors = load_errors(kBase + "description: \"unterminated" + ending);
      REQUIRE(errors.size() == 1);
      CHECK(snnplan::format(errors[0]) ==
            "test.yaml:15:14: error: YAML syntax error: the quoted string that starts here is not closed with '\"'");
      const auto single = load_errors(kBase + "description: 'it''s" + ending);
      REQUIRE(single.size() == 1);
      CHECK(snnplan::format(single[0]) ==
            "test.yaml:15:14: error: YAML syntax error: the quoted string that starts here is not closed with \"'\"");
    }
    // Closed strings with escapes, doubled quotes, a byte order mark and non-ASCII text before them load.
    const std::string closed = kBase + "description: 'it''s \"fine\"'\n";
    CHECK_NOTHROW((void)RuleSet::from_string(closed, "test.yaml"));
    CHECK_NOTHROW((void)RuleSet::from_string("\xEF\xBB\xBF" + edited("because: \"x={x}\"", "because: ['', \"\xC3\xA9 \\\" x={x}\"]"), "test.yaml"));
  }

  TEST_CASE("a second YAML document in a rule file is refused at the line that starts it") {
    for (const char* separator : {"---\n", "...\n"}) {
      CAPTURE(separator);
      const auto errors = load_errors(kBase + separator + "anything: [\n");
      REQUIRE(errors.size() == 1);
      CHECK(snnplan::format(errors[0]) ==
            "test.yaml:15:1: error: YAML syntax error: a second YAML document starts here (a rule file holds one; "
            "remove the '---' or '...' and what follows)");
    }
    CHECK_NOTHROW((void)RuleSet::from_string("---\n" + kBase + "...\n# the end\n", "test.yaml"));
  }
}

// Rule files using other rule files (`uses`): each way it can fail, with its exact text at the
// `uses` entry of the file that names the unusable one.
TEST_SUITE("loader: uses") {
  using snnplan::testing::kUsed;
  using snnplan::testing::user_of;

  std::string chain_file_name(int chain, int k) { return "chain" + std::to_string(chain) + "_" + std::to_string(k) + ".yaml"; }

  std::vector<std::string> errors_of_file(const std::string& path) {
    std::vector<std::string> errors;
    try {
      (void)RuleSet::from_file(path);
    } catch (const LoadError& e) {
      for (const Diagnostic& d : e.diagnostics())
        if (d.severity == Severity::error) errors.push_back(snnplan::format(d));
    }
    return errors;
  }

  TEST_CASE("a used file next to the user is loaded and called") {
    const TempFile used("used.yaml", kUsed);
    const TempFile user("user.yaml", user_of("used.yaml"));
    const auto result = RuleSet::from_file(user.path()).evaluate({{"x", 21}});
    REQUIRE(result.ok());
    CHECK(result.record().find("out")->as_int() == 42);
  }

  TEST_CASE("a used file that is neither next to the user nor built in is refused where it is named") {
    const TempFile user("user.yaml", user_of("missing.yaml"));
    const std::string directory = std::filesystem::path(user.path()).parent_path().string();
    const auto errors = errors_of_file(user.path());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == user.path() + ":3:10: error: cannot find rule file 'missing.yaml' in " + directory +
                           " or among the built-in rule files");
    try {
      (void)RuleSet::from_string(user_of("missing.yaml"), "text.yaml");
      FAIL("loaded");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()) == "text.yaml:3:10: cannot find rule file 'missing.yaml' among the built-in rule files");
    }
  }

  TEST_CASE("only a bare file name falls back to a built-in rule file") {
    // snn_distributed.yaml is built in; under a directory that lacks it, it is not found.
    const TempFile user("user.yaml", user_of("sub/snn_distributed.yaml"));
    const auto errors = errors_of_file(user.path());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == user.path() +
                           ":3:10: error: cannot find rule file 'sub/snn_distributed.yaml' in " +
                           std::filesystem::path(user.path()).parent_path().string());
    try {
      (void)RuleSet::from_string(user_of("sub/missing.yaml"), "text.yaml");
      FAIL("loaded");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()) ==
            "text.yaml:3:10: cannot find rule file 'sub/missing.yaml' (only a bare file name can name a built-in rule file)");
    }
  }

  TEST_CASE("rule files using each other in a cycle are refused with the cycle") {
    const TempFile a("a.yaml", user_of("b.yaml"));
    const TempFile b("b.yaml", user_of("a.yaml"));
    const auto errors = errors_of_file(a.path());
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == b.path() + ":3:10: error: rule files use each other in a cycle: " + a.path() + " -> " + b.path() +
                           " -> " + a.path());
    CHECK(errors[1] == a.path() + ":3:10: error: rule file '" + b.path() + "' (used as 'other') has errors");
  }

  TEST_CASE("a used file with errors is refused with its own error first") {
    const TempFile used("broken_used.yaml", [&] { std::string t = kUsed; t.replace(t.find("= x * 2"), 7, "= x *"); return t; }());
    const TempFile user("user.yaml", user_of("broken_used.yaml"));
    const auto errors = errors_of_file(user.path());
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == used.path() + ":5:31: error: expression: expected a value, found 'end of expression'");
    CHECK(errors[1] == user.path() + ":3:10: error: rule file '" + used.path() + "' (used as 'other') has errors");
  }

  TEST_CASE("a load error keeps the texts its diagnostics point into, so their lines show after the files changed") {
    const std::string broken = [&] { std::string t = kUsed; t.replace(t.find("= x * 2"), 7, "= x *"); return t; }();
    std::vector<snnplan::SourceText> sources;
    std::vector<Diagnostic> diagnostics;
    std::string used_path;
    std::string user_path;
    {
      const TempFile used("kept_used.yaml", broken);
      const TempFile user("kept_user.yaml", user_of("kept_used.yaml"));
      used_path = used.path();
      user_path = user.path();
      try {
        (void)RuleSet::from_file(user.path());
        FAIL("loaded");
      } catch (const LoadError& e) {
        sources = e.sources();
        diagnostics = e.diagnostics();
      }
    }  // both files are gone now
    CHECK_FALSE(std::filesystem::exists(used_path));
    REQUIRE(sources.size() == 2);
    CHECK(sources[0].file == user_path);
    CHECK(sources[0].text == user_of("kept_used.yaml"));
    CHECK(sources[1].file == used_path);
    CHECK(sources[1].text == broken);
    REQUIRE(diagnostics.size() == 2);
    CHECK(snnplan::format_with_source(diagnostics[0], snnplan::find_source(sources, diagnostics[0].location.file)) ==
          used_path + ":5:31: error: expression: expected a value, found 'end of expression'\n"
                      "    out: {type: int, init: = x *}\n  " + std::string(30, ' ') + "^");
    CHECK(snnplan::format_with_source(diagnostics[1], snnplan::find_source(sources, diagnostics[1].location.file)) ==
          user_path + ":3:10: error: rule file '" + used_path + "' (used as 'other') has errors\n"
                      "    other: kept_used.yaml\n  " + std::string(9, ' ') + "^");
    // A file that could not be read has no text to keep.
    try {
      (void)RuleSet::from_file(used_path);
      FAIL("loaded");
    } catch (const LoadError& e) {
      CHECK(e.sources().empty());
    }
  }

  TEST_CASE("a chain of 8 rule files loads and a ninth is refused at the entry that names it") {
    // chain_k_0 uses chain_k_1 uses ... up to chain_k_{k-1}, which uses nothing.
    const auto make_chain = [&](int files) {
      std::vector<std::unique_ptr<TempFile>> chain;
      for (int k = 0; k + 1 < files; ++k)
        chain.push_back(std::make_unique<TempFile>(chain_file_name(files, k), user_of(chain_file_name(files, k + 1))));
      chain.push_back(std::make_unique<TempFile>(chain_file_name(files, files - 1), kUsed));
      return chain;
    };
    const auto eight = make_chain(8);
    CHECK(RuleSet::from_file(eight[0]->path()).evaluate({{"x", 1}}).record().find("out")->as_int() == 2);
    const auto nine = make_chain(9);
    const auto errors = errors_of_file(nine[0]->path());
    REQUIRE_FALSE(errors.empty());
    CHECK(errors[0] == nine[7]->path() + ":3:10: error: rule files use each other more than 8 levels deep");
  }
}

// The key table (load/keys.hpp) is what the schema is built from; these hold it to the loaders.
TEST_SUITE("loader: key table") {
  // A file without one required key, for each key the table calls required.
  struct Omission {
    snnplan::load::Section section;
    const char* key;
    const char* text;
  };
  const std::vector<Omission> kOmissions = {
      {snnplan::load::Section::rule_file, "snnplan", "inputs: {}\nrecord: {}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::rule_file, "inputs", "snnplan: 1\nrecord: {}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::rule_file, "record", "snnplan: 1\ninputs: {}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::rule_file, "start", "snnplan: 1\ninputs: {}\nrecord: {}\ntables: {t: []}\n"},
      {snnplan::load::Section::rule_file, "tables", "snnplan: 1\ninputs: {}\nrecord: {}\nstart: t\n"},
      {snnplan::load::Section::input, "type", "snnplan: 1\ninputs: {x: {default: 1}}\nrecord: {}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::record_field, "type", "snnplan: 1\ninputs: {}\nrecord: {f: {default: 1}}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::let_call, "call", "snnplan: 1\ninputs: {}\nlet: {y: {with: {}}}\nrecord: {}\nstart: t\ntables: {t: []}\n"},
      {snnplan::load::Section::rule, "name", "snnplan: 1\ninputs: {}\nrecord: {}\nstart: t\ntables: {t: [{error: no}]}\n"},
      {snnplan::load::Section::fallback, "table", "snnplan: 1\ninputs: {}\nrecord: {}\nstart: t\ntables: {t: [{name: r, fallback: {with: {}}}]}\n"},
  };

  TEST_CASE("every key the key table calls required is reported missing by the loader when left out") {
    using snnplan::load::Section;
    std::size_t required = 0;
    for (Section section : {Section::rule_file, Section::input, Section::record_field, Section::let_call, Section::rule,
                            Section::fallback})
      for (const snnplan::load::KeyRow& row : snnplan::load::keys(section))
        if (row.required) {
          ++required;
          const auto omission = std::find_if(kOmissions.begin(), kOmissions.end(), [&](const Omission& o) {
            return o.section == section && o.key == row.key;
          });
          REQUIRE_MESSAGE(omission != kOmissions.end(), "no test file leaves out the required key ", row.key);
          const snnplan::load::LoadedFile loaded = snnplan::load::load_rule_file(omission->text, "f.yaml");
          const bool reported = std::any_of(loaded.diagnostics.begin(), loaded.diagnostics.end(), [&](const auto& d) {
            return d.code == "missing-key" && d.message.find("'" + std::string(row.key) + "'") != std::string::npos;
          });
          CHECK_MESSAGE(reported, "leaving out ", row.key, " is not reported as missing");
        }
    CHECK(required == kOmissions.size());
  }

  TEST_CASE("a key the table does not list is an unknown key in every section, rule-test files included") {
    const snnplan::load::LoadedFile loaded = snnplan::load::load_rule_file(
        "snnplan: 1\ninputs: {x: {type: int, bogus1: 1}}\nrecord: {f: {type: int, bogus2: 1}}\nstart: t\n"
        "tables: {t: [{name: r, bogus3: 1, fallback: {table: t, bogus4: 1}}]}\nbogus5: 1\n",
        "f.yaml");
    std::size_t unknown = 0;
    for (const auto& d : loaded.diagnostics) unknown += d.code == "unknown-key" ? 1 : 0;
    CHECK(unknown == 5);

    std::vector<snnplan::Diagnostic> problems;
    (void)snnplan::load::load_rule_tests("tests:\n  - name: a\n    input: {}\n    expect: {}\n    bogus: 1\nextra: 1\n",
                                        "t.yaml", problems);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].message == "unknown key 'extra' in a test file; allowed: tests");
    CHECK(problems[1].message ==
          "unknown key 'bogus' in a test; allowed: name, description, tags, input, expect, exact, "
          "expect_rules, expect_error");
  }
}
