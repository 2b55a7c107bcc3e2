#include "snnplan/value_view.hpp"

#include <string>

namespace snnplan {

Value ValueView::to_value() const {
  switch (kind_) {
    case Kind::null: return Value();
    case Kind::boolean: return Value(b_);
    case Kind::integer: return Value(i_);
    case Kind::floating: return Value(f_);
    case Kind::string: return Value(std::string(as_string()));
    case Kind::list: {
      Value::List items;
      items.reserve(l_.size);
      for (const ValueView& item : as_list()) items.push_back(item.to_value());
      return Value(std::move(items));
    }
  }
  return Value();
}

bool operator==(const ValueView& view, const Value& value) {
  switch (view.kind()) {
    case ValueView::Kind::null: return value.is_null();
    case ValueView::Kind::boolean: return value.is_bool() && value.as_bool() == view.as_bool();
    case ValueView::Kind::integer: return value.is_int() && value.as_int() == view.as_int();
    case ValueView::Kind::floating: return value.is_float() && value.as_float() == view.as_float();
    case ValueView::Kind::string: return value.is_string() && value.as_string() == view.as_string();
    case ValueView::Kind::list: {
      if (!value.is_list() || value.as_list().size() != view.as_list().size()) return false;
      for (std::size_t k = 0; k < view.as_list().size(); ++k)
        if (!(view.as_list()[k] == value.as_list()[k])) return false;
      return true;
    }
  }
  return false;
}

}  // namespace snnplan
