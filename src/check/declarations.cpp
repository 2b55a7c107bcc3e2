#include "check/declarations.hpp"

#include "check/messages.hpp"

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
    if (const auto items = callee->second->field_items.find(e.name); items != callee->second->field_items.end())
      return items->second;
    // A list field without an item type (`list`) may hold anything.
    for (const auto& [name, kinds] : callee->second->fields)
      if (name == e.name) return (kinds & kList) ? kAny : 0;
    return 0;
  }
  if (e.kind != ExprKind::name) return 0;
  for (const InputDecl& input : file.inputs)
    if (input.name.value == e.name) return (input.type.value.kinds & kList) ? input.type.value.element_kinds : 0;
  return 0;
}

std::map<std::string, int> index_tables(const RuleFile& file, std::vector<Diagnostic>& out) {
  std::map<std::string, int> index;
  for (std::size_t k = 0; k < file.tables.size(); ++k) {
    const Located<std::string>& name = file.tables[k].name;
    if (auto [it, inserted] = index.emplace(name.value, static_cast<int>(k)); !inserted) {
      const SourceLocation& first = file.tables[static_cast<std::size_t>(it->second)].name.location;
      out.push_back(Diagnostic{Severity::error, name.location, "duplicate-name",
                               messages::duplicate_name("table", name.value, to_string(first))});
    }
  }
  return index;
}

}  // namespace snnplan::check
