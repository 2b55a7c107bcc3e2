#include "language/syntax.hpp"

#include <cstdint>

namespace snnplan::syntax {

std::optional<TypeSpec> parse_type(const std::string& text) {
  std::string name = text;
  TypeSpec spec;
  bool nullable = false;
  if (!name.empty() && name.back() == '?') {
    nullable = true;
    name.pop_back();
  }
  if (name == "rationale" && !nullable) {
    spec.kinds = kList;
    spec.element_kinds = kString;
    spec.is_rationale = true;
    return spec;
  }
  auto scalar = [](const std::string& n) -> KindSet {
    if (n == "string") return kString;
    if (n == "int") return kInt;
    if (n == "bool") return kBool;
    if (n == "float") return kFloat | kInt;  // an int is a valid float value (0 for 0.0)
    return 0;
  };
  if (name.rfind("list[", 0) == 0 && name.back() == ']') {
    spec.kinds = kList;
    spec.element_kinds = scalar(name.substr(5, name.size() - 6));
    if (spec.element_kinds == 0) return std::nullopt;
  } else if (name == "list") {
    spec.kinds = kList;
  } else {
    spec.kinds = scalar(name);
    if (spec.kinds == 0) return std::nullopt;
  }
  if (nullable) spec.kinds |= kNull;
  return spec;
}

const char* spelling(Op op) {
  switch (op) {
    case Op::negate: return "-";
    case Op::logical_not: return "!";
    case Op::add: return "+";
    case Op::subtract: return "-";
    case Op::multiply: return "*";
    case Op::divide: return "/";
    case Op::modulo: return "%";
    case Op::equal: return "==";
    case Op::not_equal: return "!=";
    case Op::less: return "<";
    case Op::less_equal: return "<=";
    case Op::greater: return ">";
    case Op::greater_equal: return ">=";
    case Op::logical_and: return "&&";
    case Op::logical_or: return "||";
  }
  return "?";
}

}  // namespace snnplan::syntax
