#include "sandbox/internal/route.h"

namespace balcao::sandbox::internal {

std::optional<Route> MatchRoute(const std::string& method, const std::vector<std::string>& seg) {
  if (seg.size() < 2 || seg[0] != "v2") return std::nullopt;
  const api::ResourceSpec* spec = nullptr;
  std::size_t rest = 0;
  if (seg.size() >= 3) spec = api::FindResource(seg[1] + "/" + seg[2]), rest = 3;
  if (!spec) spec = api::FindResource(seg[1]), rest = 2;
  if (!spec) return std::nullopt;
  Route r;
  r.spec = spec;
  const std::string base = "/v2/" + std::string(spec->name);
  const std::size_t n = seg.size() - rest;
  auto at = [&](std::size_t i) -> const std::string& { return seg[rest + i]; };
  auto accept = [&](api::Op op, std::string tmpl, bool is_log = false) -> std::optional<Route> {
    if (!spec->Has(is_log && op != api::kPdf ? api::kLogs : op)) return std::nullopt;
    r.op = op;
    r.is_log = is_log;
    r.template_path = base + tmpl;
    return r;
  };
  if (n == 0) {
    if (method == "GET") return accept(api::kList, "");
    if (method == "PUT") return accept(api::kPutBatch, "");
    if (method == "POST")
      return spec->Has(api::kCreateBatch) ? accept(api::kCreateBatch, "") : accept(api::kCreateSingle, "");
    return std::nullopt;
  }
  if (at(0) == "log" && spec->Has(api::kLogs)) {
    if (n == 1 && method == "GET") return accept(api::kList, "/log", true);
    if (n >= 2) r.id = at(1);
    if (n == 2 && method == "GET") return accept(api::kGet, "/log/{id}", true);
    if (n == 3 && method == "GET" && at(2) == "pdf" && spec->Has(api::kLogPdf)) {
      r.op = api::kPdf;
      r.is_log = true;
      r.template_path = base + "/log/{id}/pdf";
      return r;
    }
    return std::nullopt;
  }
  r.id = at(0);
  if (n == 1) {
    if (method == "GET") return accept(api::kGet, "/{id}");
    if (method == "PATCH") return accept(api::kPatch, "/{id}");
    if (method == "DELETE") return accept(api::kDelete, "/{id}");
    return std::nullopt;
  }
  if (n == 2) {
    if (method == "GET" && at(1) == "pdf") return accept(api::kPdf, "/{id}/pdf");
    if (method == "GET" && at(1) == "qrcode") return accept(api::kQrcode, "/{id}/qrcode");
    if (method == "GET" && at(1) == "payment") return accept(api::kPaymentSub, "/{id}/payment");
    if (method == "POST" && at(1) == "purchase") return accept(api::kPurchaseSub, "/{uuid}/purchase");
  }
  return std::nullopt;
}

}  // namespace balcao::sandbox::internal
