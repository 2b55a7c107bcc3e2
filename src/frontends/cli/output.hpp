#pragma once
// Where a subcommand's result goes, with every write checked: standard output, or with
// -o FILE a temporary file beside FILE that replaces it only when complete (written,
// flushed, fsynced, renamed), so FILE holds either its old content or the whole new one.
// A failed write is remembered with its reason; the dispatch (app.cpp) turns it into
// "error: cannot write output: REASON" and ExitCode::write_failed.

#include <memory>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>

namespace snnplan::cli {

/// An output stream buffer on a file descriptor that writes everything it is given or
/// remembers why it could not: short writes are continued and EINTR retried, any other
/// failure (ENOSPC, EPIPE with SIGPIPE ignored, EIO, ...) is kept and every later write
/// fails at once, so the stream goes bad and nothing after the hole is written.
class FdWriter : public std::streambuf {
 public:
  explicit FdWriter(int fd);
  FdWriter(const FdWriter&) = delete;
  FdWriter& operator=(const FdWriter&) = delete;
  ~FdWriter() override;

  /// The errno of the first failed write, 0 while every write succeeded.
  [[nodiscard]] int error() const noexcept { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool write_all(const char* data, std::size_t size);
  bool drain();

  int fd_;
  int error_ = 0;
  std::unique_ptr<char[]> buffer_;
};

/// Why `out` failed, for "cannot write output: ..." -- the system's reason when `out` writes
/// through an FdWriter, else a generic text. Call only when `out` has failed.
std::string write_failure_reason(const std::ostream& out);

/// -o FILE: a temporary file in FILE's directory (so the rename cannot cross file systems),
/// renamed over FILE by commit(). Whatever goes wrong before, FILE is untouched and the
/// temporary is removed (by discard() or the destructor).
class AtomicFileOutput {
 public:
  /// Creates the temporary. Throws WriteFailed when it cannot (a read-only directory, a
  /// missing one, FILE being a directory).
  explicit AtomicFileOutput(std::string path);
  AtomicFileOutput(const AtomicFileOutput&) = delete;
  AtomicFileOutput& operator=(const AtomicFileOutput&) = delete;
  ~AtomicFileOutput();

  std::ostream& stream() { return stream_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  /// Flushes, fsyncs and renames the temporary over FILE (then fsyncs the directory, so the
  /// rename itself survives a crash). Throws WriteFailed on any failure, FILE untouched.
  void commit();
  /// Removes the temporary; FILE keeps its old content (or does not appear).
  void discard() noexcept;

 private:
  std::string path_;
  std::string temporary_;
  int fd_ = -1;
  std::optional<FdWriter> writer_;
  std::ostream stream_{nullptr};
};

/// A write that failed: "error: cannot write output: <reason>", ExitCode::write_failed.
struct WriteFailed {
  std::string reason;
};

}  // namespace snnplan::cli
