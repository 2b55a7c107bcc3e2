// The rule language's tables (language/matchers, language/builtins) and the operations the
// evaluator and the analysis share (language/operations), tested directly.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/runtime_value.hpp"
#include "language/builtins.hpp"
#include "language/matchers.hpp"
#include "language/operations.hpp"
#include "language/reference.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::detail::RValue;
namespace language = snnplan::language;

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
    CHECK_MESSAGE(language::with_generated_reference(document) == document,
                  "docs/rules.md is out of date: run `cmake --build build --target update-docs`");
    for (const language::BuiltinInfo& builtin : language::builtins())
      CHECK(document.find(builtin.signature) != std::string::npos);
  }
}
