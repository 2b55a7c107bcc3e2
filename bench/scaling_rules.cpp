// Generated rule files for the scaling benchmarks; see scaling_rules.hpp.

#include "scaling_rules.hpp"

namespace bench {
namespace {

constexpr int kFamilies = 16;
const char* const kPrefers[] = {"speed", "memory", "capacity"};

int groups(int n) { return (n + 47) / 48; }

}  // namespace

ScalingInput input_for_rule(int n, int i) {
  const int g = i / 48, G = groups(n);
  return ScalingInput{"family" + std::to_string(i % kFamilies), kPrefers[(i / kFamilies) % 3],
                      2 * (G - g) + 2, 4 * (G - g + 1)};
}

std::string scaling_rules(int n) {
  std::string y;
  y.reserve(static_cast<std::size_t>(n) * 200 + 1024);
  y += "snnplan: 1\n"
       "inputs:\n"
       "  model: {type: string}\n"
       "  prefer: {type: string, lower: true, one_of: [speed, memory, capacity]}\n"
       "  world_size: {type: int}\n"
       "  batch_size: {type: int}\n"
       "let:\n"
       "  model_family: \"starts_with(model, 'spikformer') ? 'spikformer' : model\"\n"
       "record:\n"
       "  mode: {type: string, default: none}\n"
       "  memopt_level: {type: int, default: 0}\n"
       "  rule_id: {type: int, default: -1}\n"
       "  rationale: {type: rationale}\n"
       "rationale_header: \"prefer='{prefer}' with model='{model_family}', world_size={world_size}.\"\n"
       "start: plan\n"
       "tables:\n"
       "  plan:\n";
  const char* modes[] = {"dp", "tp", "fsdp2", "fsdp2_tp", "pp"};
  const int G = groups(n);
  for (int i = 0; i < n; ++i) {
    const int g = i / 48;
    const std::string family = "family" + std::to_string(i % kFamilies);
    const int world = 2 * (G - g) + 2, batch = G - g + 1;
    y += "    - {name: r" + std::to_string(i) + ", when: {model_family: " + family + ", prefer: " +
         kPrefers[(i / kFamilies) % 3] + ", world_size: {ge: " + std::to_string(world) +
         "}, batch_size: {ge: " + std::to_string(batch) + "}}, set: {mode: " + modes[i % 5] +
         ", memopt_level: " + std::to_string(i % 2) + ", rule_id: " + std::to_string(i) + "}, because: \"Rule " +
         std::to_string(i) + ": " + family + " runs " + modes[i % 5] + " from world_size " + std::to_string(world) +
         " ({world_size} here).\"}\n";
  }
  y += "    - {name: catch-all, set: {mode: none}, because: No rule matched; run locally.}\n";
  return y;
}

}  // namespace bench
