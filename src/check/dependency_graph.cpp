#include "check/dependency_graph.hpp"

#include <map>
#include <set>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <iterator>

namespace snnplan::check {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

Graph build(const DependencyGraph& graph) {
  Graph g(static_cast<std::size_t>(graph.vertex_count));
  for (auto [from, to] : graph.edges) boost::add_edge(static_cast<Vertex>(from), static_cast<Vertex>(to), g);
  return g;
}

// Records the DFS tree so that the first back edge can be unrolled into a cycle path.
struct CycleRecorder : boost::default_dfs_visitor {
  std::vector<Vertex>* parent;
  std::optional<std::pair<Vertex, Vertex>>* first_back_edge;
  void tree_edge(Edge e, const Graph& g) const { (*parent)[boost::target(e, g)] = boost::source(e, g); }
  void back_edge(Edge e, const Graph& g) const {
    if (!*first_back_edge) *first_back_edge = std::make_pair(boost::source(e, g), boost::target(e, g));
  }
};

}  // namespace

std::optional<std::vector<int>> dependencies_first(const DependencyGraph& graph) {
  Graph g = build(graph);
  std::vector<Vertex> order;
  try {
    // topological_sort emits a vertex after everything it points to: dependencies first.
    boost::topological_sort(g, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    return std::nullopt;
  }
  return std::vector<int>(order.begin(), order.end());
}

std::vector<int> find_cycle(const DependencyGraph& graph, int first) {
  Graph g = build(graph);
  std::vector<Vertex> parent(boost::num_vertices(g));
  for (std::size_t v = 0; v < parent.size(); ++v) parent[v] = v;
  std::optional<std::pair<Vertex, Vertex>> back;
  CycleRecorder recorder;
  recorder.parent = &parent;
  recorder.first_back_edge = &back;
  if (graph.vertex_count == 0) return {};
  const Vertex root = first >= 0 && first < graph.vertex_count ? static_cast<Vertex>(first) : 0;
  boost::depth_first_search(g, boost::visitor(recorder).root_vertex(root));
  if (!back) return {};
  // back = (u, v): v is an ancestor of u in the DFS tree, so v -> ... -> u -> v is a cycle.
  auto [u, v] = *back;
  std::vector<int> path{static_cast<int>(u)};
  for (Vertex w = u; w != v; w = parent[w]) path.push_back(static_cast<int>(parent[w]));
  std::reverse(path.begin(), path.end());
  path.push_back(static_cast<int>(v));
  return path;
}

std::vector<int> longest_path_from(const DependencyGraph& graph, int start) {
  // Over a topological order (what a vertex uses comes first), the longest path from each
  // vertex is one edge more than the longest from the vertex it uses that has the longest.
  const std::optional<std::vector<int>> order = dependencies_first(graph);
  if (!order) return {start};
  std::vector<std::vector<int>> uses(static_cast<std::size_t>(graph.vertex_count));
  for (auto [from, to] : graph.edges) uses[static_cast<std::size_t>(from)].push_back(to);
  std::vector<int> length(static_cast<std::size_t>(graph.vertex_count), 0);
  std::vector<int> next(static_cast<std::size_t>(graph.vertex_count), -1);
  for (int v : *order)
    for (int w : uses[static_cast<std::size_t>(v)])
      if (length[static_cast<std::size_t>(w)] + 1 > length[static_cast<std::size_t>(v)]) {
        length[static_cast<std::size_t>(v)] = length[static_cast<std::size_t>(w)] + 1;
        next[static_cast<std::size_t>(v)] = w;
      }
  std::vector<int> path{start};
  while (next[static_cast<std::size_t>(path.back())] >= 0) path.push_back(next[static_cast<std::size_t>(path.back())]);
  return path;
}

std::vector<bool> reachable_from(const DependencyGraph& graph, int start) {
  Graph g = build(graph);
  std::vector<bool> seen(static_cast<std::size_t>(graph.vertex_count), false);
  if (start < 0 || start >= graph.vertex_count) return seen;
  struct Marker : boost::default_bfs_visitor {
    std::vector<bool>* seen;
    void discover_vertex(Vertex v, const Graph&) const { (*seen)[v] = true; }
  } marker;
  marker.seen = &seen;
  boost::breadth_first_search(g, static_cast<Vertex>(start), boost::visitor(marker));
  return seen;
}

namespace {

void names_used(const syntax::Expr& e, std::set<std::string>& out) {
  if (e.kind == syntax::ExprKind::name) out.insert(e.name);
  for (const syntax::Expr& child : e.children) names_used(child, out);
}

// Every name a search's expressions use (its own names among them: they are no `let`).
void names_used(const syntax::Search& search, std::set<std::string>& out) {
  auto lets = [&out](const std::vector<syntax::LetDecl>& values) {
    for (const syntax::LetDecl& let : values) names_used(let.expr, out);
  };
  auto constraints = [&out](const std::vector<syntax::Constraint>& conditions) {
    for (const syntax::Constraint& c : conditions) names_used(c.holds, out);
  };
  for (const syntax::Enumeration& e : search.enumerations) names_used(e.values, out);
  lets(search.lets);
  constraints(search.constraints);
  for (const syntax::Tier& tier : search.tiers) {
    lets(tier.lets);
    constraints(tier.constraints);
  }
  if (search.fits) names_used(search.fits->holds, out);
  names_used(search.minimize, out);
  if (search.none_valid) lets(search.none_valid->lets);
  if (search.none_fits) lets(search.none_fits->lets);
}

}  // namespace

DependencyGraph let_graph(const syntax::RuleFile& file) {
  std::map<std::string, int> index;
  for (std::size_t k = 0; k < file.lets.size(); ++k) index.emplace(file.lets[k].name.value, static_cast<int>(k));
  DependencyGraph graph{static_cast<int>(file.lets.size()), {}};
  for (std::size_t k = 0; k < file.lets.size(); ++k) {
    std::set<std::string> used;
    if (file.lets[k].call) {
      for (const syntax::Assignment& a : file.lets[k].call->with) names_used(a.value, used);
    } else if (file.lets[k].search) {
      names_used(*file.lets[k].search, used);
    } else {
      names_used(file.lets[k].expr, used);
    }
    for (const std::string& name : used)
      if (auto it = index.find(name); it != index.end()) graph.edges.emplace_back(static_cast<int>(k), it->second);
  }
  return graph;
}

}  // namespace snnplan::check
