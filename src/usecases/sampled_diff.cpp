#include "usecases/sampled_diff.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

#include "analyse/coverage.hpp"
#include "analyse/sampling.hpp"
#include "load/rule_tests.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "api/rule_set_access.hpp"
#include "usecases/messages.hpp"

namespace snnplan::usecases {
namespace {

using nlohmann::json;

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

// Requests (the first of the corpus, or of the draws) looked at for those the rules answer, and
// how many of them are moved onto a threshold: a few suffice, as each move is confirmed by an
// evaluation with a trace.
constexpr std::size_t kThresholdScan = 64;
constexpr std::size_t kThresholdBases = 8;

// Inputs standing on each integer threshold of `rules` (CoverageTracker::witnesses_near), not
// already in `cases`.
void add_threshold_inputs(const RuleSet& rules, const std::vector<Inputs>& requests, std::vector<Inputs>& cases,
                          std::size_t& added) {
  analyse::CoverageTracker tracker(RuleSetAccess::compiled(rules));
  tracker.witnesses_near(requests, kThresholdBases);
  for (const analyse::Goal& goal : tracker.coverage().goals) {
    if (goal.kind != analyse::GoalKind::boundary || !goal.witness) continue;
    if (std::find(cases.begin(), cases.end(), *goal.witness) != cases.end()) continue;
    cases.push_back(*goal.witness);
    ++added;
  }
}

bool has_search(const detail::CompiledRules& rules) {
  for (const auto& search : rules.searches)
    if (search) return true;
  return std::any_of(rules.used.begin(), rules.used.end(), [](const auto& used) { return has_search(*used); });
}

// `text` with each number (a run of digits, with its decimal point) as '#': two error messages
// that say the same with other numbers (a budget, an estimate) are one kind of change.
std::string numbers_masked(const std::string& text) {
  std::string out;
  for (std::size_t k = 0; k < text.size();) {
    if (text[k] < '0' || text[k] > '9') {
      out += text[k++];
      continue;
    }
    while (k < text.size() && ((text[k] >= '0' && text[k] <= '9') ||
                               (text[k] == '.' && k + 1 < text.size() && text[k + 1] >= '0' && text[k + 1] <= '9')))
      ++k;
    out += '#';
  }
  return out;
}

}  // namespace

bool needs_sampling(const RuleSet& before, const RuleSet& after) {
  return has_search(RuleSetAccess::compiled(before)) || has_search(RuleSetAccess::compiled(after));
}

std::pair<std::vector<Inputs>, std::string> rule_tests_corpus(const RuleSet& rules) {
  const std::filesystem::path rule_file(rules.file_name());
  if (rule_file.extension() != ".yaml") return {};
  std::filesystem::path tests = rule_file;
  tests.replace_extension(".test.yaml");
  std::ifstream in(tests, std::ios::binary);
  if (!in) return {};
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Diagnostic> problems;
  std::vector<Inputs> out;
  for (const load::RuleTestCase& test : load::load_rule_tests(text, tests.string(), problems))
    out.push_back(test.inputs());
  return {std::move(out), tests.string()};
}

std::vector<Inputs> corpus_inputs(const std::vector<std::string>& lines, const RuleSet& rules) {
  std::vector<Inputs> out;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (lines[k].empty()) continue;
    auto read = request::inputs_from_json_line(lines[k], rules);
    if (auto* problem = std::get_if<std::string>(&read))
      throw std::invalid_argument(messages::corpus_line(k + 1, *problem));
    out.push_back(std::move(std::get<Inputs>(read)));
  }
  return out;
}

SampledDiff sampled_diff(const RuleSet& old_rules, const RuleSet& new_rules, const SampleOptions& options) {
  SampledDiff out;
  out.seed = options.seed;
  const bool from_tests = options.corpus.empty() && !options.test_corpus.empty();
  const std::vector<Inputs> corpus = from_tests ? options.test_corpus : corpus_inputs(options.corpus, old_rules);
  if (from_tests) out.corpus_from_tests = options.test_corpus_file;
  std::vector<Inputs> cases = corpus;
  out.from_corpus = corpus.size();
  std::vector<Inputs> drawn = analyse::draw_inputs(old_rules.inputs(), corpus, options.samples, options.seed);
  const std::vector<Inputs>& from = corpus.empty() ? drawn : corpus;
  const std::vector<Inputs> requests(from.begin(),
                                     from.begin() + static_cast<std::ptrdiff_t>(std::min(from.size(), kThresholdScan)));
  add_threshold_inputs(old_rules, requests, cases, out.at_thresholds);
  add_threshold_inputs(new_rules, requests, cases, out.at_thresholds);
  for (Inputs& inputs : drawn) cases.push_back(std::move(inputs));
  for (Inputs& inputs : cases)
    for (const auto& [name, value] : options.fixed) analyse::set_input(inputs, name, value);
  std::map<std::string, std::size_t> group_of;  // the group's key -> index in out.changes
  for (const Inputs& inputs : cases) {
    const auto before = answer_of(old_rules.evaluate(inputs));
    const auto after = answer_of(new_rules.evaluate(inputs));
    ++out.compared;
    if (before == after) continue;
    ++out.changed;
    if (before.count("error") != 0 && after.count("error") != 0) ++out.changed_between_errors;
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
      else if (x.is_string() && y.is_string() && numbers_masked(x.as_string()) == numbers_masked(y.as_string()))
        change.fields.push_back(messages::sampled_numbers_changed(name, value_json(Value(numbers_masked(x.as_string()))).dump()));
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
  std::string out =
      messages::sampled_summary(diff.compared, diff.from_corpus, diff.at_thresholds, diff.seed, diff.changed);
  if (!diff.corpus_from_tests.empty()) out += messages::sampled_corpus_from_tests(diff.from_corpus, diff.corpus_from_tests);
  for (const SampledChange& change : diff.changes) {
    out += messages::sampled_group(change.count);
    for (const std::string& field : change.fields) out += fmt::format("    {}\n", field);
    if (!change.float_fields.empty())
      out += messages::sampled_floats(fmt::format("{}", fmt::join(change.float_fields, ", ")));
    out += messages::sampled_example(change.example);
  }
  // Drawn from the types alone, most requests are ones nothing can plan (a budget of a few
  // bytes): say how to compare plans rather than leave the operator with errors only.
  if (diff.from_corpus == 0 && diff.changed != 0 && diff.changed_between_errors == diff.changed)
    out += messages::sampled_errors_only();
  return out;
}

std::string sampled_diff_json(const SampledDiff& diff) {
  json changes = json::array();
  for (const SampledChange& change : diff.changes)
    changes.push_back({{"count", change.count},
                       {"fields", change.fields},
                       {"float_fields", change.float_fields},
                       {"example", json::parse(change.example)}});
  const json out = {{"sampled", true},
                    {"compared", diff.compared},
                    {"from_corpus", diff.from_corpus},
                    {"corpus_from_tests", diff.corpus_from_tests.empty() ? json(nullptr) : json(diff.corpus_from_tests)},
                    {"at_thresholds", diff.at_thresholds},
                    {"seed", diff.seed},
                    {"changed_inputs", diff.changed},
                    {"changed_between_errors", diff.changed_between_errors},
                    {"changes", std::move(changes)}};
  return out.dump(2) + "\n";
}

}  // namespace snnplan::usecases
