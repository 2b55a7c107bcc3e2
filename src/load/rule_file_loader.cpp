#include "load/rule_file_loader.hpp"

#include <yaml-cpp/depthguard.h>  // YAML::DeepRecursion
#include <yaml-cpp/exceptions.h>

#include "load/loader.hpp"

namespace snnplan::load {
namespace internal {

Loader::Loader(std::string_view text, const std::string& file_name) : text_(text), file_name_(file_name) {
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

LoadedFile Loader::run() {
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

// Walks the tree as the reader below does, aliases expanded where they are used, without
// recursion; stops at the first limit. A node met for the first time is text of the file
// (bounded by the file size); a node met again was reached through an alias, and those
// repeats are counted. So an alias that contains itself, or aliases that multiply, are
// refused after at most kMaxYamlNodes repeats instead of crashing or hanging, while a long
// plain file (10,000 rules) loads.
bool Loader::within_limits(const yaml::Node& root) {
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

SourceLocation Loader::from_mark(const YAML::Mark& mark) const {
  if (mark.is_null()) return SourceLocation{file(), 0, 0};
  return SourceLocation{file(), static_cast<std::uint32_t>(mark.line + 1),
                        static_cast<std::uint32_t>(mark.column + 1)};
}

// Where a node's value starts on its line: yaml-cpp marks a node at its anchor or tag
// ("&a", "!!str") when it has one, so those and the spaces after them are skipped.
SourceLocation Loader::value_at(const yaml::Node& node) const {
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
SourceLocation Loader::content_at(const yaml::Node& node) const {
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
std::function<SourceLocation(std::size_t)> Loader::locator(const yaml::Node& node) const {
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
    // folded block ('>'), which starts on the next line and folds the same way, except that a
    // line indented further than the block keeps the spaces past the block's indentation
    // (and the break before it): its text starts at the block's indentation, not at its first
    // non-blank.
    std::size_t l = line;
    std::size_t c = column;
    std::size_t block_indent = std::string_view::npos;  // a '>' block's indentation
    // Where line `at`'s text starts in the decoded scalar (its end when it is blank).
    auto text_start = [&](std::size_t at) -> std::size_t {
      if (at >= lines_.size()) return 0;
      const std::size_t nonblank = lines_[at].find_first_not_of(' ');
      if (nonblank == std::string_view::npos) return lines_[at].size();
      return std::min(nonblank, block_indent);
    };
    if (first == '>') {
      l = line + 1;
      while (l + 1 < lines_.size() && lines_[l].find_first_not_of(' ') == std::string_view::npos) ++l;
      if (l < lines_.size()) block_indent = lines_[l].find_first_not_of(' ');
      l = line + 1;
      c = text_start(l);
    }
    for (std::size_t k = 0; k < decoded.size(); ++k) {
      while (l < lines_.size() && c >= lines_[l].size()) {  // end of a raw line: the fold
        if (decoded[k] == ' ' || decoded[k] == '\n') break;
        ++l;
        c = text_start(l);
      }
      if (l >= lines_.size()) break;
      if (c >= lines_[l].size()) {  // the fold itself: points at the end of the line
        map.push_back(position(l, c));
        ++l;
        c = text_start(l);
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

void Loader::error(SourceLocation loc, std::string code, std::string message) {
  result_.diagnostics.push_back(Diagnostic{Severity::error, std::move(loc), std::move(code), std::move(message)});
}

void Loader::note(SourceLocation loc, std::string code, std::string message) {
  result_.diagnostics.push_back(Diagnostic{Severity::note, std::move(loc), std::move(code), std::move(message)});
}

// Checks every key of `map` against the keys of `section` (load/keys.hpp); reports unknown
// and duplicate keys.
void Loader::check_keys(const yaml::Node& map, Section section, const What& where) {
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
void Loader::check_duplicates(const yaml::Node& map) {
  const auto entries = map.entries();
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (repeats_earlier_key(entries, k)) {
      error(at(entries[k].first), "duplicate-key", messages::duplicate_key(entries[k].first.Scalar()));
    }
  }
}

// Whether entry k's key text was the key of an earlier entry. Maps are small, except the
// user's name maps of a large file (inputs, tables): those get a set of the keys seen.
bool Loader::repeats_earlier_key(std::span<const yaml::Entry> entries, std::size_t k) {
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

bool Loader::expect_map(const yaml::Node& node, const What& what) {
  if (node.IsMap()) return true;
  error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a mapping"));
  return false;
}

bool Loader::expect_sequence(const yaml::Node& node, const What& what) {
  if (node.IsSequence()) return true;
  error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a list"));
  return false;
}

std::optional<syntax::Located<std::string>> Loader::string_of(const yaml::Node& node, const What& what) {
  if (!node.IsScalar()) {
    error(at(node), "wrong-kind", messages::expected_kind(what.text(), "a string"));
    return std::nullopt;
  }
  return syntax::Located<std::string>{node.Scalar(), content_at(node)};
}

std::optional<bool> Loader::bool_of(const yaml::Node& node, const What& what) {
  if (node.IsScalar() && node.Tag() != "!") {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  error(at(node), "wrong-kind", messages::expected_kind(what.text(), "true or false"));
  return std::nullopt;
}

// A YAML scalar as a literal (null, bool, int, float or string), or an error diagnostic.
std::optional<Value> Loader::literal_of(const yaml::Node& node) {
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return Value(s);  // quoted: always a string
  auto read = read_plain_scalar(s);
  if (auto* failure = std::get_if<LiteralError>(&read)) {
    error(at(node), failure->code, std::move(failure->message));
    return std::nullopt;
  }
  return std::move(std::get<Value>(read));
}

std::optional<Expr> Loader::parse_expr_text(const std::string& raw, const std::function<SourceLocation(std::size_t)>& locate) {
  auto parsed = parse_expression(raw, locate, division_);
  if (auto* d = std::get_if<Diagnostic>(&parsed)) {
    result_.diagnostics.push_back(std::move(*d));
    return std::nullopt;
  }
  return std::move(std::get<Expr>(parsed));
}

// A value position: a string starting with '=' is an expression; other scalars are
// literals (or expressions, `expression_by_default`); a list is a list literal of values (of
// expressions by default too, `items_too`).
std::optional<Expr> Loader::value_of(const yaml::Node& node, const What& what, bool expression_by_default,
                                     bool items_too) {
  if (node.IsSequence()) {
    Expr list;
    list.kind = ExprKind::list;
    list.location = at(node);
    bool ok = true;
    for (const auto& item : node.items()) {
      auto e = value_of(item, what, expression_by_default && items_too, items_too);
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

std::optional<syntax::Template> Loader::template_of(const yaml::Node& node, const What& what) {
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

}  // namespace internal

LoadedFile load_rule_file(std::string_view text, const std::string& file_name) {
  return internal::Loader(text, file_name).run();
}

}  // namespace snnplan::load
