#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return snnplan::cli::run(argc, argv, std::cin, std::cout, std::cerr);
}
