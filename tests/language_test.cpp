// The rule language's tables (language/matchers, language/builtins) and the operations the
// evaluator and the analysis share (language/operations), tested directly.
#include <doctest/doctest.h>

#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "core/runtime_value.hpp"
#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "language/operations.hpp"
#include "language/python_repr.hpp"
#include "language/syntax.hpp"
#include "rules_reference/tables.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::detail::RValue;
namespace language = snnplan::language;
namespace syntax = snnplan::syntax;

std::string python_repr(const RValue& value,
                        language::Brackets brackets = language::Brackets::list) {
  std::string out;
  language::append_python_repr(out, value, brackets);
  return out;
}

RValue text(std::string_view s) {
  return RValue::of_view(s);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_SUITE("language") {
  TEST_CASE(
      "every matcher is found by the name a rule file writes, and its row is its enumerator's") {
    for (const language::MatcherInfo& info : language::matchers()) {
      CAPTURE(info.name);
      REQUIRE(language::find_matcher(info.name) == &info);
      CHECK(&language::matcher(info.op) == &info);
    }
    CHECK(language::find_matcher("greater") == nullptr);
    CHECK(language::matchers().size() == 8);
  }

  TEST_CASE("each matcher's row says how coverage, mutation and the exclusion proof treat it") {
    using syntax::Op;
    using language::MatchOp;
    using language::Pins;
    // The rows against what coverage.cpp, mutants.cpp and exclusion.cpp did by hand before the
    // rows said it: a boundary and thresholds for the six comparisons, the ordering mutant
    // between ge/gt and le/lt, equality (no failure) for eq, ne and the list matchers, and the
    // values eq and one_of: [x] pin.
    const struct {
      MatchOp op;
      std::optional<Op> compares_as;
      std::optional<MatchOp> neighbour;
      bool by_equality;
      Pins pins;
    } expected[] = {
        {MatchOp::eq, Op::equal, std::nullopt, true, Pins::operand},
        {MatchOp::ne, Op::not_equal, std::nullopt, true, Pins::nothing},
        {MatchOp::lt, Op::less, MatchOp::le, false, Pins::nothing},
        {MatchOp::le, Op::less_equal, MatchOp::lt, false, Pins::nothing},
        {MatchOp::gt, Op::greater, MatchOp::ge, false, Pins::nothing},
        {MatchOp::ge, Op::greater_equal, MatchOp::gt, false, Pins::nothing},
        {MatchOp::one_of, std::nullopt, std::nullopt, true, Pins::only_item},
        {MatchOp::not_one_of, std::nullopt, std::nullopt, true, Pins::nothing},
    };
    REQUIRE(std::size(expected) == language::matchers().size());
    for (const auto& e : expected) {
      const language::MatcherInfo& info = language::matcher(e.op);
      CAPTURE(info.name);
      CHECK(info.compares_as == e.compares_as);
      CHECK(info.ordering_neighbour == e.neighbour);
      CHECK(info.by_equality == e.by_equality);
      CHECK(info.pins == e.pins);
    }
  }

  TEST_CASE("matchers decide integers alike on their fast and general paths") {
    const snnplan::SourceLocation at{"t.yaml", 1, 1};
    for (const language::MatcherInfo& info : language::matchers()) {
      if (!info.holds_for_integers) continue;
      CAPTURE(info.name);
      for (int fact : {-3, 7, 8, 9})
        CHECK(info.holds_for_integers(fact, 8) ==
              info.holds(RValue::of_int(fact), RValue::of_int(8), at));
    }
  }

  TEST_CASE("the evaluator's inline matcher decisions agree with every matcher's row") {
    const snnplan::SourceLocation at{"t.yaml", 1, 1};
    const RValue values[] = {RValue::of_int(-3), RValue::of_int(8), RValue::of_int(9),
                             RValue::of_view("speed"), RValue::of_view("memory"), RValue::of_bool(true),
                             RValue::of_bool(false), RValue{}};
    int decided = 0;
    for (const language::MatcherInfo& info : language::matchers()) {
      CAPTURE(info.name);
      for (const RValue& fact : values) {
        for (const RValue& operand : values) {
          // Both may refuse the pair (ordering a string and an int): then both must refuse it.
          std::optional<bool> row, inline_;
          try { row = info.holds(fact, operand, at); } catch (const language::EvaluationFailure&) {}
          try { inline_ = language::decide(info, fact, operand, at); } catch (const language::EvaluationFailure&) {}
          CHECK(row == inline_);
          decided += row.has_value();
        }
      }
    }
    CHECK(decided > 100);  // most pairs have an answer: the test compares answers, not refusals
  }

  TEST_CASE("an ordering matcher compares an integer with a float exactly") {
    const language::MatcherInfo& ge = *language::find_matcher("ge");
    const snnplan::SourceLocation at{"t.yaml", 1, 1};
    // 2^53 + 1 is not a double: as a double it would round to 2^53 and compare equal.
    const RValue big = RValue::of_int((snnplan::detail::Wide{1} << 53) + 1);
    CHECK(ge.holds(big, RValue::of_float(9007199254740992.0), at));
    CHECK_FALSE(ge.holds(RValue::of_float(9007199254740992.0), big, at));
  }

  TEST_CASE(
      "an ordering matcher on values that cannot be ordered fails with the evaluator's message") {
    const language::MatcherInfo& gt = *language::find_matcher("gt");
    try {
      (void)gt.holds(RValue{}, RValue::of_int(5), snnplan::SourceLocation{"t.yaml", 3, 9});
      FAIL("no failure");
    } catch (const language::EvaluationFailure& failure) {
      CHECK(failure.message == "t.yaml:3:9: cannot compare null with int using 'gt'");
    }
  }

  TEST_CASE(
      "a builtin given an argument of the wrong kind names the argument and its expected kinds") {
    const language::BuiltinInfo& len = *language::find_builtin("len");
    snnplan::detail::ValueStore store;
    const RValue args[] = {RValue::of_int(3)};
    try {
      (void)len.call(language::BuiltinArguments(len, args, store));
      FAIL("no failure");
    } catch (const language::ArgumentError& error) {
      CHECK(error.index == 0);
      CHECK(error.message == "argument 1 of len() must be string or list, but it is int");
    }
  }

  TEST_CASE("integer arithmetic follows Python and reports overflow instead of wrapping") {
    using snnplan::syntax::Op;
    snnplan::detail::Wide out = 0;
    CHECK(language::integer_arithmetic(Op::divide, -7, 2, out) == language::IntegerStatus::ok);
    CHECK(out == -4);
    CHECK(language::integer_arithmetic(Op::modulo, -7, 2, out) == language::IntegerStatus::ok);
    CHECK(out == 1);
    CHECK(language::integer_arithmetic(Op::modulo, 7, 0, out) ==
          language::IntegerStatus::division_by_zero);
    const snnplan::detail::Wide top = ~static_cast<snnplan::detail::UnsignedWide>(0) >> 1;
    CHECK(language::integer_arithmetic(Op::add, top, 1, out) == language::IntegerStatus::overflow);
    CHECK(language::integer_arithmetic(Op::divide, -top - 1, -1, out) ==
          language::IntegerStatus::overflow);
  }

  TEST_CASE("docs/rules.md lists every matcher and builtin as their rows describe them") {
    const std::string path = std::string(SNNPLAN_DOCS_DIR) + "/rules.md";
    const std::string document = read_text(path);
    REQUIRE(document.find("<!-- matchers:begin -->") != std::string::npos);
    REQUIRE(document.find("<!-- builtins:begin -->") != std::string::npos);
    CHECK_MESSAGE(snnplan::rules_reference::with_generated_reference(document) == document,
                  "docs/rules.md is out of date: run `cmake --build build --target update-docs`");
    for (const language::BuiltinInfo& builtin : language::builtins())
      CHECK(document.find(builtin.signature) != std::string::npos);
  }

  // Expected texts are Python 3.11's repr() of the same values.
  TEST_CASE("repr quotes and escapes strings as Python chooses") {
    CHECK(python_repr(text("x")) == "'x'");
    CHECK(python_repr(text("")) == "''");
    CHECK(python_repr(text("a'b")) == "\"a'b\"");
    CHECK(python_repr(text("a\"b")) == "'a\"b'");
    CHECK(python_repr(text("a'\"b")) == "'a\\'\"b'");
    CHECK(python_repr(text("back\\slash")) == "'back\\\\slash'");
    CHECK(python_repr(text("\t\n\r")) == "'\\t\\n\\r'");
    CHECK(python_repr(text(std::string_view("\x00\x1b\x7f", 3))) == "'\\x00\\x1b\\x7f'");
    // Printable non-ASCII stays as it is; what str.isprintable() refuses is escaped.
    CHECK(python_repr(text("\u00fcn\u00efcode")) == "'\u00fcn\u00efcode'");
    CHECK(python_repr(text("\u00a0\u00ad\u2028\U000e0001")) == "'\\xa0\\xad\\u2028\\U000e0001'");
    CHECK(python_repr(text("\U0001f600")) == "'\U0001f600'");
    // A byte that is not UTF-8 is written as its value.
    CHECK(python_repr(text("a\xff")) == "'a\\xff'");
  }

  TEST_CASE("repr writes numbers, booleans and null as Python writes int, float, bool and None") {
    CHECK(python_repr(RValue::of_int(-9)) == "-9");
    CHECK(python_repr(RValue::of_int(snnplan::detail::Wide{1} << 70)) == "1180591620717411303424");
    CHECK(python_repr(RValue::of_bool(true)) == "True");
    CHECK(python_repr(RValue::of_bool(false)) == "False");
    CHECK(python_repr(RValue{}) == "None");
    CHECK(python_repr(RValue::of_float(0.5)) == "0.5");
    CHECK(python_repr(RValue::of_float(1.0)) == "1.0");
    CHECK(python_repr(RValue::of_float(-0.0)) == "-0.0");
    CHECK(python_repr(RValue::of_float(0.1)) == "0.1");
    CHECK(python_repr(RValue::of_float(1e16)) == "1e+16");
    CHECK(python_repr(RValue::of_float(123456789012345678.0)) == "1.2345678901234568e+17");
    CHECK(python_repr(RValue::of_float(9999999999999998.0)) == "9999999999999998.0");
    CHECK(python_repr(RValue::of_float(0.0001)) == "0.0001");
    CHECK(python_repr(RValue::of_float(0.00001)) == "1e-05");
    CHECK(python_repr(RValue::of_float(1.5e-300)) == "1.5e-300");
    CHECK(python_repr(RValue::of_float(-std::numeric_limits<double>::infinity())) == "-inf");
    CHECK(python_repr(RValue::of_float(std::numeric_limits<double>::quiet_NaN())) == "nan");
  }

  TEST_CASE("repr writes a list as a Python list or tuple, a one-item tuple with its comma") {
    const RValue two[] = {text("dp"), text("ep")};
    const RValue one[] = {text("dp")};
    const RValue mixed[] = {RValue::of_int(1), RValue{}, RValue::of_items(one)};
    CHECK(python_repr(RValue::of_items(two)) == "['dp', 'ep']");
    CHECK(python_repr(RValue::of_items(two), language::Brackets::tuple) == "('dp', 'ep')");
    CHECK(python_repr(RValue::of_items(one), language::Brackets::tuple) == "('dp',)");
    CHECK(python_repr(RValue::of_items({}), language::Brackets::tuple) == "()");
    CHECK(python_repr(RValue::of_items({})) == "[]");
    CHECK(python_repr(RValue::of_items(mixed)) == "[1, None, ['dp']]");
  }
}

namespace {

using snnplan::RuleSet;
using snnplan::Value;

// A rule file whose record field `out` (of `type`) is `= EXPR`, computed from an int input `n` and
// a string input `s`.
std::string output_file(const std::string& expression, const std::string& type) {
  return "snnplan: 1\n"
         "inputs:\n  n: {type: int, default: 0}\n  s: {type: string, default: x}\n"
         "record:\n  out: {type: \"" +
         type +
         "\", default: null}\n"
         "start: main\n"
         "tables:\n  main:\n    - name: only\n      set: {out: \"= " +
         expression + "\"}\n";
}

RuleSet with_output(const std::string& expression, const std::string& type) {
  return RuleSet::from_string(output_file(expression, type), "t.yaml");
}

Value output(const std::string& type, const std::string& expression, snnplan::Inputs inputs = {}) {
  const auto result = with_output(expression, type).evaluate(inputs);
  REQUIRE_MESSAGE(result.ok(), result.error().message);
  return *result.record().find("out");
}

std::string error_of(const std::string& type, const std::string& expression,
                     snnplan::Inputs inputs = {}) {
  const auto result = with_output(expression, type).evaluate(inputs);
  REQUIRE_FALSE(result.ok());
  return result.error().message;
}

// The first error diagnostic `text` fails to load with, formatted.
std::string load_error(const std::string& text) {
  try {
    (void)RuleSet::from_string(text, "t.yaml");
  } catch (const snnplan::LoadError& e) {
    for (const snnplan::Diagnostic& d : e.diagnostics())
      if (d.severity == snnplan::Severity::error) return snnplan::format(d);
  }
  return "";
}

}  // namespace

TEST_SUITE("builtins in rule files") {
  TEST_CASE(
      "try gives its fallback when its value raises a rule error, and computes it only then") {
    CHECK(output("int?", "try(pipeline_microbatches(n, 4), -1)", {{"n", 12}}) == Value(12));
    CHECK(output("int?", "try(pipeline_microbatches(n, 4), -1)", {{"n", 17}}) == Value(-1));
    CHECK(output("int?", "try(n / 0, 7)") == Value(7));
    // The fallback is not computed when the value succeeds: its own error never shows.
    CHECK(output("int?", "try(n + 1, n / 0)", {{"n", 2}}) == Value(3));
    // A fallback that fails is the call's error.
    CHECK(error_of("int?", "try(n / 0, pipeline_microbatches(0, 1))") ==
          "batch_size must be positive, but got 0.");
  }

  TEST_CASE("try expresses the old microbatch count that fell back to the number of stages") {
    // Upstream 3d27124c and 5104da6f returned num_stages when no count in range divides the batch.
    const std::string count = "try(pipeline_microbatches(n, 8), 8)";
    CHECK(output("int?", count, {{"n", 37}}) == Value(8));
    CHECK(output("int?", count, {{"n", 24}}) == Value(24));
  }

  TEST_CASE("try does not hide a value of the wrong kind, which is a mistake in the rule file") {
    const RuleSet rules = RuleSet::from_string(
        "snnplan: 1\ninputs:\n  v: {type: \"int?\", default: null}\nlet:\n  w: \"v == null ? "
        "'none' : v\"\n"
        "record:\n  out: {type: \"int?\", default: null}\nstart: main\n"
        "tables:\n  main:\n    - name: only\n      set: {out: \"= try(w + 1, 0)\"}\n",
        "t.yaml");
    CHECK(*rules.evaluate({{"v", 4}}).record().find("out") == Value(5));
    const auto result = rules.evaluate({});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().message == "t.yaml:12:25: cannot apply '+' to string and int");
  }

  TEST_CASE("try's result has the kinds of both its arguments for the checker") {
    CHECK(output("int?", "try(n, 2) + 1", {{"n", 3}}) == Value(4));
    CHECK(load_error(output_file("try('a', 'b') * 2", "int?")) ==
          "t.yaml:11:21: error: cannot apply '*' to string and int");
  }

  TEST_CASE("repeat builds a list of copies, empty for a count below one as in Python") {
    CHECK(output("list?", "repeat(1, 3)") == Value(Value::List{Value(1), Value(1), Value(1)}));
    CHECK(output("list?", "repeat('a', n)", {{"n", 2}}) ==
          Value(Value::List{Value("a"), Value("a")}));
    CHECK(output("list?", "repeat(1, 0)") == Value(Value::List{}));
    CHECK(output("list?", "repeat(1, -5)") == Value(Value::List{}));
    CHECK(output("int?", "len(repeat(null, 65536))") == Value(65536));
  }

  TEST_CASE("repeat beyond its limit is a rule error that names the count and the limit") {
    const std::string over = " more than the limit of 65536";
    CHECK(error_of("list?", "repeat(1, n)", {{"n", 65537}}) ==
          "repeat() would build a list of 65537 items (nested ones included)," + over);
    CHECK(error_of("list?", "repeat(1, n * n)", {{"n", std::int64_t{1} << 40}}) ==
          "repeat() would build a list of 1208925819614629174706176 items (nested ones included)," +
              over);
    // Nested items count: a repeated list cannot be repeated again to square the limit.
    CHECK(output("int?", "len(repeat(repeat(1, 255), 256))") == Value(256));
    CHECK(error_of("list?", "repeat(repeat(1, 256), 256)") ==
          "repeat() would build a list of 65792 items (nested ones included)," + over);
  }

  TEST_CASE("repr beyond a mebibyte is a rule error instead of an unbounded text") {
    // 65536 copies of a 17-byte string would be over 1.3 MB of text.
    CHECK(output("int?", "len(repr(repeat('0123456789abcdef', 16384)))") == Value(327680));
    CHECK(error_of("string?", "repr(repeat('0123456789abcdef', 65536))") ==
          "repr() would write more than 1048576 bytes");
  }

  TEST_CASE("repeat refuses a count that is not an integer") {
    CHECK(load_error(output_file("repeat(1, 'x')", "list?")) ==
          "t.yaml:11:31: error: argument 2 of repeat() must be int, but it is string");
  }

  TEST_CASE("repr and repr_tuple spell values as Python's repr does") {
    CHECK(output("string?", "repr(s)", {{"s", "it's"}}) == Value("\"it's\""));
    CHECK(output("string?", "repr([n, true, null, 'a'])", {{"n", 2}}) ==
          Value("[2, True, None, 'a']"));
    CHECK(output("string?", "repr_tuple(['dp', 'ep'])") == Value("('dp', 'ep')"));
    CHECK(output("string?", "repr_tuple([s])") == Value("('x',)"));
    CHECK(load_error(output_file("repr_tuple('dp')", "string?")) ==
          "t.yaml:11:32: error: argument 1 of repr_tuple() must be list, but it is string");
  }

  TEST_CASE("a template placeholder with !r renders its value as Python's repr") {
    const RuleSet rules = RuleSet::from_string(
        "snnplan: 1\ninputs:\n  s: {type: string}\n  dims: {type: \"list[string]\", default: [dp, "
        "ep]}\n"
        "record:\n  why: {type: rationale}\nrationale_header: \"s={s!r} raw={s} dims={dims!r}\"\n"
        "start: main\ntables:\n  main:\n    - name: only\n      because: \"{{s!r}} is {s!r}\"\n",
        "t.yaml");
    const auto result = rules.evaluate({{"s", "a'b\n"}});
    REQUIRE(result.ok());
    CHECK(*result.record().find("why") ==
          Value(Value::List{Value("s=\"a'b\\n\" raw=a'b\n dims=['dp', 'ep']"),
                            Value("{s!r} is \"a'b\\n\"")}));
  }

  TEST_CASE("a template renders the same however its texts and placeholders alternate") {
    // Adjacent placeholders, escaped braces beside a placeholder, a leading and a trailing
    // value: each runs through the rendering's text-then-value steps.
    const RuleSet rules = RuleSet::from_string(
        "snnplan: 1\ninputs:\n  s: {type: string}\n  n: {type: int}\n"
        "record:\n  why: {type: rationale}\nrationale_header: \"{s}{n}\"\n"
        "start: main\ntables:\n  main:\n    - name: only\n      because:\n"
        "        - \"{{{s}}}\"\n        - \"{n} and {s}.\"\n        - \"a{{b}}c\"\n"
        "        - \"{n}\"\n",
        "t.yaml");
    const auto result = rules.evaluate({{"s", "x"}, {"n", Value(std::int64_t{-12})}});
    REQUIRE(result.ok());
    CHECK(*result.record().find("why") ==
          Value(Value::List{Value("x-12"), Value("{x}"), Value("-12 and x."), Value("a{b}c"),
                            Value("-12")}));
  }

  TEST_CASE("a template conversion other than !r is refused at its position") {
    CHECK(
        load_error(
            "snnplan: 1\ninputs:\n  s: {type: string}\nrecord:\n  why: {type: rationale}\n"
            "rationale_header: \"got {s!s}\"\nstart: main\ntables:\n  main:\n    - name: only\n") ==
        "t.yaml:6:26: error: template conversion '!s' is not supported (only '!r', Python's "
        "repr())");
  }
}

TEST_CASE("short texts compare and copy byte for byte at every length and every differing position") {
  std::string a;
  for (std::size_t n = 0; n <= 40; ++n) {
    CAPTURE(n);
    a.assign(n, 'x');
    for (std::size_t k = 0; k < n; ++k) a[k] = static_cast<char>('a' + (k * 7) % 26);
    const std::string same = a;
    CHECK(snnplan::detail::same_text(a, same));
    CHECK_FALSE(snnplan::detail::same_text(a, a + "!"));
    for (std::size_t k = 0; k < n; ++k) {
      std::string other = a;
      other[k] = static_cast<char>(other[k] ^ 0x40);
      CHECK_FALSE(snnplan::detail::same_text(a, other));
    }
    std::string out(n + 2, '#');
    snnplan::detail::copy_text(out.data() + 1, a);
    CHECK(out == "#" + a + "#");
  }
}
