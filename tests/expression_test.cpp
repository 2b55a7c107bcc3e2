// The expression language: operators, precedence, literals, integer semantics and builtins.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "load/literals.hpp"
#include "core/messages.hpp"
#include "load/expression_parser.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::EvaluationErrorKind;
using snnplan::Inputs;
using snnplan::LoadError;
using snnplan::RuleSet;
using snnplan::Value;

// Escapes `text` for a YAML double-quoted scalar.
std::string yaml_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A rule file whose `out` field receives the value of the let `y = expr`.
// Inputs: x (int, required), s (string, default "Hello"), f (bool, default false).
std::string file_with_let(const std::string& expr, const std::string& out_type = "int",
                          const std::string& out_default = "null") {
  return "snnplan: 1\n"
         "inputs:\n"
         "  x: {type: int}\n"
         "  s: {type: string, default: Hello}\n"
         "  f: {type: bool, default: false}\n"
         "let:\n"
         "  y: " + yaml_quoted(expr) + "\n"
         "record:\n"
         "  out: {type: \"" + out_type + "?\", default: " + out_default + "}\n"
         "  why: {type: rationale}\n"
         "start: main\n"
         "tables:\n"
         "  main:\n"
         "    - name: only\n"
         "      set: {out: = y}\n"
         "      because: \"x={x} s={s} f={f}\"\n";
}

snnplan::EvaluationResult eval_let(const std::string& expr, Value x = 3, const std::string& out_type = "int") {
  const RuleSet rules = RuleSet::from_string(file_with_let(expr, out_type), "test.yaml");
  return rules.evaluate({{"x", std::move(x)}});
}

std::int64_t int_of(const std::string& expr, Value x = 3) {
  const auto result = eval_let(expr, std::move(x), "int");
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return result.record().find("out")->as_int();
}

bool bool_of(const std::string& expr, Value x = 3) {
  const auto result = eval_let(expr, std::move(x), "bool");
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return result.record().find("out")->as_bool();
}

std::string string_of(const std::string& expr, Value x = 3) {
  const auto result = eval_let(expr, std::move(x), "string");
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return result.record().find("out")->as_string();
}

snnplan::EvaluationError error_of(const std::string& expr, Value x = 3, const std::string& out_type = "int") {
  const auto result = eval_let(expr, std::move(x), out_type);
  REQUIRE_FALSE(result.ok());
  return result.error();
}

// The first error diagnostic of loading `text`; fails the test when it loads.
snnplan::Diagnostic load_error(const std::string& text) {
  try {
    (void)RuleSet::from_string(text, "test.yaml");
  } catch (const LoadError& e) {
    for (const auto& d : e.diagnostics())
      if (d.severity == snnplan::Severity::error) return d;
  }
  FAIL("the rule file loaded without errors");
  return {};
}

// The let `y` is on line 7; its expression starts at column 7 (after `  y: "`).
constexpr std::uint32_t kLetLine = 7;
constexpr std::uint32_t kLetColumn = 7;

}  // namespace

TEST_SUITE("expressions") {
  TEST_CASE("multiplication binds tighter than addition and parentheses override it") {
    CHECK(int_of("1 + 2 * 3") == 7);
    CHECK(int_of("(1 + 2) * 3") == 9);
    CHECK(int_of("2 * 3 + 4 * 5") == 26);
    CHECK(int_of("-2 * 3") == -6);
    CHECK(int_of("-(2 + 3)") == -5);
  }

  TEST_CASE("arithmetic operators of equal precedence associate to the left") {
    CHECK(int_of("10 - 4 - 3") == 3);
    CHECK(int_of("100 / 10 / 5") == 2);
    CHECK(int_of("17 % 5 * 2") == 4);
  }

  TEST_CASE("comparison binds looser than arithmetic and tighter than && and ||") {
    CHECK(bool_of("1 + 2 < 4"));
    CHECK(bool_of("x * 2 == 6"));
    CHECK(bool_of("x == 3 && x > 2"));
    // && binds tighter than ||: false && false || true == (false && false) || true.
    CHECK(bool_of("false && false || true"));
    CHECK_FALSE(bool_of("false && (false || true)"));
    CHECK(bool_of("true || true && false"));
    CHECK(bool_of("!false && true"));
    CHECK_FALSE(bool_of("!(true && true)"));
  }

  TEST_CASE("the conditional operator picks a branch and nests to the right") {
    CHECK(int_of("x > 2 ? 10 : 20", 3) == 10);
    CHECK(int_of("x > 2 ? 10 : 20", 2) == 20);
    CHECK(int_of("x == 1 ? 10 : x == 2 ? 20 : 30", 1) == 10);
    CHECK(int_of("x == 1 ? 10 : x == 2 ? 20 : 30", 2) == 20);
    CHECK(int_of("x == 1 ? 10 : x == 2 ? 20 : 30", 5) == 30);
    CHECK(int_of("x > 0 && x < 10 ? 1 : 0", 5) == 1);
  }

  TEST_CASE("the conditional evaluates only the branch it picks") {
    CHECK(int_of("x == 0 ? 0 : 10 / x", 0) == 0);
    CHECK(int_of("x != 0 ? 10 / x : 0", 0) == 0);
    CHECK(int_of("x != 0 ? 10 / x : 0", 5) == 2);
  }

  TEST_CASE("&& and || short-circuit so the right operand is not evaluated") {
    CHECK_FALSE(bool_of("x != 0 && 10 / x > 1", 0));
    CHECK(bool_of("x == 0 || 10 / x > 1", 0));
    CHECK_FALSE(bool_of("false && 1 / 0 == 1"));
    CHECK(bool_of("true || 1 / 0 == 1"));
  }

  TEST_CASE("the right operand of && is evaluated when the left one is true") {
    const auto e = error_of("true && 1 / (x - 3) == 1", 3, "bool");
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message == "test.yaml:7:15: division by zero");
  }

  TEST_CASE("list literals hold evaluated elements and may be empty") {
    const auto result = eval_let("[1, x, x * 2]", 3, "list[int]");
    REQUIRE(result.ok());
    CHECK(*result.record().find("out") == Value(Value::List{1, 3, 6}));

    const auto empty = eval_let("[]", 3, "list[int]");
    REQUIRE(empty.ok());
    CHECK(*empty.record().find("out") == Value(Value::List{}));

    CHECK(int_of("len([1, [2, 3], 'a'])") == 3);
    CHECK(bool_of("[1, 2] == [1, 2]"));
    CHECK_FALSE(bool_of("[1, 2] == [2, 1]"));
    CHECK(int_of("len([1] + [2, 3])") == 3);
  }

  TEST_CASE("string literals take single or double quotes and decode escapes") {
    CHECK(string_of("'plain'") == "plain");
    CHECK(string_of("\"double\"") == "double");
    CHECK(string_of(R"('it\'s')") == "it's");
    CHECK(string_of(R"("say \"hi\"")") == "say \"hi\"");
    CHECK(string_of(R"('a\tb\nc')") == "a\tb\nc");
    CHECK(string_of(R"('back\\slash')") == "back\\slash");
    CHECK(string_of(R"('mixed "quotes"')") == "mixed \"quotes\"");
    CHECK(string_of("'ab' + 'cd'") == "abcd");
  }

  TEST_CASE("an unknown escape in a string literal is a load error at the backslash") {
    const auto d = load_error(file_with_let(R"('a\qb')"));
    CHECK(d.message == "expression: unknown escape '\\q' in string literal");
    CHECK(d.location.line == kLetLine);
  }

  TEST_CASE("an unterminated string literal is a load error at its opening quote") {
    const auto parsed = snnplan::load::parse_expression("1 + 'abc", snnplan::SourceLocation{"f.yaml", 3, 10});
    const auto* d = std::get_if<snnplan::Diagnostic>(&parsed);
    REQUIRE(d != nullptr);
    CHECK(d->message == "expression: unterminated string literal");
    CHECK(d->location.line == 3);
    CHECK(d->location.column == 14);
  }

  TEST_CASE("integer division rounds toward negative infinity like Python") {
    CHECK(int_of("7 / 2") == 3);
    CHECK(int_of("-7 / 2") == -4);
    CHECK(int_of("7 / -2") == -4);
    CHECK(int_of("-7 / -2") == 3);
    CHECK(int_of("-8 / 2") == -4);
    CHECK(int_of("x / -1", -9) == 9);
  }

  TEST_CASE("modulo takes the sign of the divisor like Python") {
    CHECK(int_of("7 % 2") == 1);
    CHECK(int_of("-7 % 2") == 1);
    CHECK(int_of("7 % -2") == -1);
    CHECK(int_of("-7 % -2") == -1);
    CHECK(int_of("-8 % 2") == 0);
    CHECK(int_of("x % -1", -9) == 0);
  }

  TEST_CASE("division and modulo by zero are evaluation errors with the expression position") {
    auto e = error_of("x / 0");
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message == "test.yaml:7:7: division by zero");
    e = error_of("x % (x - 3)");
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message == "test.yaml:7:7: division by zero");
  }

  TEST_CASE("intermediate integers are 128 bits wide so products of 64-bit values do not wrap") {
    const Value big = std::int64_t{4611686018427387905};  // 2^62 + 1
    CHECK(bool_of("x * 2 > 9223372036854775807", big));
    CHECK(bool_of("x * 4 / 4 == x", big));
    CHECK(int_of("x * 2 - x", big) == 4611686018427387905);
    CHECK(int_of("(x + x + x) / 3", std::numeric_limits<std::int64_t>::max()) ==
          std::numeric_limits<std::int64_t>::max());
  }

  TEST_CASE("the INT64_MIN literal parses and negating INT64_MIN does not wrap") {
    CHECK(int_of("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
    CHECK(bool_of("-x > 9223372036854775807", std::numeric_limits<std::int64_t>::min()));
    CHECK(int_of("x / -1 - 1", std::numeric_limits<std::int64_t>::min()) ==
          std::numeric_limits<std::int64_t>::max());
  }

  TEST_CASE("an integer literal beyond 64 bits is a load error at the literal") {
    const auto d = load_error(file_with_let("9223372036854775808"));
    CHECK(d.message == "expression: integer 9223372036854775808 does not fit in 64 bits");
    CHECK(d.location.line == kLetLine);
    CHECK(d.location.column == kLetColumn);

    const auto d2 = load_error(file_with_let("1 + 99999999999999999999999"));
    CHECK(d2.message == "expression: integer 99999999999999999999999 does not fit in 64 bits");
    CHECK(d2.location.column == kLetColumn + 4);

    const auto d3 = load_error(file_with_let("-9223372036854775809"));
    CHECK(d3.message == "expression: integer 9223372036854775809 does not fit in 64 bits");
    CHECK(d3.location.column == kLetColumn + 1);
  }

  // Found by the expression fuzzer: std::stod threw out_of_range through the loader.
  TEST_CASE("a float literal beyond the largest double is a load error and a tiny one reads as Python reads it") {
    const std::string huge = "1" + std::string(309, '0') + ".5";
    const auto d = load_error(file_with_let("1 + " + huge));
    CHECK(d.message ==
          "expression: float 100000000000000000000000... (312 characters) is beyond the range of a 64-bit float");
    CHECK(d.location.line == kLetLine);
    CHECK(d.location.column == kLetColumn + 4);
    CHECK(d.code == "expression-syntax");

    const auto value_of = [](const std::string& expr) {
      const auto result = eval_let(expr, 3, "float");
      REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
      return result.record().find("out")->as_float();
    };
    CHECK(value_of("9" + std::string(307, '9') + ".0") == doctest::Approx(1e308));  // the largest still fits
    CHECK(value_of("0." + std::string(310, '0') + "1") == 1e-311);                  // subnormal
    CHECK(value_of("0." + std::string(400, '0') + "1") == 0.0);                     // below every double
  }

  TEST_CASE("decimal floats are read alike in YAML, expressions and flags: the double range or an error, never infinity") {
    using snnplan::DecimalFloat;
    using snnplan::read_decimal_float;
    const auto value_of = [](const char* text) {
      const DecimalFloat read = read_decimal_float(text);
      REQUIRE_MESSAGE(read.status == DecimalFloat::Status::ok, text);
      return read.value;
    };
    CHECK(value_of("2.5") == 2.5);
    CHECK(value_of("-0.25") == -0.25);
    CHECK(value_of(".5") == 0.5);
    CHECK(value_of("+3") == 3.0);
    CHECK(value_of("1E3") == 1000.0);
    CHECK(value_of("1.7976931348623157e308") == std::numeric_limits<double>::max());
    CHECK(value_of("4.9e-324") == std::numeric_limits<double>::denorm_min());
    CHECK(value_of("1e-400") == 0.0);
    CHECK(value_of("-1e-400") == 0.0);
    for (const char* beyond : {"1e309", "-1e400", "1.8e308", "2e999999999999999999999"})
      CHECK_MESSAGE(read_decimal_float(beyond).status == DecimalFloat::Status::out_of_range, beyond);
    for (const char* other : {"", "-", ".", "e5", "inf", "-inf", "infinity", "nan", "NaN", "0x10", "0x1p3", " 1", "1 ",
                              "1e", "1.5x", "--1", "1e5e5", "1_000"})
      CHECK_MESSAGE(read_decimal_float(other).status == DecimalFloat::Status::not_decimal, other);
  }

  TEST_CASE("a YAML float beyond the double range is a load error at the value, not infinity") {
    const auto d = load_error(R"(snnplan: 1
inputs:
  ratio: {type: float, default: 1e400}
record:
  r: {type: float, init: = ratio}
start: main
tables:
  main:
    - name: all
      set: {r: 1.0}
)");
    CHECK(d.code == "float-range");
    CHECK(d.message == "float 1e400 is beyond the range of a 64-bit float");
    CHECK(d.location.line == 3);
    CHECK(d.location.column == 33);
  }

  TEST_CASE("a record int field receiving a value beyond 64 bits is an evaluation error") {
    const auto e = error_of("x * 2", std::int64_t{4611686018427387905});
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message == "record field 'out' = 9223372036854775810 does not fit in a 64-bit integer");
  }

  TEST_CASE("a product beyond 128 bits is an integer overflow error, never a wrap") {
    const auto e = error_of("x * x * x", std::int64_t{4611686018427387905});
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message ==
          "integer overflow: 21267647932558653975684285001340289025 * 4611686018427387905 is beyond the "
          "128-bit range of intermediate results");
  }

  TEST_CASE("a float remainder of zero takes the divisor's sign, as in Python") {
    const auto remainder = [](const std::string& expr) {
      const auto result = eval_let(expr, 3, "float");
      REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
      return result.record().find("out")->as_float();
    };
    CHECK(remainder("-4.0 % 2.0") == 0.0);
    CHECK_FALSE(std::signbit(remainder("-4.0 % 2.0")));  // was -0.0 (C's fmod keeps the dividend's sign)
    CHECK(std::signbit(remainder("4.0 % -2.0")));
    CHECK(remainder("-5.0 % 2.0") == 1.0);
    CHECK(remainder("5.0 % -2.0") == -1.0);
  }

  TEST_CASE("an empty name gets no did-you-mean suggestion") {
    CHECK(snnplan::messages::closest_match("", {"n", "x"}).empty());
    CHECK(snnplan::messages::closest_match("modl", {"model", "x"}) == "model");
  }

  TEST_CASE("negating the bottom of the 128-bit range is an integer overflow error, never a wrap") {
    // x*x = 2^126 for x = -2^63, so -(x*x) - x*x = -2^127, whose negation does not fit.
    const auto e = error_of("(-(-(x*x) - x*x)) / (x*x)", std::numeric_limits<std::int64_t>::min());
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message ==
          "integer overflow: -(-170141183460469231731687303715884105728) is beyond the 128-bit range of intermediate results");
  }

  TEST_CASE("a parse error reports the column of the offending token inside the expression") {
    const std::string text =
        "snnplan: 1\n"
        "inputs:\n"
        "  x: {type: int}\n"
        "let: {y: \"x + * 2\"}\n"
        "record:\n"
        "  out: {type: int, default: 0}\n"
        "start: main\n"
        "tables:\n"
        "  main:\n"
        "    - name: only\n"
        "      set: {out: = y}\n";
    const auto d = load_error(text);
    CHECK(d.message == "expression: expected a value, found '*'");
    CHECK(d.location.file == "test.yaml");
    CHECK(d.location.line == 4);
    CHECK(d.location.column == 15);
    CHECK(snnplan::format(d) == "test.yaml:4:15: error: expression: expected a value, found '*'");
  }

  TEST_CASE("parse errors inside '=' expressions point past the '=' and spaces") {
    const std::string text =
        "snnplan: 1\n"
        "inputs:\n"
        "  x: {type: int}\n"
        "record:\n"
        "  out: {type: int, default: 0}\n"
        "start: main\n"
        "tables:\n"
        "  main:\n"
        "    - name: only\n"
        "      set: {out: =  x + )}\n";
    const auto d = load_error(text);
    CHECK(d.message == "expression: expected a value, found ')'");
    CHECK(d.location.line == 10);
    CHECK(d.location.column == 25);
  }

  TEST_CASE("malformed expressions give specific messages") {
    struct Case {
      const char* expr;
      const char* message;
      std::uint32_t offset;
    };
    const Case cases[] = {
        {"x = 3", "expression: '=' is not an operator; write '==' to compare", 2},
        {"x & 1", "expression: '&' is not an operator; write '&&'", 2},
        {"x | 1", "expression: '|' is not an operator; write '||'", 2},
        {"1 < x < 3", "expression: comparisons do not chain; combine them with '&&'", 6},
        {"(x + 1", "expression: expected ')', found 'end of expression'", 6},
        {"[1, 2", "expression: expected ']' closing the list, found 'end of expression'", 5},
        {"x ? 1", "expression: expected ':' of the conditional, found 'end of expression'", 5},
        {"x 3", "expression: unexpected '3' after the expression", 2},
        {"x # 3", "expression: unexpected character '#'", 2},
        {"x + \xC3\xA9", "expression: unexpected character '\xC3\xA9'", 4},     // é whole, not its first byte
        {"x + \xE2\x82\xAC", "expression: unexpected character '\xE2\x82\xAC'", 4},  // €
        {"x + \xC3", "expression: unexpected character '\\xC3'", 4},             // a lone lead byte
        {"x + \xC3(", "expression: unexpected character '\\xC3'", 4},            // not followed by a continuation
        {"x + \xC0\x80", "expression: unexpected character '\\xC0'", 4},         // an overlong form
        {"x + \xED\xA0\x80", "expression: unexpected character '\\xED'", 4},     // a surrogate
        {"x + \xF5\x80\x80\x80", "expression: unexpected character '\\xF5'", 4}, // beyond U+10FFFF
        {"", "expression: expected a value, found 'end of expression'", 0},
    };
    for (const Case& c : cases) {
      CAPTURE(c.expr);
      const auto parsed = snnplan::load::parse_expression(c.expr, snnplan::SourceLocation{"f.yaml", 2, 5});
      const auto* d = std::get_if<snnplan::Diagnostic>(&parsed);
      REQUIRE(d != nullptr);
      CHECK(d->message == c.message);
      CHECK(d->location.line == 2);
      CHECK(d->location.column == 5 + c.offset);
    }
  }

  TEST_CASE("expressions nested deeper than the limit are refused") {
    const std::string deep = std::string(100, '(') + "1" + std::string(100, ')');
    const auto parsed = snnplan::load::parse_expression(deep, snnplan::SourceLocation{"f.yaml", 1, 1});
    const auto* d = std::get_if<snnplan::Diagnostic>(&parsed);
    REQUIRE(d != nullptr);
    CHECK(d->message == "expression: expression nests deeper than 64 levels");

    const auto ok = snnplan::load::parse_expression(std::string(20, '(') + "1" + std::string(20, ')'),
                                                    snnplan::SourceLocation{"f.yaml", 1, 1});
    CHECK(std::holds_alternative<snnplan::syntax::Expr>(ok));
  }

  TEST_CASE("starts_with and ends_with test string prefixes and suffixes") {
    CHECK(bool_of("starts_with('spikformer_8_384', 'spikformer')"));
    CHECK_FALSE(bool_of("starts_with('spik', 'spikformer')"));
    CHECK(bool_of("starts_with(s, '')"));
    CHECK(bool_of("ends_with('model_vgg', '_vgg')"));
    CHECK_FALSE(bool_of("ends_with('vgg', 'model_vgg')"));
    CHECK_FALSE(bool_of("ends_with(s, 'LLO')"));
    // A prefix or suffix that differs from the text in one byte only (its first, middle or
    // last), at every length to past two words.
    const std::string text = "abcdefghijklmnopqrs";
    for (std::size_t n = 1; n <= text.size(); ++n) {
      std::string prefix = text.substr(0, n);
      std::string suffix = text.substr(text.size() - n);
      CAPTURE(n);
      CHECK(bool_of("starts_with('" + text + "', '" + prefix + "')"));
      CHECK(bool_of("ends_with('" + text + "', '" + suffix + "')"));
      for (const std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
        std::string other_prefix = prefix, other_suffix = suffix;
        other_prefix[at] = '_';
        other_suffix[at] = '_';
        CHECK_FALSE(bool_of("starts_with('" + text + "', '" + other_prefix + "')"));
        CHECK_FALSE(bool_of("ends_with('" + text + "', '" + other_suffix + "')"));
      }
    }
  }

  TEST_CASE("contains finds substrings and list members") {
    CHECK(bool_of("contains('abcdef', 'cde')"));
    CHECK_FALSE(bool_of("contains('abcdef', 'xyz')"));
    CHECK(bool_of("contains([1, 2, 3], 2)"));
    CHECK_FALSE(bool_of("contains([1, 2, 3], 4)"));
    CHECK(bool_of("contains(['a', 'b'], 'b')"));
  }

  TEST_CASE("lower and len work on strings and len on lists") {
    CHECK(string_of("lower('HeLLo World')") == "hello world");
    CHECK(string_of("lower(s)") == "hello");
    CHECK(int_of("len('abc')") == 3);
    CHECK(int_of("len('')") == 0);
    CHECK(int_of("len([1, 2])") == 2);
  }

  TEST_CASE("min and max take one or more numbers or strings") {
    CHECK(int_of("min(3, 1, 2)") == 1);
    CHECK(int_of("max(3, 1, 2)") == 3);
    CHECK(int_of("min(7)") == 7);
    CHECK(int_of("max(x, 10)", 42) == 42);
    CHECK(string_of("max('a', 'c', 'b')") == "c");
    CHECK(string_of("min('b', 'a')") == "a");
    CHECK(int_of("min(-9223372036854775808, 0)") == std::numeric_limits<std::int64_t>::min());
  }

  TEST_CASE("pipeline_microbatches is available as a builtin and its errors are rule errors") {
    CHECK(int_of("pipeline_microbatches(64, 4)") == 16);
    const auto e = error_of("pipeline_microbatches(x, 8)", 4);
    CHECK(e.kind == EvaluationErrorKind::rule_error);
    CHECK(e.message ==
          "batch_size (4) must be >= num_stages (8) for pipeline parallelism with the current microbatch "
          "splitting implementation.");
  }

  TEST_CASE("an unknown builtin is a load error with a suggestion when one is close") {
    auto d = load_error(file_with_let("lenn('abc')"));
    CHECK(d.message == "unknown builtin 'lenn' (did you mean 'len'?)");
    CHECK(d.location.line == kLetLine);
    CHECK(d.location.column == kLetColumn);

    d = load_error(file_with_let("1 + frobnicate(x)"));
    CHECK(d.message == "unknown builtin 'frobnicate'");
    CHECK(d.location.column == kLetColumn + 4);
  }

  TEST_CASE("calling a builtin with the wrong number of arguments is a load error") {
    auto d = load_error(file_with_let("len('a', 'b')"));
    CHECK(d.message == "len() takes 1 argument, got 2");
    CHECK(d.location.column == kLetColumn);

    d = load_error(file_with_let("starts_with('a')"));
    CHECK(d.message == "starts_with() takes 2 arguments, got 1");

    d = load_error(file_with_let("max(1, 2, 3) + len()"));
    CHECK(d.message == "len() takes 1 argument, got 0");
    CHECK(d.location.column == kLetColumn + 15);
  }

  TEST_CASE("a builtin argument of the wrong type is a load error") {
    const auto d = load_error(file_with_let("starts_with(x, 'a')", "bool"));
    CHECK(d.message == "argument 1 of starts_with() must be string, but it is int");
    CHECK(d.location.column == kLetColumn + 12);
  }
}
