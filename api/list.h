// Listing: the parameters of a list call, one page of results, and ItemRange, the lazy
// input range that follows the bank's cursor page by page (docs/wire.md, "Paging";
// docs/style.md S6).
//   for (StatusOr<Invoice>& invoice : bank.invoice().List(ListParams().Filter("status", "paid"))) {
//     if (!invoice.ok()) { /* one error, then the range ends */ break; }
//   }
// The range holds one page at a time: memory is constant however many items follow.
// Thread-safety: ItemRange is single-threaded (an input range); ListParams is a value.
#pragma once

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace balcao::api {

struct ListParams {
  // ListPage: the page size, 1 to 100. List: the total number of items wanted
  // (pages of up to 100 are requested); unset = all.
  std::optional<int> limit;
  std::string cursor;               // from a previous page; empty = first page
  std::vector<std::string> fields;  // restricts the keys of each item (when the bank honours it)
  // Filters by wire name ("status", "tags", "after", "invoiceIds"...). Lists are sent
  // comma-joined. A name the resource does not accept is refused (kInvalidArgument).
  std::vector<std::pair<std::string, std::vector<std::string>>> filters;

  ListParams& Limit(int n) {
    limit = n;
    return *this;
  }
  ListParams& Cursor(std::string c) {
    cursor = std::move(c);
    return *this;
  }
  ListParams& Fields(std::vector<std::string> f) {
    fields = std::move(f);
    return *this;
  }
  ListParams& Filter(std::string name, std::string value) {
    filters.emplace_back(std::move(name), std::vector<std::string>{std::move(value)});
    return *this;
  }
  ListParams& Filter(std::string name, std::vector<std::string> values) {
    filters.emplace_back(std::move(name), std::move(values));
    return *this;
  }
  ListParams& Filter(std::string name, std::initializer_list<std::string> values) {
    return Filter(std::move(name), std::vector<std::string>(values));
  }
};

struct ResourceSpec;
class Query;
// The query of a list call on `spec` (its /log list when `logs`): limit 1..100, cursor,
// fields, and filters the resource accepts. kInvalidArgument names an unknown filter and
// lists the accepted ones.
StatusOr<Query> BuildListQuery(const ResourceSpec& spec, bool logs, const ListParams& params);

template <class T>
struct Page {
  std::vector<T> items;
  std::string cursor;  // empty when there are no more pages
};

// An input range of StatusOr<T>. A failure is delivered as one element, then the range
// ends. Pages are fetched lazily by `load(cursor, page_limit)`.
template <class T>
class ItemRange {
 public:
  using Loader = std::function<StatusOr<Page<T>>(const std::string& cursor, int page_limit)>;

  ItemRange(Loader load, std::string first_cursor, std::optional<int> total_limit)
      : load_(std::move(load)), cursor_(std::move(first_cursor)), remaining_(total_limit) {}

  class iterator {
   public:
    using value_type = StatusOr<T>;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(ItemRange* r) : range_(r) {
      range_->Advance();
      Settle();
    }
    StatusOr<T>& operator*() const { return *range_->current_; }
    StatusOr<T>* operator->() const { return &*range_->current_; }
    iterator& operator++() {
      range_->Advance();
      Settle();
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const iterator& o) const { return range_ == o.range_; }

   private:
    void Settle() {
      if (!range_->current_) range_ = nullptr;
    }
    ItemRange* range_ = nullptr;
  };

  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }
  // Pages requested from the bank so far (progress displays).
  int pages_loaded() const { return pages_loaded_; }

 private:
  void Advance() {
    current_.reset();
    if (done_) return;
    while (next_ >= page_.size()) {
      if (fetched_ && cursor_.empty()) {
        done_ = true;
        return;
      }
      if (remaining_ && *remaining_ <= 0) {
        done_ = true;
        return;
      }
      const int page_limit = remaining_ ? std::min(*remaining_, 100) : 100;
      auto page = load_(cursor_, page_limit);
      fetched_ = true;
      ++pages_loaded_;
      if (!page.ok()) {
        current_.emplace(page.status());
        done_ = true;
        return;
      }
      page_ = std::move(page->items);
      next_ = 0;
      cursor_ = std::move(page->cursor);
      if (page_.empty() && cursor_.empty()) {
        done_ = true;
        return;
      }
    }
    if (remaining_) --*remaining_;
    current_.emplace(std::move(page_[next_++]));
  }

  Loader load_;
  std::string cursor_;
  std::optional<int> remaining_;
  std::vector<T> page_;
  std::size_t next_ = 0;
  bool fetched_ = false;
  bool done_ = false;
  int pages_loaded_ = 0;
  std::optional<StatusOr<T>> current_;
};

}  // namespace balcao::api
