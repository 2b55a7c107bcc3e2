#include "soundness/campaign.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "analyse/partition.hpp"
#include "analyse/table_analysis.hpp"
#include "api/rule_set_access.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "language/messages.hpp"
#include "evaluate/evaluator.hpp"
#include "load/rule_file_loader.hpp"
#include "soundness/mutator.hpp"

namespace snnplan::soundness {
namespace {

using detail::CompiledRules;
using detail::RValue;
using UsedMap = std::map<std::string, std::shared_ptr<const CompiledRules>>;

// A rule file loaded once: its tree (copied and mutated per mutant) and what the files it
// uses give the checker and the compiler.
struct Base {
  BaseFile file;
  syntax::RuleFile tree;
  UsedMap used;
  std::map<std::string, check::UsedRules> schemas;
  std::vector<std::shared_ptr<const RuleSet>> keep_alive;
};

Base load_base(const BaseFile& file) {
  load::LoadedFile loaded = load::load_rule_file(file.text, file.path);
  if (has_errors(loaded.diagnostics))
    throw std::runtime_error(fmt::format("{} does not load: {}", file.path, loaded.diagnostics.front().message));
  Base base{file, std::move(loaded.file), {}, {}, {}};
  // The shipped files use the recommendation rules by their bare name, which is the built-in
  // file wherever they sit; the used file is not mutated.
  for (const syntax::Use& use : base.tree.uses) {
    auto rules = std::make_shared<const RuleSet>(RuleSetAccess::builtin(use.file.value));
    const CompiledRules& compiled = RuleSetAccess::compiled(*rules);
    base.used[use.name.value] = std::shared_ptr<const CompiledRules>(rules, &compiled);
    base.schemas[use.name.value] = RuleSetAccess::used_schema(compiled);
    base.keep_alive.push_back(std::move(rules));
  }
  return base;
}

// ---- what an evaluation error is -----------------------------------------------------------

enum class Verdict { deliberate, arithmetic, rule_file_error };

// A message template as a pattern its rendered messages match: its text, placeholders
// standing for any text. Templates with almost no text of their own would match any message,
// so they explain nothing.
std::optional<std::regex> pattern_of(const detail::CompiledTemplate& t) {
  std::string pattern;
  std::size_t literal = 0;
  for (const auto& piece : t.pieces) {
    if (piece.slot >= 0) {
      pattern += "[\\s\\S]*";
      continue;
    }
    literal += piece.text.size();
    for (char c : piece.text) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
      pattern += c;
    }
  }
  if (literal < 6) return std::nullopt;
  return std::regex(pattern);
}

// The messages a rule file raises on purpose: its `error:` rules, its inputs' error
// templates, its invariants' messages (and those of the files it uses, whose errors end the
// call with their message), as the compiled rules hold them.
void deliberate_patterns(const CompiledRules& rules, std::vector<std::regex>& out,
                         std::set<const CompiledRules*>& seen) {
  if (!seen.insert(&rules).second) return;
  auto add = [&](const detail::CompiledTemplate& t) {
    if (auto p = pattern_of(t)) out.push_back(std::move(*p));
  };
  for (const auto& table : rules.tables)
    for (const auto& rule : table.rules)
      if (rule.error) add(*rule.error);
  for (const auto& input : rules.inputs)
    if (input.error) add(*input.error);
  for (const auto& invariant : rules.invariants) add(invariant.message);
  for (const auto& used : rules.used) deliberate_patterns(*used, out, seen);
}

// The builtins' documented errors (docs/rules.md): the microbatch search's, repeat()'s and
// repr()'s limits.
const std::vector<std::regex>& documented_builtin_errors() {
  static const std::vector<std::regex> patterns{
      std::regex(R"(.* must be positive, but got .*\.)"),
      std::regex(R"(batch_size \(.*\) must be >= num_stages \(.*\) for pipeline parallelism .*)"),
      std::regex(R"(batch_size \(.*\) must be divisible by at least one microbatch count in .*)"),
      std::regex(R"(repeat\(\) would build a list of .*)"),
      std::regex(R"(repr\(\) would write more than .*)"),
  };
  return patterns;
}

Verdict judge(const std::string& message, const std::vector<std::regex>& deliberate) {
  const auto matches = [&](const std::regex& p) { return std::regex_match(message, p); };
  if (std::any_of(deliberate.begin(), deliberate.end(), matches) ||
      std::any_of(documented_builtin_errors().begin(), documented_builtin_errors().end(), matches))
    return Verdict::deliberate;
  if (message.find("integer overflow:") != std::string::npos || message.ends_with(messages::division_by_zero()) ||
      message.find("does not fit in a 64-bit integer") != std::string::npos)
    return Verdict::arithmetic;
  return Verdict::rule_file_error;
}

// The class of a failure: its message with names and numbers taken out.
std::string class_of(const std::string& message) {
  static const std::regex position("^.*?:[0-9]+:[0-9]+: ");
  static const std::regex quoted("'[^']*'");
  static const std::regex number("-?[0-9]+");
  const std::string bare = std::regex_replace(message, position, "");
  return std::regex_replace(std::regex_replace(bare, quoted, "'_'"), number, "N");
}

// Whether the check warned of this failure: a gap (or a table it could not analyse) for a
// table no rule of which matched, too deep a chain of calls, and for a value of the wrong kind
// a `type-unproven` warning about the same place ("record field 'x'", "argument 1 of len()").
bool warned_of(const std::string& message, const std::vector<Diagnostic>& found) {
  const auto has = [&](std::string_view code) {
    return std::any_of(found.begin(), found.end(), [&](const Diagnostic& d) { return d.code == code; });
  };
  if (message.starts_with("no rule of table")) return has("table-gap") || has("analysis-incomplete");
  if (message.starts_with("table calls nest deeper")) return has("table-calls-too-deep");
  // The place: the text between the position ("file:1:2: ") and " must be".
  static const std::regex place(R"(^(?:.*:[0-9]+:[0-9]+: )?(.*?) must be )");
  std::smatch m;
  const std::string wanted = std::regex_search(message, m, place) ? m[1].str() + " must be " : std::string();
  return std::any_of(found.begin(), found.end(), [&](const Diagnostic& d) {
    return d.code == "type-unproven" && d.message.find(wanted) != std::string::npos;
  });
}

// ---- inputs --------------------------------------------------------------------------------

// A random valid value for an input of the mutant's model: one of its representatives, an
// allowed value, or (for an int) any small or large integer; null where its default is null.
RValue random_value(const analyse::InputDomain& d, std::mt19937_64& random, detail::ValueStore& store) {
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  if (d.default_null && pick(5) == 0) return RValue{};
  if (d.has_one_of && !d.options.empty()) return d.options[pick(d.options.size())];
  if ((d.kinds & detail::kInt) && !d.has_one_of) {
    static constexpr std::int64_t kEdges[] = {-1, 0, 1, 2, 3, 4, 6, 8, 16, 1LL << 40};
    if (pick(2) == 0) return RValue::of_int(kEdges[pick(std::size(kEdges))]);
    return RValue::of_int(static_cast<std::int64_t>(pick(130)) - 1);
  }
  if (!d.reps.empty() && pick(4) != 0) return d.reps[pick(d.reps.size())];
  if (d.kinds & detail::kList) {
    Value::List items;
    for (std::size_t k = pick(4); k > 0; --k) {
      if (d.item_kinds & detail::kInt) items.emplace_back(static_cast<int>(pick(9)));
      else if (d.item_kinds & detail::kFloat) items.emplace_back(0.5 * static_cast<double>(pick(5)));
      else if (d.item_kinds & detail::kBool) items.emplace_back(pick(2) == 0);
      else items.emplace_back(pick(2) == 0 ? "dp" : (pick(2) == 0 ? "tp" : "pp"));
    }
    // from_public() views the Value's strings; copy() moves them into the store, which
    // outlives the evaluations of this mutant (the temporary Value does not).
    const Value list(std::move(items));
    return store.copy(detail::from_public(list, store));
  }
  if (d.kinds & detail::kString) return store.string(pick(2) == 0 ? "spikformer_x" : "m");
  if (d.kinds & detail::kFloat) return detail::from_public(Value(0.25 * static_cast<double>(pick(9))), store);
  return d.placeholder;
}

std::string describe_inputs(const analyse::Model& model, std::span<const RValue> values) {
  std::string out;
  for (std::size_t k = 0; k < values.size(); ++k)
    out += fmt::format("{}{}={}", out.empty() ? "" : ", ", model.inputs[k].name,
                       values[k].kind == RValue::Kind::null ? "null" : detail::repr(values[k]));
  return out;
}

class Campaign {
 public:
  Campaign(const std::vector<BaseFile>& files, const Options& options) : options_(options), random_(options.seed) {
    for (const BaseFile& f : files) bases_.push_back(load_base(f));
    if (bases_.empty()) throw std::runtime_error("no rule files to mutate");
  }

  Figures run() {
    for (std::uint64_t n = 0; n < options_.mutants; ++n) one(bases_[n % bases_.size()]);
    return std::move(figures_);
  }

 private:
  void one(const Base& base) {
    syntax::RuleFile tree = base.tree;
    std::string mutations;
    const int count = 1 + static_cast<int>(random_() % static_cast<std::uint64_t>(std::max(1, options_.max_mutations)));
    for (int k = 0; k < count; ++k) {
      const Mutation m = mutate(tree, random_);
      if (m.op.empty()) continue;
      ++figures_.operators[m.op];
      mutations += fmt::format("{}{} ({})", mutations.empty() ? "" : "; ", m.op, m.what);
    }
    ++figures_.mutants;
    const std::string label = fmt::format("{}: {}", base.file.path, mutations);
    try {
      std::vector<Diagnostic> found = check::check_rule_file(tree, base.schemas);
      if (has_errors(found)) {
        ++figures_.rejected;
        return;
      }
      std::shared_ptr<CompiledRules> compiled = compile::compile_rules(tree, base.file.text, base.used);
      analyse::TableFindings analysis = analyse::analyse_tables(*compiled);
      if (has_errors(analysis.diagnostics)) {
        ++figures_.rejected;
        return;
      }
      found.insert(found.end(), analysis.diagnostics.begin(), analysis.diagnostics.end());
      ++figures_.passed;
      evaluate_mutant(*compiled, found, label);
    } catch (const std::exception& e) {
      // A checked file the later stages cannot take is a miss of its own.
      ++figures_.passed;
      note(figures_.miss_classes, fmt::format("exception: {}", class_of(e.what())), label, e.what());
      ++figures_.misses;
    }
  }

  void evaluate_mutant(const CompiledRules& rules, const std::vector<Diagnostic>& found, const std::string& label) {
    std::vector<std::regex> deliberate;
    std::set<const CompiledRules*> seen;
    deliberate_patterns(rules, deliberate, seen);
    const CompiledRules* files[] = {&rules};
    // The regions are the analysis' own; where it cannot partition a mutant, the random
    // points of the declared input space still run (and the figures count it).
    std::unique_ptr<analyse::Partition> partition;
    try {
      partition = std::make_unique<analyse::Partition>(files, std::vector<analyse::FixedInput>{});
    } catch (const std::exception&) {
      ++figures_.unpartitioned;
    }
    std::optional<analyse::Model> own_model;
    if (!partition) own_model.emplace(rules);
    const analyse::Model& model = partition ? partition->model() : *own_model;
    detail::ValueStore store;
    std::vector<ValueView> out;
    // Per class of rule-file error: its smallest example and its message.
    std::map<std::string, std::pair<std::string, std::string>> failures;
    auto evaluate_at = [&](std::span<const RValue> values) {
      ++figures_.inputs;
      EvaluationError error;
      detail::ValueStore scratch;
      if (evaluate::evaluate_views_by_slot(rules, values, scratch, out, error)) return;
      switch (judge(error.message, deliberate)) {
        case Verdict::deliberate: ++figures_.deliberate; return;
        case Verdict::arithmetic: ++figures_.arithmetic; return;
        case Verdict::rule_file_error: break;
      }
      const std::string example = fmt::format("{}\n    input: {}\n    error: {}", label,
                                              describe_inputs(model, values), error.message);
      auto [it, fresh] = failures.try_emplace(class_of(error.message), example, error.message);
      if (!fresh && example.size() < it->second.first.size()) it->second = {example, error.message};
    };
    std::size_t points = 0;
    std::string why;
    if (partition)
      partition->for_each_point(
        [&](const analyse::Partition::Point& p) {
          std::vector<RValue> values(p.values.begin(), p.values.end());
          for (std::size_t k = 0; k < values.size(); ++k)
            if (p.omitted[k]) values[k] = RValue{};
          evaluate_at(values);
          return ++points < options_.max_region_points;
        },
        why);
    for (std::size_t n = 0; n < options_.random_points; ++n) {
      std::vector<RValue> values;
      for (const analyse::InputDomain& d : model.inputs) values.push_back(random_value(d, random_, store));
      evaluate_at(values);
    }
    bool missed = false, warned = false;
    for (const auto& [name, failure] : failures) {
      const bool explained = warned_of(failure.second, found);
      note(explained ? figures_.warned_classes : figures_.miss_classes, name, failure.first, {});
      (explained ? warned : missed) = true;
    }
    // A mutant with any failure the check did not warn of is a miss, whatever else it warned.
    if (missed) ++figures_.misses;
    else if (warned) ++figures_.warned;
  }

  static void note(std::map<std::string, FailureClass>& classes, const std::string& key,
                   const std::string& example, const std::string& extra) {
    FailureClass& c = classes[key];
    ++c.mutants;
    const std::string shown = extra.empty() ? example : example + "\n    " + extra;
    if (shown.size() < c.example_size) {
      c.example_size = shown.size();
      c.example = shown;
    }
  }

  Options options_;
  std::mt19937_64 random_;
  std::vector<Base> bases_;
  Figures figures_;
};

}  // namespace

Figures run_campaign(const std::vector<BaseFile>& files, const Options& options) {
  return Campaign(files, options).run();
}

std::string report(const Figures& f) {
  std::string out = fmt::format(
      "mutants {}, rejected by check {}, passed check {}, warned {}, inputs evaluated {}, misses {} "
      "(deliberate errors {}, arithmetic errors {}, passed mutants without a partition {})\n",
      f.mutants, f.rejected, f.passed, f.warned, f.inputs, f.misses, f.deliberate, f.arithmetic,
      f.unpartitioned);
  for (const auto& [name, c] : f.miss_classes)
    out += fmt::format("miss class ({} mutants): {}\n  example: {}\n", c.mutants, name, c.example);
  for (const auto& [name, c] : f.warned_classes)
    out += fmt::format("warned class ({} mutants): {}\n  example: {}\n", c.mutants, name, c.example);
  return out;
}

}  // namespace snnplan::soundness
