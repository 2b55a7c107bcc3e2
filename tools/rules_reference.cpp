// Rewrites the generated tables of docs/rules.md (matchers, builtins) from the rule
// language's own rows: `cmake --build build --target update-docs`, or
//   rules_reference docs/rules.md           prints the document as it should be
//   rules_reference --update docs/rules.md  writes it in place
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "rules_reference/tables.hpp"

int main(int argc, char** argv) {
  const bool update = argc == 3 && std::string(argv[1]) == "--update";
  if (argc != 2 && !update) {
    std::cerr << "usage: rules_reference [--update] docs/rules.md\n";
    return 2;
  }
  const std::string path = argv[argc - 1];
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << "rules_reference: cannot read " << path << '\n';
    return 1;
  }
  const std::string out = snnplan::rules_reference::with_generated_reference(text.str());
  if (!update) {
    std::cout << out;
    return std::cout.flush() ? 0 : 1;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << out;
  file.close();
  if (!file) {
    std::cerr << "rules_reference: cannot write " << path << '\n';
    return 1;
  }
  return 0;
}
