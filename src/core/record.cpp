#include "snnplan/record.hpp"

namespace snnplan {

const Value* Record::find(std::string_view name) const noexcept {
  for (std::size_t k = 0; k < names_->size(); ++k)
    if ((*names_)[k] == name) return &values_[k];
  return nullptr;
}

}  // namespace snnplan
