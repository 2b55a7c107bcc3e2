// The language server's pieces that the scripted client (lsp_client_test.py) sees only through
// ASCII files: UTF-16 positions, framing, URIs and roots, several changes in one notification.

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "frontends/lsp/roots.hpp"
#include "frontends/lsp/server.hpp"
#include "frontends/lsp/text.hpp"
#include "frontends/lsp/transport.hpp"

namespace {

using nlohmann::json;
using snnplan::lsp::Position;

// The messages a server wrote, unframed.
std::vector<json> written(const std::string& out) {
  std::vector<json> messages;
  std::istringstream in(out);
  for (;;) {
    const snnplan::lsp::Frame frame = snnplan::lsp::read_frame(in);
    if (frame.status != snnplan::lsp::Frame::Status::message) break;
    messages.push_back(json::parse(frame.body));
  }
  return messages;
}

const std::string kUri = "file:///tmp/snnplan-lsp-test/rules.yaml";

void open_document(snnplan::lsp::Server& server, const std::string& text) {
  server.handle(json{{"jsonrpc", "2.0"},
                     {"id", 1},
                     {"method", "initialize"},
                     {"params", {{"rootUri", "file:///tmp/snnplan-lsp-test"}}}}
                    .dump());
  server.handle(
      json{{"jsonrpc", "2.0"},
           {"method", "textDocument/didOpen"},
           {"params", {{"textDocument", {{"uri", kUri}, {"version", 1}, {"text", text}}}}}}
          .dump());
}

const std::string kRules =
    "snnplan: 1\n"
    "inputs:\n"
    "  prefer: {type: string}\n"
    "record:\n"
    "  mode: {type: string, default: none}\n"
    "  who: {type: string, init: = prefer}\n"
    "start: choose\n"
    "tables:\n"
    "  choose:\n"
    "    - name: only\n"
    "      set: {mode: \"\xC3\xA9\xF0\x9D\x84\x9E\", mdoe: x}\n";  // é (2 bytes), 𝄞 (4 bytes)

}  // namespace

TEST_SUITE("lsp") {
  TEST_CASE("a protocol position counts UTF-16 code units where a SourceLocation counts bytes") {
    const std::string text = "ab\n\"\xC3\xA9\xF0\x9D\x84\x9E\" x\n";
    // é is one UTF-16 unit and two bytes; 𝄞 two units and four bytes.
    CHECK(snnplan::lsp::offset_of(text, Position{1, 2}) == 6);
    CHECK(snnplan::lsp::offset_of(text, Position{1, 4}) == 10);
    CHECK(snnplan::lsp::position_of(text, 12) == Position{1, 6});
    const snnplan::SourceLocation at{"f", 2, 10};  // the byte of 'x'
    CHECK(snnplan::lsp::position_of(text, snnplan::lsp::offset_of(text, at)) == Position{1, 6});
  }

  TEST_CASE(
      "a position beyond its line's end stands at the line's end, beyond the text at its end") {
    const std::string text = "abc\r\nde";
    CHECK(snnplan::lsp::offset_of(text, Position{0, 99}) == 3);
    CHECK(snnplan::lsp::offset_of(text, Position{7, 0}) == text.size());
  }

  TEST_CASE("a frame without a Content-Length is refused and the frame after it is still read") {
    std::istringstream in("X-Other: 1\r\n\r\nContent-Length: 2\r\n\r\n{}");
    CHECK(snnplan::lsp::read_frame(in).status == snnplan::lsp::Frame::Status::bad_header);
    const snnplan::lsp::Frame next = snnplan::lsp::read_frame(in);
    CHECK(next.status == snnplan::lsp::Frame::Status::message);
    CHECK(next.body == "{}");
    CHECK(snnplan::lsp::read_frame(in).status == snnplan::lsp::Frame::Status::end);
  }

  TEST_CASE("a frame whose body breaks off ends the stream") {
    std::istringstream in("Content-Length: 10\r\n\r\n{}");
    CHECK(snnplan::lsp::read_frame(in).status == snnplan::lsp::Frame::Status::end);
  }

  TEST_CASE("file URIs are percent-decoded, paths percent-encoded, and other URIs are not files") {
    CHECK(snnplan::lsp::path_of_uri("file:///a%20b/c.yaml") == "/a b/c.yaml");
    CHECK(snnplan::lsp::path_of_uri("file://localhost/x") == "/x");
    CHECK_FALSE(snnplan::lsp::path_of_uri("file://elsewhere/x"));
    CHECK_FALSE(snnplan::lsp::path_of_uri("untitled:Untitled-1"));
    CHECK_FALSE(snnplan::lsp::path_of_uri("file:///a%00b"));
    CHECK(snnplan::lsp::uri_of_path("/a b/é.yaml") == "file:///a%20b/%C3%A9.yaml");
  }

  TEST_CASE("a path that climbs out of a rule root with '..' is outside it") {
    snnplan::lsp::RuleRoots roots;
    roots.add("/tmp/snnplan-lsp-test/root");
    CHECK(roots.contains("/tmp/snnplan-lsp-test/root/a.yaml"));
    CHECK(roots.contains("/tmp/snnplan-lsp-test/root/sub/../a.yaml"));
    CHECK_FALSE(roots.contains("/tmp/snnplan-lsp-test/root/../secret.yaml"));
    CHECK_FALSE(roots.contains("/tmp/snnplan-lsp-test/rooted/a.yaml"));
  }

  TEST_CASE("a diagnostic after non-ASCII text on its line is placed in UTF-16 code units") {
    std::ostringstream out;
    snnplan::lsp::Server server(out, {});
    open_document(server, kRules);
    const std::vector<json> messages = written(out.str());
    REQUIRE(messages.size() == 2);
    const json& diagnostics = messages[1]["params"]["diagnostics"];
    REQUIRE(diagnostics.size() == 1);
    // `mdoe` starts at byte 28 of its line; the 6 bytes of é𝄞 are 3 UTF-16 units.
    CHECK(diagnostics[0]["range"] == json{{"start", {{"line", 10}, {"character", 25}}},
                                          {"end", {{"line", 10}, {"character", 29}}}});
    CHECK(diagnostics[0]["message"] == "unknown record field 'mdoe' (did you mean 'mode'?)");
  }

  TEST_CASE("the changes of one didChange apply in order, each to the text the one before left") {
    std::ostringstream out;
    snnplan::lsp::Server server(out, {});
    open_document(server, kRules);
    const json change{{"jsonrpc", "2.0"},
                      {"method", "textDocument/didChange"},
                      {"params",
                       {{"textDocument", {{"uri", kUri}, {"version", 2}}},
                        {"contentChanges",
                         {{{"range",
                            {{"start", {{"line", 10}, {"character", 25}}},
                             {"end", {{"line", 10}, {"character", 29}}}}},
                           {"text", "mood"}},
                          {{"range",
                            {{"start", {{"line", 10}, {"character", 26}}},
                             {"end", {{"line", 10}, {"character", 28}}}}},
                           {"text", "od"}}}}}}};
    out.str({});
    server.handle(change.dump());
    const snnplan::lsp::Document* document = server.document(kUri);
    REQUIRE(document != nullptr);
    CHECK(document->text().find("set: {mode: \"\xC3\xA9\xF0\x9D\x84\x9E\", modd: x}") !=
          std::string::npos);
    const std::vector<json> messages = written(out.str());
    REQUIRE(messages.size() == 1);
    CHECK(messages[0]["params"]["version"] == 2);
    CHECK(messages[0]["params"]["diagnostics"][0]["message"] ==
          "unknown record field 'modd' (did you mean 'mode'?)");
  }
}
