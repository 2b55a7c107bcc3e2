// The record's values in their public forms off the fast path: a value as a Value
// (append_public, for finish), the view of a list that is not all 64-bit integers (view_of),
// and the refusal of a value no public form holds (an integer beyond 64 bits, a record).
// finish() and the views' fast path (views, view_field) are inline in engine.hpp.

#include <algorithm>
#include <bit>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "evaluate/expressions.hpp"

namespace snnplan::evaluate::internal {

// The public view of `v` (lists copied into the store as views).
bool Evaluator::view_of(const RValue& v, const std::string& field, ValueView& out) {
  if (detail::scalar_view(v, out)) return true;
  switch (v.kind) {
    case Kind::integer:  // beyond 64 bits (scalar_view took the others)
      return fail(EvaluationErrorKind::rule_error,
                  messages::out_of_64_bits(fmt::format("record field '{}' = {}", field,
                                                       detail::wide_to_string(v.i))));
    case Kind::list: {
      auto* items = static_cast<ValueView*>(store_.allocate_bytes(
          std::max<std::size_t>(v.items.size, 1) * sizeof(ValueView), alignof(ValueView)));
      for (std::size_t n = 0; n < v.items.size; ++n) {
        new (items + n) ValueView();
        if (!view_of(v.items.data[n], field, items[n])) return false;
      }
      out = ValueView::of_list({items, v.items.size});
      return true;
    }
    case Kind::record:
      return fail(EvaluationErrorKind::rule_error, messages::record_in_output(field));
    default:  // the scalars, which scalar_view() took
      return true;
  }
}

// Appends the public form of `v` to `out`.
bool Evaluator::append_public(const RValue& v, const std::string& field,
                              std::vector<Value>& out) {
  switch (v.kind) {
    case Kind::null:
      out.emplace_back();
      return true;
    case Kind::boolean:
      out.emplace_back(v.b);
      return true;
    case Kind::integer:
      if (!detail::fits_int64(v.i))
        return fail(EvaluationErrorKind::rule_error,
                    messages::out_of_64_bits(fmt::format("record field '{}' = {}", field,
                                                         detail::wide_to_string(v.i))));
      out.emplace_back(static_cast<std::int64_t>(v.i));
      return true;
    case Kind::floating:
      out.emplace_back(v.f);
      return true;
    case Kind::string:
      out.emplace_back(std::string(v.s()));
      return true;
    case Kind::list: {
      Value::List items;
      items.reserve(v.items.size);
      for (const RValue& item : v.list())
        if (!append_public(item, field, items)) return false;
      out.emplace_back(std::move(items));
      return true;
    }
    case Kind::record:
      return fail(EvaluationErrorKind::rule_error, messages::record_in_output(field));
  }
  return true;
}

}  // namespace snnplan::evaluate::internal
