// Bank: the typed face of the API. One line per resource pairs a resource of the table
// (api/resources.h) with its model (api/models.h); every operation comes from
// ResourceClient<T>. Examples:
//   Bank bank(*Client::FromEnvironment());
//   auto created = bank.invoice().Create(invoices);          // chunks of 100
//   for (auto& paid : bank.invoice().List(ListParams().Filter("status", "paid"))) {...}
//   auto log = bank.transfer().GetLog("5648419829841920");    // Log<Transfer>
//   auto pdf = bank.boleto().Pdf(id, Query().Add("layout", "booklet"));
// Ownership: holds a Client. Thread-safety: as Client.
#pragma once

#include "api/client.h"
#include "api/resource.h"

namespace balcao::api {

// X(accessor, "resource name", Model)
#define BALCAO_BANK_RESOURCES(X)                                                     \
  X(workspace, "workspace", Workspace)                                               \
  X(balance, "balance", Balance)                                                     \
  X(transaction, "transaction", Transaction)                                         \
  X(invoice, "invoice", Invoice)                                                     \
  X(dynamic_brcode, "dynamic-brcode", DynamicBrcode)                                 \
  X(deposit, "deposit", Deposit)                                                     \
  X(boleto, "boleto", Boleto)                                                        \
  X(boleto_holmes, "boleto-holmes", BoletoHolmes)                                    \
  X(split, "split", Split)                                                           \
  X(split_receiver, "split-receiver", SplitReceiver)                                 \
  X(split_profile, "split-profile", SplitProfile)                                    \
  X(invoice_pull_subscription, "invoice-pull-subscription", InvoicePullSubscription) \
  X(invoice_pull_request, "invoice-pull-request", InvoicePullRequest)                \
  X(merchant_session, "merchant-session", MerchantSession)                           \
  X(merchant_purchase, "merchant-purchase", MerchantPurchase)                        \
  X(merchant_card, "merchant-card", MerchantCard)                                    \
  X(merchant_installment, "merchant-installment", MerchantInstallment)               \
  X(transfer, "transfer", Transfer)                                                  \
  X(brcode_payment, "brcode-payment", BrcodePayment)                                 \
  X(boleto_payment, "boleto-payment", BoletoPayment)                                 \
  X(utility_payment, "utility-payment", UtilityPayment)                              \
  X(tax_payment, "tax-payment", TaxPayment)                                          \
  X(darf_payment, "darf-payment", DarfPayment)                                       \
  X(payment_preview, "payment-preview", PaymentPreview)                              \
  X(payment_request, "payment-request", PaymentRequest)                              \
  X(public_key, "public-key", PublicKeyEntry)                                        \
  X(webhook, "webhook", Webhook)                                                     \
  X(event, "event", BankEvent)                                                       \
  X(event_attempt, "event/attempt", EventAttempt)

class Bank {
 public:
  explicit Bank(Client client) : client_(std::move(client)) {}
  const Client& client() const { return client_; }

#define BALCAO_BANK_ACCESSOR(accessor, name, Model) \
  ResourceClient<Model> accessor() const { return ResourceClient<Model>(client_, name); }
  BALCAO_BANK_RESOURCES(BALCAO_BANK_ACCESSOR)
#undef BALCAO_BANK_ACCESSOR

  // GET /v2/balance: the workspace's balance (the first item of the list).
  StatusOr<Balance> GetBalance() const {
    auto page = balance().ListPage();
    if (!page.ok()) return page.status();
    if (page->items.empty()) return InternalError("malformed bank response (GET /v2/balance): no balance");
    return std::move(page->items.front());
  }
  // GET /v2/invoice/{id}/payment: how a paid invoice was paid.
  StatusOr<InvoicePayment> GetInvoicePayment(std::string_view invoice_id) const {
    return invoice().GetSub<InvoicePayment>(invoice_id, "payment");
  }
  // POST /v2/merchant-session/{uuid}/purchase: a card purchase in a session (by uuid).
  StatusOr<MerchantPurchase> CreateSessionPurchase(std::string_view session_uuid,
                                                   const MerchantPurchase& purchase) const {
    return merchant_session().PostSub<MerchantPurchase>(session_uuid, "purchase", purchase);
  }
  // GET /v2/public-key?limit=1: the PEM of the key the bank signs webhooks with. Meant as
  // the fetcher of an EventVerifier (api/events.h).
  StatusOr<std::string> FetchPublicKeyPem() const {
    auto page = public_key().ListPage(ListParams().Limit(1));
    if (!page.ok()) return page.status();
    if (page->items.empty() || !page->items.front().content)
      return InternalError("malformed bank response (GET /v2/public-key): no key");
    return *std::move(page->items.front().content);
  }

 private:
  Client client_;
};

}  // namespace balcao::api
