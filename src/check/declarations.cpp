#include "check/declarations.hpp"

namespace snnplan::check {

using namespace syntax;

const LetDecl* derived_value(const RuleFile& file, const std::string& name) {
  for (const LetDecl& let : file.lets)
    if (let.name.value == name) return &let;
  return nullptr;
}

KindSet declared_items(const RuleFile& file, const Expr& e,
                       const std::map<std::string, const UsedRules*>& record_of) {
  if (e.kind == ExprKind::member && e.children[0].kind == ExprKind::name) {
    const auto callee = record_of.find(e.children[0].name);
    if (callee == record_of.end()) return 0;
    const auto items = callee->second->field_items.find(e.name);
    return items == callee->second->field_items.end() ? 0 : items->second;
  }
  if (e.kind != ExprKind::name) return 0;
  for (const InputDecl& input : file.inputs)
    if (input.name.value == e.name) return input.type.value.element_kinds == kAny ? 0 : input.type.value.element_kinds;
  return 0;
}

}  // namespace snnplan::check
