#include "analyse/sampling.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <random>
#include <string>

namespace snnplan::analyse {
namespace {

// Values an input of `type` may take when no corpus line offers one: small and power-of-two
// sizes for ints (the shapes of clusters and models), fractions for floats.
Value drawn_value(const InputInfo& input, std::mt19937_64& random) {
  auto pick = [&random](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  if (input.type == "bool") return Value(pick(2) == 1);
  if (input.type == "float") {
    constexpr double kFractions[] = {0.05, 0.25, 0.5, 0.8, 0.9, 0.95, 1.0};
    return Value(kFractions[pick(std::size(kFractions))]);
  }
  if (input.type == "int") {
    if (pick(4) == 0) return Value(static_cast<std::int64_t>(1 + pick(200)));
    return Value(std::int64_t{1} << pick(16));
  }
  return Value();  // a string or a list: its default (null), if it has one
}

}  // namespace

void set_input(Inputs& inputs, const std::string& name, Value value) {
  const auto at = std::find_if(inputs.begin(), inputs.end(), [&](const auto& kv) { return kv.first == name; });
  if (at != inputs.end())
    at->second = std::move(value);
  else if (!value.is_null())
    inputs.emplace_back(name, std::move(value));
}

std::vector<Inputs> draw_inputs(const std::vector<InputInfo>& declared, const std::vector<Inputs>& corpus,
                                std::size_t count, std::uint64_t seed) {
  // The values each input takes somewhere in the corpus: a drawn input recombines them.
  std::map<std::string, std::vector<Value>> seen;
  for (const Inputs& inputs : corpus)
    for (const auto& [name, value] : inputs) seen[name].push_back(value);
  std::mt19937_64 random(seed);
  auto pick = [&random](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  std::vector<Inputs> out;
  out.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    Inputs inputs = corpus.empty() ? Inputs{} : corpus[pick(corpus.size())];
    for (const InputInfo& input : declared) {
      // From a corpus line, about a quarter of its inputs are replaced; without, all drawn.
      if (!corpus.empty() && pick(4) != 0) continue;
      const auto from = seen.find(input.name);
      Value value = from != seen.end() && pick(2) == 0 ? from->second[pick(from->second.size())]
                                                       : drawn_value(input, random);
      if (value.is_null() && input.required) continue;
      set_input(inputs, input.name, std::move(value));
    }
    out.push_back(std::move(inputs));
  }
  return out;
}

}  // namespace snnplan::analyse
