#include <iostream>

#include "frontends/cli/interrupt.hpp"
#include "frontends/cli/lines.hpp"
#include "frontends/cli/output.hpp"
#include "frontends/cli/run.hpp"

int main(int argc, char** argv) {
  snnplan::cli::interrupt::install();
  // Standard input and output on their file descriptors rather than std::cin / std::cout:
  // every write is checked with its reason kept (a full disk, EPIPE), and a read blocked on a
  // pipe ends when SIGINT or SIGTERM asks the run to stop. std::cerr stays synchronised with
  // C's unbuffered stderr: std::ios::sync_with_stdio(false) would give each of the six standard
  // streams a buffer of its own (120 KiB of heap, page faults of every start) for the one of
  // them the CLI writes to, whose every message is flushed at once either way (unitbuf).
  snnplan::cli::FdReader stdin_reader(0);
  snnplan::cli::FdWriter stdout_writer(1);
  std::istream in(&stdin_reader);
  std::ostream out(&stdout_writer);
  return snnplan::cli::run(argc, argv, in, out, std::cerr,
                           snnplan::cli::CommandLineLifetime::process);
}
