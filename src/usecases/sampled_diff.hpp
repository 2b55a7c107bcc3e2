#pragma once
// `snnplan diff` where the input space is too large to enumerate or beyond the exact analysis
// (a rule file with a search, such as rules/snn_llm_planning.yaml): both rule sets answer the
// same inputs -- an operator's corpus (JSON Lines of requests) and a seeded sample drawn around
// it -- and the inputs whose answers differ are grouped by what changed. A sample finds changes;
// it cannot prove there are none, and the result says that it sampled.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "snnplan/rule_set.hpp"

namespace snnplan::usecases {

struct SampleOptions {
  std::size_t samples = 2000;      ///< drawn inputs besides the corpus
  std::uint64_t seed = 1;
  std::vector<std::string> corpus;  ///< JSON Lines of requests (lines, as read)
  /// Requests of the old file's rule tests (rule_tests_corpus), the corpus when `corpus` is
  /// empty, and the file they came from.
  std::vector<Inputs> test_corpus;
  std::string test_corpus_file;
  Inputs fixed;  ///< inputs every compared input takes at this value (a corpus line's too)
};

/// Inputs whose answers changed in one way: the fields that differ, with their old and new
/// values (an error is the field "error"), how many inputs changed so and the first of them.
struct SampledChange {
  std::vector<std::string> fields;  ///< "field: old -> new", for fields other than floats
  std::vector<std::string> float_fields;  ///< float fields that changed (estimates), by name
  std::size_t count = 0;
  std::string example;  ///< the first input that changed so, as a JSON object
};

struct SampledDiff {
  std::size_t compared = 0;     ///< inputs both rule sets answered
  std::size_t from_corpus = 0;  ///< of which the corpus's lines
  std::size_t at_thresholds = 0;  ///< and inputs moved onto an integer threshold of either file
  std::size_t changed = 0;
  std::size_t changed_between_errors = 0;  ///< of the changed, those both files refused
  std::uint64_t seed = 0;
  std::string corpus_from_tests;  ///< the rule-test file the corpus came from, or empty
  std::vector<SampledChange> changes;  ///< the largest group first
};

/// Compares `old_rules` and `new_rules` (which declare the same inputs) on the corpus, on
/// inputs standing on each integer threshold of either file (one of the first corpus lines, or
/// of the draws, moved onto it in one input: a threshold an edit moves changes the answer
/// there, and a draw seldom lands on one), and on `options.samples` inputs drawn from the corpus
/// (a corpus line with some inputs replaced by values another line or the declared types
/// offer), or from the declared types alone without a corpus. A corpus line that is not a
/// request throws std::invalid_argument naming its line.
SampledDiff sampled_diff(const RuleSet& old_rules, const RuleSet& new_rules, const SampleOptions& options);

/// The requests of the rule tests beside `rules`' file (`NAME.test.yaml` for `NAME.yaml`, the
/// convention of rules/), with that file's name; none when there is no such file or it does not
/// read. Requests a rule-file author wrote are ones the rules can answer, which a draw from
/// the declared types alone seldom is (a budget of a few bytes).
std::pair<std::vector<Inputs>, std::string> rule_tests_corpus(const RuleSet& rules);

/// The requests of a corpus (JSON Lines, as read; empty lines skipped) as inputs of `rules`.
/// A line that is not a request throws std::invalid_argument naming its line.
std::vector<Inputs> corpus_inputs(const std::vector<std::string>& lines, const RuleSet& rules);

/// Whether comparing `before` and `after` needs a sample: one of them (or a rule file it uses)
/// has a search, whose answers the exact analysis does not reach.
[[nodiscard]] bool needs_sampling(const RuleSet& before, const RuleSet& after);

/// The text report: that it sampled, how many inputs, and each group of changes.
std::string render_sampled_diff(const SampledDiff& diff);
/// The same as one JSON object: {"sampled": true, "compared", "from_corpus", "at_thresholds", "seed",
/// "changed_inputs", "changes": [{"count", "fields", "float_fields", "example"}]}, the example an
/// object of inputs.
std::string sampled_diff_json(const SampledDiff& diff);

}  // namespace snnplan::usecases
