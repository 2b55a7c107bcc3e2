#pragma once
// The differential soundness campaign of issue 31 (docs/soundness.md): mutants of the shipped
// rule files are checked as `snnplan check` checks them (loader's tree, checker, compiler,
// table analysis), and every mutant that passes is evaluated at a point of every decision
// region (analyse::Partition) and at random points of the declared input space. A rule-file
// error at evaluation -- anything but an `error:` rule, an input's or an invariant's message,
// or a documented builtin or arithmetic error -- after a check without errors is a miss,
// unless the check warned of exactly that kind of failure.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace snnplan::soundness {

/// A rule file the campaign mutates, read from disk.
struct BaseFile {
  std::string path;  // as given, for reports
  std::string text;
};

struct Options {
  std::uint64_t mutants = 1000;
  std::uint64_t seed = 1;
  /// At most this many region points per mutant (the partition may have more).
  std::size_t max_region_points = 300;
  /// Random points of the declared input space per mutant, beside the regions'.
  std::size_t random_points = 40;
  /// Mutations per mutant: 1 to this many, chosen at random.
  int max_mutations = 2;
};

/// A class of failure and its first, smallest example.
struct FailureClass {
  std::uint64_t mutants = 0;
  std::string example;  // file, mutations, input, message
  std::size_t example_size = SIZE_MAX;
};

struct Figures {
  std::uint64_t mutants = 0;
  std::uint64_t rejected = 0;  // the check reported an error
  std::uint64_t passed = 0;    // no error: evaluated
  std::uint64_t warned = 0;    // passed, failed at evaluation, and the check warned of it
  std::uint64_t inputs = 0;    // evaluations of passed mutants
  std::uint64_t misses = 0;    // passed mutants with an unwarned rule-file error
  std::uint64_t deliberate = 0;  // evaluations ending in an error the file raises on purpose
  std::uint64_t arithmetic = 0;  // evaluations ending in overflow or a division by zero
  std::uint64_t unpartitioned = 0;  // passed mutants the partition refused: random points only
  std::map<std::string, FailureClass> miss_classes;
  std::map<std::string, FailureClass> warned_classes;
  std::map<std::string, std::uint64_t> operators;  // mutants per operator
};

/// Runs `options.mutants` mutants of `files` (each mutant mutates one file, chosen in turn).
/// Deterministic for a seed. Throws std::runtime_error when a base file does not load cleanly.
Figures run_campaign(const std::vector<BaseFile>& files, const Options& options);

/// The figures as the report prints them (one line of totals, then each class of miss and of
/// warned failure with its example).
std::string report(const Figures& figures);

}  // namespace snnplan::soundness
