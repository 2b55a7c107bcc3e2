#include "decisions/record_json.hpp"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "render/json.hpp"
#include "snnplan/decision_log.hpp"

namespace snnplan::decisions {
namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

nlohmann::ordered_json inputs_json(const Inputs& inputs, const RecordMasking& masking,
                                   nlohmann::ordered_json& masked) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [name, value] : inputs) {
    if (listed(masking.drop_inputs, name) || listed(masking.mask_inputs, name)) {
      masked.push_back(name);
      if (listed(masking.drop_inputs, name)) continue;
      out[name] = kMaskedValue;
      continue;
    }
    out[name] = render::to_json(value);
  }
  return out;
}

}  // namespace

nlohmann::ordered_json answer_json(const EvaluationResult& result) {
  return result.ok() ? render::to_json(result.record()) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json error_json(const EvaluationResult& result) {
  if (result.ok()) return nullptr;
  return {{"kind", result.error().kind == EvaluationErrorKind::rule_error ? "rule_error" : "bad_input"},
          {"message", result.error().message}};
}

std::string timestamp(std::chrono::system_clock::time_point time) {
  using namespace std::chrono;
  const auto micros = duration_cast<microseconds>(time.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, micros % 1000000);
}

std::string record_line(const Decision& decision, const RecordMasking& masking) {
  nlohmann::ordered_json line;
  line[key::format] = decision_log_format;
  line[key::decision_id] = decision.id;
  line[key::timestamp] = timestamp(decision.time);
  line[key::rules_sha256] = decision.rules_sha256;
  line[key::rules_file] = decision.rules_file;
  line[key::builtin] = decision.builtin_rules;
  nlohmann::ordered_json labels = nlohmann::ordered_json::object();
  for (const auto& [name, value] : masking.labels) labels[name] = value;
  line[key::labels] = std::move(labels);
  nlohmann::ordered_json masked = nlohmann::ordered_json::array();
  line[key::inputs] = inputs_json(decision.inputs, masking, masked);
  if (!masked.empty()) line[key::masked] = std::move(masked);
  line[key::answer] = answer_json(decision.result);
  line[key::error] = error_json(decision.result);
  line[key::rules] = decision.fired_rules;
  line[key::eval_us] = static_cast<double>(decision.took.count()) / 1000.0;
  if (decision.shadow) {
    const Decision::Candidate& candidate = *decision.shadow;
    line[key::shadow] = {{key::rules_sha256, candidate.rules_sha256},
                         {key::rules_file, candidate.rules_file},
                         {key::answer, answer_json(candidate.result)},
                         {key::error, error_json(candidate.result)},
                         {key::rules, candidate.fired_rules}};
  }
  // Invalid UTF-8 in inputs or messages is replaced rather than refused: a record is never lost.
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string record_line(const Decision& decision) {
  static const std::vector<std::pair<std::string, std::string>> no_labels;
  static const std::vector<std::string> no_names;
  return record_line(decision, RecordMasking{no_labels, no_names, no_names});
}

}  // namespace snnplan::decisions
