// The loader's YAML document tree (src/load/yaml_document.*): what it must report the same
// as yaml-cpp's node tree (YAML::Load), which the loader's diagnostics were written against.

#include <doctest/doctest.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "load/yaml_document.hpp"

namespace {

using snnplan::load::yaml::Document;
using snnplan::load::yaml::Node;
using snnplan::load::yaml::NodeKind;

// Compares a node of ours with yaml-cpp's, recursively (the sample has no cycles).
void check_same(const Node& ours, const YAML::Node& theirs, const std::string& path) {
  INFO("at ", path);
  REQUIRE(ours.IsDefined() == theirs.IsDefined());
  CHECK(ours.IsNull() == theirs.IsNull());
  CHECK(ours.IsScalar() == theirs.IsScalar());
  CHECK(ours.IsSequence() == theirs.IsSequence());
  CHECK(ours.IsMap() == theirs.IsMap());
  CHECK(ours.Mark().pos == theirs.Mark().pos);
  CHECK(ours.Mark().line == theirs.Mark().line);
  CHECK(ours.Mark().column == theirs.Mark().column);
  CHECK(ours.Tag() == theirs.Tag());
  CHECK(ours.Scalar() == theirs.Scalar());
  if (theirs.IsSequence()) {
    REQUIRE(ours.items().size() == theirs.size());
    for (std::size_t k = 0; k < theirs.size(); ++k) check_same(ours.items()[k], theirs[k], path + "/" + std::to_string(k));
  } else if (theirs.IsMap()) {
    REQUIRE(ours.entries().size() == theirs.size());
    std::size_t k = 0;
    for (const auto& kv : theirs) {
      check_same(ours.entries()[k].first, kv.first, path + "/key" + std::to_string(k));
      check_same(ours.entries()[k].second, kv.second, path + "/" + kv.first.Scalar());
      ++k;
    }
  }
}

void check_same_as_yaml_cpp(const std::string& text) {
  const Document doc(text);
  check_same(doc.root(), YAML::Load(text), "");
}

}  // namespace

TEST_SUITE("yaml document") {
  TEST_CASE("Marks match what yaml-cpp's node tree reports") {
    check_same_as_yaml_cpp(R"(snnplan: 1
description: >
  folded
  text
inputs:
  world_size: {type: int, default: 8}
  "quoted key": {type: 'string', one_of: [a, "b", 'c', ~, null, '', 3.5]}
  empty:
  tagged: !!str 12
let:
  a: &anchor [1, 2, {x: y}]
  b: *anchor
  block: |
    line one
    line two
tables:
  main:
    - name: first
      when: {x: {gt: 3}}
      set: {out: = x * 2}
    -   name: second
        because:
          - "a {b}"
          - plain
? complex
: value
)");
    check_same_as_yaml_cpp("[1, [2, [3, {a: b}]]]\n");
    check_same_as_yaml_cpp("just a scalar\n");
  }

  // Where the Document is stricter than YAML::Load, which ignores both silently.
  TEST_CASE("A second document or a quoted scalar left open at the end is a parse error") {
    CHECK_NOTHROW(YAML::Load("first: 1\n---\nsecond: 2\n"));
    CHECK_THROWS_AS(Document("first: 1\n---\nsecond: 2\n"), YAML::ParserException);
    CHECK_NOTHROW(YAML::Load("a: \"open\n\n"));
    CHECK_THROWS_AS(Document("a: \"open\n\n"), YAML::ParserException);
    CHECK_THROWS_AS(Document("a: 'open''\n\n"), YAML::ParserException);
    CHECK_NOTHROW(Document("---\na: \"closed \\\" \"\nb: 'it''s'\n...\n"));
  }

  TEST_CASE("An alias yields the anchored node itself") {
    const Document doc("a: &x {k: v}\nb: *x\nc: &s text\nd: *s\n");
    const Node root = doc.root();
    CHECK(root["a"] == root["b"]);
    CHECK(root["c"] == root["d"]);
    CHECK(root["b"].Mark().line == 0);
    CHECK(root["b"].Mark().column == root["a"].Mark().column);
    CHECK(root["d"].Scalar() == "text");

    // An alias inside its own anchor is a cycle, not an endless copy.
    const Document self("x: &x [1, *x]\n");
    const Node x = self.root()["x"];
    REQUIRE(x.items().size() == 2);
    CHECK(x.items()[1] == x);
  }

  TEST_CASE("An alias to an unknown anchor is a parse error") {
    CHECK_THROWS_AS(Document("a: *nowhere\n"), YAML::ParserException);
    CHECK_THROWS_AS(YAML::Load("a: *nowhere\n"), YAML::ParserException);
  }

  TEST_CASE("A quoted scalar carries the tag '!' and a plain one '?'") {
    const Document doc("plain: 3\ndouble: \"3\"\nsingle: '3'\nexplicit: !!str 3\nnothing:\n");
    const Node root = doc.root();
    CHECK(root["plain"].Tag() == "?");
    CHECK(root["double"].Tag() == "!");
    CHECK(root["single"].Tag() == "!");
    CHECK(root["explicit"].Tag() == "tag:yaml.org,2002:str");
    CHECK(root["nothing"].IsNull());
    CHECK(root["nothing"].Tag().empty());
    CHECK(root.Tag() == "?");
  }

  TEST_CASE("Duplicate keys are kept in file order and lookup returns the first") {
    const Document doc("k: 1\nother: 2\nk: 3\n");
    const Node root = doc.root();
    REQUIRE(root.entries().size() == 3);
    CHECK(root.entries()[0].first.Scalar() == "k");
    CHECK(root.entries()[1].first.Scalar() == "other");
    CHECK(root.entries()[2].first.Scalar() == "k");
    CHECK(root.entries()[2].second.Scalar() == "3");
    CHECK(root["k"].Scalar() == "1");
    CHECK(root["k"] == root.entries()[0].second);
  }

  TEST_CASE("A key that is not there is undefined, and so is any lookup in a non-map") {
    const Document doc("a: [1, 2]\nb: text\n");
    const Node root = doc.root();
    CHECK_FALSE(root["missing"]);
    CHECK(root["missing"].kind() == NodeKind::undefined);
    CHECK_FALSE(root["a"]["x"]);
    CHECK_FALSE(root["b"]["x"]);
    CHECK(root["missing"].Mark().is_null());
    CHECK(root["a"].items().size() == 2);
    CHECK(root["a"].entries().empty());
    CHECK(root.items().empty());
  }

  TEST_CASE("Empty text and a document with no content are a null root, as YAML::Load gives") {
    for (const std::string text : {"", "# only a comment\n", "---\n", "...\n"}) {
      INFO("text: ", text);
      const Document doc(text);
      const YAML::Node theirs = YAML::Load(text);
      CHECK(doc.root().IsDefined());
      CHECK(doc.root().IsNull());
      CHECK(theirs.IsNull());
      CHECK(doc.root().Mark().is_null() == theirs.Mark().is_null());
    }
  }

  TEST_CASE("Syntax errors and yaml-cpp's depth guard throw as YAML::Load does") {
    CHECK_THROWS_AS(Document("a: [1, 2\n"), YAML::ParserException);
    CHECK_THROWS_AS(Document(std::string(3000, '[') + std::string(3000, ']')), YAML::DeepRecursion);
  }
}
