#pragma once
// The Language Server Protocol's base protocol: each message is a header (lines ending in
// "\r\n", one of them `Content-Length: N`, then an empty line) followed by N bytes of JSON.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

namespace snnplan::lsp {

/// Bodies beyond this are refused (and skipped) rather than held in memory.
inline constexpr std::size_t kMaxMessageBytes = 64 * 1024 * 1024;

struct Frame {
  enum class Status {
    message,     ///< body holds the message's bytes
    bad_header,  ///< no usable Content-Length: the body could not be found (skipped to the blank
                 ///< line)
    too_large,   ///< Content-Length beyond kMaxMessageBytes: the body was read and dropped
    end,         ///< the stream ended (or broke off inside a message)
  };
  Status status = Status::end;
  std::string body;
};

/// Reads the next message from `in`.
Frame read_frame(std::istream& in);

/// Writes `body` as one message and flushes, so a client waiting for it gets it at once.
void write_frame(std::ostream& out, const std::string& body);

}  // namespace snnplan::lsp
