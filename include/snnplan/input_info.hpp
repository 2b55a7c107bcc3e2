#pragma once
/// \file
/// A declared input of a rule file, as a caller needs to know it (for flags, JSON keys).

#include <string>

namespace snnplan {

/// One entry of a rule file's `inputs`, e.g. {"world_size", "int", true}.
struct InputInfo {
  std::string name;
  std::string type;  ///< "string", "int", "bool", "float", "list[string]" or "list[int]"
  bool required = false;
};

}  // namespace snnplan
