#pragma once
// Reading JSON Lines input in bounded memory: a line longer than kMaxBatchLineBytes is
// skipped (its bytes read and dropped, never held whole) and reported by its number, and a
// read blocked on a pipe ends when SIGINT or SIGTERM asks the run to stop.

#include <cstddef>
#include <memory>
#include <streambuf>
#include <string>

namespace snnplan::cli {

/// The longest batch input line taken ("Limits" in docs/cli.md): 1 MiB, far beyond any real
/// request (~200 bytes) and small enough that a hostile line costs no more than that.
inline constexpr std::size_t kMaxBatchLineBytes = 1 << 20;

/// An input stream buffer on a file descriptor. Unlike a filebuf, a read interrupted by a
/// signal that asks the run to stop (frontends/cli/interrupt.hpp) ends the input instead of waiting on.
class FdReader : public std::streambuf {
 public:
  explicit FdReader(int fd);
  FdReader(const FdReader&) = delete;
  FdReader& operator=(const FdReader&) = delete;
  /// The errno of a failed read (it then reads as the end of the input), else 0.
  [[nodiscard]] int error() const noexcept { return error_; }

 protected:
  int_type underflow() override;
  std::streamsize showmanyc() override;

 private:
  int fd_;
  int error_ = 0;
  std::unique_ptr<char[]> buffer_;
};

enum class LineRead { line, too_long, end };

/// The next line of `in` without its newline (a last line without one counts). A line
/// longer than `limit` bytes is consumed up to its newline without being stored: too_long.
LineRead read_line(std::streambuf& in, std::string& line, std::size_t limit = kMaxBatchLineBytes);

}  // namespace snnplan::cli
