#pragma once
/// \file
/// A declared input of a rule file, as a caller needs to know it (for flags, JSON keys).

#include <optional>
#include <string>
#include <vector>

#include "snnplan/value.hpp"

namespace snnplan {

/// One entry of a rule file's `inputs`, e.g. {"world_size", "int", true}.
struct InputInfo {
  std::string name;
  std::string type;  ///< "string", "int", "bool", "float", "list[string]" or "list[int]"
  bool required = false;
  /// The value a null or absent input takes (absent when required; a null Value for a
  /// nullable input whose default is null).
  std::optional<Value> default_value;
  std::vector<Value> one_of;  ///< the values allowed (empty: any of the type)
  std::string description;    ///< the rule file's `description`, or empty
};

}  // namespace snnplan
