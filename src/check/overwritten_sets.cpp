#include "check/overwritten_sets.hpp"

#include <algorithm>

#include "check/messages.hpp"

namespace snnplan::check {

using namespace syntax;

namespace {

bool replaces(const Fallback& fallback, const std::string& field) {
  return std::none_of(fallback.keep.begin(), fallback.keep.end(),
                      [&](const Located<std::string>& k) { return k.value == field; });
}

// Whether every rule of `table` that can fire (up to its first catch-all) and returns a record
// sets `field` again: in its `set`, by its fallback, or in the table its `next` reaches. A
// rule with `error` returns no record, but at least one rule must set the field.
template <typename TableOf>
bool always_sets(const Table& table, const std::string& field, const TableOf& table_of) {
  bool sets = false;
  for (const Rule& rule : table.rules) {
    const bool here =
        std::any_of(rule.set.begin(), rule.set.end(),
                    [&](const Assignment& a) { return a.target.value == field; }) ||
        (rule.fallback && replaces(*rule.fallback, field));
    const Table* next = rule.next ? table_of(*rule.next) : nullptr;
    if (here || (next && always_sets(*next, field, table_of)))
      sets = true;
    else if (!rule.error)
      return false;
    if (rule.when.empty()) break;
  }
  return sets;
}

}  // namespace

// A `set` whose value no record keeps: the rule's fallback replaces the field (it is not in
// keep), or every rule of the table its `next` reaches sets it again, directly or further on.
// Only called when table calls have no cycle.
std::vector<Diagnostic> overwritten_sets(const RuleFile& file, const std::map<std::string, int>& table_index) {
  std::vector<Diagnostic> out;
  auto table_of = [&](const Located<std::string>& name) -> const Table* {
    const auto it = table_index.find(name.value);
    return it == table_index.end() ? nullptr : &file.tables[static_cast<std::size_t>(it->second)];
  };
  for (const Table& table : file.tables)
    for (const Rule& rule : table.rules)
      for (const Assignment& a : rule.set) {
        if (rule.fallback && replaces(*rule.fallback, a.target.value)) {
          out.push_back(Diagnostic{Severity::warning, a.target.location, "overwritten-set",
                 messages::overwritten_by_fallback(a.target.value, rule.name.value,
                                                   rule.fallback->table.value)});
        } else if (const Table* next = rule.next ? table_of(*rule.next) : nullptr;
                   next && always_sets(*next, a.target.value, table_of)) {
          out.push_back(Diagnostic{Severity::warning, a.target.location, "overwritten-set",
                 messages::overwritten_by_next(a.target.value, rule.name.value, next->name.value)});
        }
      }
  return out;
}

}  // namespace snnplan::check
