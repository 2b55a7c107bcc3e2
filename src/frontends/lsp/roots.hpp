#pragma once
// Where the server may read: the rule roots (the client's workspace folders and `--rules-root`
// directories). Documents come with their text, but a `uses:` file, a go-to-definition target
// and the code lens's input.yaml are read from disk, and only inside these directories.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::lsp {

/// The path of a `file:` URI (percent-decoded); nullopt for any other URI.
std::optional<std::string> path_of_uri(std::string_view uri);
/// The `file:` URI of an absolute path (percent-encoded where URIs need it).
std::string uri_of_path(std::string_view path);

class RuleRoots {
 public:
  /// Adds a directory (made absolute and canonical, symlinks resolved).
  void add(const std::string& directory);
  [[nodiscard]] bool empty() const { return roots_.empty(); }
  /// Whether `path`, with symlinks resolved, is inside one of the roots.
  [[nodiscard]] bool contains(const std::string& path) const;
  /// The roots, for LoadOptions::rule_roots.
  [[nodiscard]] const std::vector<std::string>& directories() const { return roots_; }

 private:
  std::vector<std::string> roots_;
};

}  // namespace snnplan::lsp
