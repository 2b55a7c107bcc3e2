#include "load/expression_parser.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <limits>
#include <string>
#include <utility>

#include "load/literals.hpp"
#include "load/messages.hpp"

namespace snnplan::load {
namespace {

using syntax::Expr;
using syntax::ExprKind;
using syntax::Op;

enum class Tok {
  end, integer, floating, string, identifier, lparen, rparen, lbracket, rbracket, comma,
  question, colon, dot, plus, minus, star, slash, slash_slash, percent, eq, ne, lt, le, gt, ge, and_, or_, not_,
};

struct Token {
  Tok kind = Tok::end;
  std::size_t offset = 0;
  std::string text;  // identifier name, literal spelling, or decoded string
};

// Thrown inside the parser only; parse_expression turns it into a Diagnostic value.
struct ParseFailure {
  std::size_t offset;
  std::string message;
};

class Parser {
 public:
  Parser(std::string_view text, const std::function<SourceLocation(std::size_t)>& locate, Division division)
      : text_(text), locate_(locate), division_(division) {
    advance();
  }

  Expr parse_all() {
    Expr e = parse_expr(0);
    if (tok_.kind != Tok::end) fail(tok_.offset, messages::expression_trailing(tok_.text));
    return e;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, std::string message) {
    throw ParseFailure{offset, messages::expression_syntax(message)};
  }

  SourceLocation at(std::size_t offset) const { return locate_(offset); }

  void advance() { tok_ = lex(); }

  Token lex() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
    Token t;
    t.offset = pos_;
    if (pos_ >= text_.size()) {
      t.text = "end of expression";
      return t;
    }
    const char c = text_[pos_];
    auto two = [&](char next) { return pos_ + 1 < text_.size() && text_[pos_ + 1] == next; };
    auto single = [&](Tok kind, std::size_t len) {
      t.kind = kind;
      t.text = std::string(text_.substr(pos_, len));
      pos_ += len;
      return t;
    };
    if (c >= '0' && c <= '9') {
      std::size_t end = pos_;
      while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
      bool is_float = false;
      if (end + 1 < text_.size() && text_[end] == '.' && text_[end + 1] >= '0' && text_[end + 1] <= '9') {
        is_float = true;
        ++end;
        while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
      }
      t.kind = is_float ? Tok::floating : Tok::integer;
      t.text = std::string(text_.substr(pos_, end - pos_));
      pos_ = end;
      return t;
    }
    if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      std::size_t end = pos_;
      while (end < text_.size() && (text_[end] == '_' || std::isalnum(static_cast<unsigned char>(text_[end])))) ++end;
      t.kind = Tok::identifier;
      t.text = std::string(text_.substr(pos_, end - pos_));
      pos_ = end;
      return t;
    }
    if (c == '\'' || c == '"') {
      std::size_t i = pos_ + 1;
      std::string decoded;
      while (true) {
        if (i >= text_.size()) fail(pos_, messages::expression_unterminated_string());
        char d = text_[i];
        if (d == c) break;
        if (d == '\\') {
          if (i + 1 >= text_.size()) fail(pos_, messages::expression_unterminated_string());
          char e = text_[i + 1];
          switch (e) {
            case 'n': decoded += '\n'; break;
            case 't': decoded += '\t'; break;
            case '\\': case '\'': case '"': decoded += e; break;
            default: fail(i, messages::expression_unknown_escape(e));
          }
          i += 2;
          continue;
        }
        decoded += d;
        ++i;
      }
      t.kind = Tok::string;
      t.text = std::move(decoded);
      pos_ = i + 1;
      return t;
    }
    switch (c) {
      case '(': return single(Tok::lparen, 1);
      case ')': return single(Tok::rparen, 1);
      case '[': return single(Tok::lbracket, 1);
      case ']': return single(Tok::rbracket, 1);
      case ',': return single(Tok::comma, 1);
      case '?': return single(Tok::question, 1);
      case ':': return single(Tok::colon, 1);
      case '.': return single(Tok::dot, 1);
      case '+': return single(Tok::plus, 1);
      case '-': return single(Tok::minus, 1);
      case '*': return single(Tok::star, 1);
      case '/': return two('/') ? single(Tok::slash_slash, 2) : single(Tok::slash, 1);
      case '%': return single(Tok::percent, 1);
      case '=':
        if (two('=')) return single(Tok::eq, 2);
        fail(pos_, messages::expression_not_an_operator("=", "==", " to compare"));
      case '!': return two('=') ? single(Tok::ne, 2) : single(Tok::not_, 1);
      case '<': return two('=') ? single(Tok::le, 2) : single(Tok::lt, 1);
      case '>': return two('=') ? single(Tok::ge, 2) : single(Tok::gt, 1);
      case '&':
        if (two('&')) return single(Tok::and_, 2);
        fail(pos_, messages::expression_not_an_operator("&", "&&"));
      case '|':
        if (two('|')) return single(Tok::or_, 2);
        fail(pos_, messages::expression_not_an_operator("|", "||"));
      default:
        fail(pos_, messages::expression_unexpected_character(character_at(pos_)));
    }
  }

  // The character at `pos` for a message: its whole UTF-8 sequence, or "\xNN" for a byte
  // that does not start one (printing the lone byte would make the message invalid UTF-8).
  std::string character_at(std::size_t pos) const {
    const auto byte = [&](std::size_t k) { return pos + k < text_.size() ? static_cast<unsigned char>(text_[pos + k]) : 0u; };
    const unsigned lead = byte(0);
    // Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing beyond U+10FFFF;
    // the second byte's range depends on the lead, the others are 80..BF.
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xBF;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) length = 3, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
    else if (lead >= 0xF0 && lead <= 0xF4) length = 4, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
    if (length > 1 && (byte(1) < low || byte(1) > high)) length = 0;
    for (std::size_t k = 2; k < length; ++k)
      if (byte(k) < 0x80 || byte(k) > 0xBF) length = 0;
    if (length == 0) return fmt::format("\\x{:02X}", lead);
    return std::string(text_.substr(pos, length));
  }

  void expect(Tok kind, const char* what) {
    if (tok_.kind != kind) fail(tok_.offset, messages::expression_expected(what, tok_.text));
    advance();
  }

  void enter(std::size_t offset) {
    if (++depth_ > kMaxExpressionDepth) fail(offset, messages::expression_too_deep(kMaxExpressionDepth));
  }

  Expr make(ExprKind kind, std::size_t offset) {
    Expr e;
    e.kind = kind;
    e.location = at(offset);
    return e;
  }

  Expr binary(Op op, std::size_t offset, Expr lhs, Expr rhs) {
    Expr e = make(ExprKind::binary, offset);
    e.op = op;
    e.children.push_back(std::move(lhs));
    e.children.push_back(std::move(rhs));
    return e;
  }

  // expr := or ('?' expr ':' expr)?
  Expr parse_expr(int) {
    enter(tok_.offset);
    const std::size_t offset = tok_.offset;
    Expr cond = parse_or();
    if (tok_.kind == Tok::question) {
      advance();
      Expr then_e = parse_expr(0);
      expect(Tok::colon, "':' of the conditional");
      Expr else_e = parse_expr(0);
      Expr e = make(ExprKind::conditional, offset);
      e.children.push_back(std::move(cond));
      e.children.push_back(std::move(then_e));
      e.children.push_back(std::move(else_e));
      cond = std::move(e);
    }
    --depth_;
    return cond;
  }

  Expr parse_or() {
    const std::size_t offset = tok_.offset;
    Expr lhs = parse_and();
    while (tok_.kind == Tok::or_) {
      advance();
      lhs = binary(Op::logical_or, offset, std::move(lhs), parse_and());
    }
    return lhs;
  }

  Expr parse_and() {
    const std::size_t offset = tok_.offset;
    Expr lhs = parse_comparison();
    while (tok_.kind == Tok::and_) {
      advance();
      lhs = binary(Op::logical_and, offset, std::move(lhs), parse_comparison());
    }
    return lhs;
  }

  Expr parse_comparison() {
    const std::size_t offset = tok_.offset;
    Expr lhs = parse_additive();
    Op op;
    switch (tok_.kind) {
      case Tok::eq: op = Op::equal; break;
      case Tok::ne: op = Op::not_equal; break;
      case Tok::lt: op = Op::less; break;
      case Tok::le: op = Op::less_equal; break;
      case Tok::gt: op = Op::greater; break;
      case Tok::ge: op = Op::greater_equal; break;
      default: return lhs;
    }
    advance();
    Expr e = binary(op, offset, std::move(lhs), parse_additive());
    switch (tok_.kind) {
      case Tok::eq: case Tok::ne: case Tok::lt: case Tok::le: case Tok::gt: case Tok::ge:
        fail(tok_.offset, messages::expression_chained_comparison());
      default: break;
    }
    return e;
  }

  Expr parse_additive() {
    const std::size_t offset = tok_.offset;
    Expr lhs = parse_multiplicative();
    while (tok_.kind == Tok::plus || tok_.kind == Tok::minus) {
      Op op = tok_.kind == Tok::plus ? Op::add : Op::subtract;
      advance();
      lhs = binary(op, offset, std::move(lhs), parse_multiplicative());
    }
    return lhs;
  }

  Expr parse_multiplicative() {
    const std::size_t offset = tok_.offset;
    Expr lhs = parse_unary();
    while (tok_.kind == Tok::star || tok_.kind == Tok::slash || tok_.kind == Tok::slash_slash ||
           tok_.kind == Tok::percent) {
      const Op slash = division_ == Division::python ? Op::true_divide : Op::divide;
      Op op = tok_.kind == Tok::star          ? Op::multiply
              : tok_.kind == Tok::slash       ? slash
              : tok_.kind == Tok::slash_slash ? Op::floor_divide
                                              : Op::modulo;
      advance();
      lhs = binary(op, offset, std::move(lhs), parse_unary());
    }
    return lhs;
  }

  Expr parse_unary() {
    if (tok_.kind == Tok::minus || tok_.kind == Tok::not_) {
      const std::size_t offset = tok_.offset;
      const Op op = tok_.kind == Tok::minus ? Op::negate : Op::logical_not;
      advance();
      if (op == Op::negate && tok_.kind == Tok::integer) {
        // A negative literal is one token's worth of value, so INT64_MIN can be written.
        Expr e = make(ExprKind::literal, offset);
        const std::uint64_t magnitude = parse_magnitude(tok_, std::uint64_t{1} << 63);
        e.literal = Value(magnitude == (std::uint64_t{1} << 63)
                              ? std::numeric_limits<std::int64_t>::min()
                              : -static_cast<std::int64_t>(magnitude));
        advance();
        return e;
      }
      enter(offset);
      Expr operand = parse_unary();
      --depth_;
      Expr e = make(ExprKind::unary, offset);
      e.op = op;
      e.children.push_back(std::move(operand));
      return e;
    }
    return parse_postfix();
  }

  // postfix := primary ('.' identifier)*   -- field of a record value: `recommendation.mode`
  Expr parse_postfix() {
    Expr e = parse_primary();
    while (tok_.kind == Tok::dot) {
      const std::size_t offset = tok_.offset;
      advance();
      if (tok_.kind != Tok::identifier) fail(tok_.offset, messages::expression_expected("a field name after '.'", tok_.text));
      Expr member = make(ExprKind::member, offset + 1);
      member.name = tok_.text;
      member.location = at(tok_.offset);
      member.children.push_back(std::move(e));
      advance();
      e = std::move(member);
    }
    return e;
  }

  Expr parse_primary() {
    const Token t = tok_;
    switch (t.kind) {
      case Tok::integer: {
        advance();
        Expr e = make(ExprKind::literal, t.offset);
        const std::uint64_t magnitude =
            parse_magnitude(t, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
        e.literal = Value(static_cast<std::int64_t>(magnitude));
        return e;
      }
      case Tok::floating: {
        advance();
        Expr e = make(ExprKind::literal, t.offset);
        e.literal = Value(parse_float(t));
        return e;
      }
      case Tok::string: {
        advance();
        Expr e = make(ExprKind::literal, t.offset);
        e.literal = Value(t.text);
        return e;
      }
      case Tok::identifier: {
        advance();
        if (t.text == "true" || t.text == "false") {
          Expr e = make(ExprKind::literal, t.offset);
          e.literal = Value(t.text == "true");
          return e;
        }
        if (t.text == "null") return make(ExprKind::literal, t.offset);
        if (tok_.kind == Tok::lparen) {
          advance();
          Expr e = make(ExprKind::call, t.offset);
          e.name = t.text;
          e.children = parse_items(Tok::rparen, "')' closing the call");
          return e;
        }
        Expr e = make(ExprKind::name, t.offset);
        e.name = t.text;
        return e;
      }
      case Tok::lparen: {
        advance();
        Expr e = parse_expr(0);
        expect(Tok::rparen, "')'");
        return e;
      }
      case Tok::lbracket: {
        advance();
        Expr e = make(ExprKind::list, t.offset);
        e.children = parse_items(Tok::rbracket, "']' closing the list");
        return e;
      }
      default:
        fail(t.offset, messages::expression_expected("a value", t.text));
    }
  }

  // Digits '.' digits. Beyond the largest double (309 digits before the point) the literal is
  // refused rather than read as infinity; below the smallest it reads as the nearest double
  // (maybe 0.0), as Python reads it. (std::stod throws for both.)
  double parse_float(const Token& t) {
    const DecimalFloat read = read_decimal_float(t.text);
    // The lexer gives only digits '.' digits, so the reading fails only for the range.
    if (read.status != DecimalFloat::Status::ok) fail(t.offset, messages::float_out_of_range(t.text));
    return read.value;
  }

  std::uint64_t parse_magnitude(const Token& t, std::uint64_t limit) {
    std::uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), magnitude);
    if (ec != std::errc() || magnitude > limit) fail(t.offset, messages::integer_literal_too_large(t.text));
    return magnitude;
  }

  std::vector<Expr> parse_items(Tok close, const char* what) {
    std::vector<Expr> items;
    if (tok_.kind == close) {
      advance();
      return items;
    }
    while (true) {
      items.push_back(parse_expr(0));
      if (tok_.kind == Tok::comma) {
        advance();
        continue;
      }
      expect(close, what);
      return items;
    }
  }

  std::string_view text_;
  const std::function<SourceLocation(std::size_t)>& locate_;
  Division division_;
  std::size_t pos_ = 0;
  Token tok_;
  int depth_ = 0;
};

}  // namespace

std::variant<syntax::Expr, Diagnostic> parse_expression(std::string_view text,
                                                         const SourceLocation& start,
                                                         Division division) {
  return parse_expression(
      text, [&start](std::size_t offset) { return start.shifted(static_cast<std::uint32_t>(offset)); },
      division);
}

std::variant<syntax::Expr, Diagnostic> parse_expression(
    std::string_view text, const std::function<SourceLocation(std::size_t)>& locate,
    Division division) {
  if (text.size() > kMaxExpressionLength) {
    return Diagnostic{Severity::error, locate(0), "expression-too-long",
                      messages::expression_too_long(kMaxExpressionLength)};
  }
  try {
    Parser parser(text, locate, division);
    return parser.parse_all();
  } catch (const ParseFailure& failure) {
    return Diagnostic{Severity::error, locate(failure.offset), "expression-syntax", failure.message};
  }
}

}  // namespace snnplan::load
