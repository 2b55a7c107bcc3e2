#include "frontends/cli/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "frontends/cli/messages.hpp"

namespace snnplan::cli {

namespace {
constexpr std::size_t kWriteBufferBytes = 1 << 16;

std::string system_reason(int error) {
  return std::strerror(error);
}
}  // namespace

FdWriter::FdWriter(int fd) : fd_(fd), buffer_(new char[kWriteBufferBytes]) {
  setp(buffer_.get(), buffer_.get() + kWriteBufferBytes);
}

FdWriter::~FdWriter() {
  // Whoever owns the stream flushes it and checks the outcome; this only keeps an unflushed
  // tail from vanishing silently when that did not happen (its failure can no longer be told).
  drain();
}

bool FdWriter::write_all(const char* data, std::size_t size) {
  if (error_) return false;
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error_ = errno;
      return false;
    }
    if (n == 0) {  // no progress and no reason: report it rather than loop for ever
      error_ = EIO;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool FdWriter::drain() {
  const std::size_t pending = static_cast<std::size_t>(pptr() - pbase());
  const bool ok = write_all(pbase(), pending);
  setp(buffer_.get(), buffer_.get() + kWriteBufferBytes);
  return ok;
}

FdWriter::int_type FdWriter::overflow(int_type c) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize FdWriter::xsputn(const char* data, std::streamsize size) {
  const auto wanted = static_cast<std::size_t>(size);
  if (wanted <= static_cast<std::size_t>(epptr() - pptr())) {
    std::memcpy(pptr(), data, wanted);
    pbump(static_cast<int>(wanted));
    return size;
  }
  // Larger than what is left: what is buffered goes first, then this directly.
  if (!drain() || !write_all(data, wanted)) return 0;
  return size;
}

int FdWriter::sync() {
  return drain() ? 0 : -1;
}

std::string write_failure_reason(const std::ostream& out) {
  if (const auto* writer = dynamic_cast<const FdWriter*>(out.rdbuf()); writer && writer->error())
    return system_reason(writer->error());
  return messages::output_stream_failed();
}

AtomicFileOutput::AtomicFileOutput(std::string path) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  std::error_code ignored;
  if (fs::is_directory(path_, ignored)) throw WriteFailed{messages::output_is_directory(path_)};
  const fs::path target(path_);
  const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // A hidden name beside the target; mkstemp makes it unique and creates it 0600.
  std::string pattern =
      (directory / ("." + target.filename().string() + ".snnplan-XXXXXX")).string();
  fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd_ < 0) throw WriteFailed{messages::cannot_create_output(path_, system_reason(errno))};
  temporary_ = pattern;
  // The new file gets the permissions a plain `> FILE` would give it (0666 less the umask),
  // or the old file's, rather than mkstemp's 0600.
  struct stat old {};
  mode_t mode = 0;
  if (::stat(path_.c_str(), &old) == 0) {
    mode = old.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd_, mode);
  writer_.emplace(fd_);
  stream_.rdbuf(&*writer_);
}

AtomicFileOutput::~AtomicFileOutput() {
  discard();
}

void AtomicFileOutput::commit() {
  stream_.flush();
  if (!stream_) {
    const std::string reason = write_failure_reason(stream_);
    discard();
    throw WriteFailed{reason};
  }
  auto fail = [this](int error) {
    discard();
    throw WriteFailed{system_reason(error)};
  };
  if (::fsync(fd_) != 0) fail(errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(errno);
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail(errno);
  temporary_.clear();
  // The rename is durable once the directory is: best effort, the data is already safe.
  const std::filesystem::path target(path_);
  const std::string directory = target.has_parent_path() ? target.parent_path().string() : ".";
  if (const int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void AtomicFileOutput::discard() noexcept {
  if (fd_ >= 0) {
    stream_.rdbuf(nullptr);
    writer_.reset();  // its final drain goes to the file about to be removed
    ::close(fd_);
    fd_ = -1;
  }
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    temporary_.clear();
  }
}

}  // namespace snnplan::cli
