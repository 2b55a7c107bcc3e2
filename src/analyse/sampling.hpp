#pragma once
// Inputs drawn where the input space is too large to enumerate or beyond the exact analysis (a
// rule file with a search): around a corpus of requests an operator gives, or from the declared
// types alone. `snnplan diff` compares two rule sets on them (usecases/sampled_diff.hpp) and
// `snnplan test --generate` picks its tests among them (testing/generate.cpp). A sample finds
// what it reaches; it proves nothing about the rest.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "snnplan/input_info.hpp"
#include "snnplan/value.hpp"

namespace snnplan::analyse {

/// Sets input `name` of `inputs` to `value`, appended when absent (a null value, "the default",
/// is not appended): one request with one input changed.
void set_input(Inputs& inputs, const std::string& name, Value value);

/// `count` inputs drawn with `seed`: each a corpus request with about a quarter of its inputs
/// replaced by a value another request or the input's declared type offers (small and power-of-
/// two ints, fractions for floats, both booleans), or, without a corpus, every input drawn from
/// its type (a required input that draws null is left out). The same arguments give the same
/// inputs.
std::vector<Inputs> draw_inputs(const std::vector<InputInfo>& declared, const std::vector<Inputs>& corpus,
                                std::size_t count, std::uint64_t seed);

}  // namespace snnplan::analyse
