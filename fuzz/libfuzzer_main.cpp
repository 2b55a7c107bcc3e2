// libFuzzer entry point; SNNPLAN_FUZZ_TARGET names the function of targets.hpp to call.

#include <cstddef>
#include <cstdint>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return snnplan::fuzz::SNNPLAN_FUZZ_TARGET(data, size);
}
