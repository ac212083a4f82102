// ResourceClient<T>: every operation the bank offers on one resource, typed with its
// model T, driven by the resource's entry in api/resources.h (routes, envelope keys,
// filters, log entity key). The work is done once, for all resources, by
// api/internal/operations.cc; these templates only convert types.
// An operation the resource does not have (Delete on an invoice) returns
// kFailedPrecondition "<path> has no DELETE route" without sending anything.
// Ownership: holds a Client (shared connection pool). Thread-safety: as Client.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "api/internal/model_codec.h"
#include "api/internal/operations.h"
#include "api/list.h"
#include "api/models.h"
#include "api/resources.h"

namespace balcao::api {

template <class T>
class ResourceClient {
 public:
  // `name` is a ResourceSpec name ("invoice", "event/attempt").
  ResourceClient(Client client, std::string_view name) : client_(std::move(client)), spec_(FindResource(name)) {}

  const ResourceSpec& spec() const { return *spec_; }

  // POST {"<plural>":[...]}: any number of items, sent in chunks of at most 100, in order.
  // A resource created one at a time (workspace, webhook, merchant-session/purchase) gets
  // one unwrapped POST per item.
  StatusOr<std::vector<T>> Create(const std::vector<T>& items) const {
    std::vector<T> out;
    if (spec_->Has(kCreateSingle) && !spec_->Has(kCreateBatch)) {
      for (const T& item : items) {
        auto one = CreateOne(item);
        if (!one.ok()) return one.status();
        out.push_back(*std::move(one));
      }
      return out;
    }
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kCreateBatch, "batch POST"));
    BALCAO_RETURN_IF_ERROR(internal::SendBatch(Target(), "POST", Codec(), &items, items.size(), &out));
    return out;
  }
  // One item: unwrapped POST for single-create resources, a batch of one otherwise.
  StatusOr<T> CreateOne(const T& item) const {
    T out;
    if (spec_->Has(kCreateSingle)) {
      BALCAO_RETURN_IF_ERROR(internal::CreateSingle(Target(), Codec(), &item, &out));
      return out;
    }
    auto many = Create(std::vector<T>{item});
    if (!many.ok()) return many.status();
    if (many->size() != 1) return InternalError("malformed bank response: expected 1 created item");
    return std::move(many->front());
  }
  // PUT {"<plural>":[...]} (split-profile: create or update).
  StatusOr<std::vector<T>> Put(const std::vector<T>& items) const {
    std::vector<T> out;
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kPutBatch, "PUT"));
    BALCAO_RETURN_IF_ERROR(internal::SendBatch(Target(), "PUT", Codec(), &items, items.size(), &out));
    return out;
  }
  StatusOr<T> Get(std::string_view id, const std::vector<std::string>& fields = {}) const {
    T out;
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kGet, "GET by id"));
    BALCAO_RETURN_IF_ERROR(internal::GetOne(Target(), Codec(), id, fields, &out));
    return out;
  }
  StatusOr<Page<T>> ListPage(const ListParams& params = {}) const { return PageOf<T>(Target(), params); }
  ItemRange<T> List(ListParams params = {}) const { return RangeOf<T>(Target(), std::move(params)); }
  // PATCH with the fields set in `changes` only.
  StatusOr<T> Patch(std::string_view id, const T& changes) const {
    T out;
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kPatch, "PATCH"));
    BALCAO_RETURN_IF_ERROR(internal::PatchOne(Target(), Codec(), id, &changes, &out));
    return out;
  }
  StatusOr<T> Delete(std::string_view id) const {
    T out;
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kDelete, "DELETE"));
    BALCAO_RETURN_IF_ERROR(internal::DeleteOne(Target(), Codec(), id, &out));
    return out;
  }
  // PDF bytes. `query` carries e.g. boleto layout=booklet, hiddenFields=customerAddress.
  StatusOr<std::string> Pdf(std::string_view id, const Query& query = {}) const {
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kPdf, "PDF"));
    return internal::GetBytes(Target(), id, "pdf", query);
  }
  // PNG bytes; `size` is pixels per QR module, 1 to 50 (bank default 7).
  StatusOr<std::string> Qrcode(std::string_view id, int size = 7) const {
    BALCAO_RETURN_IF_ERROR(internal::Require(Target(), kQrcode, "QR code"));
    if (size < 1 || size > 50) return InvalidArgumentError("qrcode size must be 1 to 50, got " + std::to_string(size));
    return internal::GetBytes(Target(), id, "qrcode", Query().Add("size", static_cast<std::int64_t>(size)));
  }

  // The resource's logs: /x/log and /x/log/{id} (and /x/log/{id}/pdf where it exists).
  StatusOr<Log<T>> GetLog(std::string_view id, const std::vector<std::string>& fields = {}) const {
    Log<T> out;
    BALCAO_RETURN_IF_ERROR(internal::Require(LogTarget(), kGet, "log"));
    BALCAO_RETURN_IF_ERROR(internal::GetOne(LogTarget(), internal::CodecOf<Log<T>>(), id, fields, &out));
    return out;
  }
  StatusOr<Page<Log<T>>> ListLogsPage(const ListParams& params = {}) const {
    return PageOf<Log<T>>(LogTarget(), params);
  }
  ItemRange<Log<T>> ListLogs(ListParams params = {}) const { return RangeOf<Log<T>>(LogTarget(), std::move(params)); }
  StatusOr<std::string> LogPdf(std::string_view id) const {
    BALCAO_RETURN_IF_ERROR(internal::Require(LogTarget(), kPdf, "log PDF"));
    return internal::GetBytes(LogTarget(), id, "pdf", {});
  }

  // GET /x/{id}/<sub> -> {"<sub>":{...}}, e.g. the payment of a paid invoice.
  template <class Sub>
  StatusOr<Sub> GetSub(std::string_view id, std::string_view sub) const {
    Sub out;
    BALCAO_RETURN_IF_ERROR(internal::GetSub(Target(), internal::CodecOf<Sub>(), id, sub, &out));
    return out;
  }
  // POST /x/{id}/<sub> {item} -> {"<sub>":{...}}, e.g. a merchant-session purchase.
  template <class Sub>
  StatusOr<Sub> PostSub(std::string_view id, std::string_view sub, const Sub& item) const {
    Sub out;
    BALCAO_RETURN_IF_ERROR(internal::PostSub(Target(), internal::CodecOf<Sub>(), id, sub, &item, &out));
    return out;
  }

 private:
  internal::Target Target() const { return {&client_, spec_, false}; }
  internal::Target LogTarget() const { return {&client_, spec_, true}; }
  static const internal::ModelCodec& Codec() { return internal::CodecOf<T>(); }

  template <class U>
  StatusOr<Page<U>> PageOf(const internal::Target& t, const ListParams& params) const {
    BALCAO_RETURN_IF_ERROR(internal::Require(t, kList, "list"));
    Page<U> page;
    BALCAO_RETURN_IF_ERROR(internal::ListOnePage(t, internal::CodecOf<U>(), params, &page.items, &page.cursor));
    return page;
  }
  template <class U>
  ItemRange<U> RangeOf(const internal::Target& t, ListParams params) const {
    std::string first = params.cursor;
    std::optional<int> total = params.limit;
    // The loader owns copies of everything it needs: the range may outlive this object.
    auto loader = [client = client_, spec = spec_, log = t.log, params = std::move(params)](
                      const std::string& cursor, int page_limit) -> StatusOr<Page<U>> {
      ListParams p = params;
      p.cursor = cursor;
      p.limit = page_limit;
      internal::Target target{&client, spec, log};
      BALCAO_RETURN_IF_ERROR(internal::Require(target, kList, "list"));
      Page<U> page;
      BALCAO_RETURN_IF_ERROR(internal::ListOnePage(target, internal::CodecOf<U>(), p, &page.items, &page.cursor));
      return page;
    };
    return ItemRange<U>(std::move(loader), std::move(first), total);
  }

  Client client_;
  const ResourceSpec* spec_;
};

}  // namespace balcao::api
