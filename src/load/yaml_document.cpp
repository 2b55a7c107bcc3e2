#include "load/yaml_document.hpp"

#include "load/messages.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <istream>
#include <streambuf>

namespace snnplan::load::yaml {

namespace detail {
const std::string& empty_string() {
  static const std::string empty;
  return empty;
}
}  // namespace detail

namespace {

// Function-local, so a Document built during another file's static initialisation finds
// them constructed.
const std::string& plain_tag() {
  static const std::string tag = "?";
  return tag;
}
const std::string& quoted_tag() {
  static const std::string tag = "!";
  return tag;
}

// Reads a string_view without copying it (the parser only reads).
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
};

}  // namespace

template <typename T>
T* Document::Arena<T>::allocate(std::size_t n) {
  if (n == 0) return nullptr;
  if (n > capacity - used) {
    capacity = std::max<std::size_t>(n, 256);
    blocks.push_back(std::make_unique<T[]>(capacity));
    used = 0;
  }
  T* run = blocks.back().get() + used;
  used += n;
  return run;
}

// Turns yaml-cpp's events into the Document's nodes, without recursion: the children of
// the collections being read wait on one stack and are copied into the arenas when their
// collection ends.
class DocumentBuilder final : public YAML::EventHandler {
 public:
  DocumentBuilder(Document& doc, std::string_view text) : doc_(doc), text_(text) {
    // yaml-cpp's marks count from after a UTF-8 byte order mark.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  std::string_view text() const { return text_; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    add(&anchored(anchor, make(NodeKind::null, mark, nullptr)));
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
    // yaml-cpp's parser throws for an alias to an anchor it has not seen, so this is found.
    add(anchor < anchors_.size() ? anchors_[anchor] : nullptr);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (tag == "!") require_closing_quote(mark);
    NodeData& node = make(NodeKind::scalar, mark, &tag);
    node.scalar = value;
    add(&anchored(anchor, node));
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    open_.push_back({&anchored(anchor, make(NodeKind::sequence, mark, &tag)), pending_.size(),
                     style == YAML::EmitterStyle::Flow});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    open_.push_back({&anchored(anchor, make(NodeKind::map, mark, &tag)), pending_.size(),
                     style == YAML::EmitterStyle::Flow});
  }
  void OnMapEnd() override { close(); }

  // Where the innermost flow collection of that kind still open starts, if any: after
  // yaml-cpp gives up looking for its end, that is the '{' or '[' never closed.
  const YAML::Mark* open_flow(NodeKind kind) const {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
      if (it->flow && it->node->kind == kind) return &it->node->mark;
    return nullptr;
  }

 private:
  NodeData& make(NodeKind kind, const YAML::Mark& mark, const std::string* tag) {
    NodeData& node = doc_.nodes_.emplace_back();
    node.kind = kind;
    node.mark = mark;
    node.tag = tag ? intern(*tag) : nullptr;
    return node;
  }

  const std::string* intern(const std::string& tag) {
    if (tag == plain_tag()) return &plain_tag();
    if (tag == quoted_tag()) return &quoted_tag();
    if (tag.empty()) return nullptr;
    return &doc_.tags_.emplace_back(tag);
  }

  // Anchors are numbered from 1 in the order the parser meets them.
  NodeData& anchored(YAML::anchor_t anchor, NodeData& node) {
    if (anchor != YAML::NullAnchor) {
      if (anchor >= anchors_.size()) anchors_.resize(anchor + 1, nullptr);
      anchors_[anchor] = &node;
    }
    return node;
  }

  // A finished node: the next child of the open collection, or the document's root.
  void add(const NodeData* node) {
    if (!open_.empty()) pending_.emplace_back(node);
    else if (!doc_.root_) doc_.root_ = Node(node);
  }

  void close() {
    const Open open = open_.back();
    open_.pop_back();
    const std::size_t n = pending_.size() - open.first_child;
    const Node* children = pending_.data() + open.first_child;
    NodeData& node = *open.node;
    if (node.kind == NodeKind::sequence) {
      Node* items = doc_.items_.allocate(n);
      std::copy(children, children + n, items);
      node.items = items;
      node.count = n;
    } else {
      node.count = n / 2;  // the parser gives a value (maybe null) for every key
      Entry* entries = doc_.entries_.allocate(node.count);
      for (std::size_t k = 0; k < node.count; ++k) entries[k] = Entry{children[2 * k], children[2 * k + 1]};
      node.entries = entries;
    }
    pending_.resize(open.first_child);
    add(&node);
  }

  // yaml-cpp 0.7 accepts a quoted scalar left open at the end of the file when the file ends
  // with a newline, taking the rest of the file (comments included) into the string. Checked
  // from the opening quote (the mark, unless an anchor or tag comes first): a closing quote
  // must follow, skipping escapes ("\x") and doubled quotes ('').
  void require_closing_quote(const YAML::Mark& mark) const {
    const auto open = static_cast<std::size_t>(mark.pos);
    if (mark.pos < 0 || open >= text_.size() || (text_[open] != '"' && text_[open] != '\'')) return;
    const char quote = text_[open];
    for (std::size_t k = open + 1; k < text_.size(); ++k) {
      if (quote == '"' && text_[k] == '\\') {
        ++k;
      } else if (text_[k] == quote) {
        if (quote == '"' || k + 1 >= text_.size() || text_[k + 1] != '\'') return;
        ++k;  // '' inside single quotes is one quote
      }
    }
    throw YAML::ParserException(mark, messages::yaml_unclosed_quote(quote));
  }

  struct Open {
    NodeData* node;
    std::size_t first_child;  // in pending_
    bool flow;                // written in '{...}' or '[...]'
  };

  Document& doc_;
  std::string_view text_;  // what the marks' positions index
  std::vector<const NodeData*> anchors_;
  std::vector<Open> open_;
  std::vector<Node> pending_;
};

// Stops parsing at the start of a second document: a rule file holds one, and text after it
// (a `---` or `...` and more YAML) would otherwise be ignored without a word.
class SecondDocument : public YAML::EventHandler {
 public:
  explicit SecondDocument(std::string_view text) : text_(text) {}

  // yaml-cpp marks the second document where its content starts (or at a "..." line); the
  // error goes to the line of the '---' or '...' that separates it, when there is one.
  void OnDocumentStart(const YAML::Mark& mark) override {
    YAML::Mark at = mark;
    std::size_t line_start = std::min(static_cast<std::size_t>(std::max(mark.pos, 0)), text_.size());
    line_start = line_start == 0 ? 0 : text_.rfind('\n', line_start - 1) + 1;  // npos + 1 == 0
    for (int line = mark.line; line >= 0; --line) {
      const std::string_view rest = text_.substr(line_start);
      if (rest.substr(0, 3) == "---" || rest.substr(0, 3) == "...") {
        at = YAML::Mark();
        at.pos = static_cast<int>(line_start);
        at.line = line;
        at.column = 0;
        break;
      }
      if (line_start == 0) break;
      line_start = line_start < 2 ? 0 : text_.rfind('\n', line_start - 2) + 1;  // the line before
    }
    throw YAML::ParserException(at, messages::yaml_second_document());
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  std::string_view text_;  // what the marks' positions index
};

Document::Document(std::string_view text) {
  ViewBuffer buffer(text);
  std::istream in(&buffer);
  YAML::Parser parser(in);
  DocumentBuilder builder(*this, text);
  try {
    parser.HandleNextDocument(builder);  // the first document only, as YAML::Load
  } catch (const YAML::ParserException& e) {
    const bool map = e.msg == YAML::ErrorMsg::END_OF_MAP_FLOW;
    if (map || e.msg == YAML::ErrorMsg::END_OF_SEQ_FLOW) {
      if (const YAML::Mark* opened = builder.open_flow(map ? NodeKind::map : NodeKind::sequence))
        throw UnclosedFlow(e, *opened, map);
    }
    throw;
  }
  SecondDocument second(builder.text());
  parser.HandleNextDocument(second);
  if (!root_) root_ = Node(&nodes_.emplace_back());  // no document: a null root with no mark
}

Document::~Document() = default;

}  // namespace snnplan::load::yaml
