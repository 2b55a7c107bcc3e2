#include "check/allowances.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

#include "check/messages.hpp"

namespace snnplan::check {
namespace {

using Position = std::tuple<std::uint32_t, std::uint32_t>;

Position position(const SourceLocation& at) {
  return {at.line, at.column};
}

// A stretch of the file [begin, end) with the allowance written there.
struct Region {
  Position begin;
  std::optional<Position> end;  // nullopt: to the end of the file
  const syntax::Allowance* allowance;
  std::vector<bool> used;  // per code of the allowance

  [[nodiscard]] bool contains(const Position& p) const { return begin <= p && (!end || p < *end); }
};

// The regions of rules come before those of tables, so a rule's allowance is tried first.
std::vector<Region> regions_of(const syntax::RuleFile& file) {
  std::vector<Region> rules;
  std::vector<Region> tables;
  // An input's findings (unused) are reported at its name.
  for (const syntax::InputDecl& input : file.inputs) {
    if (!input.allow) continue;
    const Position at = position(input.name.location);
    rules.push_back(Region{at, Position{std::get<0>(at), std::get<1>(at) + 1}, &*input.allow, {}});
  }
  for (std::size_t t = 0; t < file.tables.size(); ++t) {
    const syntax::Table& table = file.tables[t];
    std::optional<Position> table_end;
    if (t + 1 < file.tables.size()) table_end = position(file.tables[t + 1].name.location);
    if (table.allow)
      tables.push_back(Region{position(table.name.location), table_end, &*table.allow, {}});
    for (std::size_t r = 0; r < table.rules.size(); ++r) {
      const syntax::Rule& rule = table.rules[r];
      if (!rule.allow) continue;
      const std::optional<Position> rule_end =
          r + 1 < table.rules.size()
              ? std::optional<Position>(position(table.rules[r + 1].location))
              : table_end;
      rules.push_back(Region{position(rule.location), rule_end, &*rule.allow, {}});
    }
  }
  rules.insert(rules.end(), std::make_move_iterator(tables.begin()),
               std::make_move_iterator(tables.end()));
  for (Region& region : rules) region.used.assign(region.allowance->codes.size(), false);
  return rules;
}

}  // namespace

std::vector<AllowedDiagnostic> apply_allowances(const syntax::RuleFile& file,
                                                std::vector<Diagnostic>& diagnostics,
                                                bool report_unused,
                                                const std::set<std::string>& not_looked_for) {
  std::vector<Region> regions = regions_of(file);
  std::vector<AllowedDiagnostic> allowed;
  if (regions.empty()) return allowed;
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : diagnostics) {
    bool accepted = false;
    if (d.severity != Severity::error && d.location.file == file.file_name) {
      const Position at = position(d.location);
      for (Region& region : regions) {
        if (!region.contains(at)) continue;
        const auto& codes = region.allowance->codes;
        const auto code = std::find_if(codes.begin(), codes.end(),
                                       [&](const auto& c) { return c.value == d.code; });
        if (code == codes.end()) continue;
        region.used[static_cast<std::size_t>(code - codes.begin())] = true;
        allowed.push_back(
            AllowedDiagnostic{std::move(d), region.allowance->reason.value, code->location});
        accepted = true;
        break;
      }
    }
    if (!accepted) kept.push_back(std::move(d));
  }
  if (report_unused) {
    for (const Region& region : regions)
      for (std::size_t k = 0; k < region.used.size(); ++k)
        if (!region.used[k] && !not_looked_for.contains(region.allowance->codes[k].value)) {
          const auto& code = region.allowance->codes[k];
          // In source order among this file's diagnostics (those of used files stay apart).
          const auto later = std::find_if(kept.begin(), kept.end(), [&](const Diagnostic& d) {
            return d.location.file == file.file_name &&
                   position(code.location) < position(d.location);
          });
          kept.insert(later, Diagnostic{Severity::warning, code.location, "unused-allow",
                                        messages::unused_allow(code.value)});
        }
  }
  diagnostics = std::move(kept);
  return allowed;
}

}  // namespace snnplan::check
