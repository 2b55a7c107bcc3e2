// The C API (include/snnplan/snnplan.h) over the C++ one. Every entry point is noexcept and
// turns any exception into a status: nothing C++ crosses into C.

#include "snnplan/snnplan.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "frontends/capi/messages.hpp"
#include "decisions/record_json.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "request/request_lines.hpp"
#include "request/plan_request.hpp"
#include "snnplan/decision_log.hpp"
#include "snnplan/diagnostic.hpp"
#include "snnplan/microbatches.hpp"
#include "snnplan/plan.hpp"
#include "snnplan/rule_set.hpp"
#include "snnplan/rule_tests.hpp"
#include "snnplan/version.hpp"

struct snnplan_rules {
  snnplan::RuleSet rules;
};

struct snnplan_error {
  struct Entry {
    const char* severity = "error";
    std::string code;
    std::string message;
    std::string file;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
  };
  snnplan_status status = SNNPLAN_INTERNAL_ERROR;
  std::string text;
  Entry first;
  std::vector<Entry> diagnostics;
};

namespace {

snnplan_error::Entry entry_of(const snnplan::Diagnostic& d) {
  return snnplan_error::Entry{snnplan::to_string(d.severity), d.code, d.message, d.location.file,
                              d.location.line, d.location.column};
}

// A malloc'd copy (so freeing never throws and a C caller's allocator mismatch cannot bite
// through snnplan_string_free). nullptr when out of memory.
char* copy_string(const std::string& s) noexcept {
  auto* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (!out) return nullptr;
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

// Builds the error for a failed load; never throws (a failed allocation leaves nullptr).
snnplan_error* load_error(const snnplan::LoadError& e) noexcept {
  try {
    auto error = std::make_unique<snnplan_error>();
    error->status = SNNPLAN_LOAD_ERROR;
    error->text = e.what();
    const snnplan::Diagnostic* first = nullptr;
    for (const snnplan::Diagnostic& d : e.diagnostics()) {
      error->diagnostics.push_back(entry_of(d));
      if (!first && d.severity == snnplan::Severity::error) first = &d;
    }
    if (!first && !e.diagnostics().empty()) first = &e.diagnostics().front();
    if (first) error->first = entry_of(*first);
    else error->first.message = error->text;
    return error.release();
  } catch (...) {
    return nullptr;
  }
}

snnplan_error* plain_error(snnplan_status status, const char* message) noexcept {
  try {
    auto error = std::make_unique<snnplan_error>();
    error->status = status;
    error->text = message;
    error->first.message = message;
    return error.release();
  } catch (...) {
    return nullptr;
  }
}

// Called inside a catch (...) of a call that makes a handle: the status and error of an
// exception that is not the call's own (out of memory, or a bug).
snnplan_status unexpected_failure(snnplan_error** out_error) noexcept {
  snnplan_status status = SNNPLAN_INTERNAL_ERROR;
  try {
    throw;
  } catch (const std::bad_alloc&) {
    status = SNNPLAN_OUT_OF_MEMORY;
    if (out_error) *out_error = plain_error(status, snnplan::messages::c_out_of_memory());
  } catch (const std::exception& e) {
    if (out_error) *out_error = plain_error(status, e.what());
  } catch (...) {
    if (out_error) *out_error = plain_error(status, snnplan::messages::c_unknown_internal_error());
  }
  return status;
}

template <typename Load>
snnplan_status load_rules(Load&& load, snnplan_rules** out_rules, snnplan_error** out_error) noexcept {
  if (out_error) *out_error = nullptr;
  if (!out_rules) {
    if (out_error) *out_error = plain_error(SNNPLAN_INVALID_ARGUMENT, snnplan::messages::c_null_out_rules());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  *out_rules = nullptr;
  try {
    // As the CLI and the Python module: $SNNPLAN_DECISION_LOG, when set, records every decision.
    *out_rules = new snnplan_rules{snnplan::with_environment_log(load())};
    return SNNPLAN_OK;
  } catch (const snnplan::LoadError& e) {
    if (out_error) *out_error = load_error(e);
    return SNNPLAN_LOAD_ERROR;
  } catch (...) {
    return unexpected_failure(out_error);
  }
}

// A status and the JSON text that goes with it.
struct JsonResult {
  snnplan_status status;
  std::string json;
};

// The frame of the calls that take a JSON object and give one back: argument checks, the
// copy into a malloc'd string, and every exception turned into a status.
template <typename Run>
snnplan_status json_call(const snnplan_rules* rules, const char* json_input, char** out_json, Run&& run) noexcept {
  if (!out_json) return SNNPLAN_INVALID_ARGUMENT;
  *out_json = nullptr;
  if (!rules || !json_input) return SNNPLAN_INVALID_ARGUMENT;
  try {
    const JsonResult result = run();
    *out_json = copy_string(result.json);
    return *out_json ? result.status : SNNPLAN_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return SNNPLAN_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    try {
      *out_json = copy_string(snnplan::render::error_line(snnplan::messages::c_internal_error(e.what())));
    } catch (...) {
    }
  } catch (...) {
    try {
      *out_json = copy_string(snnplan::render::error_line(snnplan::messages::c_internal_error("")));
    } catch (...) {
    }
  }
  return SNNPLAN_INTERNAL_ERROR;
}

// The options object of snnplan_rules_with_decision_log(): its keys, or why it is refused.
std::variant<snnplan::DecisionLogOptions, std::string> log_options_from_json(const char* text) {
  namespace messages = snnplan::messages;
  snnplan::DecisionLogOptions options;
  if (!text) return options;
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return messages::c_log_options_not_json(e.what());
  }
  if (!parsed.is_object()) return std::string(messages::c_log_options_not_object());
  for (const auto& [key, value] : parsed.items()) {
    if (key == "labels") {
      if (!value.is_object()) return messages::c_log_option_wrong_type(key, "an object of strings");
      for (const auto& [label, text_value] : value.items()) {
        if (!text_value.is_string()) return messages::c_log_option_wrong_type(key, "an object of strings");
        options.labels.emplace_back(label, text_value.get<std::string>());
      }
    } else if (key == "drop_inputs" || key == "mask_inputs") {
      auto& names = key == "drop_inputs" ? options.drop_inputs : options.mask_inputs;
      if (!value.is_array()) return messages::c_log_option_wrong_type(key, "a list of input names");
      for (const auto& name : value) {
        if (!name.is_string()) return messages::c_log_option_wrong_type(key, "a list of input names");
        names.push_back(name.get<std::string>());
      }
    } else {
      return messages::c_log_option_unknown(key);
    }
  }
  return options;
}

// The frame of the calls that make an observed handle: argument checks, the options, opening
// the log (SNNPLAN_LOAD_ERROR when it cannot be), every exception turned into a status.
template <typename Observe>
snnplan_status observed_rules(const snnplan_rules* rules, const char* log_path, const char* options_json,
                              snnplan_rules** out_rules, snnplan_error** out_error, Observe&& observe) noexcept {
  if (out_error) *out_error = nullptr;
  if (!out_rules || !rules || !log_path) {
    if (out_rules) *out_rules = nullptr;
    if (out_error)
      *out_error = plain_error(SNNPLAN_INVALID_ARGUMENT,
                               !out_rules ? snnplan::messages::c_null_out_rules()
                               : !rules   ? snnplan::messages::c_null_rules()
                                          : snnplan::messages::c_null_log_path());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  *out_rules = nullptr;
  try {
    auto options = log_options_from_json(options_json);
    if (auto* why = std::get_if<std::string>(&options)) {
      if (out_error) *out_error = plain_error(SNNPLAN_BAD_INPUT, why->c_str());
      return SNNPLAN_BAD_INPUT;
    }
    std::shared_ptr<snnplan::DecisionLog> log;
    try {
      log = std::make_shared<snnplan::DecisionLog>(log_path, std::get<snnplan::DecisionLogOptions>(std::move(options)));
    } catch (const std::system_error& e) {
      if (out_error) *out_error = plain_error(SNNPLAN_LOAD_ERROR, e.what());
      return SNNPLAN_LOAD_ERROR;
    }
    *out_rules = new snnplan_rules{observe(std::move(log))};
    return SNNPLAN_OK;
  } catch (...) {
    return unexpected_failure(out_error);
  }
}

// A failed evaluation's status: the rules refused (RULE_ERROR) or the inputs do not fit.
snnplan_status status_of(snnplan::EvaluationErrorKind kind) {
  return kind == snnplan::EvaluationErrorKind::rule_error ? SNNPLAN_RULE_ERROR : SNNPLAN_BAD_INPUT;
}

}  // namespace

extern "C" {

const char* snnplan_version(void) noexcept { return snnplan::version; }

const char* snnplan_status_name(snnplan_status status) noexcept {
  switch (status) {
    case SNNPLAN_OK: return "SNNPLAN_OK";
    case SNNPLAN_LOAD_ERROR: return "SNNPLAN_LOAD_ERROR";
    case SNNPLAN_RULE_ERROR: return "SNNPLAN_RULE_ERROR";
    case SNNPLAN_BAD_INPUT: return "SNNPLAN_BAD_INPUT";
    case SNNPLAN_INVALID_ARGUMENT: return "SNNPLAN_INVALID_ARGUMENT";
    case SNNPLAN_OUT_OF_MEMORY: return "SNNPLAN_OUT_OF_MEMORY";
    case SNNPLAN_INTERNAL_ERROR: return "SNNPLAN_INTERNAL_ERROR";
  }
  return "SNNPLAN_UNKNOWN_STATUS";
}

void snnplan_string_free(char* string) noexcept { std::free(string); }

snnplan_status snnplan_rules_from_file(const char* path, snnplan_rules** out_rules, snnplan_error** out_error) noexcept {
  if (!path) {
    if (out_rules) *out_rules = nullptr;
    if (out_error) *out_error = plain_error(SNNPLAN_INVALID_ARGUMENT, snnplan::messages::c_null_path());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  return load_rules([&] { return snnplan::RuleSet::from_file(path); }, out_rules, out_error);
}

snnplan_status snnplan_rules_from_file_in_roots(const char* path, const char* const* rule_roots,
                                                size_t root_count, snnplan_rules** out_rules,
                                                snnplan_error** out_error) noexcept {
  bool roots_given = root_count == 0 || rule_roots;
  for (size_t k = 0; roots_given && k < root_count; ++k) roots_given = rule_roots[k] != nullptr;
  if (!path || !roots_given) {
    if (out_rules) *out_rules = nullptr;
    if (out_error)
      *out_error =
          plain_error(SNNPLAN_INVALID_ARGUMENT, path ? snnplan::messages::c_null_rule_root()
                                                     : snnplan::messages::c_null_path());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  return load_rules(
      [&] {
        snnplan::LoadOptions options;
        options.rule_roots.assign(rule_roots, rule_roots + root_count);
        return snnplan::RuleSet::from_file(path, options);
      },
      out_rules, out_error);
}

snnplan_status snnplan_rules_from_string(const char* text, const char* file_name, snnplan_rules** out_rules,
                                         snnplan_error** out_error) noexcept {
  if (!text) {
    if (out_rules) *out_rules = nullptr;
    if (out_error) *out_error = plain_error(SNNPLAN_INVALID_ARGUMENT, snnplan::messages::c_null_text());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  return load_rules([&] { return snnplan::RuleSet::from_string(text, file_name ? file_name : "<string>"); },
                    out_rules, out_error);
}

snnplan_status snnplan_rules_builtin(snnplan_rules** out_rules) noexcept {
  return load_rules([] { return snnplan::RuleSet::builtin(); }, out_rules, nullptr);
}

void snnplan_rules_free(snnplan_rules* rules) noexcept { delete rules; }

const char* snnplan_rules_file_name(const snnplan_rules* rules) noexcept {
  return rules ? rules->rules.file_name().c_str() : "";
}

snnplan_status snnplan_evaluate(const snnplan_rules* rules, const char* json_input, char** out_json) noexcept {
  return json_call(rules, json_input, out_json, [&]() -> JsonResult {
    snnplan::request::RequestLines lines(rules->rules);
    std::string answer;
    const snnplan::request::LineOutcome outcome = lines.answer(json_input, answer);
    if (outcome.ok) return {SNNPLAN_OK, std::move(answer)};
    snnplan::request::append_refusal(answer, outcome, std::nullopt, false);
    return {status_of(outcome.kind), std::move(answer)};
  });
}

const char* snnplan_rules_sha256(const snnplan_rules* rules) noexcept {
  try {
    return rules ? rules->rules.sha256().c_str() : "";
  } catch (...) {  // the revision is computed at first use: out of memory then
    return "";
  }
}

snnplan_status snnplan_rules_with_decision_log(const snnplan_rules* rules, const char* log_path,
                                               const char* options_json, snnplan_rules** out_rules,
                                               snnplan_error** out_error) noexcept {
  return observed_rules(rules, log_path, options_json, out_rules, out_error,
                        [&](std::shared_ptr<snnplan::DecisionLog> log) { return rules->rules.with_decision_sink(std::move(log)); });
}

snnplan_status snnplan_rules_with_shadow(const snnplan_rules* active, const snnplan_rules* candidate,
                                         const char* log_path, const char* options_json,
                                         snnplan_rules** out_rules, snnplan_error** out_error) noexcept {
  if (!candidate) {
    if (out_rules) *out_rules = nullptr;
    if (out_error) *out_error = plain_error(SNNPLAN_INVALID_ARGUMENT, snnplan::messages::c_null_candidate());
    return SNNPLAN_INVALID_ARGUMENT;
  }
  return observed_rules(active, log_path, options_json, out_rules, out_error,
                        [&](std::shared_ptr<snnplan::DecisionLog> log) {
                          return active->rules.with_shadow(candidate->rules, std::move(log));
                        });
}

snnplan_status snnplan_decide(const snnplan_rules* rules, const char* json_input, char** out_json) noexcept {
  return json_call(rules, json_input, out_json, [&]() -> JsonResult {
    auto parsed = snnplan::request::inputs_from_json_line(json_input, rules->rules);
    if (auto* message = std::get_if<std::string>(&parsed)) return {SNNPLAN_BAD_INPUT, snnplan::render::error_line(*message)};
    const snnplan::Decision decision = rules->rules.decide(std::get<snnplan::Inputs>(parsed));
    std::string line = snnplan::decisions::record_line(decision);
    return {decision.result.ok() ? SNNPLAN_OK : status_of(decision.result.error().kind), std::move(line)};
  });
}

snnplan_status snnplan_plan_rules_builtin(snnplan_rules** out_rules) noexcept {
  return load_rules([] { return snnplan::plan_rules(); }, out_rules, nullptr);
}

snnplan_status snnplan_run_tests(const snnplan_rules* rules, const char* const* test_paths, size_t count,
                                 int mutate, char** out_json, snnplan_error** out_error) noexcept {
  if (out_error) *out_error = nullptr;
  if (!out_json) return SNNPLAN_INVALID_ARGUMENT;
  *out_json = nullptr;
  if (!rules || (count > 0 && !test_paths)) return SNNPLAN_INVALID_ARGUMENT;
  for (size_t k = 0; k < count; ++k)
    if (!test_paths[k]) return SNNPLAN_INVALID_ARGUMENT;
  try {
    const std::vector<std::string> paths(test_paths, test_paths + count);
    const snnplan::RuleTestReport report =
        snnplan::run_rule_tests(rules->rules, paths, snnplan::RuleTestOptions{.mutate = mutate != 0});
    if (!report.problems.empty()) {
      if (out_error) *out_error = load_error(snnplan::LoadError(report.problems));
      return SNNPLAN_LOAD_ERROR;
    }
    *out_json = copy_string(snnplan::to_json(report));
    if (!*out_json) return SNNPLAN_OUT_OF_MEMORY;
    return report.failed == 0 ? SNNPLAN_OK : SNNPLAN_RULE_ERROR;
  } catch (const snnplan::TestFileError& e) {
    if (out_error) *out_error = plain_error(SNNPLAN_LOAD_ERROR, e.what());
    return SNNPLAN_LOAD_ERROR;
  } catch (...) {
    return unexpected_failure(out_error);
  }
}

snnplan_status snnplan_plan(const snnplan_rules* rules, const char* json_input, char** out_json) noexcept {
  // What `snnplan plan --batch` does with one line, minus the line number.
  return json_call(rules, json_input, out_json, [&]() -> JsonResult {
    snnplan::request::PlannedLine planned = snnplan::request::plan_json_line(json_input, rules->rules);
    switch (planned.kind) {
      case snnplan::request::PlannedLine::Kind::ok: return {SNNPLAN_OK, std::move(planned.text)};
      case snnplan::request::PlannedLine::Kind::rule_error: return {SNNPLAN_RULE_ERROR, snnplan::render::error_line(planned.text)};
      case snnplan::request::PlannedLine::Kind::bad_input: break;
    }
    return {SNNPLAN_BAD_INPUT, snnplan::render::error_line(planned.text)};
  });
}

snnplan_status snnplan_pipeline_microbatches(int64_t batch_size, int64_t num_stages, int64_t* out_microbatches,
                                             char** out_message) noexcept {
  if (out_message) *out_message = nullptr;
  if (!out_microbatches) return SNNPLAN_INVALID_ARGUMENT;
  *out_microbatches = 0;
  try {
    auto result = snnplan::pipeline_microbatches(batch_size, num_stages);
    if (auto* count = std::get_if<std::int64_t>(&result)) {
      *out_microbatches = *count;
      return SNNPLAN_OK;
    }
    if (out_message) {
      *out_message = copy_string(std::get<std::string>(result));
      if (!*out_message) return SNNPLAN_OUT_OF_MEMORY;
    }
    return SNNPLAN_RULE_ERROR;
  } catch (const std::bad_alloc&) {
    return SNNPLAN_OUT_OF_MEMORY;
  } catch (...) {
    return SNNPLAN_INTERNAL_ERROR;
  }
}

snnplan_status snnplan_error_status(const snnplan_error* error) noexcept {
  return error ? error->status : SNNPLAN_OK;
}
const char* snnplan_error_text(const snnplan_error* error) noexcept { return error ? error->text.c_str() : ""; }
const char* snnplan_error_message(const snnplan_error* error) noexcept { return error ? error->first.message.c_str() : ""; }
const char* snnplan_error_file(const snnplan_error* error) noexcept { return error ? error->first.file.c_str() : ""; }
uint32_t snnplan_error_line(const snnplan_error* error) noexcept { return error ? error->first.line : 0; }
uint32_t snnplan_error_column(const snnplan_error* error) noexcept { return error ? error->first.column : 0; }

size_t snnplan_error_diagnostic_count(const snnplan_error* error) noexcept { return error ? error->diagnostics.size() : 0; }

}  // extern "C"

namespace {
const snnplan_error::Entry* diagnostic_at(const snnplan_error* error, size_t index) noexcept {
  return error && index < error->diagnostics.size() ? &error->diagnostics[index] : nullptr;
}
}  // namespace

extern "C" {

const char* snnplan_error_diagnostic_severity(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->severity : "";
}
const char* snnplan_error_diagnostic_code(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->code.c_str() : "";
}
const char* snnplan_error_diagnostic_message(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->message.c_str() : "";
}
const char* snnplan_error_diagnostic_file(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->file.c_str() : "";
}
uint32_t snnplan_error_diagnostic_line(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->line : 0;
}
uint32_t snnplan_error_diagnostic_column(const snnplan_error* error, size_t index) noexcept {
  const auto* d = diagnostic_at(error, index);
  return d ? d->column : 0;
}

void snnplan_error_free(snnplan_error* error) noexcept { delete error; }

}  // extern "C"
