#include "cli/lines.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

#include "cli/interrupt.hpp"

namespace snnplan::cli {

namespace {
constexpr std::size_t kBufferBytes = 1 << 16;
}

FdReader::FdReader(int fd) : fd_(fd), buffer_(new char[kBufferBytes]) {
  setg(buffer_.get(), buffer_.get(), buffer_.get());
}

FdReader::int_type FdReader::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.get(), kBufferBytes);
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
  // before it may block (cli/batch.cpp).
  int available = 0;
  if (::ioctl(fd_, FIONREAD, &available) == 0 && available > 0) return available;
  return 0;
}

LineRead read_line(std::streambuf& in, std::string& line, std::size_t limit) {
  line.clear();
  using traits = std::streambuf::traits_type;
  for (;;) {
    const auto c = in.sbumpc();
    if (traits::eq_int_type(c, traits::eof())) return line.empty() ? LineRead::end : LineRead::line;
    if (c == '\n') return LineRead::line;
    if (line.size() == limit) {
      line.clear();
      for (auto d = in.sbumpc(); !traits::eq_int_type(d, traits::eof()) && d != '\n';
           d = in.sbumpc()) {
      }
      return LineRead::too_long;
    }
    line.push_back(traits::to_char_type(c));
  }
}

}  // namespace snnplan::cli
