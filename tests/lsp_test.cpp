// The language server's pieces that the scripted client (lsp_client_test.py) sees only through
// ASCII files: UTF-16 positions, framing, URIs and roots, several changes in one notification;
// and hover and completion inside a candidate search (rules/snn_llm_planning.yaml), position by
// position.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
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

void open_document(snnplan::lsp::Server& server, const std::string& text,
                   const std::string& uri = kUri) {
  server.handle(json{{"jsonrpc", "2.0"},
                     {"id", 1},
                     {"method", "initialize"},
                     {"params", {{"rootUri", "file:///tmp/snnplan-lsp-test"}}}}
                    .dump());
  server.handle(
      json{{"jsonrpc", "2.0"},
           {"method", "textDocument/didOpen"},
           {"params", {{"textDocument", {{"uri", uri}, {"version", 1}, {"text", text}}}}}}
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

// The planning rules, open in a server: hover and completion at a place named by the text around it.
class Planning {
 public:
  Planning() : server_(out_, {}) {
    text_ = planning_text();
    open_document(server_, text_, kPlanningUri);
  }

  static std::string planning_text() {
    std::ifstream in(std::string(SNNPLAN_RULES_DIR) + "/snn_llm_planning.yaml");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // The text with `from` replaced by `to` (which must be there), sent as a full-text change:
  // the document before it parsed, so a text that does not parse keeps its declarations.
  void change(const std::string& from, const std::string& to) {
    const std::size_t at = text_.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text_.replace(at, from.size(), to);
    server_.handle(json{{"jsonrpc", "2.0"},
                        {"method", "textDocument/didChange"},
                        {"params",
                         {{"textDocument", {{"uri", kPlanningUri}, {"version", ++version_}}},
                          {"contentChanges", json::array({{{"text", text_}}})}}}}
                       .dump());
  }

  // The position `offset` bytes into the `nth` (from 0) occurrence of `needle`.
  Position at(const std::string& needle, std::size_t offset, int nth = 0) const {
    std::size_t found = text_.find(needle);
    for (int k = 0; k < nth && found != std::string::npos; ++k) found = text_.find(needle, found + 1);
    REQUIRE_MESSAGE(found != std::string::npos, needle);
    const std::size_t byte = found + offset;
    const std::size_t line_start = text_.rfind('\n', byte - 1) + 1;
    return Position{static_cast<std::size_t>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(byte), '\n')),
                    byte - line_start};
  }

  json request(const std::string& method, Position p) {
    out_.str({});
    server_.handle(json{{"jsonrpc", "2.0"},
                        {"id", 7},
                        {"method", method},
                        {"params",
                         {{"textDocument", {{"uri", kPlanningUri}}},
                          {"position", {{"line", p.line}, {"character", p.character}}}}}}
                       .dump());
    const std::vector<json> messages = written(out_.str());
    REQUIRE(messages.size() == 1);
    return messages[0]["result"];
  }

  // The hover's text, or "null".
  std::string hover(const std::string& needle, std::size_t offset, int nth = 0) {
    const json result = request("textDocument/hover", at(needle, offset, nth));
    return result.is_null() ? "null" : result["contents"]["value"].get<std::string>();
  }

  std::set<std::string> completion(const std::string& needle, std::size_t offset, int nth = 0) {
    std::set<std::string> labels;
    const json result = request("textDocument/completion", at(needle, offset, nth));
    for (const json& item : result["items"])
      labels.insert(item["label"].get<std::string>());
    return labels;
  }

  static constexpr const char* kPlanningUri = "file:///tmp/snnplan-lsp-test/snn_llm_planning.yaml";

 private:
  std::ostringstream out_;
  snnplan::lsp::Server server_;
  std::string text_;
  int version_ = 1;
};

bool has_all(const std::set<std::string>& labels, std::initializer_list<const char*> names) {
  return std::all_of(names.begin(), names.end(), [&](const char* n) { return labels.count(n) == 1; });
}
bool has_none(const std::set<std::string>& labels, std::initializer_list<const char*> names) {
  return std::none_of(names.begin(), names.end(), [&](const char* n) { return labels.count(n) == 1; });
}

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

  TEST_CASE("hover inside a search's constraint describes an input, an enumeration and a builtin") {
    Planning p;
    const std::string holds = "holds: \"num_attention_heads % tp == 0\"";
    CHECK(p.hover(holds, 10) ==
          "**input** `num_attention_heads`: `int`\n\nattention heads\n\nrequired (no default)");
    CHECK(p.hover(holds, 30) ==
          "**enumeration** `tp` of search `layout`: each item of `\"divisors(world_size)\"`");
    CHECK(p.hover("pp: \"divisors(world_size // tp)\"", 6).starts_with("**builtin** `divisors("));
  }

  TEST_CASE("hover inside a search describes a derived value, a candidate value and a tier value") {
    Planning p;
    CHECK(p.hover("holds: \"estimate <= budget\"", 22) ==
          "**derived value** `budget`\n\n`\"device_memory_bytes * memory_fraction\"`");
    CHECK(p.hover("holds: \"estimate <= budget\"", 9) ==
          "**candidate value** `estimate` of search `layout`\n\n"
          "`\"parameter_bytes + activation_bytes\"`");
    CHECK(p.hover("(micro_batch_size * dp)\"", 20) ==
          "**candidate value** `dp` of search `layout`\n\n`\"world_size // (tp * pp * cp)\"`");
    CHECK(p.hover("activation_bytes: \"(selective_recompute", 22) ==
          "**tier value** `selective_recompute` of search `layout`\n\n"
          "`without-recompute`: `\"false\"`, `selective-recompute`: `\"true\"`");
  }

  TEST_CASE("hover on a folded (>-) candidate value shows its expression on one line") {
    Planning p;
    CHECK(p.hover("stage_parameters: >-", 1) ==
          "**candidate value** `stage_parameters` of search `layout`\n\n"
          "`pp == 1 ? (share_embeddings_and_output_weights ? single_stage_parameters : "
          "single_stage_parameters + output_parameters / tp) : layer_parameters + "
          "max(input_stage_parameters, output_stage_parameters)`");
  }

  TEST_CASE("hover on a name in a folded value's line indented further finds the name") {
    // `? (share_...` is indented past the block's first line: its names are where they stand.
    Planning p;
    CHECK(p.hover("single_stage_parameters + output_parameters / tp)", 3).starts_with(
        "**candidate value** `single_stage_parameters` of search `layout`"));
    CHECK(p.hover(": layer_parameters + max(input_stage_parameters", 4).starts_with(
        "**candidate value** `layer_parameters` of search `layout`"));
  }

  TEST_CASE("hover on a search's let shows its enumerations, tiers and key") {
    Planning p;
    const std::string hover = p.hover("  layout:\n", 3);
    CHECK(hover.starts_with("**derived value** `layout`: the candidate a search chooses, as a record"));
    CHECK(hover.find("for: `tp`, `pp`, `cp`") != std::string::npos);
    CHECK(hover.find("tiers: `without-recompute`, `selective-recompute`") != std::string::npos);
    CHECK(hover.find("minimize: `\"objective == 'throughput' ? [pp, cp, tp, estimate] : "
                     "[estimate, pp, cp, tp]\"`") != std::string::npos);
  }

  TEST_CASE("hover in none_fits describes an aggregate and the candidate value it reads") {
    Planning p;
    CHECK(p.hover("int(smallest(estimate))", 5) ==
          "**aggregate** `smallest(value)`: the smallest of a candidate value over the candidates "
          "tested against `fits`");
    CHECK(p.hover("int(smallest(estimate))", 15).starts_with(
        "**candidate value** `estimate` of search `layout`"));
    CHECK(p.hover("smallest estimate={smallest_estimate}", 20) ==
          "**value** `smallest_estimate` of `none_fits` in search `layout`\n\n"
          "`\"int(smallest(estimate))\"`");
  }

  TEST_CASE("completion in a search's constraint offers facts, the candidate's names and builtins") {
    Planning p;
    for (const auto& [needle, offset] :
         {std::pair<std::string, std::size_t>{"holds: \"num_attention_heads % tp == 0\"", 12},
          {"holds: \"estimate <= budget\"", 10},
          {"minimize: \"objective", 12},
          {"holds: \"fp8 == null\"", 9}}) {
      CAPTURE(needle);
      const std::set<std::string> labels = p.completion(needle, offset);
      CHECK(has_all(labels, {"num_attention_heads", "budget", "tp", "pp", "cp", "dp", "estimate",
                             "selective_recompute", "divisors", "max"}));
      CHECK(has_none(labels, {"smallest", "budget_bytes"}));
    }
  }

  TEST_CASE("completion in a candidate's value offers the enumerations, the other values and the tier's") {
    Planning p;
    const std::set<std::string> labels = p.completion("dp: \"world_size // (tp", 6);
    CHECK(has_all(labels, {"world_size", "budget", "tp", "pp", "cp", "num_microbatches", "estimate",
                           "selective_recompute", "divisors"}));
    CHECK(has_none(labels, {"smallest", "count"}));
    // A line of a folded (>-) value is in that value too.
    CHECK(has_all(p.completion("? (share_embeddings_and_output_weights", 5),
                  {"share_embeddings_and_output_weights", "single_stage_parameters", "tp"}));
  }

  TEST_CASE("completion in an enumeration offers the enumerations before it only") {
    Planning p;
    const std::set<std::string> labels = p.completion("pp: \"divisors(world_size // tp)\"", 16);
    CHECK(has_all(labels, {"world_size", "tp", "divisors"}));
    CHECK(has_none(labels, {"pp", "cp", "dp", "selective_recompute"}));
  }

  TEST_CASE("completion in a tier's value offers facts only") {
    Planning p;
    const std::set<std::string> labels = p.completion("let: {selective_recompute: \"false\"}", 29);
    CHECK(has_all(labels, {"world_size", "budget", "divisors"}));
    CHECK(has_none(labels, {"tp", "dp", "estimate", "selective_recompute"}));
  }

  TEST_CASE("completion in none_fits offers the aggregates, and candidate values inside one") {
    Planning p;
    const std::set<std::string> outside = p.completion("int(smallest(estimate))", 1);
    CHECK(has_all(outside, {"smallest", "largest", "count", "budget", "budget_bytes", "int"}));
    CHECK(has_none(outside, {"estimate", "tp", "smallest_estimate"}));
    const std::set<std::string> inside = p.completion("int(smallest(estimate))", 16);
    CHECK(has_all(inside, {"estimate", "tp", "dp", "selective_recompute", "tier"}));
    CHECK(has_none(inside, {"budget", "world_size", "smallest"}));
  }

  TEST_CASE("completion of a search's keys follows the part the cursor is in") {
    Planning p;
    CHECK(has_all(p.completion("      minimize:", 8),
                  {"for", "let", "require", "tiers", "fits", "minimize", "none_valid", "none_fits"}));
    CHECK(has_all(p.completion("        holds: \"estimate", 9), {"name", "holds", "message"}));
    CHECK(has_all(p.completion("          let: {selective_recompute: \"true\"}", 11),
                  {"name", "let", "require"}));
    CHECK(has_all(p.completion("        error: \"No topology fits", 9), {"let", "error"}));
    CHECK(has_all(p.completion("    search:", 5), {"search"}));
  }

  // ---- where completion once disagreed with the checker -------------------------------------------

  TEST_CASE("completion in a flow-style constraint of a list offers the candidate's names") {
    Planning p;
    p.change("        - name: tp-splits-heads\n"
             "          holds: \"num_attention_heads % tp == 0\"\n"
             "          message: \"{num_attention_heads} attention heads do not split over tp={tp}\"\n",
             "        - {name: tp-splits-heads, holds: \"num_attention_heads % tp == 0\"}\n");
    CHECK(has_all(p.completion("% tp == 0\"}", 2), {"tp", "dp", "estimate", "num_attention_heads"}));
  }

  TEST_CASE("completion inside a search does not offer the search's own let, which would be a cycle") {
    Planning p;
    const std::set<std::string> labels = p.completion("% tp == 0\"", 2);
    CHECK(has_all(labels, {"tp", "budget", "num_attention_heads"}));
    CHECK(has_none(labels, {"layout"}));
  }

  TEST_CASE("a new enumeration typed before another does not see it") {
    Planning p;
    p.change("        pp: \"divisors(world_size // tp)\"\n",
             "        xx: \"divisors(\n        pp: \"divisors(world_size // tp)\"\n");  // does not parse
    const std::set<std::string> labels = p.completion("xx: \"divisors(", 14);
    CHECK(has_all(labels, {"world_size", "tp"}));
    CHECK(has_none(labels, {"pp", "cp"}));
  }

  TEST_CASE("a key after a list item's '- key: >-' block is a key, not a line of the block") {
    Planning p;
    p.change("        - name: tp-splits-heads\n          holds: \"num_attention_heads % tp == 0\"\n",
             "        - holds: >-\n            num_attention_heads % tp == 0\n          na\n");
    CHECK(has_all(p.completion("          na\n", 12), {"name", "holds", "message"}));
  }

  TEST_CASE("a line of a folded '= expression' in set completes as an expression") {
    Planning p;
    p.change("        pipeline_dtype: \"= layout.pp > 1 ? params_dtype : pipeline_dtype\"\n",
             "        pipeline_dtype: >-\n          = layout.pp > 1\n            ? params_dtype : pipeline_dtype\n");
    const std::set<std::string> labels = p.completion("? params_dtype", 3);
    CHECK(has_all(labels, {"params_dtype", "layout", "world_size"}));
    CHECK(has_none(labels, {"float32"}));
  }

  TEST_CASE("the argument of smallest() is a candidate's value only (the checker's rule)") {
    Planning p;
    p.change("int(smallest(estimate))", "int(smallest(world_size))");
    CHECK(p.hover("smallest(world_size)", 10) == "null");  // check: unknown candidate value
  }

  TEST_CASE("a name only a later tier gives is not offered (the checker declares the first tier's)") {
    Planning p;
    p.change("let: {selective_recompute: \"true\"}", "let: {selective_recompute: \"true\", squeeze: \"2\"}");
    CHECK(has_none(p.completion("dp: \"world_size // (tp", 6), {"squeeze"}));
  }

  TEST_CASE("the search's hover shows its minimize key as written") {
    Planning p;
    p.change("      minimize: \"objective == 'throughput' ? [pp, cp, tp, estimate] : [estimate, pp, cp, tp]\"\n",
             "      minimize: \"(estimate)\"\n");
    CHECK(p.hover("  layout:\n", 3).find("minimize: `\"(estimate)\"`") != std::string::npos);
  }

  TEST_CASE("an enumeration written as a block list shows its items") {
    Planning p;
    p.change("        tp: \"divisors(world_size)\"\n", "        tp:\n          - 1\n          - 2\n");
    CHECK(p.hover("        tp:\n", 9).find("each item of ``") == std::string::npos);
  }
}
