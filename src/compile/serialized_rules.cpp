#include "compile/serialized_rules.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "compile/rule_index.hpp"
#include "core/diagnostic_codes.hpp"
#include "snnplan/version.hpp"

namespace snnplan::compile {
namespace {

using detail::CompiledRules;
using detail::Node;
using detail::RValue;

constexpr char kMagic[8] = {'S', 'N', 'N', 'P', 'L', 'A', 'N', 'C'};

/// Nested `uses` deeper than this is refused on reading (the loader allows far less).
constexpr int kMaxNesting = 16;
/// Expressions nested deeper than this are refused on reading (the parser allows far less).
constexpr int kMaxExprDepth = 512;

std::uint64_t mix(std::uint64_t h) noexcept {
  // The finaliser of MurmurHash3: every input bit reaches every output bit.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

std::uint64_t abi_hash() {
  std::string text = std::string(snnplan::version) + '/' + std::to_string(kSerializedFormatVersion);
  text += '/' + std::to_string(sizeof(RValue)) + '/' + std::to_string(sizeof(void*)) + '/' +
          std::to_string(sizeof(detail::Wide)) + (std::endian::native == std::endian::little ? "le" : "be");
  for (const language::MatcherInfo& m : language::matchers()) text += std::string("/m:") + m.name;
  for (const language::BuiltinInfo& b : language::builtins()) text += std::string("/b:") + b.name;
  // The warnings a cached form keeps are this build's findings: a build that reports a new
  // code compiles again rather than read back a file checked without it.
  for (const detail::DiagnosticCodeInfo& d : detail::diagnostic_codes()) text += std::string("/d:") + std::string(d.code);
  return content_hash(text, 0x736e6e706c616e31ULL);
}

// ---- writing -----------------------------------------------------------------------------

class Writer {
 public:
  std::string out;

  template <typename T>
  void raw(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void u8(std::uint8_t v) { raw(v); }
  void u32(std::uint32_t v) { raw(v); }
  void i32(int v) { raw(static_cast<std::int32_t>(v)); }
  void size(std::size_t v) { raw(static_cast<std::uint64_t>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(std::string_view s) {
    size(s.size());
    out.append(s);
  }
  // File names repeat in every location: each is written once, then by number.
  void location(const SourceLocation& l) {
    auto it = files_.find(l.file.str());
    if (it == files_.end()) {
      const auto number = static_cast<std::uint32_t>(files_.size());
      files_.emplace(l.file.str(), number);
      u32(number);
      str(l.file.str());
    } else {
      u32(it->second);
    }
    u32(l.line);
    u32(l.column);
  }
  void type(const syntax::TypeSpec& t) {
    u8(t.kinds);
    u8(t.element_kinds);
    boolean(t.is_rationale);
  }
  void value(const RValue& v) {
    u8(static_cast<std::uint8_t>(v.kind));
    switch (v.kind) {
      case RValue::Kind::null: break;
      case RValue::Kind::boolean: boolean(v.b); break;
      case RValue::Kind::integer: raw(v.i); break;
      case RValue::Kind::floating: raw(v.f); break;
      case RValue::Kind::string: str(v.s()); break;
      case RValue::Kind::list:
        size(v.items.size);
        for (const RValue& item : v.list()) value(item);
        break;
      case RValue::Kind::record:
        throw std::logic_error("serialize: a record among the compiled constants");
    }
  }
  void node(const Node& n) {
    u8(static_cast<std::uint8_t>(n.kind));
    u8(static_cast<std::uint8_t>(n.op));
    i32(n.slot);
    value(n.constant);
    location(n.location);
    str(n.name);
    size(n.children.size());
    for (const Node& child : n.children) node(child);
  }
  void text(const detail::CompiledTemplate& t) {
    size(t.pieces.size());
    for (const auto& piece : t.pieces) {
      str(piece.text);
      i32(piece.slot);
      boolean(piece.python_repr);
    }
    str(t.source_text);
    boolean(t.is_fixed);
    if (t.is_fixed) str(t.fixed_text);
  }
  void optional_text(const std::optional<detail::CompiledTemplate>& t) {
    boolean(t.has_value());
    if (t) text(*t);
  }
  void assignments(const std::vector<detail::CompiledAssignment>& list) {
    size(list.size());
    for (const auto& a : list) {
      i32(a.target);
      node(a.value);
    }
  }
  void rule(const detail::CompiledRule& r) {
    str(r.name);
    location(r.location);
    size(r.when.size());
    for (const auto& m : r.when) {
      i32(m.slot);
      u8(static_cast<std::uint8_t>(m.op));
      node(m.operand);
      str(m.fact);
      location(m.location);
      str(m.text);
    }
    assignments(r.set);
    size(r.because.size());
    for (const auto& t : r.because) text(t);
    optional_text(r.error);
    i32(r.next);
    boolean(r.fallback.has_value());
    if (r.fallback) {
      i32(r.fallback->table);
      assignments(r.fallback->with);
      size(r.fallback->keep.size());
      for (bool keep : r.fallback->keep) boolean(keep);
    }
  }
  void diagnostic(const Diagnostic& d) {
    u8(static_cast<std::uint8_t>(d.severity));
    location(d.location);
    str(d.code);
    str(d.message);
  }
  void ints(const std::vector<int>& list) {
    size(list.size());
    for (int k : list) i32(k);
  }
  void slot_value(const detail::CompiledSlotValue& v) {
    str(v.name);
    i32(v.slot);
    node(v.value);
  }
  void constraints(const std::vector<detail::CompiledConstraint>& list) {
    size(list.size());
    for (const auto& c : list) constraint(c);
  }
  void constraint(const detail::CompiledConstraint& c) {
    str(c.name);
    location(c.location);
    node(c.holds);
    optional_text(c.message);
    i32(c.level);
  }
  void failure(const std::optional<detail::CompiledSearchFailure>& f) {
    boolean(f.has_value());
    if (!f) return;
    ints(f->value_slots);
    text(f->error);
  }
  void search(const detail::CompiledSearch& s) {
    location(s.location);
    str(s.name);
    size(s.enumerations.size());
    for (const auto& e : s.enumerations) slot_value(e);
    ints(s.candidate_slots);
    ints(s.candidate_levels);
    constraints(s.constraints);
    size(s.tiers.size());
    for (const auto& tier : s.tiers) {
      str(tier.name);
      size(tier.values.size());
      for (const auto& v : tier.values) slot_value(v);
      constraints(tier.constraints);
    }
    boolean(s.fits.has_value());
    if (s.fits) constraint(*s.fits);
    node(s.minimize);
    failure(s.none_valid);
    failure(s.none_fits);
    size(s.aggregates.size());
    for (const auto& a : s.aggregates) {
      u8(static_cast<std::uint8_t>(a.kind));
      i32(a.slot);
      i32(a.of_slot);
    }
    size(s.field_names->size());
    for (const std::string& name : *s.field_names) str(name);
    ints(s.field_slots);
  }

  void rules(const CompiledRules& r) {
    str(r.file_name);
    str(r.source_text);
    size(r.used.size());
    for (std::size_t k = 0; k < r.used.size(); ++k) {
      str(r.used_names[k]);
      rules(*r.used[k]);
    }
    size(r.inputs.size());
    for (const auto& input : r.inputs) {
      str(input.name);
      type(input.type);
      boolean(input.default_value.has_value());
      if (input.default_value) value(*input.default_value);
      boolean(input.lower);
      size(input.one_of.size());
      for (const RValue& option : input.one_of) value(option);
      optional_text(input.error);
      location(input.location);
      location(input.one_of_location);
      str(input.description);
    }
    size(r.lets.size());
    for (std::size_t k = 0; k < r.lets.size(); ++k) {
      str(r.let_names[k]);
      node(r.lets[k]);
      boolean(r.calls[k].has_value());
      if (r.calls[k]) {
        i32(r.calls[k]->rules);
        assignments(r.calls[k]->with);
      }
      const bool searched = k < r.searches.size() && r.searches[k];
      boolean(searched);
      if (searched) search(*r.searches[k]);
    }
    size(r.local_values.size());
    for (std::size_t k = 0; k < r.local_values.size(); ++k) {
      str(r.local_names[k]);
      node(r.local_values[k]);
    }
    ints(r.let_order);
    size(r.fields.size());
    for (const auto& field : r.fields) {
      str(field.name);
      type(field.type);
      value(field.default_value);
      boolean(field.init.has_value());
      if (field.init) node(*field.init);
    }
    i32(r.rationale_field);
    optional_text(r.header);
    i32(r.start);
    size(r.tables.size());
    for (const auto& table : r.tables) {
      str(table.name);
      location(table.location);
      size(table.rules.size());
      for (const auto& rule_ : table.rules) rule(rule_);
    }
    size(r.invariants.size());
    for (const auto& invariant : r.invariants) {
      str(invariant.name);
      location(invariant.location);
      rule(invariant.condition);
      node(invariant.require);
      text(invariant.message);
      boolean(invariant.proved);
    }
    size(r.warnings.size());
    for (const Diagnostic& d : r.warnings) diagnostic(d);
    size(r.allowed.size());
    for (const auto& a : r.allowed) {
      diagnostic(a.diagnostic);
      str(a.reason);
      location(a.allowed_at);
    }
  }

 private:
  std::unordered_map<std::string, std::uint32_t> files_;
};

// ---- reading -----------------------------------------------------------------------------

struct Malformed {};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  [[nodiscard]] bool done() const { return at_ == end_; }

  template <typename T>
  T raw() {
    if (static_cast<std::size_t>(end_ - at_) < sizeof(T)) throw Malformed{};
    T v;
    std::memcpy(&v, at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::uint8_t u8() { return raw<std::uint8_t>(); }
  std::uint32_t u32() { return raw<std::uint32_t>(); }
  int i32() { return raw<std::int32_t>(); }
  bool boolean() {
    const std::uint8_t v = u8();
    if (v > 1) throw Malformed{};
    return v == 1;
  }
  /// A count of things each at least `min_bytes` long: more than the bytes left is malformed
  /// (so a flipped length cannot ask for a huge allocation).
  std::size_t count(std::size_t min_bytes = 1) {
    const auto n = raw<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(end_ - at_) / min_bytes) throw Malformed{};
    return static_cast<std::size_t>(n);
  }
  std::string_view view() {
    const std::size_t n = count();
    std::string_view s(at_, n);
    at_ += n;
    return s;
  }
  std::string str() { return std::string(view()); }
  template <typename Enum>
  Enum enumerator(std::uint8_t last) {
    const std::uint8_t v = u8();
    if (v > last) throw Malformed{};
    return static_cast<Enum>(v);
  }
  SourceLocation location() {
    const std::uint32_t number = u32();
    if (number == files_.size()) {
      files_.emplace_back(view());
    } else if (number > files_.size()) {
      throw Malformed{};
    }
    const std::uint32_t line = u32();
    return SourceLocation{files_[number], line, u32()};
  }
  syntax::TypeSpec type() {
    syntax::TypeSpec t;
    t.kinds = u8();
    t.element_kinds = u8();
    t.is_rationale = boolean();
    return t;
  }

 private:
  const char* at_;
  const char* end_;
  std::vector<FileName> files_;  // each location shares its file's one name
};

// A count read from the bytes is checked only against the bytes left, and an element takes far
// more room in memory than in the bytes: room is made for at most this many elements at once
// (every vector of the built-in rules is shorter), and a longer one grows as its elements are read.
constexpr std::size_t kMostReservedAtOnce = 256;
std::size_t reservable(std::size_t count) {
  return std::min(count, kMostReservedAtOnce);
}

class RulesReader {
 public:
  RulesReader(Reader& in, int nesting) : in_(in), nesting_(nesting) {}

  std::shared_ptr<CompiledRules> rules() {
    if (nesting_ > kMaxNesting) throw Malformed{};
    auto out = std::make_shared<CompiledRules>();
    r_ = out.get();
    CompiledRules& r = *out;
    r.file_name = in_.str();
    r.source_text = in_.str();
    // Each vector is reserved at its count (up to reservable()'s bound): grown one push at a
    // time, it would allocate (and touch) about twice its size, at every CLI start.
    const std::size_t used = in_.count();
    r.used_names.reserve(reservable(used));
    r.used.reserve(reservable(used));
    for (std::size_t k = 0; k < used; ++k) {
      r.used_names.push_back(in_.str());
      RulesReader nested(in_, nesting_ + 1);
      r.used.push_back(nested.rules());
    }
    const std::size_t inputs = in_.count();
    r.inputs.reserve(reservable(inputs));
    r.input_slots.reserve(reservable(inputs));
    for (std::size_t k = 0; k < inputs; ++k) {
      detail::CompiledInput input;
      input.name = in_.str();
      input.key = detail::NameKey::of(input.name);
      input.type = in_.type();
      if (in_.boolean()) input.default_value = value();
      input.lower = in_.boolean();
      const std::size_t options = in_.count();
      input.one_of.reserve(reservable(options));
      for (std::size_t j = 0; j < options; ++j) input.one_of.push_back(value());
      if (in_.boolean()) input.error = text();
      input.location = in_.location();
      input.one_of_location = in_.location();
      input.description = in_.str();
      if (!input.one_of.empty()) r.restricted_inputs.push_back(static_cast<int>(k));
      if (!r.input_slots.emplace(input.name, static_cast<int>(k)).second) throw Malformed{};
      r.input_info.push_back(detail::input_info(input));
      r.inputs.push_back(std::move(input));
    }
    // Slots are checked once every count is known (a let may read any later let's slot).
    const std::size_t lets = in_.count();
    r.let_names.reserve(reservable(lets));
    r.lets.reserve(reservable(lets));
    r.calls.reserve(reservable(lets));
    std::vector<std::shared_ptr<detail::CompiledSearch>> unmarked;
    for (std::size_t k = 0; k < lets; ++k) {
      r.let_names.push_back(in_.str());
      r.lets.push_back(node());
      if (in_.boolean()) {
        detail::CompiledCall call;
        call.rules = in_.i32();
        if (call.rules < 0 || static_cast<std::size_t>(call.rules) >= r.used.size()) throw Malformed{};
        call.with = assignments();
        for (const auto& a : call.with)
          if (a.target < 0 || static_cast<std::size_t>(a.target) >= r.used[static_cast<std::size_t>(call.rules)]->inputs.size())
            throw Malformed{};
        r.calls.emplace_back(std::move(call));
      } else {
        r.calls.emplace_back(std::nullopt);
      }
      std::shared_ptr<detail::CompiledSearch> read = in_.boolean() ? search() : nullptr;
      if (read) unmarked.push_back(read);
      r.searches.push_back(std::move(read));
    }
    const std::size_t locals = in_.count();
    r.local_names.reserve(reservable(locals));
    r.local_values.reserve(reservable(locals));
    for (std::size_t k = 0; k < locals; ++k) {
      r.local_names.push_back(in_.str());
      r.local_values.push_back(node());
    }
    r.let_order = ints();
    for (int k : r.let_order)
      if (k < 0 || static_cast<std::size_t>(k) >= lets) throw Malformed{};
    auto names = std::make_shared<std::vector<std::string>>();
    const std::size_t fields = in_.count();
    names->reserve(reservable(fields));
    r.reserve_fields(reservable(fields));
    for (std::size_t k = 0; k < fields; ++k) {
      detail::CompiledField field;
      field.name = in_.str();
      field.type = in_.type();
      field.default_value = value();
      if (in_.boolean()) field.init = node();
      names->push_back(field.name);
      r.add_field(std::move(field));
    }
    r.field_names = std::move(names);
    r.rationale_field = in_.i32();
    if (r.rationale_field < -1 || r.rationale_field >= static_cast<int>(fields)) throw Malformed{};
    if (in_.boolean()) r.header = text();
    r.start = in_.i32();
    const std::size_t tables = in_.count();
    r.tables.reserve(reservable(tables));
    for (std::size_t k = 0; k < tables; ++k) {
      detail::CompiledTable table;
      table.name = in_.str();
      table.location = in_.location();
      const std::size_t rules = in_.count();
      table.rules.reserve(reservable(rules));
      for (std::size_t j = 0; j < rules; ++j) table.rules.push_back(rule());
      r.tables.push_back(std::move(table));
    }
    const std::size_t invariants = in_.count();
    r.invariants.reserve(reservable(invariants));
    std::vector<bool> proofs;
    for (std::size_t k = 0; k < invariants; ++k) {
      detail::CompiledInvariant invariant;
      invariant.name = in_.str();
      invariant.location = in_.location();
      invariant.condition = rule();
      invariant.require = node();
      invariant.message = text();
      proofs.push_back(in_.boolean());
      r.invariants.push_back(std::move(invariant));
    }
    r.set_proofs(proofs);
    const std::size_t warnings = in_.count();
    for (std::size_t k = 0; k < warnings; ++k) r.warnings.push_back(diagnostic());
    const std::size_t allowed = in_.count();
    for (std::size_t k = 0; k < allowed; ++k) {
      check::AllowedDiagnostic a;
      a.diagnostic = diagnostic();
      a.reason = in_.str();
      a.allowed_at = in_.location();
      r.allowed.push_back(std::move(a));
    }
    validate(r);
    // Node levels are derived, not stored: marked once every slot is known to be valid.
    for (const auto& search : unmarked)
      detail::mark_candidate_levels(*search, r.local_values, r.inputs.size() + r.lets.size());
    for (auto& table : r.tables) table.index = build_rule_index(table);
    return out;
  }

 private:
  RValue value(int depth = 0) {
    if (depth > kMaxExprDepth) throw Malformed{};
    const auto kind = in_.enumerator<RValue::Kind>(static_cast<std::uint8_t>(RValue::Kind::list));
    switch (kind) {
      case RValue::Kind::null: return RValue{};
      case RValue::Kind::boolean: return RValue::of_bool(in_.boolean());
      case RValue::Kind::integer: return RValue::of_int(in_.raw<detail::Wide>());
      case RValue::Kind::floating: return RValue::of_float(in_.raw<double>());
      case RValue::Kind::string: return r_->constants.string(in_.view());
      case RValue::Kind::list: {
        const std::size_t n = in_.count();
        if (n == 0) return RValue::of_items({});
        RValue* items = r_->constants.values(n);
        for (std::size_t k = 0; k < n; ++k) new (items + k) RValue(value(depth + 1));
        return RValue::of_items({items, n});
      }
      case RValue::Kind::record: break;
    }
    throw Malformed{};
  }
  Node node(int depth = 0) {
    if (depth > kMaxExprDepth) throw Malformed{};
    Node n;
    n.kind = in_.enumerator<syntax::ExprKind>(static_cast<std::uint8_t>(syntax::ExprKind::member));
    n.op = in_.enumerator<syntax::Op>(static_cast<std::uint8_t>(syntax::Op::logical_or));
    n.slot = in_.i32();
    n.constant = value();
    n.location = in_.location();
    n.name = in_.str();
    if (n.kind == syntax::ExprKind::call) {
      n.builtin = language::find_builtin(n.name);
      if (n.builtin == nullptr) throw Malformed{};
    }
    if (n.kind == syntax::ExprKind::name) name_slots_.push_back(n.slot);
    const std::size_t children = in_.count();
    n.children.reserve(reservable(children));
    for (std::size_t k = 0; k < children; ++k) n.children.push_back(node(depth + 1));
    if (!shape_ok(n)) throw Malformed{};
    return n;
  }
  // The number of operands each kind of node takes, as the evaluator reads them unchecked.
  static bool shape_ok(const Node& n) {
    const std::size_t c = n.children.size();
    switch (n.kind) {
      case syntax::ExprKind::literal:
      case syntax::ExprKind::name: return c == 0;
      case syntax::ExprKind::unary:
      case syntax::ExprKind::member: return c == 1;
      case syntax::ExprKind::binary: return c == 2;
      case syntax::ExprKind::conditional: return c == 3;
      case syntax::ExprKind::call:
        return c >= n.builtin->min_args && c <= n.builtin->max_args;
      case syntax::ExprKind::list: return true;
    }
    return false;
  }
  detail::CompiledTemplate text() {
    detail::CompiledTemplate t;
    const std::size_t pieces = in_.count();
    // One allocation each for the pieces and runs, not one per growth.
    t.reserve(reservable(pieces));
    for (std::size_t k = 0; k < pieces; ++k) {
      detail::CompiledTemplate::Piece piece;
      piece.text = r_->constants.keep(in_.view());
      piece.slot = in_.i32();
      piece.python_repr = in_.boolean();
      if (piece.slot >= 0) name_slots_.push_back(piece.slot);
      t.add(piece);
    }
    t.source_text = in_.str();
    t.is_fixed = in_.boolean();
    if (t.is_fixed) t.fixed_text = r_->constants.keep(in_.view());
    return t;
  }
  std::vector<detail::CompiledAssignment> assignments() {
    std::vector<detail::CompiledAssignment> list(in_.count());
    for (auto& a : list) {
      a.target = in_.i32();
      a.value = node();
    }
    return list;
  }
  detail::CompiledRule rule() {
    detail::CompiledRule r;
    r.name = in_.str();
    r.location = in_.location();
    const std::size_t when = in_.count();
    r.when.reserve(reservable(when));
    for (std::size_t k = 0; k < when; ++k) {
      detail::CompiledMatcher m;
      m.slot = in_.i32();
      m.op = in_.enumerator<syntax::MatchOp>(static_cast<std::uint8_t>(language::matchers().size() - 1));
      m.info = &language::matcher(m.op);
      m.operand = node();
      m.fact = in_.str();
      m.location = in_.location();
      m.text = in_.str();
      name_slots_.push_back(m.slot);
      r.when.push_back(std::move(m));
    }
    r.set = assignments();
    for (const auto& a : r.set) field_targets_.push_back(a.target);
    const std::size_t because = in_.count();
    r.because.reserve(reservable(because));
    for (std::size_t k = 0; k < because; ++k) r.because.push_back(text());
    if (in_.boolean()) r.error = text();
    r.next = in_.i32();
    if (r.next != -1) table_targets_.push_back(r.next);
    if (in_.boolean()) {
      detail::CompiledFallback fb;
      fb.table = in_.i32();
      table_targets_.push_back(fb.table);
      fb.with = assignments();
      for (const auto& a : fb.with) input_targets_.push_back(a.target);
      fb.keep.resize(in_.count());
      for (std::size_t k = 0; k < fb.keep.size(); ++k) fb.keep[k] = in_.boolean();
      keep_sizes_.push_back(fb.keep.size());
      r.fallback = std::move(fb);
    }
    return r;
  }
  Diagnostic diagnostic() {
    Diagnostic d;
    d.severity = in_.enumerator<Severity>(static_cast<std::uint8_t>(Severity::error));
    d.location = in_.location();
    d.code = in_.str();
    d.message = in_.str();
    return d;
  }
  std::vector<int> ints() {
    std::vector<int> list(in_.count(4));
    for (int& k : list) k = in_.i32();
    return list;
  }
  // Every slot a search names is checked by validate() with the nodes' slots.
  std::vector<int> slots() {
    std::vector<int> list = ints();
    name_slots_.insert(name_slots_.end(), list.begin(), list.end());
    return list;
  }
  detail::CompiledSlotValue slot_value() {
    detail::CompiledSlotValue v;
    v.name = in_.str();
    v.slot = in_.i32();
    name_slots_.push_back(v.slot);
    v.value = node();
    return v;
  }
  detail::CompiledConstraint constraint() {
    detail::CompiledConstraint c;
    c.name = in_.str();
    c.location = in_.location();
    c.holds = node();
    if (in_.boolean()) c.message = text();
    c.level = in_.i32();
    return c;
  }
  std::vector<detail::CompiledConstraint> constraints() {
    std::vector<detail::CompiledConstraint> list;
    const std::size_t n = in_.count();
    list.reserve(reservable(n));
    for (std::size_t k = 0; k < n; ++k) list.push_back(constraint());
    return list;
  }
  std::optional<detail::CompiledSearchFailure> failure() {
    if (!in_.boolean()) return std::nullopt;
    detail::CompiledSearchFailure f;
    f.value_slots = slots();
    f.error = text();
    return f;
  }
  std::shared_ptr<detail::CompiledSearch> search() {
    auto s = std::make_shared<detail::CompiledSearch>();
    s->location = in_.location();
    s->name = in_.str();
    for (std::size_t k = 0, n = in_.count(); k < n; ++k) s->enumerations.push_back(slot_value());
    if (s->enumerations.empty()) throw Malformed{};
    s->candidate_slots = slots();
    if (in_.count() != s->candidate_slots.size()) throw Malformed{};
    for (std::size_t k = 0; k < s->candidate_slots.size(); ++k) {
      const int level = in_.i32();
      if (level < -1 || level >= static_cast<int>(s->enumerations.size())) throw Malformed{};
      s->candidate_levels.push_back(level);
    }
    s->constraints = constraints();
    for (std::size_t k = 0, n = in_.count(); k < n; ++k) {
      detail::CompiledTier tier;
      tier.name = in_.str();
      for (std::size_t j = 0, values = in_.count(); j < values; ++j) tier.values.push_back(slot_value());
      tier.constraints = constraints();
      s->tiers.push_back(std::move(tier));
    }
    if (s->tiers.empty()) throw Malformed{};
    if (in_.boolean()) s->fits = constraint();
    s->minimize = node();
    s->none_valid = failure();
    s->none_fits = failure();
    for (std::size_t k = 0, n = in_.count(); k < n; ++k) {
      detail::CompiledAggregate& a = s->aggregates.emplace_back();
      a.kind = in_.enumerator<detail::CompiledAggregate::Kind>(
          static_cast<std::uint8_t>(detail::CompiledAggregate::Kind::count));
      a.slot = in_.i32();
      a.of_slot = in_.i32();
      name_slots_.push_back(a.slot);
      if (a.kind != detail::CompiledAggregate::Kind::count) name_slots_.push_back(a.of_slot);
    }
    auto names = std::make_shared<std::vector<std::string>>();
    for (std::size_t k = 0, n = in_.count(); k < n; ++k) names->push_back(in_.str());
    s->field_names = std::move(names);
    s->field_slots = slots();
    if (s->field_names->empty() || s->field_slots.size() + 1 != s->field_names->size()) throw Malformed{};
    return s;
  }

  // Every index the evaluator follows without checking, checked once here.
  void validate(const CompiledRules& r) const {
    const auto within = [](int k, std::size_t n) { return k >= 0 && static_cast<std::size_t>(k) < n; };
    if (r.lets.size() != r.calls.size() || r.lets.size() != r.searches.size() ||
        r.input_info.size() != r.inputs.size())
      throw Malformed{};
    if (r.tables.empty() ? r.start != 0 : !within(r.start, r.tables.size())) throw Malformed{};
    for (int slot : name_slots_)
      if (!within(slot, r.frame_slots())) throw Malformed{};
    for (int table : table_targets_)
      if (!within(table, r.tables.size())) throw Malformed{};
    for (int field : field_targets_)
      if (!within(field, r.fields.size())) throw Malformed{};
    for (int input : input_targets_)
      if (!within(input, r.inputs.size())) throw Malformed{};
    for (std::size_t keep : keep_sizes_)
      if (keep != r.fields.size()) throw Malformed{};
  }

  Reader& in_;
  int nesting_;
  CompiledRules* r_ = nullptr;
  std::vector<int> name_slots_;
  std::vector<int> table_targets_;
  std::vector<int> field_targets_;
  std::vector<int> input_targets_;
  std::vector<std::size_t> keep_sizes_;
};

struct Header {
  char magic[8];
  std::uint32_t format;
  std::uint32_t reserved;
  std::uint64_t abi;
  std::uint64_t payload_size;
  std::uint64_t checksum;
  std::uint64_t reserved2;
};
static_assert(sizeof(Header) == kSerializedHeaderBytes);

}  // namespace

std::uint64_t content_hash(std::string_view bytes, std::uint64_t seed) noexcept {
  constexpr std::uint64_t k1 = 0x9e3779b97f4a7c15ULL;
  constexpr std::uint64_t k2 = 0xbf58476d1ce4e5b9ULL;
  std::uint64_t a = seed ^ (bytes.size() * k1);
  std::uint64_t b = ~seed;
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  // Two lanes of 8 bytes each, so the multiplications overlap.
  for (; n >= 16; n -= 16, p += 16) {
    std::uint64_t x;
    std::uint64_t y;
    std::memcpy(&x, p, 8);
    std::memcpy(&y, p + 8, 8);
    a = std::rotl((a ^ x) * k1, 29);
    b = std::rotl((b ^ y) * k2, 31);
  }
  if (n >= 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    a = std::rotl((a ^ x) * k1, 29);
    n -= 8;
    p += 8;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  b = std::rotl((b ^ tail ^ (static_cast<std::uint64_t>(n) << 56)) * k2, 31);
  return mix(a ^ mix(b));
}

const char* to_string(SerializedProblem problem) noexcept {
  switch (problem) {
    case SerializedProblem::none: return "none";
    case SerializedProblem::truncated: return "truncated";
    case SerializedProblem::bad_magic: return "not a compiled rule file";
    case SerializedProblem::wrong_version: return "written by another version";
    case SerializedProblem::bad_checksum: return "checksum mismatch";
    case SerializedProblem::malformed: return "malformed";
  }
  return "?";
}

std::string serialize_rules(const detail::CompiledRules& rules) {
  Writer w;
  w.out.assign(kSerializedHeaderBytes, '\0');
  w.rules(rules);
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.format = kSerializedFormatVersion;
  header.abi = abi_hash();
  header.payload_size = w.out.size() - kSerializedHeaderBytes;
  header.checksum = content_hash(std::string_view(w.out).substr(kSerializedHeaderBytes));
  std::memcpy(w.out.data(), &header, sizeof header);
  return std::move(w.out);
}

std::shared_ptr<detail::CompiledRules> deserialize_rules(std::string_view bytes,
                                                         SerializedProblem* problem,
                                                         SerializedOrigin origin) {
  const bool outside = origin == SerializedOrigin::outside;
  const auto fail = [&](SerializedProblem p) {
    if (problem) *problem = p;
    return std::shared_ptr<detail::CompiledRules>();
  };
  if (problem) *problem = SerializedProblem::none;
  if (bytes.size() < sizeof(Header))
    return fail(bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0
                    ? SerializedProblem::bad_magic
                    : SerializedProblem::truncated);
  Header header;
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) return fail(SerializedProblem::bad_magic);
  if (header.format != kSerializedFormatVersion || (outside && header.abi != abi_hash()))
    return fail(SerializedProblem::wrong_version);
  const std::string_view payload = bytes.substr(sizeof header);
  if (header.payload_size != payload.size())
    return fail(header.payload_size > payload.size() ? SerializedProblem::truncated : SerializedProblem::malformed);
  if (outside && header.checksum != content_hash(payload))
    return fail(SerializedProblem::bad_checksum);
  try {
    Reader in(payload);
    RulesReader reader(in, 0);
    auto rules = reader.rules();
    if (!in.done()) return fail(SerializedProblem::malformed);
    return rules;
  } catch (const Malformed&) {
    return fail(SerializedProblem::malformed);
  }
}

}  // namespace snnplan::compile
