#include "api/resources.h"

#include <string>

namespace balcao::api {
namespace {

constexpr unsigned kReadOnly = kList | kGet;
// The payment families share one shape: batch create, list, get, cancel, receipt, logs.
constexpr unsigned kPayment = kCreateBatch | kList | kGet | kDelete | kPdf | kLogs;

std::vector<ResourceSpec> MakeResources() {
  using F = std::vector<std::string_view>;
  const F common = {"after", "before", "fields", "ids", "status", "tags"};
  // Card acquiring lists also filter by the merchant's own holder id (the SDKs' `holderId`).
  const F with_holder = {"after", "before", "fields", "holderId", "ids", "status", "tags"};
  // One resource a line, in the order of the API documents.
  // clang-format off
  return {
      {"workspace", "workspace", "workspaces", kCreateSingle | kReadOnly | kPatch, {"fields", "ids", "username"}},
      {"balance", "balance", "balances", kList, {}},
      {"transaction", "transaction", "transactions", kReadOnly, {"after", "before", "externalIds", "fields", "ids", "tags"}},
      {"invoice", "invoice", "invoices", kCreateBatch | kReadOnly | kPatch | kPdf | kQrcode | kPaymentSub | kLogs | kLogPdf, {"after", "before", "fields", "ids", "status", "tags", "transactionIds"}, "invoice", "invoiceIds", "invoice"},
      {"dynamic-brcode", "brcode", "brcodes", kCreateBatch | kReadOnly, {"after", "before", "fields", "tags", "uuids"}},
      {"deposit", "deposit", "deposits", kReadOnly | kPatch | kLogs | kLogPdf, {"after", "before", "fields", "ids", "sort", "status", "tags"}, "deposit", "depositIds", "deposit"},
      {"boleto", "boleto", "boletos", kCreateBatch | kReadOnly | kDelete | kPdf | kLogs, common, "boleto", "boletoIds", "boleto"},
      {"boleto-holmes", "holmes", "holmes", kCreateBatch | kReadOnly | kLogs, {"after", "before", "boletoId", "fields", "ids", "status", "tags"}, "holmes", "holmesIds", "boleto-holmes"},
      {"split", "split", "splits", kReadOnly | kLogs, {"after", "before", "fields", "ids", "receiverIds", "status", "tags"}, "split", "splitIds", "split"},
      {"split-receiver", "receiver", "receivers", kCreateBatch | kReadOnly | kLogs, {"after", "before", "fields", "ids", "receiverIds", "status", "tags", "taxId", "transactionIds"}, "receiver", "receiverIds", "split-receiver"},
      {"split-profile", "profile", "profiles", kPutBatch | kReadOnly | kLogs, common, "profile", "profileIds", "split-profile"},
      {"invoice-pull-subscription", "subscription", "subscriptions", kCreateBatch | kReadOnly | kDelete | kLogs, {"after", "before", "expand", "fields", "ids", "status", "tags"}, "subscription", "subscriptionIds", "invoice-pull-subscription"},
      {"invoice-pull-request", "request", "requests", kCreateBatch | kReadOnly | kDelete | kLogs, {"after", "before", "externalIds", "fields", "ids", "invoiceIds", "status", "subscriptionIds", "tags"}, "request", "requestIds", "invoice-pull-request"},
      {"merchant-session", "session", "sessions", kCreateSingle | kReadOnly | kPurchaseSub | kLogs, with_holder, "session", "sessionIds", "merchant-session"},
      {"merchant-purchase", "purchase", "purchases", kCreateSingle | kReadOnly | kPatch | kLogs, with_holder, "purchase", "purchaseIds", "merchant-purchase"},
      {"merchant-card", "card", "cards", kReadOnly | kLogs, common, "card", "cardIds", "merchant-card"},
      // purchaseIds: not in the API documentation's list, but the official SDKs send it and the
      // bank honours it (docs/sandbox.md, "List filters").
      {"merchant-installment", "installment", "installments", kReadOnly | kLogs, {"after", "before", "fields", "ids", "purchaseIds", "status", "tags"}, "installment", "installmentIds", "merchant-installment"},
      {"transfer", "transfer", "transfers", kCreateBatch | kReadOnly | kDelete | kPdf | kLogs, {"after", "before", "fields", "ids", "sort", "status", "tags", "taxId", "transactionIds"}, "transfer", "transferIds", "transfer"},
      {"brcode-payment", "payment", "payments", (kPayment & ~kDelete) | kPatch, common, "payment", "paymentIds", "brcode-payment"},
      {"boleto-payment", "payment", "payments", kPayment, common, "payment", "paymentIds", "boleto-payment"},
      {"utility-payment", "payment", "payments", kPayment, common, "payment", "paymentIds", "utility-payment"},
      {"tax-payment", "payment", "payments", kPayment, common, "payment", "paymentIds", "tax-payment"},
      {"darf-payment", "payment", "payments", kPayment, {"after", "before", "ids", "status", "tags"}, "payment", "paymentIds", "darf-payment"},
      {"payment-preview", "preview", "previews", kCreateBatch, {}},
      {"payment-request", "request", "requests", kCreateBatch | kList, {"after", "before", "centerId", "fields", "ids", "sort", "status", "tags", "type"}, {}, {}, "payment-request"},
      {"public-key", "publicKey", "publicKeys", kList, {}},
      {"webhook", "webhook", "webhooks", kCreateSingle | kReadOnly | kDelete, {"fields"}},
      {"event", "event", "events", kReadOnly | kPatch | kDelete, {"after", "before", "fields", "isDelivered"}},
      {"event/attempt", "attempt", "attempts", kReadOnly, {"after", "before", "eventIds", "fields", "webhookIds"}},
  };
  // clang-format on
}

std::vector<Endpoint> MakeEndpoints(const std::vector<ResourceSpec>& resources) {
  std::vector<Endpoint> out;
  for (const auto& r : resources) {
    const std::string base = "/v2/" + std::string(r.name);
    // dynamic-brcode is addressed by uuid, merchant-session purchases by the session uuid.
    const std::string id = r.name == "dynamic-brcode" ? "{uuid}" : "{id}";
    auto add = [&](std::string_view method, std::string path, Op op, bool is_log = false) {
      out.push_back({method, std::move(path), &r, op, is_log});
    };
    if (r.Has(kCreateBatch)) add("POST", base, kCreateBatch);
    if (r.Has(kCreateSingle)) add("POST", base, kCreateSingle);
    if (r.Has(kPutBatch)) add("PUT", base, kPutBatch);
    if (r.Has(kList)) add("GET", base, kList);
    if (r.Has(kGet)) add("GET", base + "/" + id, kGet);
    if (r.Has(kPatch)) add("PATCH", base + "/" + id, kPatch);
    if (r.Has(kDelete)) add("DELETE", base + "/" + id, kDelete);
    if (r.Has(kPdf)) add("GET", base + "/" + id + "/pdf", kPdf);
    if (r.Has(kQrcode)) add("GET", base + "/" + id + "/qrcode", kQrcode);
    if (r.Has(kPaymentSub)) add("GET", base + "/" + id + "/payment", kPaymentSub);
    if (r.Has(kPurchaseSub)) add("POST", base + "/{uuid}/purchase", kPurchaseSub);
    if (r.Has(kLogs)) {
      add("GET", base + "/log", kList, true);
      add("GET", base + "/log/{id}", kGet, true);
    }
    if (r.Has(kLogPdf)) add("GET", base + "/log/{id}/pdf", kPdf, true);
  }
  return out;
}

}  // namespace

const std::vector<ResourceSpec>& Resources() {
  static const std::vector<ResourceSpec> resources = MakeResources();
  return resources;
}

const ResourceSpec* FindResource(std::string_view name) {
  for (const auto& r : Resources())
    if (r.name == name) return &r;
  return nullptr;
}

std::string PascalName(std::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '-' || c == '/') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

const std::vector<Endpoint>& Endpoints() {
  static const std::vector<Endpoint> endpoints = MakeEndpoints(Resources());
  return endpoints;
}

std::string_view EndpointTemplateOf(std::string_view method, std::string_view path) {
  const auto segments = [](std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('/', start);
      if (end == std::string_view::npos) end = text.size();
      out.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return out;
  };
  const std::vector<std::string_view> asked = segments(path);
  std::string_view best = "other";
  int best_literals = -1;
  for (const Endpoint& endpoint : Endpoints()) {
    if (endpoint.method != method) continue;
    const std::vector<std::string_view> wanted = segments(endpoint.path);
    if (wanted.size() != asked.size()) continue;
    int literals = 0;
    bool match = true;
    for (std::size_t i = 0; i < wanted.size() && match; ++i) {
      if (!wanted[i].empty() && wanted[i].front() == '{') {
        match = !asked[i].empty();
      } else {
        match = wanted[i] == asked[i];
        ++literals;
      }
    }
    if (match && literals > best_literals) {
      best = endpoint.path;
      best_literals = literals;
    }
  }
  return best;
}

const std::vector<std::string_view>& Subscriptions() {
  static const std::vector<std::string_view> subs = {
      "deposit",        "invoice",      "brcode-payment",  "transfer",      "utility-payment", "boleto",
      "boleto-payment", "darf-payment", "payment-request", "boleto-holmes", "tax-payment"};
  return subs;
}

const std::vector<std::string_view>& UndocumentedSubscriptions() {
  static const std::vector<std::string_view> subs = {"merchant-session",
                                                     "merchant-purchase",
                                                     "merchant-card",
                                                     "merchant-installment",
                                                     "split",
                                                     "split-receiver",
                                                     "split-profile",
                                                     "invoice-pull-subscription",
                                                     "invoice-pull-request"};
  return subs;
}

}  // namespace balcao::api
