#pragma once
// The input flags shared by `recommend` and `explain`: one flag per input of a recommend
// request (the reference's parameters), `--input NAME=VALUE` for inputs of other rule files, `--rules` and `--format`.

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/request_inputs.hpp"
#include "frontends/cli/torch_probe.hpp"
#include "render/format.hpp"
#include "snnplan/rule_set.hpp"

namespace snnplan::cli {

struct InputFlags {
  // One flag per input of a recommend request (api/request_inputs.hpp), in its order.
  struct Flag {
    const RequestInput* input;
    std::string value;
    CLI::Option* option = nullptr;
  };
  std::vector<Flag> flags = [] {
    std::vector<Flag> out;
    for (const RequestInput& input : kRecommendInputs) out.push_back({&input, {}, nullptr});
    return out;
  }();
  std::vector<std::string> extra_inputs;
  std::string rules;
  std::vector<std::string> rule_roots;
  std::string format;
  CLI::Option* rules_option = nullptr;
  std::string probe_python;  // --probe-torch[=PYTHON]
  CLI::Option* probe_option = nullptr;

  /// Adds the flags, --input, --rules and --format (for `output`) to `command`.
  void attach(CLI::App& command, render::Output output);

  [[nodiscard]] std::optional<std::string> rules_flag() const;
  /// How --rules is loaded (--rules-root).
  [[nodiscard]] LoadOptions load_options() const { return LoadOptions{.rule_roots = rule_roots}; }
  /// The name of the first input flag given (--input counts), or nullptr.
  [[nodiscard]] const char* first_given() const;

  /// The inputs given, typed as `rule_set` declares them (strings for undeclared --input
  /// names). Throws UsageError for a bad value or an input given twice.
  [[nodiscard]] Inputs collect(const RuleSet& rule_set) const;

  /// With --probe-torch: PyTorch probed with the interpreter it names (else python3), what it
  /// found said on `err`; nullopt without the flag. Throws UsageError when the probe fails.
  [[nodiscard]] std::optional<TorchProbe> probe_torch(std::ostream& err) const;
  /// collect(), then the probed availability for the inputs not given (--probe-torch).
  [[nodiscard]] Inputs collect_probed(const RuleSet& rule_set, std::ostream& err) const;
};

/// Appends the inputs of `--input NAME=VALUE` assignments to `inputs`, typed as `rule_set`
/// declares them (strings for undeclared names). `given_by` maps each input given so far to
/// the flag that gave it; an input given twice throws UsageError, as does a bad assignment.
void add_assignments(const std::vector<std::string>& assignments, const RuleSet& rule_set,
                     Inputs& inputs, std::map<std::string, std::string>& given_by);

/// `text` as a value of input `name` of `rule_set` (a string for an undeclared name); `flag`
/// names it in the UsageError for a value of the wrong kind.
Value input_value(const std::string& flag, const RuleSet& rule_set, const std::string& name,
                  const std::string& text);

}  // namespace snnplan::cli
