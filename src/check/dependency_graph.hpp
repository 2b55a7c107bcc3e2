#pragma once
// Graph questions the checker and compiler ask, answered with Boost.Graph: in which order to
// evaluate derived values, where a cycle is, and what a start table reaches.

#include <optional>
#include <utility>
#include <vector>

#include "language/syntax.hpp"

namespace snnplan::check {

/// Directed graph over vertices 0..n-1; an edge (a, b) means "a uses b".
struct DependencyGraph {
  int vertex_count = 0;
  std::vector<std::pair<int, int>> edges;
};

/// Vertices ordered so that everything a vertex uses comes before it; std::nullopt if the
/// graph has a cycle.
std::optional<std::vector<int>> dependencies_first(const DependencyGraph& graph);

/// One cycle as a path that starts and ends at the same vertex (a -> b -> a), or empty. The
/// search starts at `first` (then the other vertices in order), so a cycle reachable from it is
/// found as it is reached from there; the path's last edge is the one that closes the cycle.
std::vector<int> find_cycle(const DependencyGraph& graph, int first = 0);

/// A longest path (most edges) from `start`, as its vertices from `start` on; the graph must
/// have no cycle.
std::vector<int> longest_path_from(const DependencyGraph& graph, int start);

/// reachable[v] is true when v can be reached from `start` (start included).
std::vector<bool> reachable_from(const DependencyGraph& graph, int start);

/// The graph of `file`'s derived values: an edge from each to every derived value it reads
/// (in its expression, or in its call's `with` values).
DependencyGraph let_graph(const syntax::RuleFile& file);

}  // namespace snnplan::check
