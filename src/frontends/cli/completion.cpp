#include "frontends/cli/completion.hpp"

#include <fmt/format.h>

#include "frontends/cli/flags.hpp"

namespace snnplan::cli {
namespace {

// What an option's value completes to.
struct ValueCompletion {
  enum class Kind { none, files, words } kind = Kind::none;
  std::vector<std::string> words;
};

ValueCompletion value_completion(const CLI::Option& option) {
  const std::string placeholder = placeholder_of(option);
  if (placeholder == kFilePlaceholder) return {ValueCompletion::Kind::files, {}};
  if (placeholder == kBoolPlaceholder) return {ValueCompletion::Kind::words, {"true", "false"}};
  if (std::vector<std::string> choices = choices_of(option); !choices.empty())
    return {ValueCompletion::Kind::words, std::move(choices)};
  return {};
}

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

// The long and short names of a named option ("--model", "-h").
std::vector<std::string> flag_names(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_lnames()) names.push_back("--" + name);
  for (const std::string& name : option.get_snames()) names.push_back("-" + name);
  return names;
}

std::string joined(const std::vector<std::string>& words, std::string_view separator = " ") {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : std::string(separator)) + word;
  return out;
}

// ---- bash --------------------------------------------------------------------------------

std::string bash_words(const ValueCompletion& c) {
  if (c.kind == ValueCompletion::Kind::files) return "COMPREPLY=($(compgen -f -- \"$cur\"))";
  if (c.kind == ValueCompletion::Kind::words)
    return fmt::format("COMPREPLY=($(compgen -W '{}' -- \"$cur\"))", joined(c.words));
  return "COMPREPLY=()";
}

std::string bash_script(const CLI::App& app) {
  std::vector<std::string> top_words;
  for (const CLI::App* sub : subcommands(app)) top_words.push_back(sub->get_name());
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : flag_names(*option)) top_words.push_back(name);
  std::string cases;
  for (const CLI::App* sub : subcommands(app)) {
    std::string value_cases;
    std::vector<std::string> flags;
    ValueCompletion positional;
    for (const CLI::Option* option : sub->get_options()) {
      if (!option->nonpositional()) {
        positional = value_completion(*option);
        continue;
      }
      const std::vector<std::string> names = flag_names(*option);
      flags.insert(flags.end(), names.begin(), names.end());
      if (takes_value(*option))
        value_cases += fmt::format("        {}) {}; return ;;\n", joined(names, "|"),
                                   bash_words(value_completion(*option)));
    }
    cases += fmt::format(
        "    {})\n      case \"$prev\" in\n{}      esac\n      if [[ \"$cur\" == -* ]]; then\n"
        "        COMPREPLY=($(compgen -W '{}' -- \"$cur\"))\n      else\n        {}\n      fi\n"
        "      ;;\n",
        sub->get_name(), value_cases, joined(flags), bash_words(positional));
  }
  return fmt::format(
      "# bash completion for snnplan (written by `snnplan completion bash`)\n"
      "_snnplan() {{\n"
      "  local cur=\"${{COMP_WORDS[COMP_CWORD]}}\" prev=\"${{COMP_WORDS[COMP_CWORD-1]}}\"\n"
      "  local command=\"\" i\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      "    case \"${{COMP_WORDS[i]}}\" in -*) ;; *) command=\"${{COMP_WORDS[i]}}\"; break ;; esac\n"
      "  done\n"
      "  if [[ -z \"$command\" ]]; then\n"
      "    COMPREPLY=($(compgen -W '{}' -- \"$cur\"))\n"
      "    return\n"
      "  fi\n"
      "  case \"$command\" in\n"
      "{}"
      "  esac\n"
      "}}\n"
      "complete -o filenames -F _snnplan snnplan\n",
      joined(top_words), cases);
}

// ---- zsh ---------------------------------------------------------------------------------

// Text inside a single-quoted _arguments spec: brackets and colons are its syntax.
std::string zsh_text(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '[' || c == ']' || c == ':' || c == '\\')
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

std::string zsh_action(const ValueCompletion& c) {
  if (c.kind == ValueCompletion::Kind::files) return "_files";
  if (c.kind == ValueCompletion::Kind::words) return "(" + joined(c.words) + ")";
  return " ";
}

std::string zsh_script(const CLI::App& app) {
  std::string commands;
  for (const CLI::App* sub : subcommands(app))
    commands += fmt::format("    '{}:{}'\n", sub->get_name(), zsh_text(sub->get_description()));
  std::string cases;
  for (const CLI::App* sub : subcommands(app)) {
    std::string specs;
    for (const CLI::Option* option : sub->get_options()) {
      const std::string placeholder = zsh_text(placeholder_of(*option));
      const std::string action = zsh_action(value_completion(*option));
      if (!option->nonpositional()) {
        specs += fmt::format(" \\\n        '{}:{}:{}'", repeatable(*option) ? "*" : "", placeholder,
                             action);
        continue;
      }
      const std::string names = joined(flag_names(*option), ",");
      const std::string exclusive =
          flag_names(*option).size() > 1 ? "(" + joined(flag_names(*option)) + ")" : "";
      const std::string spec = (repeatable(*option) ? "*" : exclusive) +
                               (flag_names(*option).size() > 1 ? "{" + names + "}" : names);
      const std::string help = "[" + zsh_text(option->get_description()) + "]";
      if (takes_value(*option))
        specs += fmt::format(" \\\n        {}'{}:{}:{}'", spec, help, placeholder, action);
      else
        specs += fmt::format(" \\\n        {}'{}'", spec, help);
    }
    cases += fmt::format("    {})\n      _arguments -s{} ;;\n", sub->get_name(), specs);
  }
  return fmt::format(
      "#compdef snnplan\n"
      "# zsh completion for snnplan (written by `snnplan completion zsh`)\n"
      "_snnplan() {{\n"
      "  local -a commands\n"
      "  commands=(\n{}  )\n"
      "  if (( CURRENT == 2 )); then\n"
      "    _describe -t commands 'snnplan subcommand' commands\n"
      "    return\n"
      "  fi\n"
      "  local command=$words[2]\n"
      "  shift words\n"
      "  (( CURRENT-- ))\n"
      "  case $command in\n"
      "{}"
      "  esac\n"
      "}}\n"
      "compdef _snnplan snnplan\n",
      commands, cases);
}

// ---- fish --------------------------------------------------------------------------------

std::string fish_text(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string fish_value(const ValueCompletion& c) {
  if (c.kind == ValueCompletion::Kind::files) return " -r -F";
  if (c.kind == ValueCompletion::Kind::words) return " -x -a " + fish_text(joined(c.words));
  return " -x";
}

std::string fish_script(const CLI::App& app) {
  std::string out =
      "# fish completion for snnplan (written by `snnplan completion fish`)\n"
      "complete -c snnplan -f\n";
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : option->get_lnames())
      out += fmt::format("complete -c snnplan -n __fish_use_subcommand -l {} -d {}\n", name,
                         fish_text(option->get_description()));
  for (const CLI::App* sub : subcommands(app))
    out += fmt::format("complete -c snnplan -n __fish_use_subcommand -a {} -d {}\n",
                       sub->get_name(), fish_text(sub->get_description()));
  for (const CLI::App* sub : subcommands(app)) {
    const std::string condition =
        fmt::format("-n '__fish_seen_subcommand_from {}'", sub->get_name());
    for (const CLI::Option* option : sub->get_options()) {
      const ValueCompletion value = value_completion(*option);
      if (!option->nonpositional()) {
        if (value.kind != ValueCompletion::Kind::none)
          out +=
              fmt::format("complete -c snnplan {}{}\n", condition,
                          value.kind == ValueCompletion::Kind::files ? " -F" : fish_value(value));
        continue;
      }
      std::string names;
      for (const std::string& name : option->get_lnames()) names += " -l " + name;
      for (const std::string& name : option->get_snames()) names += " -s " + name;
      out += fmt::format("complete -c snnplan {}{}{} -d {}\n", condition, names,
                         takes_value(*option) ? fish_value(value) : "",
                         fish_text(option->get_description()));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> completion_shells() {
  return {"bash", "zsh", "fish"};
}

std::string completion_script(const CLI::App& app, std::string_view shell) {
  if (shell == "zsh") return zsh_script(app);
  if (shell == "fish") return fish_script(app);
  return bash_script(app);
}

}  // namespace snnplan::cli
