#pragma once
// SHA-256 of bytes, in lower-case hex as sha256sum prints it (libmd computes it): the identity
// of a rule file's revision in decision records, rank agreement and replay.

#include <string>
#include <string_view>

namespace snnplan::detail {

[[nodiscard]] std::string sha256_hex(std::string_view bytes);

}  // namespace snnplan::detail
