// Lists of JSON items for `balcao api`, streamed both ways so that memory does not grow with
// the list: ItemWriter writes items as they arrive (JSON Lines, or a JSON array written item
// by item), pretty-printed only for a terminal; ItemReader takes the objects of a JSON array,
// of one object, or of JSON Lines from a file or a pipe piece by piece.
// Thread-safety: one thread per writer or reader.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::terminal::internal {

class ItemWriter {
 public:
  enum class Format { kLines, kArray };
  // `pretty` indents each item (a terminal); otherwise items are written as the bank sent
  // them, one per line. JSON Lines are never indented.
  ItemWriter(std::FILE* out, Format format, bool pretty);
  ItemWriter(const ItemWriter&) = delete;
  ItemWriter& operator=(const ItemWriter&) = delete;
  ~ItemWriter();  // Finish()

  void Write(std::string_view item);
  // Closes the array ("[]" when nothing was written) and flushes; later calls do nothing.
  void Finish();

 private:
  std::FILE* out_;
  Format format_;
  bool pretty_;
  bool first_ = true;
  bool finished_ = false;
};

class ItemReader {
 public:
  // Reads `in` (not owned, not closed) up to its end.
  explicit ItemReader(std::FILE* in) : in_(in) {}

  // The next object's text; nullopt at the end of the input. kInvalidArgument names the item
  // and the byte where the input stops being a list of objects.
  StatusOr<std::optional<std::string>> Next();
  long long items() const { return items_; }

 private:
  // Makes buffer_[pos_] readable; false at the end of the input.
  bool Fill();
  bool SkipSpace();  // false at the end
  Status Refuse(const std::string& why) const;

  std::FILE* in_;
  std::string buffer_;
  std::size_t pos_ = 0;
  long long consumed_ = 0;  // bytes dropped from the front of buffer_
  enum class Shape { kUnknown, kArray, kObjects } shape_ = Shape::kUnknown;
  bool ended_ = false;  // the array's ']' was read
  long long items_ = 0;
};

}  // namespace balcao::terminal::internal
