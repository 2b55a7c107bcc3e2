#include "frontends/cli/flags.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

#include "frontends/cli/batch.hpp"
#include "frontends/cli/messages.hpp"
#include "render/messages.hpp"

namespace snnplan::cli {
namespace {

// Strict UTF-8: no overlong forms, surrogates or code points beyond U+10FFFF.
bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c < 0x80)
      extra = 0;
    else if (c >= 0xC2 && c <= 0xDF)
      extra = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else
      return false;
    if (s.size() - i <= extra) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < low || b > high) : (b & 0xC0) != 0x80) return false;
    }
    i += extra + 1;
  }
  return true;
}

std::string lowered(const std::string& text) {
  std::string out;
  for (char c : text) out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

}  // namespace

std::int64_t parse_int(const std::string& flag, const std::string& text) {
  std::int64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range)
    throw UsageError{messages::flag_out_of_range(flag, text)};
  if (ec != std::errc() || ptr != last || text.empty())
    throw UsageError{messages::flag_not_integer(flag, text)};
  return value;
}

bool parse_bool(const std::string& flag, const std::string& text) {
  const std::string word = lowered(text);
  if (word == "true") return true;
  if (word == "false") return false;
  throw UsageError{messages::flag_not_bool(flag, text)};
}

bool parse_yes_no(const std::string& flag, const std::string& text) {
  const std::string word = lowered(text);
  if (word == "yes" || word == "true") return true;
  if (word == "no" || word == "false") return false;
  throw UsageError{messages::flag_not_yes_no(flag, text)};
}

std::string parse_string(const std::string& flag, const std::string& text) {
  if (!valid_utf8(text)) throw UsageError{messages::flag_not_utf8(flag)};
  return text;
}

std::optional<std::string> given_value(const CLI::Option* option, const std::string& value) {
  if (option == nullptr || option->count() == 0) return std::nullopt;
  return value;
}

std::string placeholder(std::string_view kind) {
  if (kind == "int") return "INT";
  if (kind == "bool") return kBoolPlaceholder;
  if (kind == "float") return "FLOAT";
  if (kind.rfind("list[", 0) == 0) return "LIST";
  return "TEXT";
}

std::string placeholder_of(const CLI::Option& option) {
  // CLI11 appends ":" and each validator's description; ours have none, except the ones
  // that say a range ("PERCENT:0-100").
  const std::string full = option.get_type_name();
  return full.substr(0, full.find(':'));
}

bool takes_value(const CLI::Option& option) {
  return option.get_items_expected_max() > 0;
}
bool repeatable(const CLI::Option& option) {
  return option.get_expected_max() > 1;
}

std::vector<std::string> choices_of(const CLI::Option& option) {
  const std::string name = placeholder_of(option);
  std::vector<std::string> choices;
  if (name.size() < 2 || name.front() != '{' || name.back() != '}') return choices;
  std::size_t begin = 1;
  while (begin < name.size()) {
    const std::size_t end = std::min(name.find(',', begin), name.size() - 1);
    choices.push_back(name.substr(begin, end - begin));
    begin = end + 1;
  }
  return choices;
}

CLI::Option* add_jobs_option(CLI::App& command, unsigned& jobs) {
  const CLI::Validator in_range(
      [](std::string& text) -> std::string {
        unsigned value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size() || value < 1 ||
            value > kMaxBatchJobs)
          return messages::flag_not_in_range(1, kMaxBatchJobs, text);
        return {};
      },
      "");
  return command
      .add_option("--jobs", jobs,
                  "with --batch: answer lines on N threads (output stays in input order)")
      ->type_name("N")
      ->check(in_range);
}

CLI::Option* add_format_option(CLI::App& command, std::string& format, render::Output output) {
  format = std::string(render::format_row(render::default_format(output)).name);
  const CLI::Validator known(
      [output](std::string& text) -> std::string {
        try {
          (void)render::parse_format(text, output);
          return {};
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
      },
      "");
  return command.add_option("--format", format, "output format")
      ->check(known)
      ->type_name(render::format_choices(output));
}

CLI::Option* add_choice_option(CLI::App& command, const std::string& name, std::string& value,
                               const std::string& help, const std::vector<std::string>& choices) {
  if (name.rfind('-', 0) == 0) value = choices.front();  // a positional has no default
  const CLI::Validator one_of(
      [choices](std::string& text) -> std::string {
        if (std::find(choices.begin(), choices.end(), text) != choices.end()) return {};
        return messages::not_a_choice(text, messages::choice_set(choices));
      },
      "");
  return command.add_option(name, value, help)
      ->check(one_of)
      ->type_name(messages::choice_set(choices));
}

CLI::Option* add_rules_option(CLI::App& command, std::string& path, const std::string& help) {
  return command.add_option("--rules", path, help + "; - reads it from standard input")
      ->type_name(kFilePlaceholder);
}

namespace {
// Whether `word` is "-x" or "--name" of an option of `command` or of an app above it
// (--version is the top level's). Looked up when a value is checked, for the few options a run
// is given, rather than collected for all of them at every start.
bool names_a_flag(const CLI::App* command, std::string_view word) {
  if (word.size() < 2 || word[0] != '-') return false;
  const bool long_name = word[1] == '-';
  const std::string_view name = word.substr(long_name ? 2 : 1);
  for (const CLI::App* app = command; app != nullptr; app = app->get_parent())
    for (const CLI::Option* option : app->get_options()) {
      const std::vector<std::string>& names =
          long_name ? option->get_lnames() : option->get_snames();
      if (std::find(names.begin(), names.end(), name) != names.end()) return true;
    }
  return false;
}
}  // namespace

void refuse_flag_names_as_values(CLI::App& command) {
  const CLI::Validator not_a_flag(
      [&command](std::string& value) -> std::string {
        return names_a_flag(&command, value) ? messages::flag_value_missing(value) : std::string();
      },
      "");
  for (CLI::Option* option : command.get_options())
    if (option->nonpositional() && option->get_type_size() > 0) option->check(not_a_flag);
}

}  // namespace snnplan::cli
