#pragma once
/// \file
/// The one source-position type of snnplan: a file name with a 1-based line and column.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace snnplan {

/// A rule file's name as locations hold it. Copies share one string instead of copying it:
/// a rule set of 10,000 rules keeps one copy of its file name, not one per location (copying
/// the name into every location was the largest single cost of loading a compiled rule set).
/// Reads as a `const std::string&`; made from any string.
///
///     SourceLocation at{"rules/x.yaml", 12, 5};
///     const std::string& name = at.file;  // "rules/x.yaml"
class FileName {
 public:
  FileName() noexcept = default;
  FileName(std::string name)  // NOLINT(google-explicit-constructor): made from strings as before
      : name_(name.empty() ? nullptr : std::make_shared<const std::string>(std::move(name))) {}
  FileName(const char* name) : FileName(std::string(name)) {}  // NOLINT(google-explicit-constructor)
  FileName(std::string_view name) : FileName(std::string(name)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] const std::string& str() const noexcept { return name_ ? *name_ : empty_name(); }
  operator const std::string&() const noexcept { return str(); }  // NOLINT(google-explicit-constructor)
  operator std::string_view() const noexcept { return str(); }     // NOLINT(google-explicit-constructor)
  [[nodiscard]] bool empty() const noexcept { return str().empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return str().size(); }
  [[nodiscard]] const char* c_str() const noexcept { return str().c_str(); }

  friend bool operator==(const FileName& a, const FileName& b) noexcept {
    return a.name_ == b.name_ || a.str() == b.str();
  }
  friend bool operator==(const FileName& a, const std::string& b) noexcept { return a.str() == b; }
  friend bool operator==(const FileName& a, std::string_view b) noexcept { return a.str() == b; }
  friend bool operator==(const FileName& a, const char* b) noexcept { return a.str() == b; }
  friend auto operator<=>(const FileName& a, const FileName& b) noexcept { return a.str() <=> b.str(); }
  friend std::string operator+(const FileName& a, std::string_view b) { return std::string(a.str()).append(b); }
  friend std::string operator+(std::string_view a, const FileName& b) { return std::string(a).append(b.str()); }

 private:
  static const std::string& empty_name() noexcept;
  std::shared_ptr<const std::string> name_;  // null: no name
};

/// A position in a rule file. Lines and columns count from 1; 0 means "unknown".
/// yaml-cpp's 0-based marks are converted once, in the loader.
struct SourceLocation {
  FileName file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  [[nodiscard]] bool known() const noexcept { return line != 0; }
  /// The same location, `offset` columns further right (for positions inside a scalar).
  [[nodiscard]] SourceLocation shifted(std::uint32_t offset) const {
    return SourceLocation{file, line, column + offset};
  }
};

/// "file:line:column", or "file" when the position is unknown.
std::string to_string(const SourceLocation& location);

}  // namespace snnplan
