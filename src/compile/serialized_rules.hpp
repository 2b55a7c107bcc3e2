#pragma once
// CompiledRules as bytes and back: the form the built-in rules are embedded in (generated at
// build time by tools/serialize_builtins.cpp) and the form of the compiled-rules cache
// (api/rule_cache.cpp). Everything explanations, traces and messages read is kept -- source
// locations, rule and template text, the file's source text, its warnings and allowed
// findings -- so rules read back behave exactly as the rules that were written.
//
// Layout: a 48-byte header, then the payload.
//   magic "SNNPLANC" | format version (u32) | reserved (u32) | ABI hash (u64)
//   | payload size (u64) | payload checksum (u64) | reserved (u64)
// The ABI hash covers the library version, kFormatVersion, the matcher and builtin tables
// (a compiled rule names them by position and name), the diagnostic codes (the warnings kept
// are those the build's checks find) and the sizes of the value types; a
// reader refuses bytes whose header differs from its own. Integers are in the machine's
// byte order (the ABI hash covers it).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "compile/compiled_rules.hpp"

namespace snnplan::compile {

/// Bump it whenever the payload's layout or the meaning of a compiled field changes.
inline constexpr std::uint32_t kSerializedFormatVersion = 5;  // 4: a candidate value's level; 5: inputs' descriptions
inline constexpr std::size_t kSerializedHeaderBytes = 48;

/// The bytes of `rules` (with the rule sets it uses, nested).
std::string serialize_rules(const detail::CompiledRules& rules);

/// Why bytes could not be read back (for --verbose notes and tests).
enum class SerializedProblem { none, truncated, bad_magic, wrong_version, bad_checksum, malformed };
const char* to_string(SerializedProblem problem) noexcept;

/// Where bytes to read back come from.
enum class SerializedOrigin {
  outside,     ///< a file (the cache) or a caller: every check below
  this_build,  ///< embedded in this program by its own build (the built-in rules): the ABI hash
               ///< and the checksum are not recomputed (~22k instructions at every CLI start),
               ///< the payload is still read with every index checked
};

/// The rules `bytes` hold, or nullptr with `problem` set: every problem (a short or padded
/// file, another format or build, a flipped bit, an index out of range) is detected -- with
/// SerializedOrigin::this_build, all but another build and a flipped bit; none throws or
/// crashes. May throw std::bad_alloc.
std::shared_ptr<detail::CompiledRules> deserialize_rules(
    std::string_view bytes, SerializedProblem* problem = nullptr,
    SerializedOrigin origin = SerializedOrigin::outside);

/// A 64-bit hash of `bytes` (the payload checksum; also names cache files).
std::uint64_t content_hash(std::string_view bytes, std::uint64_t seed = 0) noexcept;

}  // namespace snnplan::compile
