#pragma once
/// \file
/// The output of one evaluation: named fields, in the order the rule file declares them.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "snnplan/value.hpp"

namespace snnplan {

/// The record an evaluation returns, e.g. record.find("mode")->as_string() == "fsdp2_tp".
/// Copies share the field names (owned by the rule set that produced the record).
class Record {
 public:
  Record(std::shared_ptr<const std::vector<std::string>> names, std::vector<Value> values)
      : names_(std::move(names)), values_(std::move(values)) {}

  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return *names_; }
  [[nodiscard]] const std::vector<Value>& values() const noexcept { return values_; }
  /// The field called `name`, or nullptr when the record has no such field.
  [[nodiscard]] const Value* find(std::string_view name) const noexcept;

 private:
  std::shared_ptr<const std::vector<std::string>> names_;
  std::vector<Value> values_;
};

}  // namespace snnplan
