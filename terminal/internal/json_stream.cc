#include "terminal/internal/json_stream.h"

#include <nlohmann/json.hpp>

namespace balcao::terminal::internal {
namespace {

constexpr std::size_t kChunk = 64 << 10;
constexpr int kMaxDepth = 64;  // deeper items are refused before nlohmann recurses into them

std::string Indented(std::string_view item, bool in_array) {
  const nlohmann::json parsed = nlohmann::json::parse(item, nullptr, false);
  if (parsed.is_discarded()) return std::string(item);
  std::string text = parsed.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!in_array) return text;
  std::string shifted = "  ";
  for (char c : text) {
    shifted += c;
    if (c == '\n') shifted += "  ";
  }
  return shifted;
}

}  // namespace

ItemWriter::ItemWriter(std::FILE* out, Format format, bool pretty)
    : out_(out), format_(format), pretty_(pretty && format == Format::kArray) {}

ItemWriter::~ItemWriter() { Finish(); }

void ItemWriter::Write(std::string_view item) {
  if (format_ == Format::kLines) {
    std::fwrite(item.data(), 1, item.size(), out_);
    std::fputc('\n', out_);
    return;
  }
  std::fputs(first_ ? "[\n" : ",\n", out_);
  first_ = false;
  if (pretty_) {
    const std::string text = Indented(item, true);
    std::fwrite(text.data(), 1, text.size(), out_);
  } else {
    std::fwrite(item.data(), 1, item.size(), out_);
  }
}

void ItemWriter::Finish() {
  if (finished_) return;
  finished_ = true;
  if (format_ == Format::kArray) std::fputs(first_ ? "[]\n" : "\n]\n", out_);
  std::fflush(out_);
}

bool ItemReader::Fill() {
  if (pos_ < buffer_.size()) return true;
  if (pos_ > 0) {
    consumed_ += static_cast<long long>(pos_);
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  const std::size_t had = buffer_.size();
  buffer_.resize(had + kChunk);
  const std::size_t got = std::fread(buffer_.data() + had, 1, kChunk, in_);
  buffer_.resize(had + got);
  return got > 0;
}

bool ItemReader::SkipSpace() {
  while (Fill()) {
    const char c = buffer_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return true;
    ++pos_;
  }
  return false;
}

Status ItemReader::Refuse(const std::string& why) const {
  return InvalidArgumentError(
      "the input must be a JSON object, a JSON array of objects or JSON Lines of objects: " + why + " (item " +
      std::to_string(items_ + 1) + ", byte " + std::to_string(consumed_ + static_cast<long long>(pos_)) + ")");
}

StatusOr<std::optional<std::string>> ItemReader::Next() {
  if (ended_) return std::optional<std::string>();
  if (!SkipSpace()) {
    if (shape_ == Shape::kArray) return Refuse("the array is not closed");
    if (shape_ == Shape::kUnknown) return Refuse("the input is empty");
    return std::optional<std::string>();
  }
  if (shape_ == Shape::kUnknown) {
    shape_ = buffer_[pos_] == '[' ? Shape::kArray : Shape::kObjects;
    if (shape_ == Shape::kArray) {
      ++pos_;
      if (!SkipSpace()) return Refuse("the array is not closed");
      if (buffer_[pos_] == ']') {
        ++pos_;
        ended_ = true;
        return std::optional<std::string>();
      }
    }
  } else if (shape_ == Shape::kArray) {
    const char c = buffer_[pos_];
    if (c == ']') {
      ++pos_;
      ended_ = true;
      return std::optional<std::string>();
    }
    if (c != ',') return Refuse("expected ',' or ']' between items");
    ++pos_;
    if (!SkipSpace()) return Refuse("the array is not closed");
  }
  if (buffer_[pos_] != '{') return Refuse("an item is not an object");

  // One object: up to the brace that closes it, strings and escapes skipped.
  std::string item;
  int depth = 0;
  bool in_string = false, escaped = false;
  while (Fill()) {
    const std::size_t start = pos_;
    while (pos_ < buffer_.size()) {
      const char c = buffer_[pos_++];
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        if (++depth > kMaxDepth) return Refuse("an item nests deeper than 64 levels");
      } else if (c == '}' || c == ']') {
        if (--depth == 0) break;
      }
    }
    item.append(buffer_, start, pos_ - start);
    if (depth == 0) {
      if (!nlohmann::json::accept(item)) return Refuse("an item is not valid JSON");
      ++items_;
      return std::optional<std::string>(std::move(item));
    }
  }
  return Refuse("the input ends inside an item");
}

}  // namespace balcao::terminal::internal
