#include "frontends/cli/lines.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "frontends/cli/interrupt.hpp"

namespace snnplan::cli {

namespace {
constexpr std::size_t kReadBufferBytes = 1 << 16;
}

// The buffer is allocated by the first read: a run that never reads its standard input (most
// runs of the CLI) does not grow the heap by it at start-up.
FdReader::FdReader(int fd) : fd_(fd) {}

FdReader::int_type FdReader::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!buffer_) buffer_.reset(new char[kReadBufferBytes]);
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.get(), kReadBufferBytes);
    if (n < 0 && errno == EINTR) {
      if (interrupt::pending()) return traits_type::eof();
      continue;
    }
    if (n < 0) error_ = errno;
    if (n <= 0) return traits_type::eof();
    setg(buffer_.get(), buffer_.get(), buffer_.get() + n);
    return traits_type::to_int_type(*gptr());
  }
}

std::streamsize FdReader::showmanyc() {
  // What a read would return without waiting: the batch loop hands over finished lines
  // before it may block (frontends/cli/batch.cpp).
  int available = 0;
  if (::ioctl(fd_, FIONREAD, &available) == 0 && available > 0) return available;
  return 0;
}

namespace {

// std::streambuf's get area is protected. A type derived from it may name those members, and a
// pointer to member formed through it applies to any stream buffer, so read_line can scan what
// is buffered with memchr instead of calling sbumpc() for every character.
struct GetArea : std::streambuf {
  static char* next(std::streambuf& in) { return (in.*&GetArea::gptr)(); }
  static char* end(std::streambuf& in) { return (in.*&GetArea::egptr)(); }
  static void skip(std::streambuf& in, std::size_t n) { (in.*&GetArea::gbump)(static_cast<int>(n)); }
};

}  // namespace

LineRead read_line(std::streambuf& in, std::string& line, std::size_t limit) {
  line.clear();
  using traits = std::streambuf::traits_type;
  bool too_long = false;
  // Takes [data, data + n) of the line; past the limit, the line is dropped and only its end
  // is looked for.
  auto take = [&](const char* data, std::size_t n) {
    if (too_long) return;
    if (n > limit - line.size()) {
      too_long = true;
      line.clear();
      return;
    }
    line.append(data, n);
  };
  for (;;) {
    const char* next = GetArea::next(in);
    const char* end = GetArea::end(in);
    if (next == end) {
      const auto c = in.sgetc();  // refills the buffer
      if (traits::eq_int_type(c, traits::eof())) {
        if (too_long) return LineRead::too_long;
        return line.empty() ? LineRead::end : LineRead::line;
      }
      if (GetArea::next(in) == GetArea::end(in)) {  // an unbuffered stream: one at a time
        in.sbumpc();
        if (c == '\n') return too_long ? LineRead::too_long : LineRead::line;
        const char one = traits::to_char_type(c);
        take(&one, 1);
      }
      continue;
    }
    // At most 1 GiB at a time: gbump takes an int.
    const auto available = std::min<std::size_t>(static_cast<std::size_t>(end - next), std::size_t{1} << 30);
    const auto* newline = static_cast<const char*>(std::memchr(next, '\n', available));
    const std::size_t n = newline ? static_cast<std::size_t>(newline - next) : available;
    take(next, n);
    GetArea::skip(in, newline ? n + 1 : n);
    if (newline) return too_long ? LineRead::too_long : LineRead::line;
  }
}

}  // namespace snnplan::cli
