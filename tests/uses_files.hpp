#pragma once
// Two small rule files for the tests of `uses:` (loader_test.cpp, rule_roots_test.cpp): one
// that uses another and calls it, and one to be used.

#include <string>

namespace snnplan::testing {

/// A rule file that uses `other` (as 'other', on line 3, column 10) and returns its `out` for x.
inline std::string user_of(const std::string& other) {
  return "snnplan: 1\nuses:\n  other: " + other + R"(
inputs:
  x: {type: int}
let:
  r:
    call: other
    with: {x: = x}
record:
  out: {type: int, init: = r.out}
start: main
tables:
  main:
    - name: all
      set: {}
)";
}

/// A rule file to be used: out = x * 2.
inline const std::string kUsed = R"(snnplan: 1
inputs:
  x: {type: int}
record:
  out: {type: int, init: = x * 2}
start: main
tables:
  main:
    - name: all
      set: {}
)";

}  // namespace snnplan::testing
