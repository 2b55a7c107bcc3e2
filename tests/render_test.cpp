// Rendering records: the batch loop's direct JSON writer must write exactly what the JSON
// library writes for the same record (tests/render_test.cpp keeps the two in step).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "render/render.hpp"
#include "snnplan/snnplan.hpp"

namespace {

using snnplan::Record;
using snnplan::Value;

Record record_of(std::vector<Value> values) {
  auto names = std::make_shared<std::vector<std::string>>();
  for (std::size_t k = 0; k < values.size(); ++k) names->push_back("field_" + std::to_string(k));
  names->push_back("na\"me\\with\tescapes");
  values.emplace_back(1);
  return Record(names, std::move(values));
}

TEST_SUITE("render") {
  TEST_CASE("the direct JSON line writer writes what the JSON library writes, for every kind of value") {
    const std::vector<Value> values = {
        Value(),
        Value(true),
        Value(false),
        Value(std::int64_t{0}),
        Value(std::numeric_limits<std::int64_t>::min()),
        Value(std::numeric_limits<std::int64_t>::max()),
        Value(0.5),
        Value(1.0),
        Value(-0.0),
        Value(1e300),
        Value(1e-7),
        Value(std::nan("")),
        Value(std::numeric_limits<double>::infinity()),
        Value("plain text with spaces and 'quotes'"),
        Value(""),
        Value("quote \" backslash \\ slash /"),
        Value("controls \b\f\n\r\t \x01 \x1f and DEL \x7f"),
        Value("non-ASCII: pr\xc3\xa9" "f\xc3\xa9r\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80"),
        Value("invalid UTF-8: \xff\xfe \xc3 end \xe2\x9c"),
        Value(Value::List{}),
        Value(Value::List{Value(4), Value(2)}),
        Value(Value::List{Value("a"), Value("b\n"), Value(Value::List{Value()})}),
    };
    for (const Value& v : values) {
      const Record record = record_of({v});
      std::string direct;
      snnplan::render::append_json_line(direct, record);
      const std::string library = snnplan::render::json_line(snnplan::render::to_json(record));
      CAPTURE(library);
      CHECK(direct == library);
    }
    // And a whole record at once, appended after text already in the buffer.
    std::string direct = "prefix\n";
    snnplan::render::append_json_line(direct, record_of(values));
    CHECK(direct == "prefix\n" + snnplan::render::json_line(snnplan::render::to_json(record_of(values))));
  }

  TEST_CASE(
      "the direct indented JSON writer writes what the JSON library's two-space dump writes") {
    const std::vector<Value> values = {
        Value(),
        Value(false),
        Value(std::numeric_limits<std::int64_t>::min()),
        Value(-0.0),
        Value(1e-7),
        Value(std::nan("")),
        Value("quote \" backslash \\ and \n newline"),
        Value("invalid UTF-8: \xff\xfe \xc3 end"),
        Value(Value::List{}),
        Value(Value::List{Value(4), Value(2)}),
        Value(Value::List{Value("a"), Value(Value::List{}),
                          Value(Value::List{Value(), Value(Value::List{Value(1.5)})})}),
    };
    for (const Value& v : values) {
      const Record record = record_of({v});
      std::string direct;
      snnplan::render::append_json_indented(direct, record);
      const std::string library = snnplan::render::pretty(snnplan::render::to_json(record));
      CAPTURE(library);
      CHECK(direct + "\n" == library);
    }
    const Record whole = record_of(values);
    std::string direct = "prefix\n";
    snnplan::render::append_json_indented(direct, whole);
    CHECK(direct + "\n" == "prefix\n" + snnplan::render::pretty(snnplan::render::to_json(whole)));
    // A record of no fields is {} as the library writes it.
    const Record empty(std::make_shared<std::vector<std::string>>(), {});
    std::string none;
    snnplan::render::append_json_indented(none, empty);
    CHECK(none + "\n" == snnplan::render::pretty(snnplan::render::to_json(empty)));
    // A record built by hand with a name twice: the library keeps the name once, and so do
    // both direct writers.
    const Record twice(std::make_shared<std::vector<std::string>>(std::vector<std::string>{"a", "b", "a"}),
                       {Value(1), Value("x"), Value(3)});
    std::string indented;
    snnplan::render::append_json_indented(indented, twice);
    CHECK(indented + "\n" == snnplan::render::pretty(snnplan::render::to_json(twice)));
    CHECK(indented == "{\n  \"a\": 3,\n  \"b\": \"x\"\n}");
    std::string line;
    snnplan::render::append_json_line(line, twice);
    CHECK(line == "{\"a\":3,\"b\":\"x\"}");
    // The public layout is the same bytes.
    CHECK(snnplan::to_json(whole, snnplan::JsonLayout::indented) ==
          snnplan::render::pretty(snnplan::render::to_json(whole)));
  }

  TEST_CASE("YAML output quotes every string a YAML reader would take for something else and spells floats as floats") {
    // The first line of to_yaml for a one-field record: "field_0: <value>".
    const auto yaml_of = [](const Value& v) {
      const std::string text = snnplan::render::render(record_of({v}), snnplan::render::Format::yaml);
      return text.substr(0, text.find('\n'));
    };
    // Identifier-like text stays plain.
    CHECK(yaml_of(Value("fsdp2_tp")) == "field_0: fsdp2_tp");
    CHECK(yaml_of(Value("cifar10dvs_vgg")) == "field_0: cifar10dvs_vgg");
    CHECK(yaml_of(Value("spikformer-8.384/x")) == "field_0: spikformer-8.384/x");
    // Numbers, booleans and nulls of YAML 1.2 and 1.1, dates, indicators: quoted.
    for (const char* other : {"123", "1.5", "0x1F", "+1", ".5", "010", "1e3", ".inf", "1:30", "2001-01-01", "true", "True",
                              "yes", "NO", "On", "off", "y", "N", "null", "~", "", "-x", "a: b", "#c", "[a]", "&a", "*a",
                              "!t", "%p", "@a", "'q'", "1f1b"}) {
      CAPTURE(other);
      CHECK(yaml_of(Value(other)) == std::string("field_0: \"") + other + "\"");
    }
    // Characters YAML cannot hold raw are escaped: controls by yaml-cpp, DEL and U+2028 by us.
    CHECK(yaml_of(Value("a\rb")) == "field_0: \"a\\rb\"");
    CHECK(yaml_of(Value("del\x7f")) == "field_0: \"del\\x7f\"");
    CHECK(yaml_of(Value("ls\xe2\x80\xa8x")) == "field_0: \"ls\\u2028x\"");
    CHECK(yaml_of(Value("caf\xc3\xa9")) == "field_0: \"caf\xc3\xa9\"");  // non-ASCII as is
    // Floats keep a '.' (1.0 is not the integer 1), exponents get one too for YAML 1.1.
    CHECK(yaml_of(Value(1.0)) == "field_0: 1.0");
    CHECK(yaml_of(Value(-0.0)) == "field_0: -0.0");
    CHECK(yaml_of(Value(0.1)) == "field_0: 0.1");
    CHECK(yaml_of(Value(1e20)) == "field_0: 1.0e+20");
    CHECK(yaml_of(Value(1.5e-7)) == "field_0: 1.5e-07");
    CHECK(yaml_of(Value(std::numeric_limits<double>::infinity())) == "field_0: .inf");
    CHECK(yaml_of(Value(-std::numeric_limits<double>::infinity())) == "field_0: -.inf");
    CHECK(yaml_of(Value(std::nan(""))) == "field_0: .nan");
    CHECK(yaml_of(Value(std::int64_t{7})) == "field_0: 7");
  }

  TEST_CASE("a format name is parsed in one place, and an unknown one is refused with the one message") {
    using snnplan::render::Format;
    using snnplan::render::Output;
    using snnplan::render::parse_format;
    CHECK(parse_format("json", Output::recommendation) == Format::json);
    CHECK(parse_format("yaml", Output::plan) == Format::yaml);
    CHECK(parse_format("text", Output::diagnostics) == Format::text);
    const auto refusal = [](std::string_view name, Output output) {
      try {
        (void)parse_format(name, output);
        return std::string("(accepted)");
      } catch (const std::invalid_argument& e) {
        return std::string(e.what());
      }
    };
    // The same text CLI11's IsMember gave (the CLI puts "--format: " before it).
    CHECK(refusal("xml", Output::recommendation) == "xml not in {json,yaml,text}");
    CHECK(refusal("JSON", Output::plan) == "JSON not in {json,yaml,text}");
    CHECK(refusal("", Output::explanation) == " not in {text,json}");
    // A known format that does not render the output is refused the same way.
    CHECK(refusal("yaml", Output::explanation) == "yaml not in {text,json}");
    CHECK(refusal("yaml", Output::diagnostics) == "yaml not in {text,json}");
    CHECK(refusal("text", Output::traced_recommendation) == "text not in {json}");
    // Choices list the output's default first, then the table's order.
    CHECK(snnplan::render::format_choices(Output::microbatches) == "{text,json}");
    CHECK(snnplan::render::format_names(Output::recommendation) == std::vector<std::string>{"json", "yaml", "text"});
  }

  TEST_CASE("every format renders each output its row claims, ending with a newline, and refuses the others") {
    using snnplan::render::Output;
    const snnplan::RuleSet& rules = snnplan::RuleSet::builtin();
    const snnplan::Inputs inputs = {{"model", "vgg"}, {"world_size", 8}, {"prefer", "memory"}, {"batch_size", 64}};
    const snnplan::Explanation explanation = rules.explain(inputs);
    REQUIRE(explanation.result.ok());
    const snnplan::Plan plan = snnplan::plan("memory", snnplan::Topology::parse("dp=4,tp=2"), 64);
    const std::vector<snnplan::Diagnostic> diagnostics = {
        {snnplan::Severity::warning, {"a.yaml", 2, 3}, "code", "message"}};
    const std::vector<snnplan::SourceText> sources = {{"a.yaml", "one\ntwo three\n"}};
    for (const snnplan::render::FormatRow& row : snnplan::render::kFormats) {
      CAPTURE(row.name);
      const auto check = [&](Output output, auto render) {
        if (!snnplan::render::supports(row.format, output)) {
          CHECK_THROWS_AS((void)render(), std::logic_error);
          return;
        }
        const std::string text = render();
        REQUIRE_FALSE(text.empty());
        CHECK(text.back() == '\n');
      };
      check(Output::recommendation, [&] { return snnplan::render::render(explanation.result.record(), row.format); });
      check(Output::traced_recommendation, [&] { return snnplan::render::render_traced(explanation, row.format); });
      check(Output::explanation, [&] { return snnplan::render::render_explanation(explanation, row.format); });
      check(Output::plan, [&] { return snnplan::render::render(plan, row.format); });
      check(Output::diagnostics, [&] { return snnplan::render::render_diagnostics(diagnostics, sources, row.format); });
      check(Output::microbatches, [&] { return snnplan::render::render_microbatches(32, row.format); });
    }
    CHECK(
        snnplan::render::render_diagnostics(diagnostics, sources, snnplan::render::Format::text) ==
        "a.yaml:2:3: warning: message [code]\n  two three\n    ^\n");
  }
}

}  // namespace
