#pragma once
// The fuzz targets as plain functions: libFuzzer entry points (fuzz/libfuzzer_main.cpp) call
// them under clang with -fsanitize=fuzzer,address,undefined, and the replay driver
// (fuzz/replay.cpp) runs saved inputs through the same code in the normal build.
//
// Each function takes one input and returns 0. Anything the library must never do with any
// input -- crash, throw an exception it does not document, break an invariant checked here --
// aborts the process, which libFuzzer and the replay test both report.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace snnplan::fuzz {

/// YAML text -> RuleSet::from_string (loader, checker, compiler); on success a few fixed
/// inputs are evaluated (plain and with a trace, which must agree) and rendered; on failure
/// every diagnostic is rendered against the text.
int rule_file(const std::uint8_t* data, std::size_t size);

/// Expression text -> parse_expression; then the same text as a `let` of a small rule file,
/// evaluated with ordinary and extreme inputs.
int expression(const std::uint8_t* data, std::size_t size);

/// One JSON Lines line -> inputs_from_json_line + evaluate with the built-in rules (as
/// `snnplan recommend --batch`), and -> request_from_json_line + plan() (as `snnplan plan --batch`).
int json_line(const std::uint8_t* data, std::size_t size);

/// "dp=4,tp=2" -> Topology::parse, which must read its own to_string() back; then a plan
/// for the topology.
int topology(const std::uint8_t* data, std::size_t size);

struct Target {
  std::string_view name;  // also the folder name under fuzz/corpus/ and tests/fuzz-regressions/
  int (*run)(const std::uint8_t*, std::size_t);
};

/// All targets, by name.
const std::vector<Target>& targets();

}  // namespace snnplan::fuzz
