#pragma once
// The compiled-rules cache: RuleSet::from_file with LoadOptions::use_cache keeps the compiled
// form of a rule file (compile/serialized_rules.hpp) in $XDG_CACHE_HOME/snnplan (else
// ~/.cache/snnplan), named by a hash of the file's bytes, its name and the load options, so
// that loading the same file again parses no YAML.
//
// A cache file is used only when its header (format, build), checksum and contents check out
// and the source text it holds is byte for byte the file's text; anything else (a corrupt,
// truncated or foreign file) is ignored and replaced. Writes go to a temporary file renamed
// into place, so readers never see half a file; a failed read or write never fails the load.
// Rule files with `uses:` are not cached (the files they use could change under the cache).

#include <memory>
#include <string>
#include <string_view>

#include "compile/compiled_rules.hpp"

namespace snnplan::api {

/// The environment variable that turns the cache off (any value but "" and "0").
inline constexpr const char* kNoCacheVariable = "SNNPLAN_NO_CACHE";

/// Whether SNNPLAN_NO_CACHE turns the cache off.
bool cache_disabled_by_environment();

/// $XDG_CACHE_HOME/snnplan, else $HOME/.cache/snnplan; empty when neither is set.
std::string cache_directory();

/// Where the compiled form of `text` loaded as `file_name` is kept in `directory`.
std::string cache_path(const std::string& directory, std::string_view text, const std::string& file_name,
                       bool analysed);

/// The cached compiled form of `text` (loaded as `file_name`), or nullptr when there is no
/// usable one. Never throws but std::bad_alloc.
std::shared_ptr<const detail::CompiledRules> read_cached(const std::string& directory, std::string_view text,
                                                         const std::string& file_name, bool analysed);

/// Stores `rules` as the compiled form of `text`. Does nothing for rules with `uses:`; never
/// throws (a cache that cannot be written is no error).
void write_cached(const std::string& directory, std::string_view text, const std::string& file_name,
                  bool analysed, const detail::CompiledRules& rules) noexcept;

}  // namespace snnplan::api
