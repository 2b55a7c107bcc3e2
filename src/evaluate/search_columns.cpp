// A search's tier decided for all its candidates at once. Each value that varies with the
// candidate (Node::level >= 0) is a column, one entry per candidate, computed by one loop per
// expression node; a value that does not is computed once, as any fact. The cost of reaching a
// node -- its kind, its operands' kinds, the lazy slot -- is paid once per tier instead of once
// per candidate, which is most of what a candidate cost the walk (search.cpp).
//
// The candidates are built level by level as the walk finds them: an enumeration's lists for
// every prefix that met the constraints of the levels above, then that level's constraints,
// which drop candidates (and their columns) before anything deeper is computed for them.
//
// Speculative, and exact or nothing. A column is computed for every candidate of the set, also
// where the walk would have computed it for none (the branch a conditional did not take, the
// right side of a `&&` already false). So anything a column does not hold exactly -- an integer
// beyond 64 bits, a division by zero, NaN, a value that is a string or a list per candidate, a
// builtin other than divisors/min/max/int/float, any error raised -- gives the whole tier back
// to the walk before anything of it is kept, and the walk decides it with its own semantics and
// messages. Values are pure, so a tier the columns decide is decided as the walk decides it:
// the same candidates removed, the same aggregates, the first smallest key in enumeration order.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory_resource>
#include <optional>

#include "evaluate/expressions.hpp"
#include "evaluate/search_run.hpp"
#include "evaluate/search_statistics.hpp"

namespace snnplan::evaluate {

SearchTierCounts& search_tier_counts() {
  thread_local SearchTierCounts counts;
  return counts;
}

}  // namespace snnplan::evaluate

namespace snnplan::evaluate::internal {
namespace {

using syntax::ExprKind;
using syntax::Op;

// Vectors in the evaluation's store: a tier's scratch costs no heap allocation.
template <typename T>
using Vec = std::pmr::vector<T>;

struct GiveUp {};  // thrown inside Columns, caught by decide_tier_by_columns

[[noreturn]] void give_up() { throw GiveUp{}; }

// One value per candidate of the current set, all of one kind, or one value for them all.
struct Column {
  enum class Kind : std::uint8_t { same, integer, floating, boolean };
  Kind kind = Kind::same;
  // A `floating` column from a min()/max() that picked integers for some candidates and floats
  // for others: each entry is its value as a double, exact because such integers are kept
  // within 2^53. Exact in float arithmetic and in comparisons; anything that would tell an
  // integer from a float (integer arithmetic, a record field, an aggregate) gives up.
  bool mixed = false;
  RValue same;  // kind == same
  void* data = nullptr;

  [[nodiscard]] std::int64_t* ints() const { return static_cast<std::int64_t*>(data); }
  [[nodiscard]] double* floats() const { return static_cast<double*>(data); }
  [[nodiscard]] std::uint8_t* bools() const { return static_cast<std::uint8_t*>(data); }
  static Column of(const RValue& v) {
    Column c;
    c.same = v;
    return c;
  }
};

// Operands of a loop: a column's entries, or one value for every candidate.
template <typename T>
struct Each {
  const T* p;
  T operator[](std::size_t i) const { return p[i]; }
};
template <typename T>
struct One {
  T v;
  T operator[](std::size_t) const { return v; }
};
struct IntsAsDoubles {
  const std::int64_t* p;
  double operator[](std::size_t i) const { return static_cast<double>(p[i]); }
};

constexpr std::int64_t kTwo53 = std::int64_t{1} << 53;

// The most candidates a tier's columns take at once (a few MiB of the evaluation's store):
// the 4096-GPU planning search has 455; a search of millions is walked one at a time.
constexpr std::size_t kMaxCandidates = std::size_t{1} << 16;

std::int64_t narrow(const RValue& v) {
  if (v.kind != RValue::Kind::integer || !detail::fits_int64(v.i)) give_up();
  return static_cast<std::int64_t>(v.i);
}

bool is_number(const Column& c) {
  if (c.kind == Column::Kind::same) return c.same.kind == RValue::Kind::integer || c.same.kind == RValue::Kind::floating;
  return c.kind == Column::Kind::integer || c.kind == Column::Kind::floating;
}
bool is_integer(const Column& c) {
  return c.kind == Column::Kind::integer || (c.kind == Column::Kind::same && c.same.kind == RValue::Kind::integer);
}
bool is_bool(const Column& c) {
  return c.kind == Column::Kind::boolean || (c.kind == Column::Kind::same && c.same.kind == RValue::Kind::boolean);
}

// `f` called with the column's entries as doubles (integers converted as Python converts them).
template <typename F>
void as_doubles(const Column& c, F&& f) {
  if (c.kind == Column::Kind::same)
    f(One<double>{c.same.kind == RValue::Kind::integer ? detail::to_double(c.same.i) : c.same.f});
  else if (c.kind == Column::Kind::integer)
    f(IntsAsDoubles{c.ints()});
  else
    f(Each<double>{c.floats()});
}
template <typename F>
void as_ints(const Column& c, F&& f) {
  if (c.kind == Column::Kind::same)
    f(One<std::int64_t>{narrow(c.same)});
  else
    f(Each<std::int64_t>{c.ints()});
}
template <typename F>
void as_bools(const Column& c, F&& f) {
  if (c.kind == Column::Kind::same)
    f(One<std::uint8_t>{static_cast<std::uint8_t>(c.same.b)});
  else
    f(Each<std::uint8_t>{c.bools()});
}

// Python's floor division and remainder of 64-bit integers; false where they would need more
// (a zero divisor, INT64_MIN // -1).
bool floor_divide(std::int64_t a, std::int64_t b, std::int64_t& out) {
  if (b == 0 || (b == -1 && a == std::numeric_limits<std::int64_t>::min())) return false;
  std::int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  out = q;
  return true;
}
bool modulo(std::int64_t a, std::int64_t b, std::int64_t& out) {
  if (b == 0) return false;
  if (b == -1) {
    out = 0;
    return true;
  }
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  out = r;
  return true;
}

// `f` called with the comparison `op` as a function object: chosen once, not per entry.
template <typename F>
void with_comparison(Op op, F&& f) {
  switch (op) {
    case Op::equal: f(std::equal_to<>{}); break;
    case Op::not_equal: f(std::not_equal_to<>{}); break;
    case Op::less: f(std::less<>{}); break;
    case Op::less_equal: f(std::less_equal<>{}); break;
    case Op::greater: f(std::greater<>{}); break;
    case Op::greater_equal: f(std::greater_equal<>{}); break;
    default: give_up();
  }
}

// The positive divisors of n ascending, as the divisors() builtin lists them (none for n < 1),
// appended to `out`; false where the builtin would fail (n beyond its bound).
bool divisors_of(std::int64_t n, Vec<std::int64_t>& out) {
  if (n > static_cast<std::int64_t>(language::kMaxDivisorsArgument)) return false;
  const auto first = static_cast<std::ptrdiff_t>(out.size());
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    out.push_back(d);
    if (d * d != n) out.push_back(n / d);
  }
  std::sort(out.begin() + first, out.end());
  return true;
}

}  // namespace

class Evaluator::Columns {
 public:
  Columns(Evaluator& evaluator, SearchRun& run, Frame& frame)
      : ev_(evaluator),
        run_(run),
        frame_(frame),
        search_(run.search),
        items_(evaluator.store_.resource()),
        memo_(evaluator.store_.resource()),
        ready_(evaluator.store_.resource()),
        prefixes_(evaluator.store_.resource()) {
    // Levels and tier readers are set by the compiler and the reader (mark_candidate_levels);
    // a search built any other way is the walk's.
    if (search_.candidate_reads_tier.size() != search_.candidate_slots.size()) give_up();
    const auto& slots = search_.candidate_slots;
    first_candidate_ = slots.empty() ? 0 : slots.front();
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (slots[k] != first_candidate_ + static_cast<int>(k)) give_up();  // the compiler makes them consecutive
    memo_.assign(slots.size(), Column{});
    ready_.assign(slots.size(), 0);
  }

  // The run's current tier decided and kept in the run; gives up (throws) with the run as it was.
  void decide() {
    start_tier();
    const std::size_t m = size_;
    if (m == 0) return;  // nothing met the constraints: the run is as it was
    // The aggregates over the candidates tested (all that met the constraints), in order.
    Vec<RValue> aggregates(run_.aggregates.begin(), run_.aggregates.end(), ev_.store_.resource());
    for (std::size_t k = 0; k < search_.aggregates.size(); ++k) {
      const detail::CompiledAggregate& a = search_.aggregates[k];
      if (a.kind == detail::CompiledAggregate::Kind::count) {
        aggregates[k] = RValue::of_int(static_cast<Wide>(run_.tested + m));
        continue;
      }
      const bool smaller = a.kind == detail::CompiledAggregate::Kind::smallest;
      const RValue v = extreme(slot_column(a.of_slot), smaller);
      if (aggregates[k].kind == RValue::Kind::null ||
          language::compare_or_fail(v, aggregates[k], search_.location, smaller ? "smallest" : "largest") ==
              (smaller ? -1 : 1))
        aggregates[k] = v;
    }
    // Those within `fits`, and the first with the smallest key.
    Column fits;
    if (search_.fits) fits = condition(search_.fits->holds);
    Vec<Column> key(ev_.store_.resource());
    key.reserve(8);
    key_columns(search_.minimize, key);
    std::size_t fitting = 0;
    std::size_t best = m;
    for (std::size_t i = 0; i < m; ++i) {
      if (search_.fits && !(fits.kind == Column::Kind::same ? fits.same.b : fits.bools()[i] != 0)) continue;
      ++fitting;
      if (best == m || key_less(key, i, best)) best = i;
    }
    RValue* fields = nullptr;
    if (fitting != 0) fields = chosen_fields(best);
    if (shared_set_) keep_for_later_tiers();
    // Decided: kept in the run.
    run_.any_valid = true;
    run_.tested += m;
    std::copy(aggregates.begin(), aggregates.end(), run_.aggregates.begin());
    run_.fitting = fitting;
    if (fitting == 0) return;
    run_.chosen = true;
    run_.best_fields = fields;
  }

 private:
  template <typename T>
  T* allocate(std::size_t n) {
    return static_cast<T*>(ev_.store_.allocate_bytes(std::max<std::size_t>(n, 1) * sizeof(T), alignof(T)));
  }

  // ---- the candidates -------------------------------------------------------------------

  // The tier's candidates: those every tier starts from (built, or kept from an earlier tier
  // when tiers_share_candidates), less those the tier's own constraints remove.
  void start_tier() {
    if (saved_) {
      items_ = saved_->items;
      size_ = saved_->size;
      bound_ = items_.size();
      memo_ = saved_->memo;
      ready_ = saved_->ready;
    } else {
      build_candidates();
      if (search_.tiers_share_candidates) {
        saved_.emplace(ev_.store_.resource());
        keep_for_later_tiers();
      }
    }
    shared_set_ = saved_.has_value();
    // The walk checks a tier's constraint on each prefix of its level that the shared ones left
    // (also one no deeper item extends): checked there too, for the errors it may raise.
    const auto last = static_cast<int>(search_.enumerations.size()) - 1;
    for (const detail::CompiledConstraint& c : run_.tier->constraints)
      if (c.level < last) check_on_prefixes(c);
    // Then on the candidates, whatever their level: the same candidates remain.
    for (const detail::CompiledConstraint& c : run_.tier->constraints) apply(c);
  }

  // `c` evaluated on the prefixes of its level (a superset of those the walk checks it on): an
  // error gives up; the outcome is the candidates' (apply).
  void check_on_prefixes(const detail::CompiledConstraint& c) {
    const auto level = static_cast<std::size_t>(c.level);
    if (level >= prefixes_.size() || prefixes_[level].size == 0) return;
    // Copies in the store too (a pmr vector's copy would take the default resource, the heap).
    const Vec<std::int64_t*> items(items_, ev_.store_.resource());
    const Vec<Column> memo(memo_, ev_.store_.resource());
    const Vec<std::uint8_t> ready(ready_, ev_.store_.resource());
    const std::size_t size = size_;
    const std::size_t bound = bound_;
    items_.assign(prefixes_[level].items, prefixes_[level].items + level + 1);
    size_ = prefixes_[level].size;
    bound_ = level + 1;
    std::fill(ready_.begin(), ready_.end(), 0);
    (void)condition(c.holds);
    items_ = items;
    memo_ = memo;
    ready_ = ready;
    size_ = size;
    bound_ = bound;
  }

  // The shared candidates and the columns computed for them that no tier's value changes.
  void keep_for_later_tiers() {
    saved_->items = items_;
    saved_->size = size_;
    saved_->memo = memo_;
    saved_->ready = ready_;
    for (std::size_t k = 0; k < ready_.size(); ++k)
      if (search_.candidate_reads_tier[k]) saved_->ready[k] = 0;
  }

  // Level by level: each prefix's items of the next enumeration, then that level's shared
  // constraints.
  void build_candidates() {
    const std::size_t levels = search_.enumerations.size();
    items_.assign(levels, nullptr);
    std::fill(ready_.begin(), ready_.end(), 0);  // a tier's values from an earlier tier
    prefixes_.clear();
    size_ = 1;  // the empty prefix
    bound_ = 0;
    for (std::size_t level = 0; level < levels; ++level) {
      expand(level);
      bound_ = level + 1;
      for (const detail::CompiledConstraint& c : search_.constraints)
        if (static_cast<std::size_t>(c.level) == level) apply(c);
      auto** items = allocate<std::int64_t*>(bound_);
      std::copy_n(items_.begin(), bound_, items);
      prefixes_.push_back({items, size_});
      if (size_ == 0) return;
    }
  }

  // The set's candidates with enumeration `level`'s items appended, in the walk's order.
  void expand(std::size_t level) {
    const Node& values = search_.enumerations[level].value;
    // Each prefix's items: `counts[i]` of them from `pool`, at `offsets[i]`.
    Vec<std::int64_t> pool(ev_.store_.resource());
    std::size_t* offsets = allocate<std::size_t>(size_);
    std::size_t* counts = allocate<std::size_t>(size_);
    if (values.level < 0) {
      const RValue list = ev_.value(values, frame_);
      if (list.kind != RValue::Kind::list) give_up();
      for (const RValue& item : list.list()) pool.push_back(narrow(item));
      std::fill_n(offsets, size_, 0);
      std::fill_n(counts, size_, pool.size());
    } else if (values.kind == ExprKind::call && values.builtin == divisors_ && values.children.size() == 1) {
      const Column n = column(values.children[0]);
      if (!is_integer(n)) give_up();
      // Few distinct arguments (they divide the world size): each one's divisors found once.
      struct Found {
        std::int64_t n;
        std::size_t offset, count;
      };
      Vec<Found> found(ev_.store_.resource());
      as_ints(n, [&](auto arg) {
        for (std::size_t i = 0; i < size_; ++i) {
          const std::int64_t x = arg[i];
          auto it = std::find_if(found.begin(), found.end(), [x](const Found& f) { return f.n == x; });
          if (it == found.end()) {
            const std::size_t offset = pool.size();
            if (!divisors_of(x, pool)) give_up();
            found.push_back({x, offset, pool.size() - offset});
            it = found.end() - 1;
          }
          offsets[i] = it->offset;
          counts[i] = it->count;
        }
      });
    } else {
      give_up();  // per-prefix lists of another form: the walk enumerates them
    }
    std::size_t total = 0;
    for (std::size_t i = 0; i < size_; ++i) total += counts[i];
    // The columns hold every candidate's items and values at once; the walk's memory does not
    // grow with the candidates. A set beyond this is the walk's.
    if (total > kMaxCandidates) give_up();
    std::int64_t** grown = allocate<std::int64_t*>(level + 1);
    for (std::size_t k = 0; k <= level; ++k) grown[k] = allocate<std::int64_t>(total);
    std::size_t at = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      for (std::size_t j = 0; j < counts[i]; ++j, ++at) {
        for (std::size_t k = 0; k < level; ++k) grown[k][at] = items_[k][i];
        grown[level][at] = pool[offsets[i] + j];
      }
    }
    for (std::size_t k = 0; k <= level; ++k) items_[k] = grown[k];
    size_ = total;
    std::fill(ready_.begin(), ready_.end(), 0);  // computed for the prefixes, not for these
  }

  // The candidates that break `c` leave the set.
  void apply(const detail::CompiledConstraint& c) {
    if (size_ == 0) return;
    const Column holds = condition(c.holds);
    if (holds.kind == Column::Kind::same) {
      if (!holds.same.b) size_ = 0;
      return;
    }
    keep(holds.bools());
  }

  // Keeps the candidates whose `keep` entry is set, and their computed columns, in new arrays
  // (those kept for later tiers stay as they are).
  void keep(const std::uint8_t* keep) {
    std::uint32_t* kept = allocate<std::uint32_t>(size_);
    std::size_t count = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      kept[count] = static_cast<std::uint32_t>(i);
      count += keep[i] ? 1 : 0;
    }
    if (count == size_) return;
    shared_set_ = false;
    for (std::size_t k = 0; k < bound_; ++k) items_[k] = gather(items_[k], kept, count);
    for (std::size_t k = 0; k < memo_.size(); ++k) {
      Column& c = memo_[k];
      if (!ready_[k] || c.kind == Column::Kind::same) continue;
      if (c.kind == Column::Kind::integer) c.data = gather(c.ints(), kept, count);
      if (c.kind == Column::Kind::floating) c.data = gather(c.floats(), kept, count);
      if (c.kind == Column::Kind::boolean) c.data = gather(c.bools(), kept, count);
    }
    size_ = count;
  }
  template <typename T>
  T* gather(const T* entries, const std::uint32_t* kept, std::size_t count) {
    T* out = allocate<T>(count);
    for (std::size_t j = 0; j < count; ++j) out[j] = entries[kept[j]];
    return out;
  }

  // ---- columns ----------------------------------------------------------------------------

  Column condition(const Node& n) {
    Column c = column(n);
    if (c.kind == Column::Kind::same) {
      language::truth(c.same, n.location);  // not a bool: the walk says so
      return c;
    }
    if (c.kind != Column::Kind::boolean) give_up();
    return c;
  }

  Column slot_column(int slot) {
    for (std::size_t k = 0; k < bound_; ++k)
      if (search_.enumerations[k].slot == slot) {
        Column c;
        c.kind = Column::Kind::integer;
        c.data = items_[k];
        return c;
      }
    const auto k = static_cast<std::size_t>(slot - first_candidate_);
    if (slot >= first_candidate_ && k < memo_.size()) {
      if (search_.candidate_levels[k] < 0) return Column::of(ev_.lookup(slot, frame_));
      if (!ready_[k]) {
        memo_[k] = column(ev_.rules_.local_values[static_cast<std::size_t>(slot) - ev_.rules_.inputs.size() -
                                                  ev_.rules_.lets.size()]);
        ready_[k] = 1;
      }
      return memo_[k];
    }
    for (const auto& e : search_.enumerations)
      if (e.slot == slot) give_up();  // an enumeration not bound yet: not a value of this level
    return Column::of(ev_.lookup(slot, frame_));  // a tier's value, a fact
  }

  Column column(const Node& n) {
    if (n.level < 0) return Column::of(ev_.value(n, frame_));
    switch (n.kind) {
      case ExprKind::name:
        return slot_column(n.slot);
      case ExprKind::conditional:
        return conditional(n);
      case ExprKind::binary:
        return binary(n);
      case ExprKind::unary:
        return unary(n);
      case ExprKind::call:
        return call(n);
      default:
        give_up();  // a list or record per candidate
    }
  }

  Column conditional(const Node& n) {
    const Column test = condition(n.children[0]);
    if (test.kind == Column::Kind::same) return column(n.children[test.same.b ? 1 : 2]);
    const Column a = column(n.children[1]);
    const Column b = column(n.children[2]);
    Column out;
    const std::uint8_t* t = test.bools();
    if (is_integer(a) && is_integer(b)) {
      out = make(Column::Kind::integer);
      as_ints(a, [&](auto x) { as_ints(b, [&](auto y) { fill(out.ints(), [&](std::size_t i) { return t[i] ? x[i] : y[i]; }); }); });
    } else if (is_bool(a) && is_bool(b)) {
      out = make(Column::Kind::boolean);
      as_bools(a, [&](auto x) { as_bools(b, [&](auto y) { fill(out.bools(), [&](std::size_t i) { return t[i] ? x[i] : y[i]; }); }); });
    } else if (float_only(a) && float_only(b)) {
      out = make(Column::Kind::floating);
      out.mixed = a.mixed || b.mixed;
      as_doubles(a, [&](auto x) { as_doubles(b, [&](auto y) { fill(out.floats(), [&](std::size_t i) { return t[i] ? x[i] : y[i]; }); }); });
    } else {
      give_up();  // a value whose kind varies per candidate
    }
    return out;
  }
  static bool float_only(const Column& c) {
    return c.kind == Column::Kind::floating || (c.kind == Column::Kind::same && c.same.kind == RValue::Kind::floating);
  }

  Column unary(const Node& n) {
    const Column a = column(n.children[0]);
    if (n.op == Op::logical_not) {
      if (!is_bool(a)) give_up();
      if (a.kind == Column::Kind::same) return Column::of(RValue::of_bool(!a.same.b));
      Column out = make(Column::Kind::boolean);
      fill(out.bools(), [&](std::size_t i) { return static_cast<std::uint8_t>(!a.bools()[i]); });
      return out;
    }
    if (a.kind == Column::Kind::same) return Column::of(language::negate(a.same, n.location));
    if (a.kind == Column::Kind::floating) {
      // In a column of integers and floats, the integer 0 is +0.0: negated, the walk's is 0,
      // the column's would be -0.0.
      if (a.mixed) give_up();
      Column out = make(Column::Kind::floating);
      fill(out.floats(), [&](std::size_t i) { return -a.floats()[i]; });
      return out;
    }
    if (a.kind != Column::Kind::integer) give_up();
    Column out = make(Column::Kind::integer);
    for (std::size_t i = 0; i < size_; ++i) {
      if (a.ints()[i] == std::numeric_limits<std::int64_t>::min()) give_up();
      out.ints()[i] = -a.ints()[i];
    }
    return out;
  }

  Column binary(const Node& n) {
    const Op op = n.op;
    const Column a = column(n.children[0]);
    const Column b = column(n.children[1]);
    if (a.kind == Column::Kind::same && b.kind == Column::Kind::same) return Column::of(same_binary(n, a.same, b.same));
    if (op == Op::logical_and || op == Op::logical_or) {
      if (!is_bool(a) || !is_bool(b)) give_up();
      Column out = make(Column::Kind::boolean);
      const bool both = op == Op::logical_and;
      as_bools(a, [&](auto x) {
        as_bools(b, [&](auto y) {
          fill(out.bools(), [&](std::size_t i) { return static_cast<std::uint8_t>(both ? (x[i] && y[i]) : (x[i] || y[i])); });
        });
      });
      return out;
    }
    if (is_bool(a) && is_bool(b) && (op == Op::equal || op == Op::not_equal)) {
      Column out = make(Column::Kind::boolean);
      as_bools(a, [&](auto x) {
        as_bools(b, [&](auto y) {
          with_comparison(op, [&](auto cmp) { fill(out.bools(), [&](std::size_t i) { return cmp(x[i], y[i]); }); });
        });
      });
      return out;
    }
    if (!is_number(a) || !is_number(b)) give_up();
    if (is_integer(a) && is_integer(b)) return integer_binary(op, a, b);
    // A float on either side. A column of integers and floats only meets floats.
    if ((a.mixed && !float_only(b)) || (b.mixed && !float_only(a))) give_up();
    if (syntax::is_comparison(op)) return mixed_comparison(op, a, b);
    Column out = make(Column::Kind::floating);
    double* o = out.floats();
    bool zero = false;
    as_doubles(a, [&](auto x) {
      as_doubles(b, [&](auto y) {
        switch (op) {
          case Op::add: fill(o, [&](std::size_t i) { return x[i] + y[i]; }); break;
          case Op::subtract: fill(o, [&](std::size_t i) { return x[i] - y[i]; }); break;
          case Op::multiply: fill(o, [&](std::size_t i) { return x[i] * y[i]; }); break;
          case Op::divide:
          case Op::true_divide:
            for (std::size_t i = 0; i < size_; ++i) zero = zero || y[i] == 0;
            fill(o, [&](std::size_t i) { return x[i] / y[i]; });
            break;
          default: give_up();  // a float // or %: rare, left to the walk
        }
      });
    });
    if (zero) give_up();
    return out;
  }

  // Two integers: exact in 64 bits, or the walk's (which has 128).
  Column integer_binary(Op op, const Column& a, const Column& b) {
    if (syntax::is_comparison(op)) {
      Column out = make(Column::Kind::boolean);
      as_ints(a, [&](auto x) {
        as_ints(b, [&](auto y) {
          with_comparison(op, [&](auto cmp) { fill(out.bools(), [&](std::size_t i) { return cmp(x[i], y[i]); }); });
        });
      });
      return out;
    }
    if (op == Op::true_divide) {
      Column out = make(Column::Kind::floating);
      as_ints(a, [&](auto x) {
        as_ints(b, [&](auto y) {
          for (std::size_t i = 0; i < size_; ++i) {
            // Both exact as doubles: one IEEE division rounds as Python's int / int does.
            if (y[i] == 0 || x[i] > kTwo53 || x[i] < -kTwo53 || y[i] > kTwo53 || y[i] < -kTwo53) give_up();
            out.floats()[i] = static_cast<double>(x[i]) / static_cast<double>(y[i]);
          }
        });
      });
      return out;
    }
    Column out = make(Column::Kind::integer);
    std::int64_t* o = out.ints();
    bool ok = true;
    as_ints(a, [&](auto x) {
      as_ints(b, [&](auto y) {
        switch (op) {
          case Op::add:
            for (std::size_t i = 0; i < size_; ++i) ok &= !__builtin_add_overflow(x[i], y[i], &o[i]);
            break;
          case Op::subtract:
            for (std::size_t i = 0; i < size_; ++i) ok &= !__builtin_sub_overflow(x[i], y[i], &o[i]);
            break;
          case Op::multiply:
            for (std::size_t i = 0; i < size_; ++i) ok &= !__builtin_mul_overflow(x[i], y[i], &o[i]);
            break;
          case Op::divide:  // `//` (and format 1's `/` of integers)
          case Op::floor_divide:
            for (std::size_t i = 0; i < size_ && ok; ++i) ok = floor_divide(x[i], y[i], o[i]);
            break;
          case Op::modulo:
            for (std::size_t i = 0; i < size_ && ok; ++i) ok = modulo(x[i], y[i], o[i]);
            break;
          default:
            ok = false;
        }
      });
    });
    if (!ok) give_up();
    return out;
  }

  // A comparison with a float on either side: exact, as Python compares an integer with a
  // float; NaN gives up.
  Column mixed_comparison(Op op, const Column& a, const Column& b) {
    Column out = make(Column::Kind::boolean);
    std::uint8_t* o = out.bools();
    if (!is_integer(a) && !is_integer(b)) {
      bool nan = false;
      as_doubles(a, [&](auto x) {
        as_doubles(b, [&](auto y) {
          for (std::size_t i = 0; i < size_; ++i) nan = nan || x[i] != x[i] || y[i] != y[i];
          with_comparison(op, [&](auto cmp) { fill(o, [&](std::size_t i) { return cmp(x[i], y[i]); }); });
        });
      });
      if (nan) give_up();
      return out;
    }
    const bool int_left = is_integer(a);
    const Column& ints = int_left ? a : b;
    const Column& floats = int_left ? b : a;
    as_ints(ints, [&](auto x) {
      as_doubles(floats, [&](auto y) {
        for (std::size_t i = 0; i < size_; ++i) {
          int c = detail::compare_int_float(x[i], y[i]);
          if (c == language::kUnordered) give_up();
          if (!int_left) c = -c;
          o[i] = static_cast<std::uint8_t>(op == Op::equal       ? c == 0
                                           : op == Op::not_equal ? c != 0
                                                                 : language::holds(op, c));
        }
      });
    });
    return out;
  }

  // An operator on two values the same for every candidate (a conditional that chose such a
  // branch below it): as the walk computes it.
  RValue same_binary(const Node& n, const RValue& a, const RValue& b) {
    switch (n.op) {
      case Op::logical_and:
        return RValue::of_bool(language::truth(a, n.children[0].location) && language::truth(b, n.children[1].location));
      case Op::logical_or:
        return RValue::of_bool(language::truth(a, n.children[0].location) || language::truth(b, n.children[1].location));
      default:
        return ev_.combine(n, a, b);
    }
  }

  Column call(const Node& n) {
    if (n.builtin == min_ || n.builtin == max_) return pick(n, n.builtin == min_ ? -1 : 1);
    if (n.children.size() != 1) give_up();
    const Column a = column(n.children[0]);
    if (a.kind == Column::Kind::same) give_up();  // below a conditional that chose: rare
    if (n.builtin == int_) {
      if (a.kind == Column::Kind::integer) return a;
      if (a.kind != Column::Kind::floating || a.mixed) give_up();
      Column out = make(Column::Kind::integer);
      for (std::size_t i = 0; i < size_; ++i) {
        const double whole = std::trunc(a.floats()[i]);  // NaN and infinity fail the bound
        if (!(whole > -0x1p63 && whole < 0x1p63)) give_up();
        out.ints()[i] = static_cast<std::int64_t>(whole);
      }
      return out;
    }
    if (n.builtin == float_) {
      if (a.kind == Column::Kind::floating) {
        Column out = a;
        out.mixed = false;  // every entry a float now, and exactly the double it was
        return out;
      }
      if (a.kind != Column::Kind::integer) give_up();
      Column out = make(Column::Kind::floating);
      fill(out.floats(), [&](std::size_t i) { return static_cast<double>(a.ints()[i]); });
      return out;
    }
    give_up();
  }

  // min(...) / max(...) of numbers: per candidate the first argument no other orders before
  // (after), as the builtin picks it.
  Column pick(const Node& n, int better) {
    if (n.children.size() < 2) give_up();  // min(list): a list per candidate
    Vec<Column> args(ev_.store_.resource());
    args.reserve(n.children.size());
    for (const Node& child : n.children) {
      args.push_back(column(child));
      if (!is_number(args.back())) give_up();
    }
    const bool all_integers = std::all_of(args.begin(), args.end(), is_integer);
    const bool all_floats = std::all_of(args.begin(), args.end(), float_only);
    // Two arguments of one kind (nearly every min and max): one comparison per entry. The
    // second replaces the first only when strictly better, as the builtin picks.
    if (args.size() == 2 && (all_integers || (all_floats && !args[0].mixed && !args[1].mixed))) {
      Column out = make(all_integers ? Column::Kind::integer : Column::Kind::floating);
      auto two = [&](auto* o, auto x, auto y) {
        if (better < 0)
          fill(o, [&](std::size_t i) { return y[i] < x[i] ? y[i] : x[i]; });
        else
          fill(o, [&](std::size_t i) { return y[i] > x[i] ? y[i] : x[i]; });
      };
      if (all_integers) {
        as_ints(args[0], [&](auto x) { as_ints(args[1], [&](auto y) { two(out.ints(), x, y); }); });
        return out;
      }
      bool nan = false;
      as_doubles(args[0], [&](auto x) {
        as_doubles(args[1], [&](auto y) {
          for (std::size_t i = 0; i < size_; ++i) nan = nan || x[i] != x[i] || y[i] != y[i];
          two(out.floats(), x, y);
        });
      });
      if (nan) give_up();
      return out;
    }
    auto entry = [](const Column& c, std::size_t i, bool& integer, std::int64_t& x, double& f) {
      integer = is_integer(c);
      if (c.kind == Column::Kind::same) {
        if (integer) x = narrow(c.same); else f = c.same.f;
      } else if (integer) {
        x = c.ints()[i];
      } else {
        f = c.floats()[i];
      }
      if (!integer && f != f) give_up();
    };
    Column out = make(all_integers ? Column::Kind::integer : Column::Kind::floating);
    bool picked_integer = false;
    bool picked_float = false;
    for (std::size_t i = 0; i < size_; ++i) {
      bool best_int = false;
      std::int64_t best_x = 0;
      double best_f = 0;
      entry(args[0], i, best_int, best_x, best_f);
      for (std::size_t k = 1; k < args.size(); ++k) {
        bool is_int = false;
        std::int64_t x = 0;
        double f = 0;
        entry(args[k], i, is_int, x, f);
        int c = 0;
        if (is_int && best_int) c = x < best_x ? -1 : x > best_x ? 1 : 0;
        else if (!is_int && !best_int) c = f < best_f ? -1 : f > best_f ? 1 : 0;
        else if (is_int) c = detail::compare_int_float(x, best_f);
        else c = -detail::compare_int_float(best_x, f);
        if (c == better) {
          best_int = is_int;
          best_x = x;
          best_f = f;
        }
      }
      if (all_integers) {
        out.ints()[i] = best_x;
        continue;
      }
      if (best_int && (best_x > kTwo53 || best_x < -kTwo53)) give_up();
      out.floats()[i] = best_int ? static_cast<double>(best_x) : best_f;
      (best_int ? picked_integer : picked_float) = true;
    }
    if (!all_integers && !all_floats) {
      if (picked_integer && !picked_float) {  // integers only after all: an integer column
        Column ints = make(Column::Kind::integer);
        fill(ints.ints(), [&](std::size_t i) { return static_cast<std::int64_t>(out.floats()[i]); });
        return ints;
      }
      out.mixed = picked_integer;
    }
    for (const Column& a : args) out.mixed = out.mixed || a.mixed;
    return out;
  }

  // ---- the tier's outcome -----------------------------------------------------------------

  // The first smallest (largest) entry, as smallest() keeps it.
  RValue extreme(const Column& c, bool smaller) {
    if (c.kind == Column::Kind::same) {
      // The walk compares it with itself from the second candidate on: kinds that do not
      // order (a bool) fail there.
      const RValue& v = c.same;
      if (!(v.kind == RValue::Kind::integer || v.kind == RValue::Kind::string ||
            (v.kind == RValue::Kind::floating && v.f == v.f)))
        give_up();
      return v;
    }
    if (c.mixed) give_up();
    std::size_t best = 0;
    if (c.kind == Column::Kind::integer) {
      for (std::size_t i = 1; i < size_; ++i)
        if (smaller ? c.ints()[i] < c.ints()[best] : c.ints()[i] > c.ints()[best]) best = i;
      return RValue::of_int(c.ints()[best]);
    }
    if (c.kind != Column::Kind::floating) give_up();
    for (std::size_t i = 0; i < size_; ++i)
      if (c.floats()[i] != c.floats()[i]) give_up();
    for (std::size_t i = 1; i < size_; ++i)
      if (smaller ? c.floats()[i] < c.floats()[best] : c.floats()[i] > c.floats()[best]) best = i;
    return RValue::of_float(c.floats()[best]);
  }

  // The key's items that vary with the candidate (an item the same for all orders none of them
  // before another, as long as it orders with itself).
  void key_columns(const Node& n, Vec<Column>& out) {
    if (n.level < 0 || n.kind != ExprKind::list) {
      if (n.kind == ExprKind::conditional && n.level >= 0) {
        const Column test = condition(n.children[0]);
        if (test.kind != Column::Kind::same) give_up();
        key_columns(n.children[test.same.b ? 1 : 2], out);
        return;
      }
      add_key(column(n), out);
      return;
    }
    for (const Node& item : n.children) add_key(column(item), out);
  }
  static void add_key(const Column& c, Vec<Column>& out) {
    if (c.kind == Column::Kind::same) {
      const RValue& v = c.same;
      const bool orders = v.kind == RValue::Kind::integer || v.kind == RValue::Kind::string ||
                          (v.kind == RValue::Kind::floating && v.f == v.f);
      if (!orders) give_up();  // a list, NaN, null: how the walk compares it is its own
      return;
    }
    if (c.kind == Column::Kind::boolean) give_up();
    out.push_back(c);
  }
  bool key_less(const Vec<Column>& key, std::size_t i, std::size_t j) const {
    for (const Column& c : key) {
      if (c.kind == Column::Kind::integer) {
        if (c.ints()[i] != c.ints()[j]) return c.ints()[i] < c.ints()[j];
        continue;
      }
      const double x = c.floats()[i];
      const double y = c.floats()[j];
      if (x != x || y != y) give_up();
      if (x != y) return x < y;
    }
    return false;
  }

  // The chosen candidate's record fields: enumerations, tier values, candidate values, tier.
  RValue* chosen_fields(std::size_t best) {
    const std::size_t fields = search_.field_names->size();
    RValue* out = ev_.store_.values(fields);
    for (std::size_t k = 0; k + 1 < fields; ++k) {
      const Column c = slot_column(search_.field_slots[k]);
      switch (c.kind) {
        case Column::Kind::same: out[k] = c.same; break;
        case Column::Kind::integer: out[k] = RValue::of_int(c.ints()[best]); break;
        case Column::Kind::boolean: out[k] = RValue::of_bool(c.bools()[best] != 0); break;
        case Column::Kind::floating:
          if (c.mixed) give_up();
          out[k] = RValue::of_float(c.floats()[best]);
          break;
      }
    }
    out[fields - 1] = ev_.store_.string(run_.tier->name);
    return out;
  }

  // ---- helpers ----------------------------------------------------------------------------

  Column make(Column::Kind kind) {
    Column c;
    c.kind = kind;
    switch (kind) {
      case Column::Kind::integer: c.data = allocate<std::int64_t>(size_); break;
      case Column::Kind::floating: c.data = allocate<double>(size_); break;
      case Column::Kind::boolean: c.data = allocate<std::uint8_t>(size_); break;
      case Column::Kind::same: break;
    }
    return c;
  }
  template <typename T, typename F>
  void fill(T* out, F&& f) {
    for (std::size_t i = 0; i < size_; ++i) out[i] = static_cast<T>(f(i));
  }

  Evaluator& ev_;
  SearchRun& run_;
  Frame& frame_;
  const detail::CompiledSearch& search_;
  int first_candidate_ = 0;
  std::size_t size_ = 0;   // candidates in the set
  std::size_t bound_ = 0;  // enumerations bound in the set
  Vec<std::int64_t*> items_;  // per enumeration: each candidate's item
  Vec<Column> memo_;          // per candidate value: its column, when ready_
  Vec<std::uint8_t> ready_;
  // The candidates every tier starts from, with the columns no tier's value changes: set by
  // the first tier when tiers_share_candidates, and completed by a tier whose own constraints
  // removed none of them.
  struct Shared {
    explicit Shared(std::pmr::memory_resource* store) : items(store), memo(store), ready(store) {}
    Vec<std::int64_t*> items;
    std::size_t size = 0;
    Vec<Column> memo;
    Vec<std::uint8_t> ready;
  };
  std::optional<Shared> saved_;
  // Per level: the prefixes the shared constraints of that level and above left.
  struct Prefixes {
    std::int64_t** items;  // per enumeration up to the level
    std::size_t size;
  };
  Vec<Prefixes> prefixes_;
  bool shared_set_ = false;  // the current set is saved_'s

  inline static const language::BuiltinInfo* const divisors_ = language::find_builtin("divisors");
  inline static const language::BuiltinInfo* const min_ = language::find_builtin("min");
  inline static const language::BuiltinInfo* const max_ = language::find_builtin("max");
  inline static const language::BuiltinInfo* const int_ = language::find_builtin("int");
  inline static const language::BuiltinInfo* const float_ = language::find_builtin("float");
};

// The tier's candidates decided by columns and kept in `run`; false, with `run` as it was, where
// the columns do not hold the tier exactly (the walk decides it then).
bool Evaluator::decide_tier_by_columns(SearchRun& run, Frame& frame) {
  bool decided = true;
  try {
    if (!run.columns)
      run.columns = new (store_.allocate_bytes(sizeof(Columns), alignof(Columns))) Columns(*this, run, frame);
    run.columns->decide();
  } catch (...) {  // GiveUp, or an error the walk will raise (or not) in its own order
    decided = false;
  }
  // A candidate value the columns read through the frame (one the same for every candidate)
  // is forgotten, as the walk's tier start forgets it.
  for (int slot : run.search.candidate_slots) frame.forget(slot);
  ++(decided ? search_tier_counts().by_columns : search_tier_counts().given_back);
  return decided;
}

Evaluator::SearchRun::~SearchRun() {
  if (columns) columns->~Columns();
}

}  // namespace snnplan::evaluate::internal
