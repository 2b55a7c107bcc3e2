#pragma once
// `--probe-torch[=PYTHON]` (recommend, explain): the availability inputs a launcher leaves out
// take what PyTorch offers, probed as the reference probes it -- the package's own probe
// script (python/snnplan/_torch_probe.py, embedded at build time) run with that interpreter.

#include <array>
#include <optional>
#include <string>

#include "api/request_inputs.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/value.hpp"

namespace snnplan::cli {

struct TorchProbe {
  /// The interpreter that ran the probe (its sys.executable).
  std::string python;
  /// PyTorch's version, or nullopt when the interpreter has none.
  std::optional<std::string> torch_version;
  /// (input name, available) in the order of the reference's arguments.
  std::array<std::pair<std::string, bool>, kProbedInputCount> available;
};

/// Runs the probe with `python` (a path, or a name looked up on PATH; "" means python3).
/// Throws UsageError when the interpreter cannot be run or the probe fails (PyTorch raising
/// something other than ImportError, as the reference's import would then fail).
TorchProbe probe_torch(const std::string& python);

/// The line that says which interpreter answered and what it found (printed on stderr).
std::string describe(const TorchProbe& probe);

/// The probed values as inputs, for the requests that leave them out or give null
/// (request::add_fallbacks, request::LineOptions::fallbacks).
Inputs probed_inputs(const TorchProbe& probe);
/// Whether `inputs` leave out (or give null) an availability input `rules` declares: only then
/// is a probe worth running.
bool needs_probe(const RuleSet& rules, const Inputs& inputs);

}  // namespace snnplan::cli
