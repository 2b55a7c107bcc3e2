#include "compile/rule_index.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace snnplan::compile {
namespace {

using detail::RValue;

// `fact eq constant` with a constant the index can key: string, int or bool.
bool is_key_condition(const detail::CompiledMatcher& m) {
  if (!m.info->fixes_value || m.operand.kind != syntax::ExprKind::literal) return false;
  const auto kind = m.operand.constant.kind;
  return kind == RValue::Kind::string || kind == RValue::Kind::integer || kind == RValue::Kind::boolean;
}

}  // namespace

std::optional<detail::RuleIndex> build_rule_index(const detail::CompiledTable& table) {
  if (table.rules.size() < kIndexedTableMinRules) return std::nullopt;
  // Key facts: those that at least half of the rules test for equality with a constant.
  std::map<int, std::size_t> rules_testing;
  // Buffers reused from rule to rule: a 10,000-rule table read from the cache builds its index
  // at every load, and two allocations per rule were a tenth of that load.
  std::vector<int> seen;
  for (const auto& rule : table.rules) {
    seen.clear();
    for (const auto& m : rule.when)
      if (is_key_condition(m) && std::find(seen.begin(), seen.end(), m.slot) == seen.end()) seen.push_back(m.slot);
    for (int slot : seen) ++rules_testing[slot];
  }
  detail::RuleIndex index;
  for (const auto& [slot, count] : rules_testing)
    if (2 * count >= table.rules.size()) index.key_slots.push_back(slot);
  if (index.key_slots.empty()) return std::nullopt;

  const std::size_t width = index.key_slots.size();
  std::vector<const detail::CompiledMatcher*> by_fact(width, nullptr);
  std::string key;
  for (std::size_t r = 0; r < table.rules.size(); ++r) {
    const auto& when = table.rules[r].when;
    // Keyed when the first `width` conditions are key conditions on distinct key facts.
    std::fill(by_fact.begin(), by_fact.end(), nullptr);
    bool keyed = when.size() >= width;
    for (std::size_t k = 0; keyed && k < width; ++k) {
      const auto& m = when[k];
      auto at = std::find(index.key_slots.begin(), index.key_slots.end(), m.slot);
      keyed = is_key_condition(m) && at != index.key_slots.end() && !by_fact[static_cast<std::size_t>(at - index.key_slots.begin())];
      if (keyed) by_fact[static_cast<std::size_t>(at - index.key_slots.begin())] = &m;
    }
    if (!keyed) {
      index.unkeyed.push_back(static_cast<int>(r));
      continue;
    }
    key.clear();
    for (const auto* m : by_fact) append_index_key(key, m->operand.constant);
    detail::RuleIndex::Entry entry;
    entry.rule = static_cast<int>(r);
    if (when.size() > width) {
      const auto& next = when[width];
      if (next.info->holds_for_integers && next.operand.kind == syntax::ExprKind::literal && next.operand.constant.kind == RValue::Kind::integer) {
        entry.slot = next.slot;
        entry.holds = next.info->holds_for_integers;
        entry.constant = next.operand.constant.i;
      }
    }
    index.keyed[key].push_back(entry);
  }
  // An index that keys next to nothing only adds a lookup.
  if (2 * index.unkeyed.size() > table.rules.size()) return std::nullopt;
  return index;
}

}  // namespace snnplan::compile
