#pragma once
// A light, read-only YAML document tree for the rule-file loader, built from yaml-cpp's parser
// events instead of yaml-cpp's own node tree (YAML::Load), which is slower to build (shared
// memory holders per node) and to query.
//
// It keeps what YAML::Node reports, so that the loader's diagnostics do not change:
// - the first document of the text only, as YAML::Load; no document at all is a null root;
// - kinds null / scalar / sequence / map, and "undefined" for a key that is not there;
// - Tag(): the tag the parser gives ("?" for a plain scalar, "!" for a quoted one, the resolved
//   tag when one is written), Scalar(): the decoded text, Mark(): where the node starts;
// - map entries in file order, duplicate keys kept; lookup by key returns the first entry
//   whose key is a scalar with that text;
// - an alias is the anchored node itself (same object, same Mark()), never a copy, so an
//   alias inside its own anchor makes a cycle: walk the tree with a depth limit.
//
// Nodes are small handles (a pointer) into the Document, which owns everything and must
// outlive them.

#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::load::yaml {

enum class NodeKind : std::uint8_t { undefined, null, scalar, sequence, map };

struct NodeData;
struct Entry;

class Node {
 public:
  Node() = default;  // undefined
  explicit Node(const NodeData* data) : data_(data) {}

  NodeKind kind() const;
  bool IsDefined() const { return data_ != nullptr; }
  bool IsNull() const { return kind() == NodeKind::null; }
  bool IsScalar() const { return kind() == NodeKind::scalar; }
  bool IsSequence() const { return kind() == NodeKind::sequence; }
  bool IsMap() const { return kind() == NodeKind::map; }
  explicit operator bool() const { return IsDefined(); }

  /// The decoded text of a scalar; empty for any other node.
  const std::string& Scalar() const;
  /// "?" (plain scalar, and collections without a tag), "!" (quoted scalar), or the written
  /// tag resolved ("tag:yaml.org,2002:str" for "!!str"); empty for null and undefined nodes.
  const std::string& Tag() const;
  /// Where the node starts (0-based line, column and position); the null mark for an
  /// undefined node and for the root of an empty document. An alias has its anchor's mark.
  const YAML::Mark& Mark() const;

  /// The items of a sequence; empty for any other node.
  std::span<const Node> items() const;
  /// The key/value entries of a map in file order (duplicates kept); empty for any other node.
  std::span<const Entry> entries() const;
  /// The value of the first entry whose key is a scalar with this text; undefined if there
  /// is none or this is not a map.
  Node operator[](std::string_view key) const;

  /// The same node object (an alias is its anchored node).
  friend bool operator==(const Node& a, const Node& b) { return a.data_ == b.data_; }

 private:
  const NodeData* data_ = nullptr;
};

struct Entry {
  Node first;   // the key
  Node second;  // the value
};

struct NodeData {
  NodeKind kind = NodeKind::null;
  YAML::Mark mark = YAML::Mark::null_mark();
  const std::string* tag = nullptr;
  std::string scalar;
  const Node* items = nullptr;      // a sequence's items
  const Entry* entries = nullptr;   // a map's entries
  std::size_t count = 0;            // how many of either
};

/// Thrown instead of yaml-cpp's "end of map flow not found" and "end of sequence flow not
/// found": yaml-cpp reports those where it gave up (the next key, or the end of the file),
/// which can be far from the '{' or '[' that is not closed. This also says where that is.
class UnclosedFlow : public YAML::ParserException {
 public:
  UnclosedFlow(const YAML::ParserException& e, const YAML::Mark& opened_at, bool map)
      : YAML::ParserException(e), opened(opened_at), is_map(map) {}
  YAML::Mark opened;  // the '{' or '['
  bool is_map;        // '{' rather than '['
};

/// Owns every node of a parsed text; not copyable or movable (nodes point into it).
class Document {
 public:
  /// Parses `text`, which must hold one document. Throws what yaml-cpp's parser throws
  /// (YAML::ParserException, YAML::DeepRecursion), as YAML::Load does, or UnclosedFlow; and,
  /// where YAML::Load is silent, a YAML::ParserException for a second document or for a
  /// quoted scalar left open at the end of the text.
  explicit Document(std::string_view text);
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;
  ~Document();

  Node root() const { return root_; }

 private:
  friend class DocumentBuilder;
  template <typename T>
  struct Arena {  // contiguous runs of T in blocks
    std::vector<std::unique_ptr<T[]>> blocks;
    std::size_t used = 0;
    std::size_t capacity = 0;
    T* allocate(std::size_t n);
  };

  std::deque<NodeData> nodes_;
  Arena<Node> items_;
  Arena<Entry> entries_;
  std::deque<std::string> tags_;  // tags other than "?", "!" and ""
  Node root_;
};

// ---- inline accessors (the loader calls these a lot) ---------------------------------------

namespace detail {
const std::string& empty_string();
}

inline NodeKind Node::kind() const { return data_ ? data_->kind : NodeKind::undefined; }
inline const std::string& Node::Scalar() const { return data_ ? data_->scalar : detail::empty_string(); }
inline const std::string& Node::Tag() const {
  return data_ && data_->tag ? *data_->tag : detail::empty_string();
}
inline const YAML::Mark& Node::Mark() const {
  static const YAML::Mark null_mark = YAML::Mark::null_mark();
  return data_ ? data_->mark : null_mark;
}
inline std::span<const Node> Node::items() const {
  if (!data_ || data_->kind != NodeKind::sequence) return {};
  return {data_->items, data_->count};
}
inline std::span<const Entry> Node::entries() const {
  if (!data_ || data_->kind != NodeKind::map) return {};
  return {data_->entries, data_->count};
}
inline Node Node::operator[](std::string_view key) const {
  for (const Entry& e : entries())
    if (e.first.IsScalar() && e.first.data_->scalar == key) return e.second;
  return Node();
}

}  // namespace snnplan::load::yaml
