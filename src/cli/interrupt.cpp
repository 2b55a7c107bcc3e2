#include "cli/interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace snnplan::cli::interrupt {
namespace {

volatile std::sig_atomic_t requested = 0;

void remember(int signal) {
  requested = signal;
}

}  // namespace

void install() {
  struct sigaction action {};
  action.sa_handler = &remember;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a read waiting for input returns EINTR, so a batch blocked on a pipe
  // notices the request (cli/lines.cpp). SA_RESETHAND: the next signal has its default
  // action, so a second Ctrl-C ends a run that does not stop.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int pending() noexcept {
  return requested;
}

}  // namespace snnplan::cli::interrupt
