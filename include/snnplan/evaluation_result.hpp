#pragma once
/// \file
/// What an evaluation returns: a record, or the error that stopped it (errors are values).

#include <optional>
#include <string>
#include <utility>

#include "snnplan/record.hpp"

namespace snnplan {

/// Why an evaluation produced no record.
enum class EvaluationErrorKind {
  /// The rules raised an error for these inputs (the reference's ValueError): exit code 1.
  rule_error,
  /// An input is missing, of the wrong type or out of range: exit code 2.
  bad_input,
};

struct EvaluationError {
  EvaluationErrorKind kind = EvaluationErrorKind::rule_error;
  std::string message;
};

/// Either a record or an error; never both.
class EvaluationResult {
 public:
  EvaluationResult(Record record) : record_(std::move(record)) {}
  EvaluationResult(EvaluationError error) : error_(std::move(error)) {}

  [[nodiscard]] bool ok() const noexcept { return record_.has_value(); }
  /// Precondition: ok().
  [[nodiscard]] const Record& record() const { return *record_; }
  /// Precondition: !ok().
  [[nodiscard]] const EvaluationError& error() const { return *error_; }

 private:
  std::optional<Record> record_;
  std::optional<EvaluationError> error_;
};

}  // namespace snnplan
