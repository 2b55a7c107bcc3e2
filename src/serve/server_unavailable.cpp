// serve() for snnplan-static, the CLI linked statically: Debian ships cpp-httplib as a shared
// library only, so the static binary has no web server and says so; `snnplan serve` has one.

#include <stdexcept>

#include "serve/messages.hpp"
#include "serve/server.hpp"

namespace snnplan::serve {

void serve(const ServerOptions&, std::ostream&, const std::function<bool()>&) {
  throw std::runtime_error(messages::no_server_in_static_build());
}

}  // namespace snnplan::serve
