#pragma once
// The decision record as JSON: written by DecisionLog, read back by replay. The one place that
// knows the record's keys (render/schema.cpp's decision-log schema documents the same keys;
// tests/decision_log_test.cpp checks written records against it).

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "snnplan/decision.hpp"

namespace snnplan::decisions {

namespace key {
inline constexpr const char* format = "format";
inline constexpr const char* decision_id = "decision_id";
inline constexpr const char* timestamp = "timestamp";
inline constexpr const char* rules_sha256 = "rules_sha256";
inline constexpr const char* rules_file = "rules_file";
inline constexpr const char* builtin = "builtin";
inline constexpr const char* labels = "labels";
inline constexpr const char* inputs = "inputs";
inline constexpr const char* masked = "masked";
inline constexpr const char* answer = "answer";
inline constexpr const char* error = "error";
inline constexpr const char* rules = "rules";
inline constexpr const char* eval_us = "eval_us";
inline constexpr const char* shadow = "shadow";
}  // namespace key

/// The value written for a masked input.
inline constexpr const char* kMaskedValue = "<masked>";

struct RecordMasking {
  const std::vector<std::pair<std::string, std::string>>& labels;
  const std::vector<std::string>& drop_inputs;
  const std::vector<std::string>& mask_inputs;
};

/// The decision's JSON line (no newline).
std::string record_line(const Decision& decision, const RecordMasking& masking);
/// The same without labels or masking: a decision's provenance as decide() calls give it.
std::string record_line(const Decision& decision);

/// The record as the log writes it under "answer" (null for an error) ...
nlohmann::ordered_json answer_json(const EvaluationResult& result);
/// ... and under "error": null, or {"kind": "rule_error"|"bad_input", "message": ...}.
nlohmann::ordered_json error_json(const EvaluationResult& result);

/// RFC 3339 in UTC with microseconds: "2026-12-03T10:15:30.123456Z".
std::string timestamp(std::chrono::system_clock::time_point time);

}  // namespace snnplan::decisions
