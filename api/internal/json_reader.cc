#include "api/internal/json_reader.h"

#include <charconv>

#include "common/hex.h"

namespace balcao::api::internal {
namespace {

constexpr int kMaxDepth = 256;

bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void AppendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

void JsonReader::Fail(const std::string& what) const {
  throw ModelError(what + " (at byte " + std::to_string(pos_) + ")");
}

void JsonReader::SkipWs() {
  while (pos_ < text_.size() && IsWs(text_[pos_])) ++pos_;
}

void JsonReader::Expect(char c) {
  SkipWs();
  if (pos_ >= text_.size()) Fail(std::string("unexpected end of input, expected '") + c + "'");
  if (text_[pos_] != c) Fail(std::string("expected '") + c + "'");
  ++pos_;
}

char JsonReader::Peek() {
  SkipWs();
  if (pos_ >= text_.size()) Fail("unexpected end of input");
  const char c = text_[pos_];
  switch (c) {
    case '{':
    case '[':
    case '"':
    case 'n':
    case 't':
    case 'f':
      return c;
    default:
      return (c == '-' || (c >= '0' && c <= '9')) ? '0' : (Fail("unexpected character"), c);
  }
}

void JsonReader::BeginObject() {
  if (Peek() != '{') Fail("expected an object");
  if (++depth_ > kMaxDepth) Fail("nesting too deep");
  ++pos_;
  first_ = true;
}

bool JsonReader::AtEnd(char closer) {
  SkipWs();
  if (pos_ < text_.size() && text_[pos_] == closer) {
    ++pos_;
    --depth_;
    first_ = false;  // the closed container was a value of its parent
    return true;
  }
  if (!first_) Expect(',');
  first_ = false;
  return false;
}

bool JsonReader::NextKey(std::string& key) {
  if (AtEnd('}')) return false;
  SkipWs();
  if (pos_ >= text_.size() || text_[pos_] != '"') Fail("expected a member name");
  ReadString(key);
  Expect(':');
  return true;
}

void JsonReader::BeginArray() {
  if (Peek() != '[') Fail("expected a list");
  if (++depth_ > kMaxDepth) Fail("nesting too deep");
  ++pos_;
  first_ = true;
}

bool JsonReader::NextElement() { return !AtEnd(']'); }

bool JsonReader::TryNull() {
  SkipWs();
  if (text_.substr(pos_, 4) != "null") return false;
  pos_ += 4;
  return true;
}

void JsonReader::ReadString(std::string& out) {
  if (Peek() != '"') Fail("expected a string");
  ++pos_;
  out.clear();
  // Fast path: no escapes.
  std::size_t end = pos_;
  while (end < text_.size() && text_[end] != '"' && text_[end] != '\\' &&
         static_cast<unsigned char>(text_[end]) >= 0x20)
    ++end;
  out.assign(text_.data() + pos_, end - pos_);
  pos_ = end;
  while (true) {
    if (pos_ >= text_.size()) Fail("unterminated string");
    const char c = text_[pos_++];
    if (c == '"') return;
    if (static_cast<unsigned char>(c) < 0x20) Fail("control character in string");
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= text_.size()) Fail("unterminated string");
    ReadEscape(text_[pos_++], out);
  }
}

void JsonReader::ReadEscape(char e, std::string& out) {
  switch (e) {
    case '"':
    case '\\':
    case '/':
      out += e;
      return;
    case 'b':
      out += '\b';
      return;
    case 'f':
      out += '\f';
      return;
    case 'n':
      out += '\n';
      return;
    case 'r':
      out += '\r';
      return;
    case 't':
      out += '\t';
      return;
    case 'u':
      AppendUtf8(out, ReadUnicodeEscape());
      return;
    default:
      Fail("bad escape in string");
  }
}

std::uint32_t JsonReader::ReadHex4() {
  if (pos_ + 4 > text_.size()) Fail("truncated \\u escape");
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = HexValue(text_[pos_++]);
    if (digit < 0) Fail("bad \\u escape");
    v = (v << 4) | static_cast<std::uint32_t>(digit);
  }
  return v;
}

std::uint32_t JsonReader::ReadUnicodeEscape() {
  std::uint32_t cp = ReadHex4();
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    if (text_.substr(pos_, 2) != "\\u") Fail("unpaired surrogate");
    pos_ += 2;
    const std::uint32_t low = ReadHex4();
    if (low < 0xDC00 || low > 0xDFFF) Fail("unpaired surrogate");
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
    Fail("unpaired surrogate");
  }
  return cp;
}

void JsonReader::ReadNumber(bool& is_integer, std::int64_t& integer, double& real) {
  if (Peek() != '0') Fail("expected a number");
  const std::size_t begin = pos_;
  std::size_t p = pos_;
  if (p < text_.size() && text_[p] == '-') ++p;
  const std::size_t digits = p;
  while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') ++p;
  if (p == digits || (text_[digits] == '0' && p - digits > 1)) Fail("malformed number");
  bool fraction = false;
  if (p < text_.size() && text_[p] == '.') {
    fraction = true;
    const std::size_t f = ++p;
    while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') ++p;
    if (p == f) Fail("malformed number");
  }
  if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
    fraction = true;
    ++p;
    if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
    const std::size_t e = p;
    while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9') ++p;
    if (p == e) Fail("malformed number");
  }
  pos_ = p;
  const char* first = text_.data() + begin;
  const char* last = text_.data() + p;
  is_integer = false;
  if (!fraction) {
    auto r = std::from_chars(first, last, integer);
    if (r.ec == std::errc() && r.ptr == last) {
      is_integer = true;
      real = static_cast<double>(integer);
      return;
    }
  }
  auto r = std::from_chars(first, last, real);
  if (r.ec != std::errc() || r.ptr != last) Fail("number out of range");
}

bool JsonReader::ReadBool() {
  SkipWs();
  if (text_.substr(pos_, 4) == "true") {
    pos_ += 4;
    return true;
  }
  if (text_.substr(pos_, 5) == "false") {
    pos_ += 5;
    return false;
  }
  Fail("expected true or false");
}

void JsonReader::SkipValueAt(int depth) {
  if (depth > kMaxDepth) Fail("nesting too deep");
  switch (Peek()) {
    case '{': {
      BeginObject();
      std::string key;
      while (NextKey(key)) SkipValueAt(depth + 1);
      return;
    }
    case '[':
      BeginArray();
      while (NextElement()) SkipValueAt(depth + 1);
      return;
    case '"': {
      std::string s;
      ReadString(s);
      return;
    }
    case 'n':
      if (!TryNull()) Fail("expected null");
      return;
    case 't':
    case 'f':
      ReadBool();
      return;
    default: {
      bool i;
      std::int64_t n;
      double d;
      ReadNumber(i, n, d);
    }
  }
}

void JsonReader::SkipValue() { SkipValueAt(depth_); }

std::string_view JsonReader::CaptureValue() {
  SkipWs();
  const std::size_t begin = pos_;
  SkipValue();
  return text_.substr(begin, pos_ - begin);
}

void JsonReader::ExpectEnd() {
  SkipWs();
  if (pos_ != text_.size()) Fail("unexpected text after the JSON value");
}

}  // namespace balcao::api::internal
