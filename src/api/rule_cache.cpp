#include "api/rule_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "compile/serialized_rules.hpp"

namespace snnplan::api {
namespace {

/// Cache files larger than this are not read (a rule file is at most load::kMaxRuleFileBytes;
/// its compiled form is a few times larger).
constexpr std::size_t kMaxCacheFileBytes = std::size_t{1} << 30;

std::string hex(std::uint64_t v) {
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(v));
  return out;
}

/// A cache file mapped read-only where it lies in the page cache: reading it back allocates no
/// buffer (10 MiB for a 10,000-rule table) and copies nothing into one, and MAP_POPULATE maps its
/// pages in one call rather than fault by fault. Nothing read back keeps a view of the mapping:
/// the deserializer copies what it keeps, as it did from the buffer this replaced.
///
/// The size is taken once, from fstat, and every read of the deserializer stays inside it. A
/// cache file is never changed in place (write_cached renames a new file over it, and a mapping
/// keeps the old inode), so only a program that truncates the file while it is mapped could make
/// a read fault; a file cut short before it is opened is rejected by the header's payload size.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return;
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0 &&
        static_cast<std::size_t>(info.st_size) <= kMaxCacheFileBytes) {
      const auto size = static_cast<std::size_t>(info.st_size);
      void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (data != MAP_FAILED) {
        data_ = data;
        size_ = size;
      }
    }
    ::close(fd);  // the mapping keeps the file
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  [[nodiscard]] std::string_view view() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

/// `path` and its parents as directories (mode 0700: the cache holds the user's rules).
bool make_directories(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return S_ISDIR(info.st_mode);
  const std::size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !make_directories(path.substr(0, slash))) return false;
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

}  // namespace

bool cache_disabled_by_environment() {
  const char* value = std::getenv(kNoCacheVariable);
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

std::string cache_directory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return std::string(xdg) + "/snnplan";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/snnplan";
  return {};
}

std::string cache_path(const std::string& directory, std::string_view text, const std::string& file_name,
                       bool analysed) {
  // The name, the options and the format are hashed into the seed: a change of any of them
  // is another cache file, never a rejected one.
  const std::string identity = file_name + '\0' + (analysed ? "analysed" : "loaded") + '\0' +
                               std::to_string(compile::kSerializedFormatVersion);
  const std::uint64_t seed = compile::content_hash(identity);
  return directory + '/' + hex(compile::content_hash(text, seed)) + hex(compile::content_hash(text, ~seed)) + ".rules";
}

std::shared_ptr<const detail::CompiledRules> read_cached(const std::string& directory, std::string_view text,
                                                         const std::string& file_name, bool analysed) {
  const MappedFile file(cache_path(directory, text, file_name, analysed));
  if (file.view().empty()) return nullptr;
  auto rules = compile::deserialize_rules(file.view());
  // The hash named the file; the text it was compiled from decides.
  if (!rules || rules->source_text != text || rules->file_name != file_name || !rules->used.empty()) return nullptr;
  return rules;
}

void write_cached(const std::string& directory, std::string_view text, const std::string& file_name, bool analysed,
                  const detail::CompiledRules& rules) noexcept {
  if (!rules.used.empty() || directory.empty()) return;
  try {
    if (!make_directories(directory)) return;
    const std::string path = cache_path(directory, text, file_name, analysed);
    const std::string bytes = compile::serialize_rules(rules);
    std::random_device random;
    const std::string temporary = path + ".tmp." + std::to_string(::getpid()) + '.' + hex(random());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return;
    const bool written = write_all(fd, bytes);
    const bool closed = ::close(fd) == 0;
    if (!written || !closed || ::rename(temporary.c_str(), path.c_str()) != 0) ::unlink(temporary.c_str());
  } catch (...) {
    // No room for the bytes: the load goes on without a cache.
  }
}

}  // namespace snnplan::api
