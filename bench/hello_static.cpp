// The yardstick of the cold-start benchmark (bench/cold_start_bench.cpp): a C++ hello world,
// linked statically, the least a C++ program can cost to start.
#include <cstdio>

int main() {
  std::puts("hello");
  return 0;
}
