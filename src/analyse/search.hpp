#pragma once
// The search over a table's input space: which inputs it enumerates, how the int inputs are
// sampled next to every threshold of the integer conditions (one input, or two related ones),
// and the walk over every combination of representatives.

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyse/model.hpp"

namespace snnplan::analyse {

/// 1 or 2 sampled int inputs related by atoms, with the atoms and the one_of inputs they use.
struct Component {
  std::vector<int> vars;
  std::vector<const Atom*> atoms;
  std::vector<int> params;
};

struct Space {
  std::vector<int> vars;    // every enumerated input, in declaration order
  std::vector<int> finite;  // enumerated from their representatives
  std::vector<Component> comps;
  std::vector<Issue> issues;  // why the space does not cover every class
};

/// The inputs `facts` depend on, split into enumerated inputs and sampled components.
/// `where` places an issue that has no better position.
Space make_space(const Model& m, const Facts& facts, const SourceLocation& where);

/// Values of one int input next to the thresholds of `atoms` (which involve only it), or
/// std::nullopt when it cannot be sampled exactly.
std::optional<std::set<Wide>> sample_one_input(const Model& m, int input,
                                               const std::vector<const Atom*>& atoms);

enum class Walk : std::uint8_t { done, stopped, too_many, failed };

/// Visits every combination of representatives of `space` (the other inputs at their
/// placeholders); `visit` returns false to stop. On Walk::failed, `why` says why.
Walk enumerate(const Model& m, const Space& space,
               const std::function<bool(const std::vector<RValue>&)>& visit, std::string& why);

}  // namespace snnplan::analyse
