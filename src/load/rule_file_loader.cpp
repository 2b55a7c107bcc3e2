#include "load/rule_file_loader.hpp"

#include <yaml-cpp/depthguard.h>  // YAML::DeepRecursion
#include <yaml-cpp/exceptions.h>

#include <cstdlib>
#include <functional>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <variant>

#include "core/diagnostic_codes.hpp"
#include "core/messages.hpp"
#include "load/expression_parser.hpp"
#include "load/keys.hpp"
#include "load/literals.hpp"
#include "load/yaml_document.hpp"
#include "snnplan/version.hpp"

namespace snnplan::load {
namespace {

using syntax::Expr;
using syntax::ExprKind;

// What a diagnostic talks about: "inputs", or a kind and a name from the file ("input 'x'").
// The text is put together only when a diagnostic is reported; the name is a scalar of the
// document, which lives as long as the Loader.
class What {
 public:
  What(const char* text) : kind_(text) {}
  What(std::string_view text) : kind_(text) {}
  What(const std::string& text) : kind_(text) {}
  What(std::string_view kind, std::string_view name) : kind_(kind), name_(name), named_(true) {}

  std::string text() const {
    if (!named_) return std::string(kind_);
    return kind_.empty() ? fmt::format("'{}'", name_) : fmt::format("{} '{}'", kind_, name_);
  }

 private:
  std::string_view kind_;
  std::string_view name_;
  bool named_ = false;
};

class Loader {
 public:
  Loader(std::string_view text, const std::string& file_name) : text_(text) {
    result_.file.file_name = file_name;
    std::size_t begin = 0;
    while (begin <= text.size()) {
      std::size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(begin, end - begin);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF line endings
      lines_.push_back(line);
      begin = end + 1;
    }
    // yaml-cpp's columns on the first line count from after a UTF-8 byte order mark.
    if (lines_.front().substr(0, 3) == "\xEF\xBB\xBF") lines_.front().remove_prefix(3);
  }

  LoadedFile run() {
    if (text_.size() > kMaxRuleFileBytes) {
      error(SourceLocation{file(), 1, 1}, "file-too-large",
            messages::rule_file_too_large(kMaxRuleFileBytes));
      return std::move(result_);
    }
    std::optional<yaml::Document> document;
    try {
      document.emplace(text_);
    } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard, far deeper than ours
      error(from_mark(e.mark), "yaml-too-deep", messages::yaml_too_deep(kMaxYamlDepth));
      return std::move(result_);
    } catch (const YAML::Exception& e) {
      error(from_mark(e.mark), "yaml-syntax", messages::yaml_syntax(e.msg));
      // yaml-cpp reports an unclosed '{' or '[' where it gave up; point at the bracket too.
      if (const auto* unclosed = dynamic_cast<const yaml::UnclosedFlow*>(&e))
        note(from_mark(unclosed->opened), "yaml-unclosed-flow", messages::yaml_unclosed_flow(unclosed->is_map));
      return std::move(result_);
    }
    const yaml::Node root = document->root();
    if (!within_limits(root)) return std::move(result_);
    if (!root.IsMap()) {
      error(root.IsDefined() && !root.IsNull() ? at(root) : SourceLocation{file(), 1, 1},
            "wrong-kind", messages::expected_kind("a rule file", "a mapping with the keys snnplan, inputs, record, tables, ..."));
      return std::move(result_);
    }
    read_top(root);
    return std::move(result_);
  }

 private:
  // Walks the tree as the reader below does, aliases expanded where they are used, without
  // recursion; stops at the first limit. A node met for the first time is text of the file
  // (bounded by the file size); a node met again was reached through an alias, and those
  // repeats are counted. So an alias that contains itself, or aliases that multiply, are
  // refused after at most kMaxYamlNodes repeats instead of crashing or hanging, while a long
  // plain file (10,000 rules) loads.
  bool within_limits(const yaml::Node& root) {
    std::vector<std::pair<yaml::Node, int>> pending{{root, 1}};
    // Where each node starts (Mark().pos, -1 for no mark), one node per position.
    std::vector<bool> seen(text_.size() + 2, false);
    auto first_time = [&seen](const yaml::Node& node) {
      const std::size_t slot = static_cast<std::size_t>(static_cast<std::int64_t>(node.Mark().pos) + 1);
      if (slot >= seen.size()) seen.resize(slot + 1, false);
      if (seen[slot]) return false;
      seen[slot] = true;
      return true;
    };
    std::size_t repeats = 0;
    while (!pending.empty()) {
      const auto [node, depth] = std::move(pending.back());
      pending.pop_back();
      if (depth > kMaxYamlDepth) {
        error(at(node), "yaml-too-deep", messages::yaml_too_deep(kMaxYamlDepth));
        return false;
      }
      if (!first_time(node) && ++repeats > kMaxYamlNodes) {
        error(at(node), "yaml-too-many-nodes", messages::yaml_too_many_nodes(kMaxYamlNodes));
        return false;
      }
      if (node.IsSequence()) {
        for (const auto& item : node.items()) pending.emplace_back(item, depth + 1);
      } else if (node.IsMap()) {
        for (const auto& kv : node.entries()) {
          pending.emplace_back(kv.first, depth + 1);
          pending.emplace_back(kv.second, depth + 1);
        }
      }
    }
    return true;
  }

  // ---- locations and diagnostics ----------------------------------------------------------
  const std::string& file() const { return result_.file.file_name; }

  SourceLocation from_mark(const YAML::Mark& mark) const {
    if (mark.is_null()) return SourceLocation{file(), 0, 0};
    return SourceLocation{file(), static_cast<std::uint32_t>(mark.line + 1),
                          static_cast<std::uint32_t>(mark.column + 1)};
  }
  SourceLocation at(const yaml::Node& node) const { return from_mark(node.Mark()); }

  // Where a node's value starts on its line: yaml-cpp marks a node at its anchor or tag
  // ("&a", "!!str") when it has one, so those and the spaces after them are skipped.
  SourceLocation value_at(const yaml::Node& node) const {
    SourceLocation loc = at(node);
    if (loc.line < 1 || loc.line > lines_.size()) return loc;
    const std::string_view line = lines_[loc.line - 1];
    std::size_t c = loc.column - 1;
    while (c < line.size() && (line[c] == '&' || line[c] == '!')) {
      const std::size_t space = line.find_first_of(" \t", c);
      if (space == std::string_view::npos) return loc;
      const std::size_t next = line.find_first_not_of(" \t", space);
      if (next == std::string_view::npos) return loc;  // the value is on a later line
      c = next;
    }
    return SourceLocation{loc.file, loc.line, static_cast<std::uint32_t>(c + 1)};
  }

  // Where the characters of a scalar start: after the opening quote when it is quoted.
  SourceLocation content_at(const yaml::Node& node) const {
    SourceLocation loc = value_at(node);
    if (loc.line >= 1 && loc.line <= lines_.size()) {
      std::string_view line = lines_[loc.line - 1];
      if (loc.column >= 1 && loc.column <= line.size()) {
        char c = line[loc.column - 1];
        if (c == '"' || c == '\'') return loc.shifted(1);
      }
    }
    return loc;
  }

  // File position of each byte of a scalar's decoded text. yaml-cpp gives only where the
  // scalar starts; escapes in quoted scalars, block scalars and plain scalars folded over
  // several lines move later characters elsewhere. Where the layout is not understood, the
  // position falls back to "start + offset".
  std::function<SourceLocation(std::size_t)> locator(const yaml::Node& node) const {
    const SourceLocation start = content_at(node);
    auto linear = [start](std::size_t offset) { return start.shifted(static_cast<std::uint32_t>(offset)); };
    const SourceLocation mark = value_at(node);
    if (!mark.known() || mark.line > lines_.size()) return linear;
    const std::string& decoded = node.Scalar();
    struct Position {  // 1-based, in file(): the file name is added when a location is asked for
      std::uint32_t line;
      std::uint32_t column;
    };
    std::vector<Position> map;
    map.reserve(decoded.size() + 1);
    auto position = [](std::size_t line, std::size_t column) {
      return Position{static_cast<std::uint32_t>(line + 1), static_cast<std::uint32_t>(column + 1)};
    };
    std::size_t line = mark.line - 1;
    std::size_t column = mark.column - 1;
    std::string_view text = lines_[line];
    const char first = column < text.size() ? text[column] : '\0';
    if (first == '"' || first == '\'') {
      // Each decoded byte maps to the raw character that produced it. A line break inside the
      // quotes folds: trailing blanks go, the break becomes one space (or a '\n' per empty
      // line after it), the next line's leading blanks go; "\" before the break joins lines.
      std::size_t i = column + 1;
      while (map.size() < decoded.size() && line < lines_.size()) {
        text = lines_[line];
        if (i >= text.size() || text.find_first_not_of(" \t", i) == std::string_view::npos) {
          const Position fold = position(line, std::min(i, text.size()));
          std::size_t empty = 0;
          while (line + 1 + empty < lines_.size() && lines_[line + 1 + empty].find_first_not_of(" \t") == std::string_view::npos)
            ++empty;
          for (std::size_t k = 0; k < std::max<std::size_t>(empty, 1); ++k) map.push_back(fold);
          line += 1 + empty;
          if (line >= lines_.size()) break;
          i = lines_[line].find_first_not_of(" \t");
          continue;
        }
        const char c = text[i];
        if (first == '\'' && c == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
          map.push_back(position(line, i));
          i += 2;
        } else if (first == '"' && c == '\\' && i + 1 >= text.size()) {  // escaped line break
          // The break itself gives nothing; each empty line after it gives a '\n'.
          const Position at_break = position(line, i);
          ++line;
          while (line < lines_.size() && lines_[line].find_first_not_of(" \t") == std::string_view::npos) {
            map.push_back(at_break);
            ++line;
          }
          if (line >= lines_.size()) break;
          i = lines_[line].find_first_not_of(" \t");
        } else if (first == '"' && c == '\\') {
          const char e = text[i + 1];
          std::size_t raw = 2, bytes = 1;
          if (e == 'x' || e == 'u' || e == 'U') {
            raw = e == 'x' ? 4 : e == 'u' ? 6 : 10;
            const unsigned long cp = std::strtoul(std::string(text.substr(i + 2, raw - 2)).c_str(), nullptr, 16);
            bytes = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
          } else if (e == 'L' || e == 'P') {  // U+2028, U+2029
            bytes = 3;
          } else if (e == 'N' || e == '_') {  // U+0085, U+00A0
            bytes = 2;
          }
          for (std::size_t b = 0; b < bytes; ++b) map.push_back(position(line, i));
          i += raw;
        } else if (c == first) {
          break;
        } else {
          if (decoded[map.size()] != c) break;  // not the layout assumed: fall back below
          map.push_back(position(line, i++));
        }
      }
    } else if (first == '|') {
      // Literal block: decoded lines are the following raw lines minus their indentation.
      std::size_t indent = std::string::npos;
      for (std::size_t l = line + 1; l < lines_.size() && indent == std::string::npos; ++l)
        if (lines_[l].find_first_not_of(' ') != std::string_view::npos) indent = lines_[l].find_first_not_of(' ');
      std::size_t l = line + 1;
      std::size_t c = 0;
      for (char ch : decoded) {
        map.push_back(position(l, (indent == std::string::npos ? 0 : indent) + c));
        if (ch == '\n') {
          ++l;
          c = 0;
        } else {
          ++c;
        }
      }
    } else {
      // Plain scalar, possibly folded: raw lines trimmed and joined with single spaces; or a
      // folded block ('>'), which starts on the next line and folds the same way (lines
      // indented further keep their spaces: that layout is not followed, see the check below).
      std::size_t l = line;
      std::size_t c = column;
      if (first == '>') {
        l = line + 1;
        c = l < lines_.size() ? lines_[l].find_first_not_of(' ') : 0;
        if (l < lines_.size() && c == std::string_view::npos) c = lines_[l].size();
      }
      for (std::size_t k = 0; k < decoded.size(); ++k) {
        while (l < lines_.size() && c >= lines_[l].size()) {  // end of a raw line: the fold
          if (decoded[k] == ' ' || decoded[k] == '\n') break;
          ++l;
          c = l < lines_.size() ? lines_[l].find_first_not_of(' ') : 0;
          if (c == std::string_view::npos) c = lines_[l].size();
        }
        if (l >= lines_.size()) break;
        if (c >= lines_[l].size()) {  // the fold itself: points at the end of the line
          map.push_back(position(l, c));
          ++l;
          c = l < lines_.size() ? lines_[l].find_first_not_of(' ') : 0;
          if (l < lines_.size() && c == std::string_view::npos) c = lines_[l].size();
          continue;
        }
        if (lines_[l][c] != decoded[k]) break;  // not the layout we assumed
        map.push_back(position(l, c++));
      }
    }
    if (map.size() != decoded.size()) return linear;
    const Position end = map.empty() ? Position{start.line, start.column} : Position{map.back().line, map.back().column + 1};
    return [map = std::move(map), end, file_name = &file()](std::size_t offset) {
      const Position p = offset < map.size() ? map[offset] : end;
      return SourceLocation{*file_name, p.line, p.column};
    };
  }

  void error(SourceLocation loc, std::string code, std::string message) {
    result_.diagnostics.push_back(Diagnostic{Severity::error, std::move(loc), std::move(code), std::move(message)});
  }
  void note(SourceLocation loc, std::string code, std::string message) {
    result_.diagnostics.push_back(Diagnostic{Severity::note, std::move(loc), std::move(code), std::move(message)});
  }

  // Checks every key of `map` against the keys of `section` (load/keys.hpp); reports unknown
  // and duplicate keys.
  void check_keys(const yaml::Node& map, Section section, const What& where) {
    const auto entries = map.entries();
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const std::string& key = entries[k].first.Scalar();
      if (repeats_earlier_key(entries, k)) {
        error(at(entries[k].first), "duplicate-key", messages::duplicate_key(key));
        continue;
      }
      if (find_key(section, key) == nullptr) {
        error(at(entries[k].first), "unknown-key",
              messages::unknown_key(key, where.text(), messages::closest_match(key, key_names(section))));
      }
    }
  }

  // Reports duplicate keys of a mapping whose keys are user-chosen names.
  void check_duplicates(const yaml::Node& map) {
    const auto entries = map.entries();
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (repeats_earlier_key(entries, k)) {
        error(at(entries[k].first), "duplicate-key", messages::duplicate_key(entries[k].first.Scalar()));
      }
    }
  }

  // Whether entry k's key text was the key of an earlier entry. Maps are small, except the
  // user's name maps of a large file (inputs, tables): those get a set of the keys seen.
  bool repeats_earlier_key(std::span<const yaml::Entry> entries, std::size_t k) {
    static constexpr std::size_t kScanUpTo = 16;
    const std::string& key = entries[k].first.Scalar();
    if (entries.size() <= kScanUpTo) {
      for (std::size_t j = 0; j < k; ++j)
        if (entries[j].first.Scalar() == key) return true;
      return false;
    }
    if (k == 0) keys_seen_.clear();
    return !keys_seen_.insert(key).second;
  }

  bool expect_map(const yaml::Node& node, const What& what) {
    if (node.IsMap()) return true;
    error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a mapping"));
    return false;
  }
  bool expect_sequence(const yaml::Node& node, const What& what) {
    if (node.IsSequence()) return true;
    error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a list"));
    return false;
  }
  std::optional<syntax::Located<std::string>> string_of(const yaml::Node& node, const What& what) {
    if (!node.IsScalar()) {
      error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a string"));
      return std::nullopt;
    }
    return syntax::Located<std::string>{node.Scalar(), content_at(node)};
  }
  std::optional<bool> bool_of(const yaml::Node& node, const What& what) {
    if (node.IsScalar() && node.Tag() != "!") {
      const std::string& s = node.Scalar();
      if (s == "true" || s == "True" || s == "TRUE") return true;
      if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    error(at(node), "wrong-kind", messages::expected_kind(what.text(), "true or false"));
    return std::nullopt;
  }
  syntax::Located<std::string> key_of(const yaml::Node& key) { return {key.Scalar(), content_at(key)}; }

  // ---- values and expressions -------------------------------------------------------------

  // A YAML scalar as a literal (null, bool, int, float or string), or an error diagnostic.
  std::optional<Value> literal_of(const yaml::Node& node) {
    const std::string& s = node.Scalar();
    if (node.Tag() == "!") return Value(s);  // quoted: always a string
    auto read = read_plain_scalar(s);
    if (auto* failure = std::get_if<LiteralError>(&read)) {
      error(at(node), failure->code, std::move(failure->message));
      return std::nullopt;
    }
    return std::move(std::get<Value>(read));
  }

  std::optional<Expr> parse_expr_text(const std::string& raw, const std::function<SourceLocation(std::size_t)>& locate) {
    auto parsed = parse_expression(raw, locate);
    if (auto* d = std::get_if<Diagnostic>(&parsed)) {
      result_.diagnostics.push_back(std::move(*d));
      return std::nullopt;
    }
    return std::move(std::get<Expr>(parsed));
  }

  // A value position: a string starting with '=' is an expression; other scalars are
  // literals; a list is a list literal of values.
  std::optional<Expr> value_of(const yaml::Node& node, const What& what, bool expression_by_default = false) {
    if (node.IsSequence()) {
      Expr list;
      list.kind = ExprKind::list;
      list.location = at(node);
      bool ok = true;
      for (const auto& item : node.items()) {
        auto e = value_of(item, what);
        if (e) list.children.push_back(std::move(*e));
        else ok = false;
      }
      if (!ok) return std::nullopt;
      return list;
    }
    if (node.IsNull()) {
      Expr e;
      e.kind = ExprKind::literal;
      e.location = at(node);
      return e;
    }
    if (!node.IsScalar()) {
      error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a value or an '=' expression"));
      return std::nullopt;
    }
    const std::string& s = node.Scalar();
    SourceLocation loc = content_at(node);
    if (!s.empty() && s[0] == '=') {
      std::size_t skip = 1;
      while (skip < s.size() && s[skip] == ' ') ++skip;
      auto locate = locator(node);
      return parse_expr_text(s.substr(skip), [&](std::size_t offset) { return locate(offset + skip); });
    }
    // `let` values are expressions even without '=' (a plain `3` or `x` included).
    if (expression_by_default) return parse_expr_text(s, locator(node));
    auto literal = literal_of(node);
    if (!literal) return std::nullopt;
    Expr e;
    e.kind = ExprKind::literal;
    e.location = loc;
    e.literal = std::move(*literal);
    return e;
  }

  std::optional<syntax::Template> template_of(const yaml::Node& node, const What& what) {
    if (!node.IsScalar()) {
      // `- Use dp because: it is fast` reads as a mapping with one key that is a sentence.
      const auto entries = node.IsMap() ? node.entries() : std::span<const yaml::Entry>();
      if (entries.size() == 1 && entries[0].first.Scalar().find(' ') != std::string::npos)
        error(at(node), "wrong-kind",
              messages::text_made_a_mapping(what.text(), entries[0].first.Scalar()));
      else
        error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a string"));
      return std::nullopt;
    }
    syntax::Template t;
    t.text = node.Scalar();
    t.location = content_at(node);
    const auto locate = locator(node);
    std::string literal;
    auto flush = [&](std::size_t offset) {
      if (literal.empty()) return;
      t.pieces.push_back({false, std::move(literal), locate(offset), false});
      literal.clear();
    };
    const std::string& s = t.text;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '{' && i + 1 < s.size() && s[i + 1] == '{') { literal += '{'; ++i; continue; }
      if (s[i] == '}' && i + 1 < s.size() && s[i + 1] == '}') { literal += '}'; ++i; continue; }
      if (s[i] == '}') {
        error(locate(i), "template-syntax", messages::unbalanced_brace(s));
        return std::nullopt;
      }
      if (s[i] == '{') {
        const std::size_t close = s.find('}', i);
        if (close == std::string::npos) {
          error(locate(i), "template-syntax", messages::unbalanced_brace(s));
          return std::nullopt;
        }
        flush(i);
        std::string name = s.substr(i + 1, close - i - 1);
        // Python's conversion `!r`, and no other: `!s` is what `{name}` does, `!a` has no use.
        const std::size_t bang = name.find('!');
        const bool python_repr = bang != std::string::npos;
        if (python_repr && name.substr(bang) != "!r") {
          error(locate(i + 1 + bang), "template-syntax",
                messages::template_conversion(name.substr(bang)));
          return std::nullopt;
        }
        if (python_repr) name.resize(bang);
        t.pieces.push_back({true, std::move(name), locate(i + 1), python_repr});
        i = close;
        continue;
      }
      literal += s[i];
    }
    flush(s.size());
    return t;
  }

  // ---- sections -----------------------------------------------------------------------------

  void read_top(const yaml::Node& root) {
    check_keys(root, Section::rule_file, "the rule file");
    auto& f = result_.file;
    const yaml::Node version = root["snnplan"];
    result_.is_rule_file = static_cast<bool>(version);
    if (!version) {
      error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("snnplan", "the rule file (the format version, 1)"));
    } else {
      const bool plain = version.IsScalar() && version.Tag() != "!";
      auto v = plain ? literal_of(version) : std::nullopt;
      if (version.IsScalar() && version.Tag() == "!") {
        error(content_at(version), "unsupported-version", messages::version_not_a_number(version.Scalar()));
      } else if (plain && !v) {
        // literal_of has reported the number out of range at the same place; one error is enough.
      } else if (!v || !v->is_int() || v->as_int() != rule_format_version) {
        error(content_at(version), "unsupported-version",
              messages::unsupported_version(version.IsScalar() ? version.Scalar() : "(not a number)", rule_format_version));
      } else {
        f.version = {v->as_int(), at(version)};
      }
    }
    if (auto n = root["description"]; n && !n.IsScalar()) {
      error(at(n), "wrong-kind", messages::expected_kind("description", "a string"));
    }
    if (auto n = root["uses"]) read_uses(n);
    if (auto n = root["inputs"]) read_inputs(n);
    else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("inputs", "the rule file"));
    if (auto n = root["let"]) read_lets(n);
    if (auto n = root["record"]) read_record(n);
    else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("record", "the rule file"));
    if (auto n = root["rationale_header"]) f.rationale_header = template_of(n, "rationale_header");
    if (auto n = root["start"]) f.start = string_of(n, "start");
    else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("start", "the rule file"));
    if (auto n = root["tables"]) read_tables(n);
    else error(SourceLocation{file(), 1, 1}, "missing-key", messages::missing_key("tables", "the rule file"));
    if (auto n = root["ensure"]) read_ensure(n);
  }

  void read_inputs(const yaml::Node& node) {
    if (!expect_map(node, "inputs")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      syntax::InputDecl input;
      input.name = key_of(kv.first);
      const yaml::Node& spec = kv.second;
      const What where("input", kv.first.Scalar());
      if (!expect_map(spec, where)) continue;
      check_keys(spec, Section::input, where);
      if (auto t = read_type(spec, where, false)) input.type = *t;
      else continue;
      if (auto d = spec["default"]) input.default_value = value_of(d, "default");
      if (auto l = spec["lower"]) input.lower = bool_of(l, "lower").value_or(false);
      if (auto o = spec["one_of"]) {
        if (expect_sequence(o, "one_of")) {
          syntax::Located<std::vector<Value>> options{{}, at(o)};
          for (const auto& item : o.items()) {
            if (!item.IsScalar()) {
              error(at(item), "wrong-kind", messages::expected_kind("one_of entries", "scalars"));
              continue;
            }
            if (auto v = literal_of(item)) options.value.push_back(std::move(*v));
          }
          input.one_of = std::move(options);
        }
      }
      if (auto e = spec["error"]) input.error = template_of(e, "error");
      input.allow = read_allowance(spec, where);
      result_.file.inputs.push_back(std::move(input));
    }
  }

  std::optional<syntax::Located<syntax::TypeSpec>> read_type(const yaml::Node& spec, const What& where, bool allow_rationale) {
    const yaml::Node t = spec["type"];
    if (!t) {
      error(at(spec), "missing-key", messages::missing_key("type", where.text()));
      return std::nullopt;
    }
    auto name = string_of(t, "type");
    if (!name) return std::nullopt;
    auto parsed = syntax::parse_type(name->value);
    if (!parsed || (parsed->is_rationale && !allow_rationale)) {
      error(name->location, "unknown-type", messages::unknown_type(name->value));
      return std::nullopt;
    }
    return syntax::Located<syntax::TypeSpec>{*parsed, name->location};
  }

  void read_uses(const yaml::Node& node) {
    if (!expect_map(node, "uses")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      if (auto file = string_of(kv.second, What("uses", kv.first.Scalar())))
        result_.file.uses.push_back(syntax::Use{key_of(kv.first), *file});
    }
  }

  void read_lets(const yaml::Node& node) {
    if (!expect_map(node, "let")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      if (kv.second.IsMap()) {  // a call of another rule set
        const What where("let", kv.first.Scalar());
        check_keys(kv.second, Section::let_call, where);
        const yaml::Node target = kv.second["call"];
        if (!target) {
          error(at(kv.second), "missing-key", messages::missing_key("call", where.text()));
          continue;
        }
        auto rules = string_of(target, "call");
        if (!rules) continue;
        syntax::LetDecl let{key_of(kv.first), Expr{}, syntax::Call{*rules, {}}};
        let.expr.location = rules->location;
        if (auto w = kv.second["with"]) let.call->with = read_assignments(w, "with");
        result_.file.lets.push_back(std::move(let));
        continue;
      }
      auto e = value_of(kv.second, What("let", kv.first.Scalar()), /*expression_by_default=*/true);
      if (e) result_.file.lets.push_back(syntax::LetDecl{key_of(kv.first), std::move(*e), std::nullopt});
    }
  }

  void read_record(const yaml::Node& node) {
    if (!expect_map(node, "record")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      syntax::FieldDecl field;
      field.name = key_of(kv.first);
      const What where("record field", kv.first.Scalar());
      if (!expect_map(kv.second, where)) continue;
      check_keys(kv.second, Section::record_field, where);
      auto t = read_type(kv.second, where, true);
      if (!t) continue;
      field.type = *t;
      if (auto d = kv.second["default"]) field.default_value = value_of(d, "default");
      if (auto i = kv.second["init"]) field.init = value_of(i, "init");
      result_.file.fields.push_back(std::move(field));
    }
  }

  void read_tables(const yaml::Node& node) {
    if (!expect_map(node, "tables")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      syntax::Table table;
      table.name = key_of(kv.first);
      const What where("table", kv.first.Scalar());
      // A table is its list of rules, or a mapping that adds `allow` and `reason` to them.
      yaml::Node rules = kv.second;
      if (kv.second.IsMap()) {
        check_keys(kv.second, Section::table, where);
        rules = kv.second["rules"];
        if (!rules) {
          error(at(kv.second), "wrong-kind",
                messages::expected_kind(where.text(), "a list of rules, or a mapping with rules"));
          continue;
        }
        table.allow = read_allowance(kv.second, where);
      }
      if (!expect_sequence(rules, kv.second.IsMap() ? What("rules") : where)) continue;
      for (const auto& rule_node : rules.items()) {
        if (auto rule = read_rule(rule_node)) table.rules.push_back(std::move(*rule));
      }
      result_.file.tables.push_back(std::move(table));
    }
  }

  std::optional<syntax::Rule> read_rule(const yaml::Node& node) {
    if (!expect_map(node, "a rule")) return std::nullopt;
    syntax::Rule rule;
    rule.location = at(node);
    const yaml::Node name = node["name"];
    if (!name) {
      error(at(node), "missing-key", messages::missing_key("name", "a rule"));
      return std::nullopt;
    }
    auto n = string_of(name, "a rule's name");
    if (!n) return std::nullopt;
    rule.name = *n;
    const What where("rule", name.Scalar());
    check_keys(node, Section::rule, where);
    if (auto w = node["when"]) read_when(w, rule.when);
    if (auto s = node["set"]) rule.set = read_assignments(s, "set");
    if (auto b = node["because"]) {
      if (b.IsSequence()) {
        for (const auto& line : b.items())
          if (auto t = template_of(line, "because")) rule.because.push_back(std::move(*t));
      } else if (auto t = template_of(b, "because")) {
        rule.because.push_back(std::move(*t));
      }
    }
    if (auto e = node["error"]) rule.error = template_of(e, "error");
    if (auto x = node["next"]) rule.next = string_of(x, "next");
    if (auto fb = node["fallback"]) rule.fallback = read_fallback(fb);
    rule.allow = read_allowance(node, where);
    const int outcomes = (node["error"] ? 1 : 0) + (node["next"] ? 1 : 0) + (node["fallback"] ? 1 : 0);
    if (outcomes > 1) error(at(node), "conflicting-actions", messages::conflicting_actions(rule.name.value));
    if (outcomes == 0 && !node["set"] && !node["because"]) {
      error(rule.name.location, "empty-rule", messages::rule_needs_outcome(rule.name.value));
    }
    return rule;
  }

  void read_ensure(const yaml::Node& node) {
    if (!expect_sequence(node, "ensure")) return;
    for (const auto& item : node.items()) {
      if (!expect_map(item, "an invariant")) continue;
      syntax::Invariant invariant;
      invariant.location = at(item);
      const yaml::Node name = item["name"];
      if (!name) {
        error(at(item), "missing-key", messages::missing_key("name", "an invariant"));
        continue;
      }
      auto n = string_of(name, "an invariant's name");
      if (!n) continue;
      invariant.name = *n;
      const What where("invariant", name.Scalar());
      check_keys(item, Section::invariant, where);
      if (auto w = item["when"]) read_when(w, invariant.when);
      const yaml::Node require = item["require"];
      const yaml::Node message = item["message"];
      if (!require) error(at(item), "missing-key", messages::missing_key("require", where.text()));
      if (!message) error(at(item), "missing-key", messages::missing_key("message", where.text()));
      if (!require || !message) continue;
      auto r = value_of(require, "require", /*expression_by_default=*/true);
      auto m = template_of(message, "message");
      if (!r || !m) continue;
      invariant.require = std::move(*r);
      invariant.message = std::move(*m);
      result_.file.invariants.push_back(std::move(invariant));
    }
  }

  void read_when(const yaml::Node& node, std::vector<syntax::Matcher>& when) {
    if (!expect_map(node, "when")) return;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      syntax::Located<std::string> fact = key_of(kv.first);
      const yaml::Node& m = kv.second;
      if (m.IsMap()) {
        check_duplicates(m);
        for (const auto& op_kv : m.entries()) {
          const std::string& op = op_kv.first.Scalar();
          const language::MatcherInfo* info = language::find_matcher(op);
          if (!info) {
            std::vector<std::string> names;
            for (const auto& known : language::matchers()) names.push_back(known.name);
            const language::MatcherInfo* meant = language::matcher_meant_by(op);
            error(at(op_kv.first), "unknown-key",
                  messages::unknown_match_op(
                      op, meant ? std::string(meant->name) : messages::closest_match(op, names)));
            continue;
          }
          if (info->operand == language::OperandShape::list &&
              (!op_kv.second.IsSequence() || (info->list_items != 0 && op_kv.second.items().size() != info->list_items))) {
            error(at(op_kv.second), "wrong-kind", messages::expected_kind(op, messages::a_list_of(info->list_items)));
            continue;
          }
          if (auto operand = value_of(op_kv.second, op)) {
            when.push_back(
                syntax::Matcher{fact, info->op, std::move(*operand), written(op_kv.second)});
          }
        }
      } else if (m.IsSequence()) {
        if (auto operand = value_of(m, "one_of"))
          when.push_back(
              syntax::Matcher{fact, syntax::MatchOp::one_of, std::move(*operand), written(m)});
      } else if (auto operand = value_of(m, "a matcher")) {
        when.push_back(syntax::Matcher{fact, syntax::MatchOp::eq, std::move(*operand), written(m)});
      }
    }
  }

  // A value as the operator wrote it: "= world_size * 2" -> "world_size * 2", [a, b] -> "[a, b]".
  static std::string written(const yaml::Node& node) {
    if (node.IsSequence()) {
      std::string out = "[";
      bool first = true;
      for (const auto& item : node.items()) {
        out += (first ? "" : ", ") + written(item);
        first = false;
      }
      return out + "]";
    }
    if (!node.IsScalar()) return "null";
    std::string s = node.Scalar();
    if (!s.empty() && s[0] == '=') s.erase(0, s.find_first_not_of(' ', 1) == std::string::npos ? s.size() : s.find_first_not_of(' ', 1));
    return s;
  }

  std::vector<syntax::Assignment> read_assignments(const yaml::Node& node, const What& what) {
    std::vector<syntax::Assignment> out;
    if (!expect_map(node, what)) return out;
    check_duplicates(node);
    for (const auto& kv : node.entries()) {
      if (auto v = value_of(kv.second, What("", kv.first.Scalar()))) {
        out.push_back(syntax::Assignment{key_of(kv.first), std::move(*v)});
      }
    }
    return out;
  }

  // `allow: [code, ...]` and `reason:` of a rule or table mapping: known codes of warnings or
  // notes, and a reason (an accepted finding should say why it is accepted).
  std::optional<syntax::Allowance> read_allowance(const yaml::Node& node, const What& where) {
    const yaml::Node allow = node["allow"];
    const yaml::Node reason = node["reason"];
    if (!allow && !reason) return std::nullopt;
    if (!allow) {
      error(at(reason), "missing-key",
            messages::missing_key("allow", fmt::format("{}, which has a reason", where.text())));
      return std::nullopt;
    }
    syntax::Allowance out;
    if (expect_sequence(allow, "allow")) {
      for (const auto& item : allow.items()) {
        auto code = string_of(item, "allow entries");
        if (!code) continue;
        const detail::DiagnosticCodeInfo* row = detail::find_diagnostic_code(code->value);
        if (row == nullptr) {
          error(code->location, "unknown-code",
                messages::unknown_code(
                    code->value,
                    messages::closest_match(code->value, detail::diagnostic_code_names())));
        } else if (row->severity == Severity::error) {
          error(code->location, "allow-error", messages::allow_error(code->value));
        } else {
          out.codes.push_back(std::move(*code));
        }
      }
    }
    if (!reason) {
      error(at(allow), "missing-key",
            messages::missing_key("reason", fmt::format("{}, which has allow", where.text())));
      return std::nullopt;
    }
    if (auto r = string_of(reason, "reason")) out.reason = std::move(*r);
    return out;
  }

  std::optional<syntax::Fallback> read_fallback(const yaml::Node& node) {
    if (!expect_map(node, "fallback")) return std::nullopt;
    check_keys(node, Section::fallback, "fallback");
    syntax::Fallback fb;
    fb.location = at(node);
    const yaml::Node table = node["table"];
    if (!table) {
      error(at(node), "missing-key", messages::missing_key("table", "fallback"));
      return std::nullopt;
    }
    auto t = string_of(table, "fallback table");
    if (!t) return std::nullopt;
    fb.table = *t;
    if (auto w = node["with"]) fb.with = read_assignments(w, "with");
    if (auto k = node["keep"]) {
      if (expect_sequence(k, "keep")) {
        for (const auto& item : k.items())
          if (auto s = string_of(item, "keep entries")) fb.keep.push_back(*s);
      }
    }
    return fb;
  }

  std::string_view text_;
  std::vector<std::string_view> lines_;
  std::unordered_set<std::string_view> keys_seen_;  // repeats_earlier_key's, for large maps
  LoadedFile result_;
};

}  // namespace

LoadedFile load_rule_file(std::string_view text, const std::string& file_name) {
  return Loader(text, file_name).run();
}

}  // namespace snnplan::load
