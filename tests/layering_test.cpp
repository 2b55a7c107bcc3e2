// The layering of src/ (issue 14): every folder of src/ is a layer with a rank, and a file may
// include its own folder and folders of a lower rank only. The ranks are read from the marked
// tables of docs/architecture.md, so the document and the check cannot drift apart.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef SNNPLAN_SOURCE_DIR
#error "build with -DSNNPLAN_SOURCE_DIR=\"<the snnplan source tree>\""
#endif

namespace {

namespace fs = std::filesystem;

/// What docs/architecture.md says about the layers.
struct Architecture {
  std::map<std::string, int> rank_of_folder;  // "core" -> 0
  /// Public header (relative to include/snnplan) -> the folder that implements it, or
  /// kNotFromSrc for a header src/ may not include (the umbrella).
  std::map<std::string, std::string> folder_of_header;
  std::vector<std::string> problems;  // malformed or missing tables
};

constexpr std::string_view kNotFromSrc = "none";

/// One file of the tree, its path relative to the source tree ("src/load/literals.cpp").
struct SourceFile {
  std::string path;
  std::string text;
};

/// What the checks look at in a source tree.
struct Tree {
  std::vector<SourceFile> files;            // src/**/*.{hpp,cpp,h,c}
  std::vector<std::string> folders;         // directories directly under src/: "core", ...
  std::vector<std::string> loose_files;     // files directly under src/: "src/x.cpp"
  std::vector<std::string> public_headers;  // under include/snnplan: "value.hpp", ...
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::string strip_prefix(std::string s, std::string_view prefix) {
  if (std::string_view(s).substr(0, prefix.size()) == prefix) s.erase(0, prefix.size());
  return s;
}

/// The cells of a markdown table row, trimmed and without backticks.
std::vector<std::string> cells_of(std::string_view row) {
  row = trim(row);
  row.remove_prefix(1);  // the leading '|'
  if (!row.empty() && row.back() == '|') row.remove_suffix(1);
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const auto bar = row.find('|', start);
    std::string cell(trim(row.substr(start, bar == std::string_view::npos ? bar : bar - start)));
    std::erase(cell, '`');
    cells.push_back(cell);
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return cells;
}

bool is_separator_row(const std::vector<std::string>& cells) {
  return std::all_of(cells.begin(), cells.end(), [](const std::string& cell) {
    return !cell.empty() && cell.find_first_not_of("-: ") == std::string::npos;
  });
}

/// The rows of the markdown table between `<!-- name:begin -->` and `<!-- name:end -->`, the
/// header row included, the separator row left out. Lines that are not table rows are skipped.
std::vector<std::vector<std::string>> table_between(std::string_view text, const std::string& name,
                                                    std::vector<std::string>& problems) {
  const std::string begin = "<!-- " + name + ":begin -->";
  const std::string end = "<!-- " + name + ":end -->";
  const auto from = text.find(begin);
  const auto to = from == std::string_view::npos ? from : text.find(end, from);
  if (from == std::string_view::npos || to == std::string_view::npos) {
    problems.push_back("docs/architecture.md: no table between " + begin + " and " + end);
    return {};
  }
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(std::string(text.substr(from + begin.size(), to - from - begin.size())));
  for (std::string line; std::getline(lines, line);) {
    if (trim(line).substr(0, 1) != "|") continue;
    auto cells = cells_of(line);
    if (!is_separator_row(cells)) rows.push_back(std::move(cells));
  }
  if (rows.empty()) problems.push_back("docs/architecture.md: the " + name + " table is empty");
  return rows;
}

/// Index of the column headed `heading`, or -1 (with a problem) when there is none.
int column(const std::vector<std::vector<std::string>>& rows, const std::string& table,
           const std::string& heading, std::vector<std::string>& problems) {
  if (rows.empty()) return -1;
  const auto& header = rows.front();
  const auto at = std::find(header.begin(), header.end(), heading);
  if (at == header.end()) {
    problems.push_back("docs/architecture.md: the " + table + " table has no column '" + heading +
                       "'");
    return -1;
  }
  return static_cast<int>(at - header.begin());
}

Architecture parse_architecture(std::string_view text) {
  Architecture arch;
  auto& problems = arch.problems;

  const auto layers = table_between(text, "layers", problems);
  const int rank_column = column(layers, "layers", "rank", problems);
  const int folder_column = column(layers, "layers", "folder", problems);
  if (rank_column >= 0 && folder_column >= 0) {
    for (std::size_t i = 1; i < layers.size(); ++i) {
      const auto& row = layers[i];
      const auto width = static_cast<std::size_t>(std::max(rank_column, folder_column)) + 1;
      if (row.size() < width) {
        problems.push_back("docs/architecture.md: layers row " + std::to_string(i) +
                           " has too few cells");
        continue;
      }
      const std::string& rank_text = row[static_cast<std::size_t>(rank_column)];
      const std::string& folder = row[static_cast<std::size_t>(folder_column)];
      int rank = 0;
      const auto [end, error] =
          std::from_chars(rank_text.data(), rank_text.data() + rank_text.size(), rank);
      if (error != std::errc() || end != rank_text.data() + rank_text.size() || rank < 0) {
        problems.push_back("docs/architecture.md: layer " + folder + " has rank '" + rank_text +
                           "', not a number from 0 up");
        continue;
      }
      if (folder.empty() || !arch.rank_of_folder.emplace(folder, rank).second) {
        problems.push_back("docs/architecture.md: the layers table names folder '" + folder + "' " +
                           (folder.empty() ? "empty" : "twice"));
      }
    }
  }

  const auto headers = table_between(text, "public-headers", problems);
  const int header_column = column(headers, "public-headers", "header", problems);
  const int owner_column = column(headers, "public-headers", "folder", problems);
  if (header_column >= 0 && owner_column >= 0) {
    for (std::size_t i = 1; i < headers.size(); ++i) {
      const auto& row = headers[i];
      const auto width = static_cast<std::size_t>(std::max(header_column, owner_column)) + 1;
      if (row.size() < width) {
        problems.push_back("docs/architecture.md: public-headers row " + std::to_string(i) +
                           " has too few cells");
        continue;
      }
      // "include/snnplan/x.hpp", "snnplan/x.hpp" and "x.hpp" all name the same header.
      const std::string header = strip_prefix(
          strip_prefix(row[static_cast<std::size_t>(header_column)], "include/"), "snnplan/");
      const std::string& folder = row[static_cast<std::size_t>(owner_column)];
      if (folder != kNotFromSrc && !arch.rank_of_folder.contains(folder)) {
        problems.push_back("docs/architecture.md: public header " + header +
                           " belongs to folder '" + folder +
                           "', which the layers table does not list");
      }
      if (!arch.folder_of_header.emplace(header, folder).second) {
        problems.push_back("docs/architecture.md: the public-headers table lists " + header +
                           " twice");
      }
    }
  }
  return arch;
}

/// The target of an `#include "..."` or `#include <...>` line, or "" for any other line.
/// Sets `quoted` to whether the target was in double quotes.
std::string include_target(std::string_view line, bool& quoted) {
  line = trim(line);
  if (line.substr(0, 1) != "#") return {};
  line = trim(line.substr(1));
  constexpr std::string_view kInclude = "include";
  if (line.substr(0, kInclude.size()) != kInclude) return {};
  line = trim(line.substr(kInclude.size()));
  if (line.empty() || (line.front() != '"' && line.front() != '<')) return {};
  quoted = line.front() == '"';
  const auto close = line.find(quoted ? '"' : '>', 1);
  if (close == std::string_view::npos) return {};
  return std::string(line.substr(1, close - 1));
}

/// The layer folder of `path`, a path relative to src/ or an include target: its first folder
/// ("load/x.cpp" -> "load"), or its first two where the table names those as one layer, as for
/// the front ends grouped in one folder ("frontends/cli/app.cpp" -> "frontends/cli"); "" for a
/// path without a folder.
std::string layer_folder(const Architecture& arch, std::string_view path) {
  const auto slash = path.find('/');
  if (slash == std::string_view::npos) return {};
  if (const auto second = path.find('/', slash + 1); second != std::string_view::npos) {
    std::string grouped(path.substr(0, second));
    if (arch.rank_of_folder.contains(grouped)) return grouped;
  }
  return std::string(path.substr(0, slash));
}

/// The layer folder of a file of src/ ("src/load/x.cpp" -> "load"), or "" when it is in none.
std::string folder_of_file(const Architecture& arch, std::string_view path) {
  constexpr std::string_view kSrc = "src/";
  if (path.substr(0, kSrc.size()) != kSrc) return {};
  return layer_folder(arch, path.substr(kSrc.size()));
}

/// Every include of a file in `files` that reaches above its own layer, or into another folder
/// of the same rank, or of a public header src/ may not use. Files outside a known layer are left
/// to structure_problems.
std::vector<std::string> include_violations(const Architecture& arch,
                                            const std::vector<SourceFile>& files) {
  std::vector<std::string> violations;
  for (const auto& file : files) {
    const std::string own = folder_of_file(arch, file.path);
    const auto own_layer = arch.rank_of_folder.find(own);
    if (own_layer == arch.rank_of_folder.end()) continue;
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      bool quoted = false;
      const std::string target = include_target(line, quoted);
      if (target.empty()) continue;
      const std::string shown = "\"" + target + "\"";
      std::string folder;
      if (target.starts_with("snnplan/")) {
        const auto header =
            arch.folder_of_header.find(target.substr(std::string_view("snnplan/").size()));
        if (header == arch.folder_of_header.end()) {
          violations.push_back(
              file.path + ": includes " + shown +
              ", a header the public-headers table of docs/architecture.md does not list");
          continue;
        }
        if (header->second == kNotFromSrc) {
          violations.push_back(file.path + ": includes " + shown +
                               ", which src/ may not include (include the headers it needs)");
          continue;
        }
        folder = header->second;
      } else if (quoted) {
        folder = layer_folder(arch, target);
      }
      // Not a layer: a header beside the file, a system or third-party header.
      const auto layer = arch.rank_of_folder.find(folder);
      if (layer == arch.rank_of_folder.end() || folder == own) continue;
      const std::string theirs = "(layer " + std::to_string(layer->second) + " " + folder + ")";
      const std::string mine = "its own layer " + std::to_string(own_layer->second) + " " + own;
      if (layer->second > own_layer->second) {
        violations.push_back(file.path + ": includes " + shown + " " + theirs + " above " + mine);
      } else if (layer->second == own_layer->second) {
        violations.push_back(file.path + ": includes " + shown + " " + theirs +
                             ", another folder of " + mine);
      }
    }
  }
  return violations;
}

/// The folders of src/ that may include yaml-cpp: the loader reads YAML with it, the renderer
/// writes YAML with it. Every other stage reads YAML through load/ (issue 31), so one reader
/// decides what a YAML text means and where its errors are.
const std::set<std::string> kYamlCppFolders = {"load", "render"};

/// Every include of a yaml-cpp header by a file of src/ outside kYamlCppFolders, directly or
/// through a header of src/ that includes one (render/yaml_scalars.hpp), so that yaml-cpp's
/// types cannot leak out through a header of the two folders either.
std::vector<std::string> yaml_cpp_violations(const std::vector<SourceFile>& files) {
  const auto yaml_cpp_includes = [](const SourceFile& file) {
    std::vector<std::string> targets;
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      bool quoted = false;
      std::string target = include_target(line, quoted);
      if (target.starts_with("yaml-cpp/")) targets.push_back(std::move(target));
    }
    return targets;
  };
  std::set<std::string> yaml_headers;  // "render/yaml_scalars.hpp": as src/ includes it
  for (const auto& file : files)
    if (file.path.ends_with(".hpp") && !yaml_cpp_includes(file).empty())
      yaml_headers.insert(file.path.substr(std::string_view("src/").size()));
  std::vector<std::string> violations;
  for (const auto& file : files) {
    // load/ and render/ are top-level folders: the first folder under src/ names them.
    const std::string_view path = file.path;
    const std::string_view in_src = path.starts_with("src/") ? path.substr(4) : std::string_view();
    if (kYamlCppFolders.contains(std::string(in_src.substr(0, in_src.find('/'))))) continue;
    for (const std::string& target : yaml_cpp_includes(file))
      violations.push_back(file.path + ": includes <" + target +
                           ">; only src/load/ and src/render/ use yaml-cpp (read YAML through "
                           "load/)");
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      bool quoted = false;
      const std::string target = include_target(line, quoted);
      if (quoted && yaml_headers.contains(target))
        violations.push_back(file.path + ": includes \"" + target +
                             "\", which includes yaml-cpp; only src/load/ and src/render/ may");
    }
  }
  return violations;
}

/// Folders of src/ without a layer, and files directly under src/ (which belong to none).
std::vector<std::string> structure_problems(const Architecture& arch, const Tree& tree) {
  std::vector<std::string> problems;
  for (const auto& folder : tree.folders) {
    if (!arch.rank_of_folder.contains(folder)) {
      problems.push_back("src/" + folder +
                         "/: a folder the layers table of docs/architecture.md does not list");
    }
  }
  for (const auto& path : tree.loose_files) {
    problems.push_back(path +
                       ": a file directly under src/, outside every layer (move it into a folder)");
  }
  return problems;
}

/// Public headers without a row in the public-headers table, and rows naming no header.
std::vector<std::string> header_table_problems(const Architecture& arch,
                                               const std::vector<std::string>& headers) {
  std::vector<std::string> problems;
  for (const auto& header : headers) {
    if (!arch.folder_of_header.contains(header)) {
      problems.push_back("include/snnplan/" + header +
                         ": missing from the public-headers table of docs/architecture.md");
    }
  }
  for (const auto& [header, folder] : arch.folder_of_header) {
    if (std::find(headers.begin(), headers.end(), header) == headers.end()) {
      problems.push_back("docs/architecture.md: the public-headers table lists snnplan/" + header +
                         ", which include/snnplan does not have");
    }
  }
  return problems;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.is_open(), "cannot read " << path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const fs::path kSourceDir = SNNPLAN_SOURCE_DIR;

Architecture read_architecture() {
  return parse_architecture(read_file(kSourceDir / "docs" / "architecture.md"));
}

Tree read_tree(const fs::path& root) {
  Tree tree;
  const fs::path src = root / "src";
  REQUIRE_MESSAGE(fs::is_directory(src), src.string() << " is not a directory");
  // A folder of src/ whose entries are all folders groups layers (src/frontends/): its
  // folders are the layers, named "frontends/cli".
  const auto holds_only_folders = [](const fs::path& folder) {
    bool any = false;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (!entry.is_directory()) return false;
      any = true;
    }
    return any;
  };
  for (const auto& entry : fs::directory_iterator(src)) {
    const std::string relative = fs::relative(entry.path(), root).generic_string();
    if (!entry.is_directory()) {
      tree.loose_files.push_back(relative);
    } else if (const std::string name = entry.path().filename().string();
               holds_only_folders(entry.path())) {
      for (const auto& layer : fs::directory_iterator(entry.path()))
        tree.folders.push_back(name + "/" + layer.path().filename().string());
    } else {
      tree.folders.push_back(name);
    }
  }
  const std::set<std::string> extensions{".hpp", ".cpp", ".h", ".c"};
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file() || !extensions.contains(entry.path().extension().string()))
      continue;
    tree.files.push_back(
        {fs::relative(entry.path(), root).generic_string(), read_file(entry.path())});
  }
  const fs::path include = root / "include" / "snnplan";
  for (const auto& entry : fs::recursive_directory_iterator(include)) {
    if (entry.is_regular_file())
      tree.public_headers.push_back(fs::relative(entry.path(), include).generic_string());
  }
  std::sort(tree.folders.begin(), tree.folders.end());
  std::sort(tree.loose_files.begin(), tree.loose_files.end());
  std::sort(tree.files.begin(), tree.files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  std::sort(tree.public_headers.begin(), tree.public_headers.end());
  return tree;
}

/// One check listing every problem, one per line.
void check_none(const std::vector<std::string>& problems) {
  std::string all;
  for (const auto& problem : problems) all += "\n  " + problem;
  CHECK_MESSAGE(problems.empty(), problems.size() << " problem(s):" << all);
}

// A made-up architecture for the tests of the checks themselves.
constexpr std::string_view kMadeUpArchitecture = R"(
A table outside the markers is not read:
| rank | folder | owns | may include |
| --- | --- | --- | --- |
| 0 | ignored | nothing | nothing |

<!-- layers:begin -->
| rank | folder | owns | may include |
| ---: | --- | --- | --- |
| 0 | `core` | values | core only |
| 1 | load | text -> tree | core |
| 2 | api | the public API | ranks 0-1 |
| 3 | frontends/capi | the C API | ranks 0-2 |
| 3 | frontends/cli | the command line | ranks 0-2 |
<!-- layers:end -->

<!-- public-headers:begin -->
| header | folder |
| --- | --- |
| snnplan/value.hpp | core |
| `include/snnplan/rule_set.hpp` | api |
| snnplan/snnplan.hpp | none |
<!-- public-headers:end -->
)";

std::vector<std::string> violations_of(const std::string& path, const std::string& text) {
  const Architecture arch = parse_architecture(kMadeUpArchitecture);
  REQUIRE(arch.problems.empty());
  return include_violations(arch, {{path, text}});
}

}  // namespace

TEST_SUITE("architecture") {
  TEST_CASE("the layer tables are read from between their markers") {
    const Architecture arch = parse_architecture(kMadeUpArchitecture);
    check_none(arch.problems);
    CHECK(
        arch.rank_of_folder ==
        std::map<std::string, int>{
            {"core", 0}, {"load", 1}, {"api", 2}, {"frontends/capi", 3}, {"frontends/cli", 3}});
    CHECK(arch.folder_of_header == std::map<std::string, std::string>{{"value.hpp", "core"},
                                                                      {"rule_set.hpp", "api"},
                                                                      {"snnplan.hpp", "none"}});
  }

  TEST_CASE("a malformed layer table is reported") {
    CHECK(
        parse_architecture("no tables here").problems ==
        std::vector<std::string>{
            "docs/architecture.md: no table between <!-- layers:begin --> and <!-- layers:end -->",
            "docs/architecture.md: no table between <!-- public-headers:begin --> and <!-- "
            "public-headers:end -->"});
    const Architecture arch = parse_architecture(R"(
<!-- layers:begin -->
| rank | folder |
| --- | --- |
| 0 | core |
| one | load |
| 2 | core |
<!-- layers:end -->
<!-- public-headers:begin -->
| header | layer |
<!-- public-headers:end -->
)");
    CHECK(arch.problems ==
          std::vector<std::string>{
              "docs/architecture.md: layer load has rank 'one', not a number from 0 up",
              "docs/architecture.md: the layers table names folder 'core' twice",
              "docs/architecture.md: the public-headers table has no column 'folder'"});
  }

  TEST_CASE("a file that includes a folder above its own layer is reported") {
    CHECK(violations_of("src/load/parser.cpp",
                        "#include <vector>\n#include \"api/rule_set_access.hpp\"\n") ==
          std::vector<std::string>{"src/load/parser.cpp: includes \"api/rule_set_access.hpp\" "
                                   "(layer 2 api) above its own layer 1 load"});
    // However the directive is spaced, and from a file in a subfolder.
    CHECK(violations_of("src/core/detail/kinds.hpp",
                        "  #  include   \"frontends/cli/app.hpp\"  // why not\n") ==
          std::vector<std::string>{"src/core/detail/kinds.hpp: includes \"frontends/cli/app.hpp\" "
                                   "(layer 3 frontends/cli) above its own layer 0 core"});
  }

  TEST_CASE("a public header counts as the folder that implements it") {
    CHECK(violations_of("src/load/x.cpp",
                        "#include \"snnplan/rule_set.hpp\"\n#include <snnplan/rule_set.hpp>\n") ==
          std::vector<std::string>{"src/load/x.cpp: includes \"snnplan/rule_set.hpp\" (layer 2 "
                                   "api) above its own layer 1 load",
                                   "src/load/x.cpp: includes \"snnplan/rule_set.hpp\" (layer 2 "
                                   "api) above its own layer 1 load"});
  }

  TEST_CASE("an include of another folder of the same rank is reported") {
    CHECK(violations_of("src/frontends/capi/c_api.cpp",
                        "#include \"frontends/cli/json_inputs.hpp\"\n") ==
          std::vector<std::string>{
              "src/frontends/capi/c_api.cpp: includes \"frontends/cli/json_inputs.hpp\" (layer 3 "
              "frontends/cli), another folder of its own layer 3 frontends/capi"});
  }

  TEST_CASE("downward includes and includes within the folder pass") {
    CHECK(violations_of("src/frontends/cli/app.cpp",
                        "#include \"frontends/cli/app.hpp\"\n"
                        "#include <string>\n"
                        "#include \"core/messages.hpp\"\n"
                        "#include \"load/literals.hpp\"\n"
                        "#include \"api/rule_set_access.hpp\"\n"
                        "#include \"snnplan/value.hpp\"\n"
                        "#include \"snnplan/rule_set.hpp\"\n"
                        "#include \"beside.hpp\"\n"
                        "#include \"yaml-cpp/yaml.h\"\n"
                        "// #include \"frontends/capi/c_api.hpp\" (a comment)\n"
                        "const char* text = \"#include \\\"frontends/capi/x.hpp\\\"\";\n")
              .empty());
  }

  TEST_CASE("the umbrella header and unlisted public headers may not be included from src") {
    CHECK(violations_of("src/frontends/cli/app.cpp",
                        "#include \"snnplan/snnplan.hpp\"\n#include <snnplan/unlisted.hpp>\n") ==
          std::vector<std::string>{"src/frontends/cli/app.cpp: includes \"snnplan/snnplan.hpp\", which src/ "
                                   "may not include (include the headers "
                                   "it needs)",
                                   "src/frontends/cli/app.cpp: includes \"snnplan/unlisted.hpp\", a header "
                                   "the public-headers table of "
                                   "docs/architecture.md does not list"});
  }

  TEST_CASE("a folder missing from the layer table and a file directly under src are reported") {
    const Architecture arch = parse_architecture(kMadeUpArchitecture);
    Tree tree;
    tree.folders = {"api", "core", "frontends/cli", "frontends/python", "utils"};
    tree.loose_files = {"src/helpers.cpp"};
    CHECK(structure_problems(arch, tree) ==
          std::vector<std::string>{
              "src/frontends/python/: a folder the layers table of docs/architecture.md does not "
              "list",
              "src/utils/: a folder the layers table of docs/architecture.md does not list",
              "src/helpers.cpp: a file directly under src/, outside every layer (move it into a "
              "folder)"});
    tree.folders = {"api", "core", "frontends/cli"};
    tree.loose_files.clear();
    CHECK(structure_problems(arch, tree).empty());
  }

  TEST_CASE("a public header missing from the header table is reported") {
    const Architecture arch = parse_architecture(kMadeUpArchitecture);
    CHECK(header_table_problems(arch, {"rule_set.hpp", "snnplan.hpp", "value.hpp"}).empty());
    CHECK(header_table_problems(arch, {"new_thing.hpp", "rule_set.hpp", "snnplan.hpp"}) ==
          std::vector<std::string>{"include/snnplan/new_thing.hpp: missing from the public-headers "
                                   "table of docs/architecture.md",
                                   "docs/architecture.md: the public-headers table lists "
                                   "snnplan/value.hpp, which include/snnplan does "
                                   "not have"});
  }

  TEST_CASE("docs/architecture.md has a layer table and a public-headers table") {
    const Architecture arch = read_architecture();
    check_none(arch.problems);
    CHECK(arch.rank_of_folder.at("core") == 0);
  }

  TEST_CASE("every folder in src has a layer and no file sits directly under src") {
    const Architecture arch = read_architecture();
    REQUIRE(arch.problems.empty());
    check_none(structure_problems(arch, read_tree(kSourceDir)));
  }

  TEST_CASE("every public header has a row in the public-headers table") {
    const Architecture arch = read_architecture();
    REQUIRE(arch.problems.empty());
    check_none(header_table_problems(arch, read_tree(kSourceDir).public_headers));
  }

  TEST_CASE("yaml-cpp included outside load and render is reported, in load and render not") {
    CHECK(yaml_cpp_violations(
              {{"src/frontends/lsp/actions.cpp", "#include <yaml-cpp/yaml.h>\n#include \"render/flow_yaml.hpp\"\n"},
               {"src/testing/report.cpp", "#include \"render/yaml_scalars.hpp\"\n"},
               {"src/core/messages.hpp", "// yaml-cpp's text\n"},
               {"src/load/yaml_document.hpp", "#include <yaml-cpp/mark.h>\n"},
               {"src/render/yaml_scalars.hpp", "#include \"yaml-cpp/emitter.h\"\n"},
               {"src/render/yaml.cpp", "#include \"render/yaml_scalars.hpp\"\n"}}) ==
          std::vector<std::string>{
              "src/frontends/lsp/actions.cpp: includes <yaml-cpp/yaml.h>; only src/load/ and src/render/ use "
              "yaml-cpp (read YAML through load/)",
              "src/testing/report.cpp: includes \"render/yaml_scalars.hpp\", which includes "
              "yaml-cpp; only src/load/ and src/render/ may"});
  }

  TEST_CASE("no file in src outside load and render includes yaml-cpp, directly or not") {
    const Tree tree = read_tree(kSourceDir);
    REQUIRE(tree.files.size() > 10);
    check_none(yaml_cpp_violations(tree.files));
  }

  TEST_CASE("no file in src includes a folder above its own layer") {
    const Architecture arch = read_architecture();
    REQUIRE(arch.problems.empty());
    const Tree tree = read_tree(kSourceDir);
    REQUIRE(tree.files.size() > 10);  // the scan found the tree
    check_none(include_violations(arch, tree.files));
  }
}
