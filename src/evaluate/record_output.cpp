// The finished record in its public forms: a Record of Values (finish) or views into the
// evaluation's store (views), and the refusal of a value no public form holds (an integer
// beyond 64 bits, a record).

#include <algorithm>
#include <bit>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "evaluate/expressions.hpp"

namespace snnplan::evaluate::internal {

EvaluationResult Evaluator::finish(const WorkingRecord& record) {
  std::vector<Value> values;
  values.reserve(rules_.fields.size());
  for (std::size_t k = 0; k < rules_.fields.size(); ++k) {
    if (static_cast<int>(k) == rules_.rationale_field) {
      Value::List lines;
      lines.reserve(record.rationale.size());
      for (std::string_view line : record.rationale) lines.emplace_back(std::string(line));
      values.emplace_back(std::move(lines));
    } else if (!append_public(record.fields[k], rules_.fields[k].name, values)) {
      return std::move(*failure_);
    }
  }
  return Record(rules_.field_names, std::move(values));
}

bool Evaluator::views(const WorkingRecord& record, std::vector<ValueView>& out) {
  // The defaults' views copied whole, then only the fields the evaluation wrote (and any
  // whose default has no ready view, and any past the 64 the mask tracks) converted.
  const std::size_t count = rules_.fields.size();
  if (out.size() != count) out.resize(count);  // a reused Evaluation: already the size
  ValueView* const fields = out.data();
  static_assert(std::is_trivially_copyable_v<ValueView>);
  std::copy_n(rules_.default_views.data(), count, fields);  // default_views: one per field
  std::uint64_t pending = record.written | rules_.unviewed_defaults;
  while (pending != 0) {
    const auto k = static_cast<std::size_t>(std::countr_zero(pending));
    pending &= pending - 1;
    if (!view_field(record, k, fields[k])) return false;
  }
  for (std::size_t k = 64; k < count; ++k)
    if (!view_field(record, k, fields[k])) return false;
  if (rules_.rationale_field >= 0) {
    const std::size_t n_lines = record.rationale.size();
    auto* lines = static_cast<ValueView*>(store_.allocate_bytes(
        std::max<std::size_t>(n_lines, 1) * sizeof(ValueView), alignof(ValueView)));
    for (std::size_t n = 0; n < n_lines; ++n)
      new (lines + n) ValueView(ValueView::of_string(record.rationale[n]));
    fields[rules_.rationale_field] = ValueView::of_list({lines, n_lines});
  }
  return true;
}

inline bool Evaluator::view_field(const WorkingRecord& record, std::size_t k, ValueView& v) {
  const RValue& field = record.fields[k];
  if (detail::scalar_view(field, v)) return true;
  // The rationale field holds its lines in record.rationale, written by views().
  if (static_cast<int>(k) == rules_.rationale_field) return true;
  // A list of 64-bit integers (a mesh shape, a layout) is written without recursion.
  if (field.kind == Kind::list && int64_list_view(field, v)) return true;
  return view_of(field, rules_.fields[k].name, v);
}


// `list` as a view when every item is an integer that fits 64 bits; false (nothing
// written) otherwise, for view_of() to decide.
bool Evaluator::int64_list_view(const RValue& list, ValueView& out) {
  const std::size_t size = list.items.size;
  for (std::size_t n = 0; n < size; ++n) {
    const RValue& item = list.items.data[n];
    if (item.kind != Kind::integer || !detail::fits_int64(item.i)) return false;
  }
  auto* items = static_cast<ValueView*>(store_.allocate_bytes(
      std::max<std::size_t>(size, 1) * sizeof(ValueView), alignof(ValueView)));
  for (std::size_t n = 0; n < size; ++n)
    new (items + n) ValueView(ValueView::of_int(static_cast<std::int64_t>(list.items.data[n].i)));
  out = ValueView::of_list({items, size});
  return true;
}


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
