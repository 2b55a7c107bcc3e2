#pragma once
// The pipeline microbatch search over wide integers (run in 64 bits when the batch size fits);
// the public int64 function and the rule language's builtin both use it.

#include <string>
#include <variant>

#include "core/runtime_value.hpp"

namespace snnplan::language {

std::variant<detail::Wide, std::string> pipeline_microbatches(detail::Wide batch_size, detail::Wide num_stages);

/// How a refusal shows the two arguments. The reference formats them as its caller gave them,
/// and Python's True and False are the ints 1 and 0 there: the Python module shows them so.
struct MicrobatchArgumentTexts {
  std::string batch_size;
  std::string num_stages;
};
/// pipeline_microbatches() whose messages show the arguments as `shown` says.
std::variant<detail::Wide, std::string> pipeline_microbatches(detail::Wide batch_size,
                                                              detail::Wide num_stages,
                                                              const MicrobatchArgumentTexts& shown);

}  // namespace snnplan::language
