/* The C API, from C99: success, rule error, bad JSON, load errors with position,
 * microbatches, plans, NULL arguments, one handle evaluated (and planned with) from several
 * threads, and decision records (revision, log, decide, shadow mode). */

/* mkdtemp, mkdir, rmdir: POSIX, outside C99 itself. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snnplan/snnplan.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    ++checks;                                                            \
    if (!(cond)) {                                                       \
      ++failures;                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

#define CHECK_STATUS(got, want)                                                            \
  do {                                                                                     \
    snnplan_status got_ = (got);                                                           \
    ++checks;                                                                              \
    if (got_ != (want)) {                                                                  \
      ++failures;                                                                          \
      fprintf(stderr, "%s:%d: status %s, expected %s\n", __FILE__, __LINE__,               \
              snnplan_status_name(got_), snnplan_status_name(want));                       \
    }                                                                                      \
  } while (0)

#define CHECK_STR(got, want)                                                                      \
  do {                                                                                            \
    const char* got_ = (got);                                                                     \
    ++checks;                                                                                     \
    if (got_ == NULL || strcmp(got_, (want)) != 0) {                                              \
      ++failures;                                                                                 \
      fprintf(stderr, "%s:%d: got  \"%s\"\n  expected \"%s\"\n", __FILE__, __LINE__,              \
              got_ ? got_ : "(null)", (want));                                                    \
    }                                                                                             \
  } while (0)

static const char* const kMemoryInput =
    "{\"model\": \"spikformer\", \"world_size\": 8, \"prefer\": \"memory\", \"batch_size\": 64}";
static const char* const kMemoryRecord =
    "{\"prefer\":\"memory\",\"model\":\"spikformer\",\"world_size\":8,\"mode\":\"fsdp2_tp\","
    "\"optimizer_sharding\":\"none\",\"memopt_level\":1,\"mesh_shape\":[4,2],\"tp_mesh_dim\":1,"
    "\"dp_mesh_dim\":0,\"pp_microbatches\":null,\"pp_memopt_stage_budget_ratio\":0.5,"
    "\"pp_schedule\":\"1f1b\",\"pp_virtual_stages\":1,\"pp_layout\":null,\"pp_delay_wgrad\":false,"
    "\"rationale\":[\"prefer='memory' with model='spikformer', world_size=8, backend='inductor'.\","
    "\"Combine FSDP2 and TP to shard both parameters and activations, and enable memopt level 1 "
    "for the strongest memory reduction.\"]}";

/* A `snnplan plan --batch` line and the line the CLI prints for it (tests/data/plan/plan.jsonl, case 1). */
static const char* const kMemoryPlanInput =
    "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2}, \"batch_size\": 64,"
    " \"model_family\": \"cifar10dvs_vgg\"}";
static const char* const kMemoryPlan =
    "{\"mode\":\"fsdp2_tp\",\"objective\":\"memory\",\"topology\":{\"world_size\":8,\"dims\":{\"dp\":4,\"tp\":2},"
    "\"mesh_shape\":[4,2]},\"model_family\":\"cifar10dvs_vgg\",\"backend\":\"inductor\",\"batch_size\":64,"
    "\"optimizer_strategy\":\"none\",\"memopt_level\":1,"
    "\"rationale\":[\"prefer='memory' with model='cifar10dvs_vgg', world_size=8, backend='inductor'.\","
    "\"Combine FSDP2 and TP to shard both parameters and activations, and enable memopt level 1 for the "
    "strongest memory reduction.\"],\"notes\":[],\"tensor_parallel_roots\":null,\"mesh_shape\":[4,2],"
    "\"tp_mesh_dim\":1,\"dp_mesh_dim\":0,\"pp_microbatches\":null,\"pp_schedule\":\"1f1b\","
    "\"pp_virtual_stages\":1,\"pp_layout\":null,\"pp_delay_wgrad\":false,"
    "\"experimental_features\":{\"allow_experimental_conv_tp\":false,\"allow_experimental_spikformer_tp\":false,"
    "\"allow_pipeline\":true,\"allow_zero_optimizer\":true}}";
static const char* const kUnknownObjectivePlanInput =
    "{\"objective\": \"fast\", \"topology\": {\"dp\": 4}, \"batch_size\": 64}";
static const char* const kUnknownObjectivePlan =
    "{\"error\":\"Unsupported objective='fast'. Expected one of ('speed', 'memory', 'capacity').\"}";

/* Record field 'ranks' (line 7, column 10) has no type. */
static const char* const kBrokenRules =
    "snnplan: 1\n"
    "inputs:\n"
    "  world_size: {type: int}\n"
    "  model: {type: string, default: resnet}\n"
    "record:\n"
    "  mode: {type: string, default: none}\n"
    "  ranks: {default: 0}\n"
    "  why: {type: rationale}\n"
    "start: choose\n"
    "tables:\n"
    "  choose:\n"
    "    - name: single\n"
    "      set: {mode: local, ranks: 1}\n"
    "      because: \"single rank for {model}\"\n";

/* Evaluates `input` and checks the status and the exact JSON text. */
static void expect_eval(const snnplan_rules* rules, const char* input, snnplan_status status, const char* json) {
  char* out = NULL;
  CHECK_STATUS(snnplan_evaluate(rules, input, &out), status);
  CHECK_STR(out, json);
  snnplan_string_free(out);
}

/* Checks the status and that the JSON output starts with `prefix`. */
static void expect_eval_prefix(const snnplan_rules* rules, const char* input, snnplan_status status,
                               const char* prefix) {
  char* out = NULL;
  CHECK_STATUS(snnplan_evaluate(rules, input, &out), status);
  CHECK(out != NULL && strncmp(out, prefix, strlen(prefix)) == 0);
  if (out != NULL && strncmp(out, prefix, strlen(prefix)) != 0) fprintf(stderr, "  got: %s\n", out);
  snnplan_string_free(out);
}

/* Plans `input` and checks the status and the exact JSON text. */
static void expect_plan(const snnplan_rules* rules, const char* input, snnplan_status status, const char* json) {
  char* out = NULL;
  CHECK_STATUS(snnplan_plan(rules, input, &out), status);
  CHECK_STR(out, json);
  snnplan_string_free(out);
}

/* Plans `input`, checks the status and that the JSON output contains each of `parts` (NULL-terminated). */
static void expect_plan_contains(const snnplan_rules* rules, const char* input, snnplan_status status,
                                 const char* const* parts) {
  char* out = NULL;
  CHECK_STATUS(snnplan_plan(rules, input, &out), status);
  CHECK(out != NULL);
  for (; out != NULL && *parts != NULL; ++parts) {
    CHECK(strstr(out, *parts) != NULL);
    if (strstr(out, *parts) == NULL) fprintf(stderr, "  missing %s\n  in %s\n", *parts, out);
  }
  snnplan_string_free(out);
}

static void test_general(void) {
  CHECK(snnplan_version() != NULL && strlen(snnplan_version()) > 0);
  CHECK_STR(snnplan_status_name(SNNPLAN_OK), "SNNPLAN_OK");
  CHECK_STR(snnplan_status_name(SNNPLAN_RULE_ERROR), "SNNPLAN_RULE_ERROR");
  CHECK_STR(snnplan_status_name((snnplan_status)99), "SNNPLAN_UNKNOWN_STATUS");
  snnplan_string_free(NULL);
  snnplan_rules_free(NULL);
  snnplan_error_free(NULL);
}

static void test_builtin_evaluate(void) {
  snnplan_rules* rules = NULL;
  CHECK_STATUS(snnplan_rules_builtin(&rules), SNNPLAN_OK);
  CHECK(rules != NULL);
  CHECK_STR(snnplan_rules_file_name(rules), "rules/snn_distributed.yaml");

  /* success */
  expect_eval(rules, kMemoryInput, SNNPLAN_OK, kMemoryRecord);
  /* defaults may be given as null */
  expect_eval(rules,
              "{\"model\": \"spikformer\", \"world_size\": 8, \"prefer\": \"MEMORY\", \"batch_size\": 64,"
              " \"backend\": null, \"fsdp2_available\": null}",
              SNNPLAN_OK, kMemoryRecord);
  /* rule error: the reference's ValueError message */
  expect_eval(rules, "{\"model\": \"spikformer\", \"world_size\": 8, \"prefer\": \"bogus\", \"batch_size\": 64}",
              SNNPLAN_RULE_ERROR,
              "{\"error\":\"Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').\"}");
  expect_eval(rules, "{\"model\": \"m\", \"world_size\": 2, \"prefer\": \"capacity\", \"batch_size\": 17}",
              SNNPLAN_RULE_ERROR,
              "{\"error\":\"batch_size (17) must be divisible by at least one microbatch count in [4, 16] for "
              "pipeline parallelism.\"}");
  /* bad JSON and bad inputs */
  expect_eval_prefix(rules, "{not json", SNNPLAN_BAD_INPUT, "{\"error\":\"not valid JSON: ");
  expect_eval_prefix(rules, "", SNNPLAN_BAD_INPUT, "{\"error\":\"empty line");
  expect_eval(rules, "[1]", SNNPLAN_BAD_INPUT, "{\"error\":\"a batch line must be a JSON object, got an array\"}");
  expect_eval(rules, "{\"model\": \"m\", \"world_size\": \"8\", \"prefer\": \"memory\", \"batch_size\": 64}",
              SNNPLAN_BAD_INPUT, "{\"error\":\"input 'world_size' must be int, got string\"}");
  expect_eval(rules, "{\"model\": \"m\", \"world_sise\": 8, \"prefer\": \"memory\", \"batch_size\": 64}",
              SNNPLAN_BAD_INPUT, "{\"error\":\"unknown input 'world_sise' (did you mean 'world_size'?)\"}");
  expect_eval_prefix(rules, "{\"model\": \"m\", \"prefer\": \"memory\", \"batch_size\": 64}", SNNPLAN_BAD_INPUT,
                     "{\"error\":\"");

  /* NULL arguments */
  {
    char* out = (char*)"untouched";
    CHECK_STATUS(snnplan_evaluate(NULL, kMemoryInput, &out), SNNPLAN_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(snnplan_evaluate(rules, NULL, &out), SNNPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(snnplan_evaluate(rules, kMemoryInput, NULL), SNNPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(snnplan_rules_builtin(NULL), SNNPLAN_INVALID_ARGUMENT);
  }
  snnplan_rules_free(rules);
}

static void test_from_file(const char* rules_dir) {
  char path[4096];
  snnplan_rules* rules = NULL;
  snnplan_error* error = (snnplan_error*)1; /* must be reset to NULL on success */
  snprintf(path, sizeof path, "%s/snn_distributed.yaml", rules_dir);
  CHECK_STATUS(snnplan_rules_from_file(path, &rules, &error), SNNPLAN_OK);
  CHECK(rules != NULL);
  CHECK(error == NULL);
  CHECK_STR(snnplan_rules_file_name(rules), path);
  expect_eval(rules, kMemoryInput, SNNPLAN_OK, kMemoryRecord);
  snnplan_rules_free(rules);
}

static void write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* uses: stays inside the rule root unless another root is given. */
static void test_rule_roots(void) {
  char base[] = "/tmp/snnplan_c_roots_XXXXXX";
  CHECK(mkdtemp(base) != NULL);
  char root[128], outside[128], user[160], used[160];
  snprintf(root, sizeof root, "%s/root", base);
  snprintf(outside, sizeof outside, "%s/outside", base);
  snprintf(user, sizeof user, "%s/user.yaml", root);
  snprintf(used, sizeof used, "%s/used.yaml", outside);
  CHECK(mkdir(root, 0700) == 0);
  CHECK(mkdir(outside, 0700) == 0);
  write_text(used,
             "snnplan: 1\ninputs:\n  x: {type: int}\nrecord:\n  out: {type: int, init: = x * 2}\n"
             "start: main\ntables:\n  main:\n    - name: all\n      set: {}\n");
  write_text(
      user,
      "snnplan: 1\nuses:\n  other: ../outside/used.yaml\ninputs:\n  x: {type: int}\n"
      "let:\n  r: {call: other, with: {x: = x}}\nrecord:\n  out: {type: int, init: = r.out}\n"
      "start: main\ntables:\n  main:\n    - name: all\n      set: {}\n");
  snnplan_rules* rules = NULL;
  snnplan_error* error = NULL;
  CHECK_STATUS(snnplan_rules_from_file(user, &rules, &error), SNNPLAN_LOAD_ERROR);
  CHECK(error != NULL && strstr(snnplan_error_text(error), "is outside the rule root") != NULL);
  snnplan_error_free(error);
  const char* roots[] = {outside};
  CHECK_STATUS(snnplan_rules_from_file_in_roots(user, roots, 1, &rules, &error), SNNPLAN_OK);
  expect_eval(rules, "{\"x\": 21}", SNNPLAN_OK, "{\"out\":42}");
  snnplan_rules_free(rules);
  CHECK_STATUS(snnplan_rules_from_file_in_roots(user, NULL, 1, &rules, &error),
               SNNPLAN_INVALID_ARGUMENT);
  CHECK(rules == NULL);
  snnplan_error_free(error);
  remove(used);
  remove(user);
  rmdir(root);
  rmdir(outside);
  rmdir(base);
}

/* snnplan_run_tests: the report of `snnplan test --format json`, a failed test as
 * SNNPLAN_RULE_ERROR, a bad test file as SNNPLAN_LOAD_ERROR at its position. */
static void test_rule_tests(void) {
  char base[] = "/tmp/snnplan_c_tests_XXXXXX";
  CHECK(mkdtemp(base) != NULL);
  char rules_path[128], good[128], failing[128], broken[128];
  snprintf(rules_path, sizeof rules_path, "%s/rules.yaml", base);
  snprintf(good, sizeof good, "%s/good.test.yaml", base);
  snprintf(failing, sizeof failing, "%s/failing.test.yaml", base);
  snprintf(broken, sizeof broken, "%s/broken.test.yaml", base);
  write_text(rules_path,
             "snnplan: 1\ninputs:\n  n: {type: int}\nrecord:\n  mode: {type: string, default: none}\n"
             "start: main\ntables:\n  main:\n    - name: big\n      when: {n: {ge: 8}}\n"
             "      set: {mode: big}\n    - name: small\n      set: {mode: small}\n");
  write_text(good,
             "tests:\n  - name: eight is big\n    input: {n: 8}\n    expect: {mode: big}\n"
             "  - name: seven is small\n    input: {n: 7}\n    expect: {mode: small}\n");
  write_text(failing, "tests:\n  - name: nine is small\n    input: {n: 9}\n    expect: {mode: small}\n");
  write_text(broken, "tests:\n  - name: a typo\n    input: {m: 9}\n    expect: {mode: small}\n");
  snnplan_rules* rules = NULL;
  snnplan_error* error = NULL;
  CHECK_STATUS(snnplan_rules_from_file(rules_path, &rules, &error), SNNPLAN_OK);
  char* json = NULL;
  const char* passing[] = {good};
  CHECK_STATUS(snnplan_run_tests(rules, passing, 1, 0, &json, &error), SNNPLAN_OK);
  CHECK(error == NULL);
  CHECK(json != NULL && strstr(json, "{\n  \"passed\": 2,\n  \"failed\": 0,") == json);
  CHECK(json != NULL && strstr(json, "\"rule\": {\n      \"percent\": 100.0,") != NULL);
  CHECK(json != NULL && strstr(json, "\"mutation\"") == NULL);
  snnplan_string_free(json);
  CHECK_STATUS(snnplan_run_tests(rules, passing, 1, 1, &json, &error), SNNPLAN_OK);
  CHECK(json != NULL && strstr(json, "\"mutation\": {\n    \"mutants\": ") != NULL);
  snnplan_string_free(json);
  const char* both[] = {good, failing};
  CHECK_STATUS(snnplan_run_tests(rules, both, 2, 0, &json, &error), SNNPLAN_RULE_ERROR);
  CHECK(json != NULL && strstr(json, "{\n  \"passed\": 2,\n  \"failed\": 1,") == json);
  CHECK(json != NULL && strstr(json, "\"what\": \"mode\",\n          \"expected\": \"small\",\n"
                                     "          \"got\": \"big\"") != NULL);
  snnplan_string_free(json);
  const char* bad[] = {broken};
  CHECK_STATUS(snnplan_run_tests(rules, bad, 1, 0, &json, &error), SNNPLAN_LOAD_ERROR);
  CHECK(json == NULL);
  CHECK(error != NULL);
  CHECK_STR(snnplan_error_file(error), broken);
  CHECK(snnplan_error_line(error) == 3 && snnplan_error_column(error) == 13);
  CHECK(strstr(snnplan_error_message(error), "'m'") != NULL);
  snnplan_error_free(error);
  error = NULL;
  const char* missing[] = {"/nonexistent/snnplan.test.yaml"};
  CHECK_STATUS(snnplan_run_tests(rules, missing, 1, 0, &json, &error), SNNPLAN_LOAD_ERROR);
  CHECK(error != NULL &&
        strstr(snnplan_error_text(error), "/nonexistent/snnplan.test.yaml") != NULL);
  snnplan_error_free(error);
  error = NULL;
  CHECK_STATUS(snnplan_run_tests(NULL, passing, 1, 0, &json, &error), SNNPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(snnplan_run_tests(rules, NULL, 1, 0, &json, &error), SNNPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(snnplan_run_tests(rules, passing, 1, 0, NULL, &error), SNNPLAN_INVALID_ARGUMENT);
  CHECK(json == NULL && error == NULL);
  snnplan_rules_free(rules);
  remove(rules_path);
  remove(good);
  remove(failing);
  remove(broken);
  rmdir(base);
}

static void test_load_errors(const char* rules_dir) {
  snnplan_rules* rules = (snnplan_rules*)1;
  snnplan_error* error = NULL;
  char path[4096];

  /* from a string: position of the first error */
  CHECK_STATUS(snnplan_rules_from_string(kBrokenRules, "broken.yaml", &rules, &error), SNNPLAN_LOAD_ERROR);
  CHECK(rules == NULL);
  CHECK(error != NULL);
  CHECK_STATUS(snnplan_error_status(error), SNNPLAN_LOAD_ERROR);
  CHECK_STR(snnplan_error_file(error), "broken.yaml");
  CHECK(snnplan_error_line(error) == 7);
  CHECK(snnplan_error_column(error) == 10);
  CHECK_STR(snnplan_error_message(error), "missing required key 'type' in record field 'ranks'");
  CHECK_STR(snnplan_error_text(error), "broken.yaml:7:10: missing required key 'type' in record field 'ranks'");
  CHECK(snnplan_error_diagnostic_count(error) >= 1);
  CHECK_STR(snnplan_error_diagnostic_severity(error, 0), "error");
  CHECK_STR(snnplan_error_diagnostic_code(error, 0), "missing-key");
  CHECK_STR(snnplan_error_diagnostic_file(error, 0), "broken.yaml");
  CHECK(snnplan_error_diagnostic_line(error, 0) == 7);
  CHECK(snnplan_error_diagnostic_column(error, 0) == 10);
  CHECK_STR(snnplan_error_diagnostic_message(error, 0), "missing required key 'type' in record field 'ranks'");
  /* out of range and NULL are harmless */
  CHECK_STR(snnplan_error_diagnostic_message(error, 1000), "");
  CHECK(snnplan_error_diagnostic_line(error, 1000) == 0);
  CHECK_STR(snnplan_error_message(NULL), "");
  snnplan_error_free(error);

  /* the default name, and no error details wanted */
  error = NULL;
  CHECK_STATUS(snnplan_rules_from_string(kBrokenRules, NULL, &rules, &error), SNNPLAN_LOAD_ERROR);
  CHECK_STR(snnplan_error_file(error), "<string>");
  snnplan_error_free(error);
  CHECK_STATUS(snnplan_rules_from_string(kBrokenRules, NULL, &rules, NULL), SNNPLAN_LOAD_ERROR);
  CHECK(rules == NULL);

  /* a file that does not exist: the file named, no position */
  snprintf(path, sizeof path, "%s/no_such_file.yaml", rules_dir);
  error = NULL;
  CHECK_STATUS(snnplan_rules_from_file(path, &rules, &error), SNNPLAN_LOAD_ERROR);
  CHECK(rules == NULL);
  CHECK_STR(snnplan_error_file(error), path);
  CHECK(snnplan_error_line(error) == 0);
  CHECK(snnplan_error_column(error) == 0);
  CHECK(strlen(snnplan_error_message(error)) > 0);
  snnplan_error_free(error);

  /* NULL arguments */
  error = NULL;
  CHECK_STATUS(snnplan_rules_from_file(NULL, &rules, &error), SNNPLAN_INVALID_ARGUMENT);
  CHECK(rules == NULL);
  CHECK_STATUS(snnplan_error_status(error), SNNPLAN_INVALID_ARGUMENT);
  snnplan_error_free(error);
  CHECK_STATUS(snnplan_rules_from_string(NULL, NULL, &rules, NULL), SNNPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(snnplan_rules_from_string(kBrokenRules, NULL, NULL, NULL), SNNPLAN_INVALID_ARGUMENT);
}

static void test_plan(const char* rules_dir) {
  snnplan_rules* rules = NULL;
  snnplan_rules* from_file = NULL;
  snnplan_rules* recommendation_rules = NULL;
  snnplan_error* error = NULL;
  char path[4096];
  CHECK_STATUS(snnplan_plan_rules_builtin(&rules), SNNPLAN_OK);
  CHECK(rules != NULL);
  CHECK_STR(snnplan_rules_file_name(rules), "rules/snn_plan.yaml");

  /* success: exactly the line `snnplan plan --batch` prints */
  expect_plan(rules, kMemoryPlanInput, SNNPLAN_OK, kMemoryPlan);
  /* objective in any case, null as the default, feature flags and notes carried into the plan */
  {
    static const char* const parts[] = {
        "{\"mode\":\"dp\",\"objective\":\"speed\",",
        "\"topology\":{\"world_size\":8,\"dims\":{\"dp\":8},\"mesh_shape\":[8]},",
        "\"model_family\":\"generic\",\"backend\":\"inductor\",",
        "\"notes\":[\"from the analysis\",\"Zero optimizer was disabled by DistributedFeatureSet; planner fell "
        "back to optimizer_strategy='none'.\"]",
        "\"mesh_shape\":[8],\"tp_mesh_dim\":0,\"dp_mesh_dim\":0,",
        "\"allow_pipeline\":true,\"allow_zero_optimizer\":false}}",
        NULL};
    expect_plan_contains(rules,
                         "{\"objective\": \"SPEED\", \"topology\": {\"dp\": 8}, \"batch_size\": 64,"
                         " \"features\": {\"allow_zero_optimizer\": false}, \"notes\": [\"from the analysis\"],"
                         " \"backend\": null, \"mode\": null}",
                         SNNPLAN_OK, parts);
  }

  /* rule errors: the rules' messages */
  expect_plan(rules, kUnknownObjectivePlanInput, SNNPLAN_RULE_ERROR, kUnknownObjectivePlan);
  expect_plan(rules,
              "{\"objective\": \"capacity\", \"topology\": {\"pp\": 4}, \"batch_size\": 64, \"mode\": \"pp\"}",
              SNNPLAN_RULE_ERROR,
              "{\"error\":\"Pipeline parallelism ('pp') is not supported by the unified analyze/plan/apply API. "
              "Please use the dedicated pipeline configuration path directly.\"}");

  /* bad input: the CLI's messages, without its "line" */
  expect_plan(rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 0}, \"batch_size\": 64}", SNNPLAN_BAD_INPUT,
              "{\"error\":\"world_size must be positive, but got 0.\"}");
  expect_plan(rules,
              "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2}, \"world_size\": 16,"
              " \"batch_size\": 64}",
              SNNPLAN_BAD_INPUT, "{\"error\":\"Topology dims {'dp': 4, 'tp': 2} multiply to 8, but world_size=16.\"}");
  expect_plan(rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 4}, \"batchsize\": 64}", SNNPLAN_BAD_INPUT,
              "{\"error\":\"unknown input 'batchsize' (did you mean 'batch_size'?)\"}");
  expect_plan(rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 4}}", SNNPLAN_BAD_INPUT,
              "{\"error\":\"missing required input 'batch_size'\"}");
  expect_plan(rules,
              "{\"objective\": \"memory\", \"topology\": {\"dp\": 4}, \"batch_size\": 64,"
              " \"features\": {\"allow_pipelin\": true}}",
              SNNPLAN_BAD_INPUT,
              "{\"error\":\"DistributedFeatureSet.__init__() got an unexpected keyword argument 'allow_pipelin'\"}");
  expect_plan(rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"dp\": 2}, \"batch_size\": 64}",
              SNNPLAN_BAD_INPUT, "{\"error\":\"duplicate key 'dp' in a JSON object\"}");
  expect_plan(rules, "[1]", SNNPLAN_BAD_INPUT, "{\"error\":\"a batch line must be a JSON object, got an array\"}");
  expect_plan(rules, "", SNNPLAN_BAD_INPUT, "{\"error\":\"empty line (expected a JSON object)\"}");
  {
    static const char* const parts[] = {"{\"error\":\"not valid JSON: parse error at line 1, column 3: ", NULL};
    expect_plan_contains(rules, "{not json", SNNPLAN_BAD_INPUT, parts);
  }

  /* plan rules from a file (as `snnplan plan --rules FILE`) give the same plan */
  snprintf(path, sizeof path, "%s/snn_plan.yaml", rules_dir);
  CHECK_STATUS(snnplan_rules_from_file(path, &from_file, &error), SNNPLAN_OK);
  CHECK(error == NULL);
  expect_plan(from_file, kMemoryPlanInput, SNNPLAN_OK, kMemoryPlan);
  expect_plan(from_file, kUnknownObjectivePlanInput, SNNPLAN_RULE_ERROR, kUnknownObjectivePlan);
  snnplan_rules_free(from_file);

  /* rules that are not plan rules: bad input naming what does not fit, as the CLI reports it */
  CHECK_STATUS(snnplan_rules_builtin(&recommendation_rules), SNNPLAN_OK);
  expect_plan(recommendation_rules, kMemoryPlanInput, SNNPLAN_BAD_INPUT, "{\"error\":\"unknown input 'objective'\"}");
  snnplan_rules_free(recommendation_rules);

  /* NULL arguments */
  {
    char* out = (char*)"untouched";
    CHECK_STATUS(snnplan_plan(NULL, kMemoryPlanInput, &out), SNNPLAN_INVALID_ARGUMENT);
    CHECK(out == NULL);
    out = (char*)"untouched";
    CHECK_STATUS(snnplan_plan(rules, NULL, &out), SNNPLAN_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(snnplan_plan(rules, kMemoryPlanInput, NULL), SNNPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(snnplan_plan_rules_builtin(NULL), SNNPLAN_INVALID_ARGUMENT);
  }
  snnplan_rules_free(rules);
}

static void expect_microbatches(int64_t batch, int64_t stages, int64_t want) {
  int64_t got = -1;
  char* message = (char*)"untouched";
  CHECK_STATUS(snnplan_pipeline_microbatches(batch, stages, &got, &message), SNNPLAN_OK);
  CHECK(got == want);
  CHECK(message == NULL);
}

static void expect_microbatch_error(int64_t batch, int64_t stages, const char* want) {
  int64_t got = -1;
  char* message = NULL;
  CHECK_STATUS(snnplan_pipeline_microbatches(batch, stages, &got, &message), SNNPLAN_RULE_ERROR);
  CHECK_STR(message, want);
  snnplan_string_free(message);
  CHECK_STATUS(snnplan_pipeline_microbatches(batch, stages, &got, NULL), SNNPLAN_RULE_ERROR);
}

static void test_microbatches(void) {
  expect_microbatches(64, 8, 32);
  expect_microbatches(7, 2, 7);
  expect_microbatches(8, 8, 8);
  expect_microbatches(96, 4, 16);
  expect_microbatch_error(0, 1, "batch_size must be positive, but got 0.");
  expect_microbatch_error(4, -1, "num_stages must be positive, but got -1.");
  expect_microbatch_error(5, 8,
                          "batch_size (5) must be >= num_stages (8) for pipeline parallelism with the current "
                          "microbatch splitting implementation.");
  expect_microbatch_error(17, 3,
                          "batch_size (17) must be divisible by at least one microbatch count in [3, 12] for "
                          "pipeline parallelism.");
  CHECK_STATUS(snnplan_pipeline_microbatches(64, 8, NULL, NULL), SNNPLAN_INVALID_ARGUMENT);
}

/* One handle, many threads: every evaluation (or plan) must give the single-threaded answer. */
struct thread_job {
  const snnplan_rules* rules;
  int plans; /* 0: snnplan_evaluate; 1: snnplan_plan, alternating a plan and a rule error */
  int wrong;
};

static void* evaluate_many(void* arg) {
  struct thread_job* job = (struct thread_job*)arg;
  int k;
  for (k = 0; k < 500; ++k) {
    char* out = NULL;
    snnplan_status s;
    if (!job->plans) {
      s = snnplan_evaluate(job->rules, kMemoryInput, &out);
      if (s != SNNPLAN_OK || out == NULL || strcmp(out, kMemoryRecord) != 0) ++job->wrong;
    } else if (k % 2 == 0) {
      s = snnplan_plan(job->rules, kMemoryPlanInput, &out);
      if (s != SNNPLAN_OK || out == NULL || strcmp(out, kMemoryPlan) != 0) ++job->wrong;
    } else {
      s = snnplan_plan(job->rules, kUnknownObjectivePlanInput, &out);
      if (s != SNNPLAN_RULE_ERROR || out == NULL || strcmp(out, kUnknownObjectivePlan) != 0) ++job->wrong;
    }
    snnplan_string_free(out);
  }
  return NULL;
}

/* kThreads threads on one handle: evaluations on the built-in rules, or plans on the plan rules. */
static void run_threads(int plans) {
  enum { kThreads = 8 };
  pthread_t threads[kThreads];
  struct thread_job jobs[kThreads];
  snnplan_rules* rules = NULL;
  int k;
  CHECK_STATUS(plans ? snnplan_plan_rules_builtin(&rules) : snnplan_rules_builtin(&rules), SNNPLAN_OK);
  for (k = 0; k < kThreads; ++k) {
    jobs[k].rules = rules;
    jobs[k].plans = plans;
    jobs[k].wrong = 0;
    CHECK(pthread_create(&threads[k], NULL, evaluate_many, &jobs[k]) == 0);
  }
  for (k = 0; k < kThreads; ++k) {
    CHECK(pthread_join(threads[k], NULL) == 0);
    CHECK(jobs[k].wrong == 0);
  }
  snnplan_rules_free(rules);
}

/* The whole text of a file (malloc'd; NULL when it cannot be read). */
static char* read_text(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  char* text = NULL;
  size_t size = 0;
  size_t read = 0;
  do {
    char* grown = (char*)realloc(text, size + 4096 + 1);
    if (!grown) break;
    text = grown;
    read = fread(text + size, 1, 4096, f);
    size += read;
    text[size] = '\0';
  } while (read == 4096);
  fclose(f);
  return text;
}

static int count_lines(const char* text) {
  int n = 0;
  for (const char* p = text; p && *p; ++p) n += *p == '\n';
  return n;
}

/* Decision records: the revision, a log with labels and masking, decide(), shadow mode. */
static void test_decisions(const char* rules_dir) {
  char dir[] = "/tmp/snnplan_c_decisions_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char log_path[4096], shadow_path[4096], rules_path[4096];
  snprintf(log_path, sizeof log_path, "%s/decisions.jsonl", dir);
  snprintf(shadow_path, sizeof shadow_path, "%s/shadow.jsonl", dir);
  snprintf(rules_path, sizeof rules_path, "%s/snn_distributed.yaml", rules_dir);

  snnplan_rules* builtin = NULL;
  CHECK_STATUS(snnplan_rules_builtin(&builtin), SNNPLAN_OK);
  /* The revision of the built-in file is its bytes' SHA-256: 64 hex digits, the same for the file. */
  snnplan_rules* from_file = NULL;
  CHECK_STATUS(snnplan_rules_from_file(rules_path, &from_file, NULL), SNNPLAN_OK);
  CHECK(strlen(snnplan_rules_sha256(builtin)) == 64);
  CHECK_STR(snnplan_rules_sha256(from_file), snnplan_rules_sha256(builtin));
  CHECK_STR(snnplan_rules_sha256(NULL), "");

  /* A log: one line per evaluation, labelled, with model masked and backend dropped. */
  snnplan_rules* logged = NULL;
  snnplan_error* error = NULL;
  CHECK_STATUS(snnplan_rules_with_decision_log(builtin, log_path,
                                               "{\"labels\": {\"job\": \"42\"}, \"mask_inputs\": [\"model\"],"
                                               " \"drop_inputs\": [\"backend\"]}",
                                               &logged, &error),
               SNNPLAN_OK);
  CHECK(error == NULL);
  expect_eval(logged, kMemoryInput, SNNPLAN_OK, kMemoryRecord); /* answered as before */
  expect_eval(logged,
              "{\"model\": \"m\", \"world_size\": 8, \"prefer\": \"bogus\", \"batch_size\": 64, \"backend\": \"eager\"}",
              SNNPLAN_RULE_ERROR,
              "{\"error\":\"Unsupported prefer='bogus'. Expected one of ('speed', 'memory', 'capacity').\"}");
  expect_eval(builtin, kMemoryInput, SNNPLAN_OK, kMemoryRecord); /* the original handle logs nothing */
  {
    char* text = read_text(log_path);
    CHECK(text != NULL);
    CHECK(count_lines(text) == 2);
    CHECK(text && strstr(text, "{\"format\":\"snnplan-decision/1\",\"decision_id\":\"") == text);
    CHECK(text && strstr(text, "\"labels\":{\"job\":\"42\"}") != NULL);
    CHECK(text && strstr(text, "\"model\":\"<masked>\"") != NULL);
    CHECK(text && strstr(text, "eager") == NULL);
    CHECK(text && strstr(text, "\"masked\":[\"backend\",\"model\"]") != NULL); /* the JSON's key order */
    CHECK(text && strstr(text, "\"answer\":{\"prefer\":\"memory\"") != NULL);
    CHECK(text && strstr(text, "\"error\":{\"kind\":\"rule_error\",\"message\":\"Unsupported prefer='bogus'.") != NULL);
    CHECK(text && strstr(text, "\"rules\":[\"recommend/by-preference-memory\",\"memory/fsdp2-tp\"]") != NULL);
    char revision[80];
    snprintf(revision, sizeof revision, "\"rules_sha256\":\"%s\"", snnplan_rules_sha256(builtin));
    CHECK(text && strstr(text, revision) != NULL);
    free(text);
  }

  /* decide(): the record without a log; the status as snnplan_evaluate's. */
  {
    char* out = NULL;
    CHECK_STATUS(snnplan_decide(from_file, kMemoryInput, &out), SNNPLAN_OK);
    CHECK(out && strstr(out, "{\"format\":\"snnplan-decision/1\",\"decision_id\":\"") == out);
    CHECK(out && strstr(out, "\"inputs\":{\"batch_size\":64,\"model\":\"spikformer\",\"prefer\":\"memory\",\"world_size\":8}") != NULL);
    snnplan_string_free(out);
    CHECK_STATUS(snnplan_decide(from_file, "{\"model\": \"m\", \"world_size\": 2, \"prefer\": \"x\", \"batch_size\": 1}", &out),
                 SNNPLAN_RULE_ERROR);
    CHECK(out && strstr(out, "\"answer\":null,\"error\":{\"kind\":\"rule_error\"") != NULL);
    snnplan_string_free(out);
    CHECK_STATUS(snnplan_decide(from_file, "{not json", &out), SNNPLAN_BAD_INPUT);
    CHECK(out && strstr(out, "{\"error\":\"not valid JSON: ") == out);
    snnplan_string_free(out);
    CHECK_STATUS(snnplan_decide(NULL, kMemoryInput, &out), SNNPLAN_INVALID_ARGUMENT);
    CHECK(out == NULL);
  }

  /* Shadow mode: a candidate with another rationale for the memory answer. The active answer is
   * returned; only the input on which they disagree is logged, with the candidate's answer. */
  {
    char* text = read_text(rules_path);
    CHECK(text != NULL);
    char* edit = text ? strstr(text, "for the strongest memory reduction.") : NULL;
    CHECK(edit != NULL);
    if (edit) edit[strlen("for the strongest memory reduction")] = '!';
    snnplan_rules* candidate = NULL;
    CHECK_STATUS(snnplan_rules_from_string(text ? text : "", "candidate.yaml", &candidate, NULL), SNNPLAN_OK);
    free(text);
    snnplan_rules* shadowed = NULL;
    CHECK_STATUS(snnplan_rules_with_shadow(from_file, candidate, shadow_path, NULL, &shadowed, &error), SNNPLAN_OK);
    snnplan_rules_free(candidate); /* the shadowed handle keeps what it needs */
    expect_eval(shadowed, kMemoryInput, SNNPLAN_OK, kMemoryRecord);
    expect_eval_prefix(shadowed, "{\"model\": \"m\", \"world_size\": 1, \"prefer\": \"speed\", \"batch_size\": 8}", SNNPLAN_OK,
                "{\"prefer\":\"speed\"");
    char* log = read_text(shadow_path);
    CHECK(log != NULL);
    CHECK(count_lines(log) == 1);
    CHECK(log && strstr(log, "\"shadow\":{\"rules_sha256\":\"") != NULL);
    CHECK(log && strstr(log, "\"rules_file\":\"candidate.yaml\"") != NULL);
    CHECK(log && strstr(log, "for the strongest memory reduction!") != NULL);
    free(log);
    snnplan_rules_free(shadowed);
  }

  /* Bad options and unopenable logs: a status and a message, no handle. */
  {
    snnplan_rules* out = (snnplan_rules*)1;
    CHECK_STATUS(snnplan_rules_with_decision_log(builtin, log_path, "{\"labels\": [1]}", &out, &error),
                 SNNPLAN_BAD_INPUT);
    CHECK(out == NULL);
    CHECK_STR(snnplan_error_message(error), "decision-log option 'labels' must be an object of strings");
    snnplan_error_free(error);
    CHECK_STATUS(snnplan_rules_with_decision_log(builtin, log_path, "{\"mask\": []}", &out, &error), SNNPLAN_BAD_INPUT);
    CHECK_STR(snnplan_error_message(error),
              "unknown decision-log option 'mask' (known: labels, drop_inputs, mask_inputs)");
    snnplan_error_free(error);
    CHECK_STATUS(snnplan_rules_with_decision_log(builtin, log_path, "{nope", &out, &error), SNNPLAN_BAD_INPUT);
    snnplan_error_free(error);
    CHECK_STATUS(snnplan_rules_with_decision_log(builtin, "/nonexistent-dir/x.jsonl", NULL, &out, &error),
                 SNNPLAN_LOAD_ERROR);
    CHECK(out == NULL);
    CHECK(strstr(snnplan_error_message(error), "/nonexistent-dir/x.jsonl") != NULL);
    snnplan_error_free(error);
    CHECK_STATUS(snnplan_rules_with_decision_log(NULL, log_path, NULL, &out, &error), SNNPLAN_INVALID_ARGUMENT);
    snnplan_error_free(error);
    CHECK_STATUS(snnplan_rules_with_decision_log(builtin, NULL, NULL, &out, NULL), SNNPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(snnplan_rules_with_shadow(builtin, NULL, log_path, NULL, &out, NULL), SNNPLAN_INVALID_ARGUMENT);
  }

  snnplan_rules_free(logged);
  snnplan_rules_free(from_file);
  snnplan_rules_free(builtin);
  remove(log_path);
  remove(shadow_path);
  rmdir(dir);
}

static void test_threads(void) {
  run_threads(0);
  run_threads(1);
}

/* Run alone (--environment-log): the handles the C API loads follow $SNNPLAN_DECISION_LOG, which a
 * process reads once, when its first such handle is made. */
static int test_environment_log(void) {
  char dir[] = "/tmp/snnplan_c_env_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[4096];
  snprintf(path, sizeof path, "%s/env.jsonl", dir);
  CHECK(setenv("SNNPLAN_DECISION_LOG", path, 1) == 0);
  CHECK(setenv("SNNPLAN_DECISION_LOG_LABELS", "job=c", 1) == 0);
  snnplan_rules* builtin = NULL;
  CHECK_STATUS(snnplan_rules_builtin(&builtin), SNNPLAN_OK);
  expect_eval(builtin, kMemoryInput, SNNPLAN_OK, kMemoryRecord);
  snnplan_rules* plan_rules = NULL;
  CHECK_STATUS(snnplan_plan_rules_builtin(&plan_rules), SNNPLAN_OK);
  expect_plan(plan_rules, kMemoryPlanInput, SNNPLAN_OK, kMemoryPlan);
  char* text = read_text(path);
  CHECK(text != NULL);
  CHECK(count_lines(text) == 2);
  CHECK(text && strstr(text, "\"labels\":{\"job\":\"c\"}") != NULL);
  CHECK(text && strstr(text, "\"rules_file\":\"rules/snn_plan.yaml\"") != NULL);
  free(text);
  snnplan_rules_free(plan_rules);
  snnplan_rules_free(builtin);
  remove(path);
  rmdir(dir);
  printf("c_api_test --environment-log: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--environment-log") == 0) return test_environment_log();
  const char* rules_dir = argc > 1 ? argv[1] : "rules";
  test_general();
  test_builtin_evaluate();
  test_from_file(rules_dir);
  test_load_errors(rules_dir);
  test_rule_roots();
  test_rule_tests();
  test_microbatches();
  test_plan(rules_dir);
  test_threads();
  test_decisions(rules_dir);
  printf("c_api_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
