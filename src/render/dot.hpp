#pragma once
// The rule set's graphs as Graphviz DOT (Boost.Graph's write_graphviz): tables and the calls
// between them (fallback edges labelled with their overrides), derived values and what they use.

#include <string>

#include "snnplan/rule_set.hpp"

namespace snnplan::render {

enum class GraphPart { all, tables, values };

/// One `digraph`, valid input for `dot -Tsvg`.
std::string to_dot(const RuleSet& rules, GraphPart part = GraphPart::all);

}  // namespace snnplan::render
