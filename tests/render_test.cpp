// Rendering records: the batch loop's direct JSON writer must write exactly what the JSON
// library writes for the same record (tests/render_test.cpp keeps the two in step).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "render/render.hpp"

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
}

}  // namespace
