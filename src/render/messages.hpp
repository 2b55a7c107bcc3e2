#pragma once
// The texts of the renderers (render/): output formats and the decision map's legend, in one
// place; tests assert them exactly.

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace snnplan::messages {
// ---- the decision map's legend ------------------------------------------------------------------
inline std::string map_error_key() {
  return "error (the rules refuse these inputs)";
}
inline std::string map_unchanged_key() {
  return "unchanged";
}
inline std::string map_changed_key(std::string_view key) {
  return fmt::format("{} (changed)", key);
}
inline std::string map_legend_more(std::size_t more) {
  return fmt::format("... and {} more", more);
}
inline std::string not_a_choice(std::string_view value, std::string_view choices) {
  return fmt::format("{} not in {}", value, choices);
}

// ---- output formats -----------------------------------------------------------------------------
/// "{json,yaml,text}": a set of choices as CLI11 writes one.
inline std::string choice_set(const std::vector<std::string>& names) {
  std::string out = "{";
  for (const std::string& name : names) out += (out.size() > 1 ? "," : "") + name;
  return out + "}";
}
/// Without the "--format: " CLI11 puts before a validator's message.
inline std::string unknown_format(std::string_view name, const std::vector<std::string>& supported) {
  return not_a_choice(name, choice_set(supported));
}
inline std::string format_cannot_render(std::string_view name,
                                        const std::vector<std::string>& supported) {
  return fmt::format("the format {} does not render this output (it is rendered as one of {})",
                     name, choice_set(supported));
}
inline std::string format_without_row(int format) {
  return fmt::format("format {} has no row in the format table", format);
}

}  // namespace snnplan::messages
