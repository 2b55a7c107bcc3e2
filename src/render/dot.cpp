#include "render/dot.hpp"

// GCC 12 reports -Wmaybe-uninitialized inside Boost's edge iterator (a boost::optional it
// fills before use) when write_graphviz is inlined here; the warning is a known false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <fmt/format.h>

#include <set>
#include <sstream>

#include "api/rule_set_access.hpp"
#include "compile/compiled_rules.hpp"

namespace snnplan::render {
namespace {

struct VertexInfo {
  std::string label;
  std::string shape;
  std::string style;
};
struct EdgeInfo {
  std::string label;
  std::string style;
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, VertexInfo, EdgeInfo>;

// DOT string literal: quotes and backslashes escaped, and a newline in a label written as
// DOT's \n line break. Labels use real newlines for their breaks, so a backslash in a
// name stays a backslash. (Not named `quoted`: ADL would pick std::quoted.)
std::string dot_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void slots_used(const detail::Node& n, std::set<int>& out) {
  if (n.kind == syntax::ExprKind::name) out.insert(n.slot);
  for (const detail::Node& c : n.children) slots_used(c, out);
}

std::string expression_text(const detail::Node& n) {
  if (n.kind == syntax::ExprKind::literal) return detail::display(n.constant);
  if (n.kind == syntax::ExprKind::name) return n.name;
  return "(expression)";
}

}  // namespace

std::string to_dot(const RuleSet& rule_set, GraphPart part) {
  const detail::CompiledRules& rules = RuleSetAccess::compiled(rule_set);
  Graph g;
  const bool tables = part != GraphPart::values;
  const bool values = part != GraphPart::tables;
  std::vector<Graph::vertex_descriptor> table_vertex;
  std::vector<Graph::vertex_descriptor> slot_vertex(rules.slot_count());
  if (values) {
    for (std::size_t s = 0; s < rules.slot_count(); ++s) {
      const bool is_input = s < rules.inputs.size();
      slot_vertex[s] = boost::add_vertex(VertexInfo{rules.slot_name(static_cast<int>(s)), is_input ? "note" : "ellipse", ""}, g);
    }
    for (std::size_t k = 0; k < rules.lets.size(); ++k) {
      std::set<int> used;
      slots_used(rules.lets[k], used);
      for (int s : used)
        boost::add_edge(slot_vertex[rules.inputs.size() + k], slot_vertex[static_cast<std::size_t>(s)], EdgeInfo{"uses", "dashed"}, g);
    }
  }
  if (tables) {
    for (std::size_t t = 0; t < rules.tables.size(); ++t) {
      const bool start = static_cast<int>(t) == rules.start;
      table_vertex.push_back(boost::add_vertex(
          VertexInfo{fmt::format("{}\n{} rule{}", rules.tables[t].name, rules.tables[t].rules.size(),
                                 rules.tables[t].rules.size() == 1 ? "" : "s"),
                     "box", start ? "bold" : ""}, g));
    }
    for (std::size_t t = 0; t < rules.tables.size(); ++t) {
      std::set<int> read;
      for (const auto& rule : rules.tables[t].rules) {
        for (const auto& m : rule.when) {
          read.insert(m.slot);
          slots_used(m.operand, read);
        }
        if (rule.next >= 0)
          boost::add_edge(table_vertex[t], table_vertex[static_cast<std::size_t>(rule.next)], EdgeInfo{"next (" + rule.name + ")", "solid"}, g);
        if (rule.fallback) {
          std::string label = "fallback (" + rule.name + ")";
          for (const auto& w : rule.fallback->with)
            label += fmt::format("\n{} = {}", rules.inputs[static_cast<std::size_t>(w.target)].name, expression_text(w.value));
          boost::add_edge(table_vertex[t], table_vertex[static_cast<std::size_t>(rule.fallback->table)], EdgeInfo{label, "bold"}, g);
        }
      }
      if (values)
        for (int s : read) boost::add_edge(table_vertex[t], slot_vertex[static_cast<std::size_t>(s)], EdgeInfo{"", "dotted"}, g);
    }
  }
  std::ostringstream out;
  boost::write_graphviz(
      out, g,
      [&](std::ostream& os, Graph::vertex_descriptor v) {
        // Labels carry "\n" line breaks meant for DOT, so they are quoted here, not escaped twice.
        os << "[label=" << dot_string(g[v].label) << ", shape=" << g[v].shape;
        if (!g[v].style.empty()) os << ", style=" << g[v].style;
        os << "]";
      },
      [&](std::ostream& os, Graph::edge_descriptor e) {
        os << "[style=" << g[e].style;
        if (!g[e].label.empty()) os << ", label=" << dot_string(g[e].label);
        os << "]";
      },
      [&](std::ostream& os) { os << "rankdir=LR;\nlabel=" << dot_string(rules.file_name) << ";\n"; });
  return out.str();
}

}  // namespace snnplan::render
