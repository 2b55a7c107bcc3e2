#include "frontends/lsp/roots.hpp"

#include <algorithm>
#include <filesystem>

namespace snnplan::lsp {
namespace fs = std::filesystem;

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

fs::path canonical_form(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal();
  fs::path real = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : real;
}

}  // namespace

std::optional<std::string> path_of_uri(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!uri.starts_with(kScheme)) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  // file://host/path: only the local host (empty or "localhost") names a file here.
  const std::size_t slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view host = uri.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  uri.remove_prefix(slash);
  std::string path;
  for (std::size_t k = 0; k < uri.size(); ++k) {
    if (uri[k] == '%' && k + 2 < uri.size() && hex_digit(uri[k + 1]) >= 0 &&
        hex_digit(uri[k + 2]) >= 0) {
      const char decoded = static_cast<char>(hex_digit(uri[k + 1]) * 16 + hex_digit(uri[k + 2]));
      if (decoded == '\0') return std::nullopt;
      path += decoded;
      k += 2;
    } else if (uri[k] == '?' || uri[k] == '#') {
      break;
    } else {
      path += uri[k];
    }
  }
  return path;
}

std::string uri_of_path(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                       c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[u >> 4];
      uri += kHex[u & 15];
    }
  }
  return uri;
}

void RuleRoots::add(const std::string& directory) {
  std::string root = canonical_form(directory).string();
  if (std::find(roots_.begin(), roots_.end(), root) == roots_.end())
    roots_.push_back(std::move(root));
}

bool RuleRoots::contains(const std::string& path) const {
  const fs::path real = canonical_form(path);
  for (const std::string& root : roots_) {
    const fs::path relative = real.lexically_relative(root);
    if (!relative.empty() && *relative.begin() != "..") return true;
  }
  return false;
}

}  // namespace snnplan::lsp
