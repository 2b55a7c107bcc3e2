#pragma once
// Python's repr() of the rule language's values, so templates and messages can spell values
// the way the reference's f-strings do: 'text' (quotes and escapes chosen as Python chooses
// them), True, False, None, 0.5, [1, 'a'] and, for a list read as a tuple, ('dp', 'ep').

#include <string>

#include "core/runtime_value.hpp"

namespace snnplan::language {

/// The longest text repr() writes: beyond it, a rule error (a list of 65536 copies of a
/// long string would otherwise be gigabytes).
inline constexpr std::size_t kMaxReprBytes = std::size_t{1} << 20;

/// How a list is written: as a Python list `[a, b]` or as a tuple `(a, b)`, `(a,)`, `()`.
enum class Brackets : bool { list, tuple };

/// Appends Python's repr() of `value` to `out`. Strings are taken as UTF-8; a byte that is
/// not part of a valid UTF-8 sequence is written as `\xNN`. A record (which Python code
/// never holds) is written as display() writes it. Fails (EvaluationFailure, a rule error)
/// when `out` would grow beyond kMaxReprBytes.
void append_python_repr(std::string& out, const detail::RValue& value,
                        Brackets brackets = Brackets::list);

}  // namespace snnplan::language
