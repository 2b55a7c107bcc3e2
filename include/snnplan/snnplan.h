/* snnplan C API: load rule files and evaluate them from C (C99) or any language with a C FFI.
 *
 * Conventions
 *   - Every function returns an snnplan_status (or a plain value where it cannot fail) and
 *     never lets a C++ exception escape; out-of-memory is reported as SNNPLAN_OUT_OF_MEMORY.
 *   - Handles are opaque. Every handle and every string this API gives you is yours: free
 *     rule sets with snnplan_rules_free(), errors with snnplan_error_free() and strings with
 *     snnplan_string_free(). All free functions accept NULL.
 *   - Strings are UTF-8 and NUL-terminated. JSON text in and out is one JSON object.
 *   - Thread safety is stated per function. In short: a rule-set handle is immutable once
 *     created, so any number of threads may evaluate (or plan) with the same handle at once;
 *     freeing a handle must not race with other uses of that same handle.
 *
 * Example
 *   snnplan_rules* rules = NULL;
 *   snnplan_error* error = NULL;
 *   if (snnplan_rules_from_file("rules.yaml", &rules, &error) != SNNPLAN_OK) {
 *     fprintf(stderr, "%s\n", snnplan_error_text(error));   // "rules.yaml:12:5: message"
 *     snnplan_error_free(error);
 *     return 1;
 *   }
 *   char* out = NULL;
 *   snnplan_status s = snnplan_evaluate(rules,
 *       "{\"model\": \"spikformer\", \"world_size\": 8, \"prefer\": \"memory\", \"batch_size\": 64}",
 *       &out);
 *   puts(out);                  // the record as JSON, or {"error": "..."} (s says which)
 *   snnplan_string_free(out);
 *   snnplan_rules_free(rules);
 *
 *   // A plan: the same pattern, with plan rules and a `snnplan plan --batch` line.
 *   snnplan_plan_rules_builtin(&rules);
 *   s = snnplan_plan(rules, "{\"objective\": \"memory\", \"topology\": {\"dp\": 4, \"tp\": 2},"
 *                           " \"batch_size\": 64}", &out);
 *   puts(out);                  // the plan as JSON, or {"error": "..."} (s says which)
 *   snnplan_string_free(out);
 *   snnplan_rules_free(rules);
 */
#ifndef SNNPLAN_SNNPLAN_H
#define SNNPLAN_SNNPLAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SNNPLAN_C_API_SHARED)
#  ifdef SNNPLAN_C_API_BUILDING
#    define SNNPLAN_C_API __declspec(dllexport)
#  else
#    define SNNPLAN_C_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define SNNPLAN_C_API __attribute__((visibility("default")))
#else
#  define SNNPLAN_C_API
#endif

/* C++ callers see the guarantee in the type: these functions never throw. */
#ifdef __cplusplus
#  define SNNPLAN_NOEXCEPT noexcept
#else
#  define SNNPLAN_NOEXCEPT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a call did. Values are stable (part of the ABI). */
typedef enum snnplan_status {
  SNNPLAN_OK = 0,
  /* The rule file cannot be read or has errors; details in the snnplan_error. */
  SNNPLAN_LOAD_ERROR = 1,
  /* The rules refused these inputs (the reference's ValueError), e.g. an unknown `prefer`. */
  SNNPLAN_RULE_ERROR = 2,
  /* The input is unusable: not JSON, not an object, unknown or missing key, wrong type. */
  SNNPLAN_BAD_INPUT = 3,
  /* A required pointer argument was NULL. */
  SNNPLAN_INVALID_ARGUMENT = 4,
  SNNPLAN_OUT_OF_MEMORY = 5,
  /* An unexpected internal failure (a bug); a message is given where the call has room. */
  SNNPLAN_INTERNAL_ERROR = 6
} snnplan_status;

/* A loaded, checked and compiled rule set. Immutable. */
typedef struct snnplan_rules snnplan_rules;

/* Why loading failed: the first error's message and position, plus every diagnostic. */
typedef struct snnplan_error snnplan_error;

/* ---- general ----------------------------------------------------------------------- */

/* The library version, e.g. "0.1.0". Static storage; do not free. Thread-safe. */
SNNPLAN_C_API const char* snnplan_version(void) SNNPLAN_NOEXCEPT;

/* A constant name for a status, e.g. "SNNPLAN_RULE_ERROR". Static; do not free. Thread-safe. */
SNNPLAN_C_API const char* snnplan_status_name(snnplan_status status) SNNPLAN_NOEXCEPT;

/* Frees a string returned by this API. NULL is allowed. Thread-safe (distinct strings). */
SNNPLAN_C_API void snnplan_string_free(char* string) SNNPLAN_NOEXCEPT;

/* ---- rule sets --------------------------------------------------------------------- */

/* Loads, checks and compiles the rule file at `path`.
 * On success: SNNPLAN_OK, *out_rules is a new handle and *out_error is set to NULL.
 * On failure: *out_rules is NULL and, if out_error is not NULL, *out_error receives an error
 * describing it (SNNPLAN_LOAD_ERROR: position and diagnostics; other statuses: a message,
 * or NULL when even that could not be allocated). Warnings do not make loading fail.
 * `out_error` may be NULL when the caller does not want details.
 * Thread-safe: any number of threads may load at once. */
SNNPLAN_C_API snnplan_status snnplan_rules_from_file(const char* path, snnplan_rules** out_rules,
                                                     snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* Same as snnplan_rules_from_file, with `root_count` more rule roots: directories whose files
 * the rule file's `uses:` may name, besides the rule file's own directory (which is always
 * one). A used file outside every root -- by an absolute path, `..` or a symlink -- is
 * refused (SNNPLAN_LOAD_ERROR) before it is opened. `rule_roots` may be NULL when
 * `root_count` is 0; no entry may be NULL. Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_rules_from_file_in_roots(
    const char* path, const char* const* rule_roots, size_t root_count, snnplan_rules** out_rules,
    snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* Same as snnplan_rules_from_file for rule-file text in memory (NUL-terminated).
 * `file_name` names the text in diagnostics; NULL means "<string>". Files it `uses` are
 * looked up among the built-in rule files. Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_rules_from_string(const char* text, const char* file_name,
                                                       snnplan_rules** out_rules,
                                                       snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* A new handle on the built-in default rules (rules/snn_distributed.yaml, compiled in).
 * Free it with snnplan_rules_free like any other handle; handles share the compiled rules,
 * so this is cheap after the first call. Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_rules_builtin(snnplan_rules** out_rules) SNNPLAN_NOEXCEPT;

/* Frees a rule-set handle. NULL is allowed. Must not run concurrently with any other use of
 * the same handle; other handles (including other handles on the built-in rules) are
 * unaffected. */
SNNPLAN_C_API void snnplan_rules_free(snnplan_rules* rules) SNNPLAN_NOEXCEPT;

/* The name the rules were loaded under (the path, the given file name, or for the built-in
 * rules "rules/snn_distributed.yaml" and "rules/snn_plan.yaml"). Owned by the handle: valid
 * until snnplan_rules_free. Returns "" for NULL. Thread-safe. */
SNNPLAN_C_API const char* snnplan_rules_file_name(const snnplan_rules* rules) SNNPLAN_NOEXCEPT;

/* ---- evaluation -------------------------------------------------------------------- */

/* Evaluates the rules for one input: `json_input` is a JSON object, exactly one line of
 * `snnplan recommend --batch` input, e.g.
 *   {"model": "spikformer", "world_size": 8, "prefer": "memory", "batch_size": 64}
 * Keys left out (or null) take the rule file's defaults.
 *
 * *out_json receives a new string (free with snnplan_string_free) holding one JSON object:
 *   SNNPLAN_OK          the record, fields in the rule file's order (same as the CLI);
 *   SNNPLAN_RULE_ERROR  {"error": "<the rule's message>"};
 *   SNNPLAN_BAD_INPUT   {"error": "<what is wrong with the input>"} (includes invalid JSON).
 * For SNNPLAN_INVALID_ARGUMENT (NULL `rules`, `json_input` or `out_json`) and
 * SNNPLAN_OUT_OF_MEMORY, *out_json (when out_json is not NULL) is set to NULL.
 * For SNNPLAN_INTERNAL_ERROR it holds {"error": "..."} when that could be allocated.
 *
 * Thread-safe: any number of threads may evaluate with the same handle at once. */
SNNPLAN_C_API snnplan_status snnplan_evaluate(const snnplan_rules* rules, const char* json_input,
                                              char** out_json) SNNPLAN_NOEXCEPT;

/* ---- decision records ---------------------------------------------------------------- */
/* A decision is an evaluation with its provenance: a decision id, the rule set's revision (its
 * SHA-256) and the fired rules. A decision log appends one JSON line per decision (the record
 * `snnplan schema decision-log` documents) to a file several processes may share; a failing
 * write never fails the evaluation (it is said once on stderr). Handles loaded by
 * snnplan_rules_from_file(), _from_string() and the _builtin() calls already log to
 * $SNNPLAN_DECISION_LOG when that is set (with $SNNPLAN_DECISION_LOG_LABELS, _DROP and _MASK,
 * as the CLI and the Python module do). */

/* The rule set's revision: the SHA-256 (64 hex digits) of the rule file's bytes, as sha256sum
 * and, for the built-in files, `snnplan --version` print it; with `uses:`, of the file and the
 * files it uses. Owned by the handle: valid until snnplan_rules_free. "" for NULL. Thread-safe. */
SNNPLAN_C_API const char* snnplan_rules_sha256(const snnplan_rules* rules) SNNPLAN_NOEXCEPT;

/* A new handle on the same rules (free it with snnplan_rules_free; `rules` stays valid and
 * unchanged) whose every snnplan_evaluate(), snnplan_plan() and snnplan_decide() appends a
 * record to the file at `log_path` (created, mode 0644, when missing; always appended to, one
 * write per line with O_APPEND). It replaces any log `rules` has (the environment's included).
 * `options_json` may be NULL or a JSON object with any of
 *   "labels": {"host": "n1", "job": "7"}   written into every record (string values);
 *   "drop_inputs": ["model"]               inputs left out of the records;
 *   "mask_inputs": ["model"]               inputs written as "<masked>".
 * SNNPLAN_BAD_INPUT: `options_json` is not such an object; SNNPLAN_LOAD_ERROR: the file cannot
 * be opened. Either way *out_rules is NULL and *out_error (when out_error is not NULL) says why.
 * Thread-safe; the handles may be used from many threads at once (lines never interleave). */
SNNPLAN_C_API snnplan_status snnplan_rules_with_decision_log(const snnplan_rules* rules,
                                                             const char* log_path,
                                                             const char* options_json,
                                                             snnplan_rules** out_rules,
                                                             snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* Shadow mode: a new handle that answers as `active` does -- always its answer -- and also
 * evaluates `candidate` for the same inputs; every input on which the two disagree (another
 * record, or another error) is appended to the log at `log_path` with the candidate's answer
 * under "shadow". `options_json` as for snnplan_rules_with_decision_log. A log `active` has (the
 * environment's) goes on recording every decision. Neither `active` nor `candidate` is changed;
 * both may be freed after the call. Same statuses as snnplan_rules_with_decision_log.
 * Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_rules_with_shadow(const snnplan_rules* active,
                                                       const snnplan_rules* candidate,
                                                       const char* log_path,
                                                       const char* options_json,
                                                       snnplan_rules** out_rules,
                                                       snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* snnplan_evaluate() with the answer's provenance: *out_json receives the decision's record, the
 * object a decision-log line holds (without labels or masking):
 *   {"format": "snnplan-decision/1", "decision_id": "<32 hex>", "timestamp": "...Z",
 *    "rules_sha256": "<64 hex>", "rules_file": "...", "builtin": true, "labels": {},
 *    "inputs": {...}, "answer": {the record} or null, "error": null or {"kind": "rule_error" or
 *    "bad_input", "message": "..."}, "rules": ["table/rule", ...], "eval_us": 1.5}
 * The status is snnplan_evaluate()'s for the same input; input that is not a JSON object of the
 * declared inputs gives SNNPLAN_BAD_INPUT and {"error": "..."} as there (no decision was made).
 * Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_decide(const snnplan_rules* rules, const char* json_input,
                                            char** out_json) SNNPLAN_NOEXCEPT;

/* ---- plans ------------------------------------------------------------------------- */
/* A plan is evaluated by plan rules: a rule set with the inputs and record of
 * rules/snn_plan.yaml (which calls the recommendation rules through `uses:`). Plan rules are
 * ordinary snnplan_rules handles: the built-in ones from snnplan_plan_rules_builtin(), or
 * a file of your own from snnplan_rules_from_file() / snnplan_rules_from_string() -- the
 * same choice as `snnplan plan` without and with --rules FILE. */

/* A new handle on the built-in plan rules (rules/snn_plan.yaml, compiled in, using the
 * built-in rules/snn_distributed.yaml); snnplan_rules_file_name() gives "rules/snn_plan.yaml".
 * Free it with snnplan_rules_free. Handles share the compiled rules, so this is cheap after
 * the first call. Thread-safe. */
SNNPLAN_C_API snnplan_status snnplan_plan_rules_builtin(snnplan_rules** out_rules) SNNPLAN_NOEXCEPT;

/* The distributed plan for one input: `json_input` is a JSON object, exactly one line of
 * `snnplan plan --batch` input, e.g.
 *   {"objective": "memory", "topology": {"dp": 4, "tp": 2}, "batch_size": 64}
 * Keys: objective, topology (an object of dimension sizes) and batch_size are required;
 * world_size, backend, model_family, mode, features (an object of the feature flags the plan rules declare),
 * tp_roots, tp_candidates and notes are optional (absent or null: the default).
 *
 * *out_json receives a new string (free with snnplan_string_free) holding one JSON object,
 * the line `snnplan plan --batch` prints for that input:
 *   SNNPLAN_OK          the plan's 20 fields, e.g. {"mode":"fsdp2_tp","objective":"memory",
 *                       "topology":{"world_size":8,"dims":{"dp":4,"tp":2},"mesh_shape":[4,2]},...};
 *   SNNPLAN_RULE_ERROR  {"error": "<the rule's message>"}, e.g. an unknown objective or mode
 *                       (upstream plan()'s texts: the plan follows it at the seed's commit);
 *   SNNPLAN_BAD_INPUT   {"error": "<what is wrong with the input>"}: invalid JSON, not an
 *                       object, an unknown, missing or mistyped key, an invalid topology
 *                       ({"dp": 0}, sizes that do not multiply to world_size; upstream's
 *                       texts), an undeclared feature -- and `rules` that are not plan rules (the message names the
 *                       input or record field that does not fit). The CLI adds "line": N to
 *                       these; this function has no line to report.
 * NULL `rules`, `json_input` or `out_json` give SNNPLAN_INVALID_ARGUMENT; for it and
 * SNNPLAN_OUT_OF_MEMORY, *out_json (when out_json is not NULL) is set to NULL. For
 * SNNPLAN_INTERNAL_ERROR it holds {"error": "..."} when that could be allocated.
 *
 * Thread-safe: any number of threads may plan with the same handle at once. */
SNNPLAN_C_API snnplan_status snnplan_plan(const snnplan_rules* rules, const char* json_input,
                                          char** out_json) SNNPLAN_NOEXCEPT;

/* The reference's recommended_pipeline_microbatches(): the largest microbatch count m with
 * num_stages <= m <= min(batch_size, 4 * num_stages) that divides batch_size.
 * SNNPLAN_OK: *out_microbatches holds it. SNNPLAN_RULE_ERROR: no such count or a
 * non-positive argument; if out_message is not NULL, *out_message receives the reference's
 * ValueError message (free with snnplan_string_free). On success *out_message is set to NULL.
 * `out_microbatches` must not be NULL. Thread-safe; takes at most ~1.5*sqrt(batch_size) steps. */
SNNPLAN_C_API snnplan_status snnplan_pipeline_microbatches(int64_t batch_size, int64_t num_stages,
                                                           int64_t* out_microbatches,
                                                           char** out_message) SNNPLAN_NOEXCEPT;

/* ---- rule tests -------------------------------------------------------------------- */

/* Runs the rule-test files test_paths[0..count) against the rules, as `snnplan test` does
 * (docs/testing.md); with `mutate` non-zero also mutation testing (when every test passes),
 * on one thread per core.
 *   SNNPLAN_OK          every test passed;
 *   SNNPLAN_RULE_ERROR  a test failed;
 * for both, *out_json receives the report (free with snnplan_string_free) as
 * `snnplan test --format json` writes it: {"passed", "failed", "tests", "coverage"[, "mutation"]}.
 *   SNNPLAN_LOAD_ERROR  a test file cannot be read or has errors: *out_json is NULL and, when
 *                       out_error is not NULL, *out_error holds every problem at its
 *                       file:line:column (free with snnplan_error_free).
 * NULL `rules` or `out_json`, or a NULL `test_paths` (or item) with count > 0, give
 * SNNPLAN_INVALID_ARGUMENT. *out_error is NULL unless the status is SNNPLAN_LOAD_ERROR,
 * SNNPLAN_OUT_OF_MEMORY or SNNPLAN_INTERNAL_ERROR (then it says why, when it could be made).
 * Thread-safe: the rules are only read. */
SNNPLAN_C_API snnplan_status snnplan_run_tests(const snnplan_rules* rules, const char* const* test_paths,
                                               size_t count, int mutate, char** out_json,
                                               snnplan_error** out_error) SNNPLAN_NOEXCEPT;

/* ---- load errors ------------------------------------------------------------------- */
/* All accessors accept NULL (returning "" or 0), and the strings they return are owned by
 * the error: valid until snnplan_error_free. An error is immutable, so reading one from
 * several threads is safe; freeing it must not race with reading it. */

/* The status of the call that produced the error. */
SNNPLAN_C_API snnplan_status snnplan_error_status(const snnplan_error* error) SNNPLAN_NOEXCEPT;

/* The first error formatted as "file:line:column: message" (as the CLI prints it). */
SNNPLAN_C_API const char* snnplan_error_text(const snnplan_error* error) SNNPLAN_NOEXCEPT;

/* The first error's message alone, without the position. */
SNNPLAN_C_API const char* snnplan_error_message(const snnplan_error* error) SNNPLAN_NOEXCEPT;

/* The first error's file, 1-based line and column. Line and column are 0 when unknown
 * (e.g. the file could not be read). */
SNNPLAN_C_API const char* snnplan_error_file(const snnplan_error* error) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API uint32_t snnplan_error_line(const snnplan_error* error) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API uint32_t snnplan_error_column(const snnplan_error* error) SNNPLAN_NOEXCEPT;

/* Every diagnostic found (errors and warnings), in file order; index < count. */
SNNPLAN_C_API size_t snnplan_error_diagnostic_count(const snnplan_error* error) SNNPLAN_NOEXCEPT;
/* "error", "warning" or "note"; "" when index is out of range. */
SNNPLAN_C_API const char* snnplan_error_diagnostic_severity(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;
/* A stable kebab-case identifier such as "unknown-key". */
SNNPLAN_C_API const char* snnplan_error_diagnostic_code(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API const char* snnplan_error_diagnostic_message(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API const char* snnplan_error_diagnostic_file(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API uint32_t snnplan_error_diagnostic_line(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;
SNNPLAN_C_API uint32_t snnplan_error_diagnostic_column(const snnplan_error* error, size_t index) SNNPLAN_NOEXCEPT;

/* Frees an error. NULL is allowed. */
SNNPLAN_C_API void snnplan_error_free(snnplan_error* error) SNNPLAN_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* SNNPLAN_SNNPLAN_H */
