// serve() for the statically linked CLI, which `cmake --install` and the .deb put on PATH as
// `snnplan` (it starts fastest: bench/cold_start_bench.cpp). Debian ships cpp-httplib as a
// shared library only, so this binary has no web server of its own: it runs the dynamically
// linked CLI installed beside it (SNNPLAN_SERVE_HELPER, a path relative to this executable's
// directory) in its place, with the same arguments. This binary has already parsed them, with
// the same definitions, so --help and usage errors are the same; the workbench's output and
// exit codes are the dynamic CLI's own, since it replaces this process.

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontends/serve/messages.hpp"
#include "frontends/serve/server.hpp"

namespace snnplan::serve {
namespace {

// This process's arguments as the kernel holds them (NUL-separated): serve() is called
// after parsing, far from main's argv.
std::vector<std::string> own_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> arguments;
  for (std::size_t begin = 0; begin < all.size();) {
    const std::size_t end = all.find('\0', begin);
    arguments.emplace_back(all.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return arguments;
}

}  // namespace

void serve(const ServerOptions&, std::ostream& out, const std::function<bool()>&) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::string helper = (self.parent_path() / SNNPLAN_SERVE_HELPER).lexically_normal().string();
  std::vector<std::string> arguments = own_arguments();
  if (ec || arguments.empty()) throw std::runtime_error(messages::cannot_run_server(helper, "/proc/self is not readable"));
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  out.flush();
  ::execv(helper.c_str(), argv.data());
  throw std::runtime_error(messages::cannot_run_server(helper, std::strerror(errno)));
}

}  // namespace snnplan::serve
