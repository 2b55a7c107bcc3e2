#include "decisions/replay.hpp"

#include <istream>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "api/rule_set_access.hpp"
#include "decisions/messages.hpp"
#include "decisions/record_json.hpp"
#include "render/json.hpp"
#include "request/json_inputs.hpp"
#include "snnplan/decision_log.hpp"

namespace snnplan::decisions {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

// The rule files records name, each loaded once (or the reason it cannot be).
class RuleFiles {
 public:
  explicit RuleFiles(const LoadOptions& load) : load_(load) {}

  const std::variant<RuleSet, std::string>& get(const std::string& file, bool builtin) {
    const auto key = std::make_pair(file, builtin);
    auto at = loaded_.find(key);
    if (at != loaded_.end()) return at->second;
    return loaded_.emplace(key, load(file, builtin)).first->second;
  }

 private:
  std::variant<RuleSet, std::string> load(const std::string& file, bool builtin) const {
    try {
      if (builtin && file.rfind("rules/", 0) == 0) return RuleSetAccess::builtin(file.substr(6));
      return RuleSet::from_file(file, load_);
    } catch (const LoadError& error) {
      return messages::replay_file_gone(file, error.diagnostics().empty() ? "" : error.diagnostics().front().message);
    } catch (const std::exception& error) {
      return messages::replay_file_gone(file, error.what());
    }
  }

  LoadOptions load_;
  std::map<std::pair<std::string, bool>, std::variant<RuleSet, std::string>> loaded_;
};

const json* string_at(const json& record, const char* name) {
  const auto at = record.find(name);
  return at != record.end() && at->is_string() ? &*at : nullptr;
}

ordered answer_of(const json& record) {
  ordered out;
  out[key::answer] = record.contains(key::answer) ? ordered(record[key::answer]) : ordered(nullptr);
  out[key::error] = record.contains(key::error) ? ordered(record[key::error]) : ordered(nullptr);
  return out;
}

std::vector<std::string> strings_at(const json& record, const char* name) {
  std::vector<std::string> out;
  const auto at = record.find(name);
  if (at == record.end() || !at->is_array()) return out;
  for (const json& item : *at)
    if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

struct Replayer {
  const ReplayOptions& options;
  RuleFiles files;
  ReplayReport report;
  std::map<std::pair<std::vector<std::string>, std::vector<std::string>>, std::size_t> group_of;
  std::map<std::string, std::size_t> changed_file_of;

  void skip(std::size_t line, std::string reason) {
    ++report.not_replayable;
    report.skipped.push_back(NotReplayable{line, std::move(reason)});
  }

  void line(std::size_t number, const std::string& text) {
    ++report.records;
    json record;
    try {
      record = json::parse(text);
    } catch (const json::exception& error) {
      return skip(number, messages::replay_not_json(request::not_json(error.what())));
    }
    if (!record.is_object()) return skip(number, messages::replay_not_a_record());
    const json* format = string_at(record, key::format);
    if (!format || format->get<std::string>() != decision_log_format)
      return skip(number, messages::replay_other_format(format ? format->get<std::string>() : "no \"format\""));
    for (const char* needed : {key::rules_sha256, key::rules_file})
      if (!string_at(record, needed)) return skip(number, messages::replay_missing_key(needed));
    if (!record.contains(key::inputs) || !record[key::inputs].is_object())
      return skip(number, messages::replay_missing_key(key::inputs));
    if (const std::vector<std::string> masked = strings_at(record, key::masked); !masked.empty()) {
      std::string names;
      for (const std::string& name : masked) names += (names.empty() ? "" : ", ") + name;
      return skip(number, messages::replay_masked(names));
    }
    const std::string file = record[key::rules_file].get<std::string>();
    const std::string logged_sha = record[key::rules_sha256].get<std::string>();
    const RuleSet* rules = nullptr;
    if (options.candidate) {
      rules = &*options.candidate;
    } else {
      const bool builtin = record.contains(key::builtin) && record[key::builtin].is_boolean() &&
                           record[key::builtin].get<bool>();
      const auto& loaded = files.get(file, builtin);
      if (const auto* why = std::get_if<std::string>(&loaded)) return skip(number, *why);
      rules = &std::get<RuleSet>(loaded);
      if (rules->sha256() != logged_sha) note_changed_file(file, logged_sha, rules->sha256());
    }
    for (const auto& [name, value] : record[key::inputs].items()) {
      bool declared = false;
      for (const InputInfo& input : rules->inputs()) declared = declared || input.name == name;
      if (!declared) return skip(number, messages::replay_undeclared_input(name, rules->file_name()));
    }
    auto inputs = request::inputs_from_json(record[key::inputs], *rules);
    if (const auto* why = std::get_if<std::string>(&inputs)) return skip(number, messages::replay_bad_inputs(*why));
    const Decision decision = rules->decide(std::get<Inputs>(inputs));
    ordered now;
    now[key::answer] = answer_json(decision.result);
    now[key::error] = error_json(decision.result);
    const ordered before = answer_of(record);
    // Compared as JSON values: the key order of a hand-edited log does not matter.
    if (json(before) == json(now)) {
      ++report.unchanged;
      return;
    }
    ++report.changed;
    const auto key = std::make_pair(strings_at(record, key::rules), decision.fired_rules);
    auto [at, fresh] = group_of.emplace(key, report.groups.size());
    if (fresh) report.groups.push_back(ReplayGroup{key.first, key.second, 0, {}});
    ReplayGroup& group = report.groups[at->second];
    ++group.count;
    if (group.examples.size() < kReplayExamples) {
      const json* id = string_at(record, key::decision_id);
      group.examples.push_back(ReplayExample{number, id ? id->get<std::string>() : std::string(),
                                             ordered(record[key::inputs]), before, now});
    }
  }

  void note_changed_file(const std::string& file, const std::string& logged, const std::string& today) {
    const std::string key = file + '\n' + logged;
    auto [at, fresh] = changed_file_of.emplace(key, report.changed_files.size());
    if (fresh) report.changed_files.push_back(ChangedFile{file, logged, today, 0});
    ++report.changed_files[at->second].records;
  }
};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "(none)" : out;
}

// The fields of two answers that differ, as `snnplan diff` lists them: "mode: "tp" -> "dp"".
std::vector<std::string> differing_fields(const ordered& before, const ordered& after) {
  std::vector<std::string> lines;
  const ordered& a = before[key::answer];
  const ordered& b = after[key::answer];
  if (a.is_object() && b.is_object()) {
    for (const auto& [name, value] : a.items()) {
      const ordered other = b.contains(name) ? b[name] : ordered(nullptr);
      if (json(value) != json(other)) lines.push_back(fmt::format("{}: {} -> {}", name, value.dump(), other.dump()));
    }
    for (const auto& [name, value] : b.items())
      if (!a.contains(name)) lines.push_back(fmt::format("{}: null -> {}", name, value.dump()));
    return lines;
  }
  const auto shown = [](const ordered& answer) {
    return answer[key::error].is_object() ? "error " + answer[key::error].dump() : answer[key::answer].dump();
  };
  lines.push_back(fmt::format("{} -> {}", shown(before), shown(after)));
  return lines;
}

}  // namespace

ReplayReport replay(std::istream& log, const ReplayOptions& options) {
  Replayer replayer{options, RuleFiles(options.load), {}, {}, {}};
  std::string text;
  std::size_t number = 0;
  while (std::getline(log, text)) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    replayer.line(number, text);
  }
  return std::move(replayer.report);
}

std::string render_text(const ReplayReport& report, const std::string& log_name,
                        const std::optional<std::string>& candidate_name) {
  std::string out;
  for (const ChangedFile& file : report.changed_files)
    out += fmt::format("{} changed since it was logged: sha256 {} in the log, {} today ({} decision{})\n",
                       file.file, file.logged_sha256, file.today_sha256, file.records,
                       file.records == 1 ? "" : "s");
  for (std::size_t k = 0; k < report.groups.size(); ++k) {
    const ReplayGroup& group = report.groups[k];
    out += fmt::format("change {} of {}: {} decision{}\n", k + 1, report.groups.size(), group.count,
                       group.count == 1 ? "" : "s");
    out += fmt::format("  old rules: {}\n  new rules: {}\n", joined(group.old_rules), joined(group.new_rules));
    for (const ReplayExample& example : group.examples) {
      out += fmt::format("  line {}{}: {}\n", example.line,
                         example.decision_id.empty() ? "" : " (decision " + example.decision_id + ")",
                         example.inputs.dump());
      for (const std::string& field : differing_fields(example.old_answer, example.new_answer))
        out += "    " + field + "\n";
    }
  }
  for (const NotReplayable& skipped : report.skipped)
    out += fmt::format("{}:{}: not replayable: {}\n", log_name, skipped.line, skipped.reason);
  out += fmt::format("{} decision{} replayed from {} against {}: {} unchanged, {} changed, {} not replayable\n",
                     report.records, report.records == 1 ? "" : "s", log_name,
                     candidate_name ? *candidate_name : std::string("the rule files they name"), report.unchanged,
                     report.changed, report.not_replayable);
  return out;
}

std::string render_json(const ReplayReport& report) {
  ordered out;
  out["records"] = report.records;
  out["unchanged"] = report.unchanged;
  out["changed"] = report.changed;
  out["not_replayable"] = report.not_replayable;
  ordered changes = ordered::array();
  for (const ReplayGroup& group : report.groups) {
    ordered examples = ordered::array();
    for (const ReplayExample& example : group.examples)
      examples.push_back({{"line", example.line},
                          {"decision_id", example.decision_id},
                          {"inputs", example.inputs},
                          {"old", example.old_answer},
                          {"new", example.new_answer}});
    changes.push_back({{"old_rules", group.old_rules},
                       {"new_rules", group.new_rules},
                       {"count", group.count},
                       {"examples", std::move(examples)}});
  }
  out["changes"] = std::move(changes);
  ordered skipped = ordered::array();
  for (const NotReplayable& line : report.skipped) skipped.push_back({{"line", line.line}, {"reason", line.reason}});
  out["not_replayable_lines"] = std::move(skipped);
  ordered files = ordered::array();
  for (const ChangedFile& file : report.changed_files)
    files.push_back({{"file", file.file},
                     {"logged_sha256", file.logged_sha256},
                     {"today_sha256", file.today_sha256},
                     {"records", file.records}});
  out["changed_files"] = std::move(files);
  return out.dump(2, ' ', false, ordered::error_handler_t::replace) + "\n";
}

}  // namespace snnplan::decisions
