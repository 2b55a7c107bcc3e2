#pragma once
// `snnplan serve`: the workbench (frontends/serve/workbench.hpp) over HTTP with cpp-httplib, and the
// page (frontends/serve/workbench.html, embedded at build time). The endpoints are in docs/serve.md.

#include <functional>
#include <ostream>
#include <string>

#include "frontends/serve/workbench.hpp"

namespace snnplan::serve {

/// The largest request body the server reads; a larger one is refused with 413.
inline constexpr std::size_t kMaxRequestBytes = std::size_t{4} << 20;

struct ServerOptions {
  WorkbenchOptions workbench;
  std::string host = "127.0.0.1";
  int port = 0;               ///< 0: one the system chooses
  bool allow_remote = false;  ///< with a host other than the loopback: a token is required
};

/// Whether `host` is the loopback only (127.0.0.1, ::1, localhost), which needs no token.
bool is_loopback(const std::string& host);

/// Serves until `stop_requested()` returns true (polled a few times a second). Prints
/// messages::serving(FILE, URL) as the first line of `out` once it listens (with a token in the
/// URL when one is required). Throws std::runtime_error when it cannot read the file or listen,
/// std::invalid_argument for a remote host without allow_remote.
void serve(const ServerOptions& options, std::ostream& out,
           const std::function<bool()>& stop_requested);

/// The embedded page (frontends/serve/workbench.html).
extern const std::string_view kWorkbenchPage;

}  // namespace snnplan::serve
