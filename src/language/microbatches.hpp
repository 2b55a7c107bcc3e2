#pragma once
// The pipeline microbatch search over wide integers; the public int64 function and the
// rule language's builtin both use it.

#include <string>
#include <variant>

#include "core/runtime_value.hpp"

namespace snnplan::language {

std::variant<detail::Wide, std::string> pipeline_microbatches(detail::Wide batch_size, detail::Wide num_stages);

}  // namespace snnplan::language
