#include "usecases/sampled_diff.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "api/rule_set_access.hpp"
#include "usecases/messages.hpp"

namespace snnplan::usecases {
namespace {

using nlohmann::json;

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

json value_json(const Value& v) {
  return json::parse(render::to_json(v).dump());
}

// The answer as "field -> value" text, or the error.
std::map<std::string, Value> answer_of(const EvaluationResult& result) {
  std::map<std::string, Value> out;
  if (!result.ok()) {
    out.emplace("error", Value(result.error().message));
    return out;
  }
  const Record& record = result.record();
  for (std::size_t k = 0; k < record.names().size(); ++k) out.emplace(record.names()[k], record.values()[k]);
  return out;
}

bool has_search(const detail::CompiledRules& rules) {
  for (const auto& search : rules.searches)
    if (search) return true;
  return std::any_of(rules.used.begin(), rules.used.end(), [](const auto& used) { return has_search(*used); });
}

}  // namespace

bool needs_sampling(const RuleSet& before, const RuleSet& after) {
  return has_search(RuleSetAccess::compiled(before)) || has_search(RuleSetAccess::compiled(after));
}

SampledDiff sampled_diff(const RuleSet& old_rules, const RuleSet& new_rules, const SampleOptions& options) {
  SampledDiff out;
  out.seed = options.seed;
  std::vector<Inputs> corpus;
  for (std::size_t k = 0; k < options.corpus.size(); ++k) {
    if (options.corpus[k].empty()) continue;
    auto read = request::inputs_from_json_line(options.corpus[k], old_rules);
    if (auto* problem = std::get_if<std::string>(&read))
      throw std::invalid_argument(messages::corpus_line(k + 1, *problem));
    corpus.push_back(std::move(std::get<Inputs>(read)));
  }
  // The values each input takes somewhere in the corpus: a drawn input recombines them.
  std::map<std::string, std::vector<Value>> seen;
  for (const Inputs& inputs : corpus)
    for (const auto& [name, value] : inputs) seen[name].push_back(value);
  std::mt19937_64 random(options.seed);
  auto pick = [&random](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  std::vector<Inputs> cases = corpus;
  out.from_corpus = corpus.size();
  for (std::size_t k = 0; k < options.samples; ++k) {
    Inputs inputs = corpus.empty() ? Inputs{} : corpus[pick(corpus.size())];
    for (const InputInfo& input : old_rules.inputs()) {
      // From a corpus line, about a quarter of its inputs are replaced; without, all drawn.
      if (!corpus.empty() && pick(4) != 0) continue;
      const auto from = seen.find(input.name);
      Value value = from != seen.end() && pick(2) == 0 ? from->second[pick(from->second.size())]
                                                       : drawn_value(input, random);
      if (value.is_null() && input.required) continue;
      auto at = std::find_if(inputs.begin(), inputs.end(), [&](const auto& kv) { return kv.first == input.name; });
      if (at != inputs.end())
        at->second = std::move(value);
      else if (!value.is_null())
        inputs.emplace_back(input.name, std::move(value));
    }
    cases.push_back(std::move(inputs));
  }
  for (Inputs& inputs : cases)
    for (const auto& [name, value] : options.fixed) {
      auto at = std::find_if(inputs.begin(), inputs.end(), [&](const auto& kv) { return kv.first == name; });
      if (at != inputs.end())
        at->second = value;
      else
        inputs.emplace_back(name, value);
    }
  std::map<std::string, std::size_t> group_of;  // the group's key -> index in out.changes
  for (const Inputs& inputs : cases) {
    const auto before = answer_of(old_rules.evaluate(inputs));
    const auto after = answer_of(new_rules.evaluate(inputs));
    ++out.compared;
    if (before == after) continue;
    ++out.changed;
    SampledChange change;
    std::set<std::string> names;
    for (const auto& [name, value] : before) names.insert(name);
    for (const auto& [name, value] : after) names.insert(name);
    for (const std::string& name : names) {
      const auto a = before.find(name);
      const auto b = after.find(name);
      const Value none;
      const Value& x = a == before.end() ? none : a->second;
      const Value& y = b == after.end() ? none : b->second;
      if (x == y) continue;
      if (x.is_float() && y.is_float())
        change.float_fields.push_back(name);
      else
        change.fields.push_back(fmt::format("{}: {} -> {}", name, value_json(x).dump(), value_json(y).dump()));
    }
    std::string key;
    for (const std::string& f : change.fields) key += f + "\n";
    for (const std::string& f : change.float_fields) key += f + "~\n";
    auto [at, fresh] = group_of.emplace(key, out.changes.size());
    if (fresh) {
      json example = json::object();
      for (const auto& [name, value] : inputs) example[name] = value_json(value);
      change.example = example.dump();
      out.changes.push_back(std::move(change));
    }
    ++out.changes[at->second].count;
  }
  std::stable_sort(out.changes.begin(), out.changes.end(),
                   [](const SampledChange& a, const SampledChange& b) { return a.count > b.count; });
  return out;
}

std::string render_sampled_diff(const SampledDiff& diff) {
  std::string out = messages::sampled_summary(diff.compared, diff.from_corpus, diff.seed, diff.changed);
  for (const SampledChange& change : diff.changes) {
    out += messages::sampled_group(change.count);
    for (const std::string& field : change.fields) out += fmt::format("    {}\n", field);
    if (!change.float_fields.empty())
      out += messages::sampled_floats(fmt::format("{}", fmt::join(change.float_fields, ", ")));
    out += messages::sampled_example(change.example);
  }
  return out;
}

std::string sampled_diff_json(const SampledDiff& diff) {
  json changes = json::array();
  for (const SampledChange& change : diff.changes)
    changes.push_back({{"count", change.count},
                       {"fields", change.fields},
                       {"float_fields", change.float_fields},
                       {"example", json::parse(change.example)}});
  const json out = {{"sampled", true},          {"compared", diff.compared}, {"from_corpus", diff.from_corpus},
                    {"seed", diff.seed},        {"changed_inputs", diff.changed},   {"changes", std::move(changes)}};
  return out.dump(2) + "\n";
}

}  // namespace snnplan::usecases
