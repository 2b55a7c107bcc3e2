// Uses the installed C++ API: the built-in rules, and the rule file installed under share/.
// Exits non-zero when an answer is not the expected one.
#include <snnplan/snnplan.hpp>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#ifndef SNNPLAN_RULES_DIR
#error "build with -DSNNPLAN_RULES_DIR=\"<prefix>/share/snnplan/rules\""
#endif

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cerr << "consumer: FAILED: " << what << '\n';
  }
}

void check_memory_answer(const snnplan::Recommendation& rec, const std::string& source) {
  check(rec.mode == "fsdp2_tp", source + ": mode is " + rec.mode + ", expected fsdp2_tp");
  check(rec.mesh_shape == std::vector<std::int64_t>{4, 2}, source + ": mesh_shape is not [4, 2]");
  check(rec.memopt_level == 1, source + ": memopt_level is not 1");
  check(rec.rationale.size() == 2, source + ": rationale does not have 2 lines");
}

}  // namespace

int main() {
  try {
#ifdef SNNPLAN_EXPECTED_VERSION
    check(std::string(snnplan::version) == SNNPLAN_EXPECTED_VERSION,
          std::string("header version ") + snnplan::version + " differs from the package version " +
              SNNPLAN_EXPECTED_VERSION);
#endif
    // The built-in table, compiled into the library.
    const snnplan::Recommendation builtin = snnplan::recommend("spikformer", 8, "memory", 64);
    check_memory_answer(builtin, "built-in rules");

    // The same table from the installed rule file gives the same answer.
    const snnplan::RuleSet installed =
        snnplan::RuleSet::from_file(std::string(SNNPLAN_RULES_DIR) + "/snn_distributed.yaml");
    const snnplan::Recommendation from_file = snnplan::recommend("spikformer", 8, "memory", 64, {}, installed);
    check_memory_answer(from_file, "installed rule file");
    check(from_file == builtin, "the installed rule file and the built-in rules disagree");

    // The reference's ValueError surfaces as snnplan::RuleError.
    bool refused = false;
    try {
      (void)snnplan::recommend("spikformer", 8, "no-such-preference", 64);
    } catch (const snnplan::RuleError&) {
      refused = true;
    }
    check(refused, "an unknown prefer was not refused with RuleError");

    std::cout << "consumer: mode=" << builtin.mode << " mesh=[" << (*builtin.mesh_shape)[0] << ", "
              << (*builtin.mesh_shape)[1] << "] snnplan " << snnplan::version << '\n';
  } catch (const std::exception& e) {
    std::cerr << "consumer: unexpected exception: " << e.what() << '\n';
    return 2;
  }
  return failures == 0 ? 0 : 1;
}
