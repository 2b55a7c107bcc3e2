#include "language/syntax.hpp"

#include <cstdint>

namespace snnplan::syntax {

namespace {

// The scalar type names; `list[...]` takes them as element types and '?' makes any nullable.
struct ScalarType {
  const char* name;
  KindSet kinds;
};
constexpr ScalarType kScalarTypes[] = {
    {"string", kString},
    {"int", kInt},
    {"bool", kBool},
    {"float", kFloat | kInt},  // an int is a valid float value (0 for 0.0)
};
constexpr const char* kRationaleType = "rationale";

}  // namespace

std::vector<std::string> type_names(bool with_rationale) {
  std::vector<std::string> plain;
  for (const ScalarType& t : kScalarTypes) plain.emplace_back(t.name);
  plain.emplace_back("list");
  for (const ScalarType& t : kScalarTypes) plain.push_back(std::string("list[") + t.name + "]");
  std::vector<std::string> names = plain;
  for (const std::string& name : plain) names.push_back(name + "?");
  if (with_rationale) names.emplace_back(kRationaleType);
  return names;
}

std::string type_summary(const std::string& name) {
  const std::optional<TypeSpec> spec = parse_type(name);
  if (!spec) return {};
  if (spec->is_rationale) return "the record field that collects the rationale lines of `because`";
  if (spec->kinds & kList)
    return "accepts " + describe(spec->kinds) + ", a list whose items are " +
           describe(spec->element_kinds);
  return "accepts " + describe(spec->kinds);
}

std::optional<TypeSpec> parse_type(const std::string& text) {
  std::string name = text;
  TypeSpec spec;
  bool nullable = false;
  if (!name.empty() && name.back() == '?') {
    nullable = true;
    name.pop_back();
  }
  if (name == kRationaleType && !nullable) {
    spec.kinds = kList;
    spec.element_kinds = kString;
    spec.is_rationale = true;
    return spec;
  }
  auto scalar = [](const std::string& n) -> KindSet {
    for (const ScalarType& t : kScalarTypes)
      if (n == t.name) return t.kinds;
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
    case Op::true_divide: return "/";
    case Op::floor_divide: return "//";
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
