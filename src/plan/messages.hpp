#pragma once
// The texts of plan() (plan/): the topology and the feature set, in one place; tests assert
// them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace snnplan::messages {
// ---- topology and feature set -------------------------------------------------------------------
// (The plan's own refusals -- unknown objective or mode, pp, no TP candidates -- are data in
// rules/snn_plan.yaml.)
// The topology's refusals are upstream's SNNDistributedTopology texts (topology.py at the
// seed's commit), word for word: `type` is a Python type name (bool, float, str, NoneType,
// list), numbers are written in decimal whatever their size, `dims` is a Python dict's repr.
inline std::string topology_size_type(std::string_view name, std::string_view type) {
  return fmt::format("Topology dimension '{}' must be an integer, but got {}.", name, type);
}
inline std::string topology_world_size_type(std::string_view type) {
  return fmt::format("world_size must be an integer, but got {}.", type);
}
inline std::string topology_world_size(std::string_view world_size) {
  return fmt::format("world_size must be positive, but got {}.", world_size);
}
inline std::string topology_no_dimensions() {
  return "dims must not be empty.";
}
inline std::string topology_empty_name() {
  return "Topology dimension names must be non-empty.";
}
inline std::string topology_size(std::string_view name, std::string_view size) {
  return fmt::format("Topology dimension '{}' must be positive, but got {}.", name, size);
}
inline std::string topology_product(std::string_view dims, std::string_view product,
                                    std::string_view world_size) {
  return fmt::format("Topology dims {} multiply to {}, but world_size={}.", dims, product,
                     world_size);
}
/// Beyond upstream: snnplan's plans hold 64-bit world sizes.
inline std::string topology_too_large(std::string_view dims, std::string_view world_size) {
  return fmt::format(
      "Topology dims {} give world_size={}, beyond the 64-bit world sizes snnplan plans for.", dims,
      world_size);
}
/// A name given twice in "dp=4,dp=2" or a JSON object (a Python dict keeps one of them).
inline std::string topology_duplicate(std::string_view name) {
  return fmt::format("topology dimension '{}' is given more than once", name);
}
inline std::string topology_syntax(std::string_view text, std::string_view why) {
  return fmt::format(
      "cannot parse topology '{}': {} (expected NAME=SIZE,NAME=SIZE,..., e.g. dp=4,tp=2)", text,
      why);
}
inline std::string topology_entry_empty(std::size_t position) {
  return fmt::format("entry {} is empty", position);
}
inline std::string topology_entry_no_equals(std::string_view entry) {
  return fmt::format("entry '{}' has no '='", entry);
}
inline std::string topology_entry_no_name(std::string_view entry) {
  return fmt::format("entry '{}' has no dimension name", entry);
}
inline std::string topology_entry_no_size(std::string_view name) {
  return fmt::format("dimension '{}' has no size", name);
}
inline std::string topology_entry_not_integer(std::string_view name, std::string_view size) {
  return fmt::format("the size of dimension '{}' is not an integer: '{}'", name, size);
}
inline std::string topology_entry_too_large(std::string_view name, std::string_view size) {
  return fmt::format("the size of dimension '{}' does not fit in a 64-bit integer: '{}'", name,
                     size);
}
inline std::string topology_entry_duplicate(std::string_view name) {
  return fmt::format("dimension '{}' is given more than once", name);
}
/// Upstream's TypeError for a keyword DistributedFeatureSet does not declare (here: a flag
/// the plan rules do not declare).
inline std::string unknown_feature(std::string_view name) {
  return fmt::format("DistributedFeatureSet.__init__() got an unexpected keyword argument '{}'",
                     name);
}

}  // namespace snnplan::messages
