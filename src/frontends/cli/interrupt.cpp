#include "frontends/cli/interrupt.hpp"

#include <signal.h>

#include <atomic>
#include <csignal>

namespace snnplan::cli::interrupt {
namespace {

// A lock-free atomic rather than a volatile sig_atomic_t: the handler may run on any thread,
// and with --jobs several threads read the flag.
std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free);  // so it may be written by a handler

void remember(int signal) {
  requested.store(signal, std::memory_order_relaxed);
}

}  // namespace

void install() {
  struct sigaction action {};
  action.sa_handler = &remember;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a read waiting for input returns EINTR, so a batch blocked on a pipe
  // notices the request (frontends/cli/lines.cpp). SA_RESETHAND: the next signal has its default
  // action, so a second Ctrl-C ends a run that does not stop.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int pending() noexcept {
  return requested.load(std::memory_order_relaxed);
}

}  // namespace snnplan::cli::interrupt
