/* Uses the installed C API (C99) against the shared library. Exits non-zero on a wrong answer. */
#include <snnplan/snnplan.h>

#include <stdio.h>
#include <string.h>

#ifndef SNNPLAN_RULES_DIR
#error "build with -DSNNPLAN_RULES_DIR=\"<prefix>/share/snnplan/rules\""
#endif

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "consumer_c: FAILED: %s\n", what);
  }
}

static void check_memory_answer(const snnplan_rules* rules, const char* source) {
  char* json = NULL;
  snnplan_status status = snnplan_evaluate(
      rules, "{\"model\": \"spikformer\", \"world_size\": 8, \"prefer\": \"memory\", \"batch_size\": 64}",
      &json);
  check(status == SNNPLAN_OK, source);
  check(json != NULL && strstr(json, "\"mode\":\"fsdp2_tp\"") != NULL, source);
  check(json != NULL && strstr(json, "\"mesh_shape\":[4,2]") != NULL, source);
  if (json != NULL) printf("consumer_c: %s: %.60s...\n", source, json);
  snnplan_string_free(json);
}

/* The plan for a memory objective on dp=4,tp=2: fsdp2_tp on that mesh. */
static void check_memory_plan(const snnplan_rules* plan_rules, const char* source) {
  static const char prefix[] = "{\"mode\":\"fsdp2_tp\",\"objective\":\"memory\",";
  char* json = NULL;
  snnplan_status status = snnplan_plan(
      plan_rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2}, \"batch_size\": 64}", &json);
  check(status == SNNPLAN_OK, source);
  check(json != NULL && strncmp(json, prefix, sizeof prefix - 1) == 0, source);
  check(json != NULL && strstr(json, "\"mesh_shape\":[4,2],\"tp_mesh_dim\":1,\"dp_mesh_dim\":0,") != NULL, source);
  if (json != NULL) printf("consumer_c: %s: %.60s...\n", source, json);
  snnplan_string_free(json);
}

int main(void) {
  snnplan_rules* builtin = NULL;
  snnplan_rules* installed = NULL;
  snnplan_rules* plan_builtin = NULL;
  snnplan_rules* plan_installed = NULL;
  snnplan_error* error = NULL;
  int64_t microbatches = 0;

#ifdef SNNPLAN_EXPECTED_VERSION
  check(strcmp(snnplan_version(), SNNPLAN_EXPECTED_VERSION) == 0, "snnplan_version() is the package version");
#endif
  check(snnplan_rules_builtin(&builtin) == SNNPLAN_OK, "snnplan_rules_builtin");
  if (builtin != NULL) check_memory_answer(builtin, "built-in rules");

  if (snnplan_rules_from_file(SNNPLAN_RULES_DIR "/snn_distributed.yaml", &installed, &error) == SNNPLAN_OK) {
    check_memory_answer(installed, "installed rule file");
  } else {
    check(0, snnplan_error_text(error));
  }

  check(snnplan_pipeline_microbatches(64, 4, &microbatches, NULL) == SNNPLAN_OK && microbatches > 0,
        "snnplan_pipeline_microbatches(64, 4)");

  check(snnplan_plan_rules_builtin(&plan_builtin) == SNNPLAN_OK, "snnplan_plan_rules_builtin");
  if (plan_builtin != NULL) check_memory_plan(plan_builtin, "built-in plan rules");
  snnplan_error_free(error);
  error = NULL;
  if (snnplan_rules_from_file(SNNPLAN_RULES_DIR "/snn_plan.yaml", &plan_installed, &error) == SNNPLAN_OK) {
    check_memory_plan(plan_installed, "installed plan rule file");
  } else {
    check(0, snnplan_error_text(error));
  }

  snnplan_rules_free(plan_installed);
  snnplan_rules_free(plan_builtin);
  snnplan_error_free(error);
  snnplan_rules_free(installed);
  snnplan_rules_free(builtin);
  return failures == 0 ? 0 : 1;
}
