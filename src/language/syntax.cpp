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

const std::vector<BuiltinSignature>& builtin_signatures() {
  static const std::vector<BuiltinSignature> table = {
      {Builtin::starts_with, "starts_with", 2, 2, kBool},
      {Builtin::ends_with, "ends_with", 2, 2, kBool},
      {Builtin::contains, "contains", 2, 2, kBool},
      {Builtin::lower, "lower", 1, 1, kString},
      {Builtin::len, "len", 1, 1, kInt},
      {Builtin::min, "min", 1, SIZE_MAX, kInt | kFloat | kString},
      {Builtin::max, "max", 1, SIZE_MAX, kInt | kFloat | kString},
      {Builtin::index_of, "index_of", 2, 2, kInt | kNull},
      {Builtin::pipeline_microbatches, "pipeline_microbatches", 2, 2, kInt},
  };
  return table;
}

const BuiltinSignature* find_builtin(const std::string& name) {
  for (const auto& signature : builtin_signatures())
    if (name == signature.name) return &signature;
  return nullptr;
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

const char* spelling(MatchOp op) {
  switch (op) {
    case MatchOp::eq: return "eq";
    case MatchOp::ne: return "ne";
    case MatchOp::lt: return "lt";
    case MatchOp::le: return "le";
    case MatchOp::gt: return "gt";
    case MatchOp::ge: return "ge";
    case MatchOp::one_of: return "one_of";
    case MatchOp::not_one_of: return "not_one_of";
  }
  return "?";
}

}  // namespace snnplan::syntax
