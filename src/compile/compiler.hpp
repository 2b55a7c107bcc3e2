#pragma once
// Stage 3 of the pipeline: a checked syntax tree -> CompiledRules (names resolved to slots,
// constants folded). Only called on files the checker passed without errors.

#include <map>
#include <memory>
#include <string>

#include "compile/compiled_rules.hpp"
#include "language/syntax.hpp"

namespace snnplan::compile {

/// `used` maps the names in the file's `uses` section to their compiled rules.
std::shared_ptr<detail::CompiledRules> compile_rules(
    const syntax::RuleFile& file, std::string source_text,
    const std::map<std::string, std::shared_ptr<const detail::CompiledRules>>& used = {});

}  // namespace snnplan::compile
