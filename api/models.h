// Typed models of every bank resource: every field named in the API documentation and in
// docs/wire.md ("Resources", "Card acceptance"), under its wire key. Money is int64 cents;
// statuses and other enums are plain strings (the bank adds values; unknown ones must pass
// through); timestamps are Timestamp; free-form objects are RawJson. Request-only fields
// (card data, picture) sit in the same struct as the response fields and are simply left
// empty when reading.
// Conversions: api/internal/models_json.cc. Thread-safety: plain values.
#pragma once

#include "api/model_types.h"

namespace balcao::api {

// The field lists are laid out by hand, a few fields a line: clang-format cannot lay out
// X-macro lists stably (each run reflows its own output).
// clang-format off

// ---- Pieces shared by several resources ----
#define BALCAO_RULE_FIELDS(X) X(std::string, key, "key") X(RawJson, value, "value")
BALCAO_MODEL(Rule, BALCAO_RULE_FIELDS)  // {"key":"allowedTaxIds","value":[...]}

#define BALCAO_DESCRIPTION_FIELDS(X) X(std::string, key, "key") X(std::string, value, "value")
BALCAO_MODEL(Description, BALCAO_DESCRIPTION_FIELDS)  // invoice descriptions

#define BALCAO_INVOICE_DISCOUNT_FIELDS(X) X(double, percentage, "percentage") X(Timestamp, due, "due")
BALCAO_MODEL(InvoiceDiscount, BALCAO_INVOICE_DISCOUNT_FIELDS)

#define BALCAO_BOLETO_DESCRIPTION_FIELDS(X) X(std::string, text, "text") X(std::int64_t, amount, "amount")
BALCAO_MODEL(BoletoDescription, BALCAO_BOLETO_DESCRIPTION_FIELDS)

#define BALCAO_BOLETO_DISCOUNT_FIELDS(X) X(double, percentage, "percentage") X(Timestamp, date, "date")
BALCAO_MODEL(BoletoDiscount, BALCAO_BOLETO_DISCOUNT_FIELDS)

#define BALCAO_SPLIT_ENTRY_FIELDS(X) X(std::string, receiver_id, "receiverId") X(std::int64_t, amount, "amount")
BALCAO_MODEL(SplitEntry, BALCAO_SPLIT_ENTRY_FIELDS)  // an invoice's or boleto's `splits`

#define BALCAO_ALLOWED_INSTALLMENT_FIELDS(X) X(std::int64_t, total_amount, "totalAmount") X(std::int64_t, count, "count")
BALCAO_MODEL(AllowedInstallment, BALCAO_ALLOWED_INSTALLMENT_FIELDS)

#define BALCAO_PAYMENT_ACTION_FIELDS(X) X(std::string, action, "action") X(std::string, id, "id") X(std::string, type, "type")
BALCAO_MODEL(PaymentAction, BALCAO_PAYMENT_ACTION_FIELDS)

// ---- Account ----
#define BALCAO_WORKSPACE_FIELDS(X)                                                                      \
  X(std::string, id, "id") X(Strings, allowed_tax_ids, "allowedTaxIds") X(Timestamp, created, "created") \
  X(std::string, name, "name") X(std::string, organization_id, "organizationId")                         \
  X(std::string, picture_url, "pictureUrl") X(std::string, status, "status") X(std::string, username, "username") \
  X(std::string, picture, "picture") X(std::string, picture_type, "pictureType")
BALCAO_MODEL(Workspace, BALCAO_WORKSPACE_FIELDS)

#define BALCAO_BALANCE_FIELDS(X) \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::string, currency, "currency") X(Timestamp, updated, "updated")
BALCAO_MODEL(Balance, BALCAO_BALANCE_FIELDS)

#define BALCAO_TRANSACTION_FIELDS(X)                                                                         \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::int64_t, balance, "balance")              \
  X(Timestamp, created, "created") X(std::string, description, "description")                                \
  X(std::string, external_id, "externalId") X(std::int64_t, fee, "fee") X(std::string, receiver_id, "receiverId") \
  X(std::string, sender_id, "senderId") X(std::string, source, "source") X(Strings, tags, "tags")
BALCAO_MODEL(Transaction, BALCAO_TRANSACTION_FIELDS)

// ---- Receivables ----
#define BALCAO_INVOICE_FIELDS(X)                                                                                 \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::string, brcode, "brcode")                     \
  X(Timestamp, created, "created") X(std::vector<Description>, descriptions, "descriptions")                     \
  X(std::int64_t, discount_amount, "discountAmount") X(std::vector<InvoiceDiscount>, discounts, "discounts")      \
  X(Timestamp, due, "due") X(std::int64_t, expiration, "expiration") X(std::int64_t, fee, "fee")                  \
  X(double, fine, "fine") X(std::int64_t, fine_amount, "fineAmount") X(double, interest, "interest")              \
  X(std::int64_t, interest_amount, "interestAmount") X(std::string, link, "link") X(std::string, name, "name")     \
  X(std::int64_t, nominal_amount, "nominalAmount") X(std::string, pdf, "pdf") X(std::vector<Rule>, rules, "rules") \
  X(std::vector<SplitEntry>, splits, "splits") X(std::string, status, "status") X(Strings, tags, "tags")          \
  X(std::string, tax_id, "taxId") X(Strings, transaction_ids, "transactionIds") X(Timestamp, updated, "updated")
BALCAO_MODEL(Invoice, BALCAO_INVOICE_FIELDS)

#define BALCAO_INVOICE_PAYMENT_FIELDS(X)                                                                 \
  X(std::string, account_number, "accountNumber") X(std::string, account_type, "accountType")             \
  X(std::int64_t, amount, "amount") X(std::string, bank_code, "bankCode") X(std::string, branch_code, "branchCode") \
  X(std::string, end_to_end_id, "endToEndId") X(std::string, method, "method") X(std::string, name, "name")  \
  X(std::string, tax_id, "taxId")
BALCAO_MODEL(InvoicePayment, BALCAO_INVOICE_PAYMENT_FIELDS)

#define BALCAO_DYNAMIC_BRCODE_FIELDS(X)                                                                    \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(Timestamp, created, "created")               \
  X(std::string, display_description, "displayDescription") X(std::int64_t, expiration, "expiration")      \
  X(std::string, picture_url, "pictureUrl") X(std::vector<Rule>, rules, "rules") X(Strings, tags, "tags")   \
  X(Timestamp, updated, "updated") X(std::string, uuid, "uuid")
BALCAO_MODEL(DynamicBrcode, BALCAO_DYNAMIC_BRCODE_FIELDS)

#define BALCAO_DEPOSIT_FIELDS(X)                                                                              \
  X(std::string, id, "id") X(std::string, account_number, "accountNumber") X(std::string, account_type, "accountType") \
  X(std::int64_t, amount, "amount") X(std::string, bank_code, "bankCode") X(std::string, branch_code, "branchCode") \
  X(Timestamp, created, "created") X(std::int64_t, fee, "fee") X(std::string, name, "name")                     \
  X(std::string, status, "status") X(Strings, tags, "tags") X(std::string, tax_id, "taxId")                      \
  X(Strings, transaction_ids, "transactionIds") X(std::string, type, "type") X(Timestamp, updated, "updated")   \
  X(std::string, reversal_display_description, "reversalDisplayDescription")
BALCAO_MODEL(Deposit, BALCAO_DEPOSIT_FIELDS)

#define BALCAO_BOLETO_FIELDS(X)                                                                                 \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::string, bar_code, "barCode")                 \
  X(std::string, city, "city") X(std::string, district, "district") X(std::string, state_code, "stateCode")      \
  X(std::string, street_line1, "streetLine1") X(std::string, street_line2, "streetLine2")                        \
  X(std::string, zip_code, "zipCode") X(Timestamp, created, "created")                                           \
  X(std::vector<BoletoDescription>, descriptions, "descriptions") X(std::vector<BoletoDiscount>, discounts, "discounts") \
  X(Timestamp, due, "due") X(std::int64_t, fee, "fee") X(double, fine, "fine") X(double, interest, "interest")   \
  X(std::string, line, "line") X(std::string, name, "name") X(std::string, our_number, "ourNumber")              \
  X(std::int64_t, overdue_limit, "overdueLimit") X(std::string, receiver_name, "receiverName")                    \
  X(std::string, receiver_tax_id, "receiverTaxId") X(std::vector<SplitEntry>, splits, "splits")                  \
  X(std::string, status, "status") X(Strings, tags, "tags") X(std::string, tax_id, "taxId")                      \
  X(Strings, transaction_ids, "transactionIds") X(std::string, workspace_id, "workspaceId")
BALCAO_MODEL(Boleto, BALCAO_BOLETO_FIELDS)

#define BALCAO_BOLETO_HOLMES_FIELDS(X)                                                                 \
  X(std::string, id, "id") X(std::string, boleto_id, "boletoId") X(Timestamp, created, "created")       \
  X(std::string, result, "result") X(std::string, status, "status") X(Strings, tags, "tags")            \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(BoletoHolmes, BALCAO_BOLETO_HOLMES_FIELDS)

#define BALCAO_SPLIT_FIELDS(X)                                                                           \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(Timestamp, created, "created")             \
  X(std::string, external_id, "externalId") X(std::string, receiver_id, "receiverId")                     \
  X(Timestamp, scheduled, "scheduled") X(std::string, source, "source") X(std::string, status, "status")  \
  X(Strings, tags, "tags") X(Timestamp, updated, "updated")
BALCAO_MODEL(Split, BALCAO_SPLIT_FIELDS)

#define BALCAO_SPLIT_RECEIVER_FIELDS(X)                                                                       \
  X(std::string, id, "id") X(std::string, account_number, "accountNumber") X(std::string, account_type, "accountType") \
  X(std::string, bank_code, "bankCode") X(std::string, branch_code, "branchCode") X(std::string, name, "name")  \
  X(std::string, tax_id, "taxId") X(Strings, tags, "tags") X(std::string, status, "status")                     \
  X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(SplitReceiver, BALCAO_SPLIT_RECEIVER_FIELDS)

#define BALCAO_SPLIT_PROFILE_FIELDS(X)                                                                   \
  X(std::string, id, "id") X(std::int64_t, delay, "delay") X(std::string, interval, "interval")           \
  X(Strings, tags, "tags") X(std::string, status, "status") X(Timestamp, created, "created")              \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(SplitProfile, BALCAO_SPLIT_PROFILE_FIELDS)

#define BALCAO_INVOICE_PULL_SUBSCRIPTION_FIELDS(X)                                                         \
  X(std::string, id, "id") X(std::string, display_description, "displayDescription")                        \
  X(std::string, external_id, "externalId") X(std::string, interval, "interval") X(std::string, name, "name") \
  X(std::string, pull_mode, "pullMode") X(std::string, pull_retry_limit, "pullRetryLimit")                  \
  X(std::string, reference_code, "referenceCode") X(Timestamp, start, "start") X(std::string, tax_id, "taxId") \
  X(std::string, type, "type") X(std::int64_t, amount, "amount") X(std::string, amount_min_limit, "amountMinLimit") \
  X(RawJson, data, "data") X(Timestamp, due, "due") X(Timestamp, end, "end") X(Strings, tags, "tags")        \
  X(std::string, status, "status") X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(InvoicePullSubscription, BALCAO_INVOICE_PULL_SUBSCRIPTION_FIELDS)

#define BALCAO_INVOICE_PULL_REQUEST_FIELDS(X)                                                              \
  X(std::string, id, "id") X(std::string, attempt_type, "attemptType") X(Timestamp, due, "due")             \
  X(std::string, invoice_id, "invoiceId") X(std::string, subscription_id, "subscriptionId")                 \
  X(Strings, tags, "tags") X(std::string, status, "status") X(std::string, external_id, "externalId")       \
  X(std::string, display_description, "displayDescription") X(Timestamp, created, "created")                \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(InvoicePullRequest, BALCAO_INVOICE_PULL_REQUEST_FIELDS)

// ---- Card acceptance (docs/wire.md, "Card acceptance") ----
#define BALCAO_MERCHANT_SESSION_FIELDS(X)                                                                   \
  X(std::string, id, "id") X(std::string, uuid, "uuid") X(std::string, status, "status")                     \
  X(Strings, allowed_funding_types, "allowedFundingTypes")                                                   \
  X(std::vector<AllowedInstallment>, allowed_installments, "allowedInstallments") X(Strings, allowed_ips, "allowedIps") \
  X(std::string, challenge_mode, "challengeMode") X(std::int64_t, expiration, "expiration")                  \
  X(std::string, holder_id, "holderId") X(std::string, soft_descriptor, "softDescriptor")                    \
  X(std::string, confirmation_mode, "confirmationMode") X(Strings, tags, "tags") X(Timestamp, created, "created") \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(MerchantSession, BALCAO_MERCHANT_SESSION_FIELDS)

// A purchase: the body of POST /merchant-session/{uuid}/purchase (card_number,
// card_security_code, card_expiration "YYYY-MM") or of POST /merchant-purchase (card_id),
// and the record the bank returns. Card data is held in memory only, never logged.
#define BALCAO_MERCHANT_PURCHASE_FIELDS(X)                                                                   \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::int64_t, installment_count, "installmentCount") \
  X(std::string, card_expiration, "cardExpiration") X(std::string, card_number, "cardNumber")                 \
  X(std::string, card_security_code, "cardSecurityCode") X(std::string, card_id, "cardId")                    \
  X(std::string, holder_name, "holderName") X(std::string, holder_email, "holderEmail")                       \
  X(std::string, holder_phone, "holderPhone") X(std::string, holder_id, "holderId")                           \
  X(std::string, funding_type, "fundingType") X(std::string, billing_city, "billingCity")                     \
  X(std::string, billing_country_code, "billingCountryCode") X(std::string, billing_state_code, "billingStateCode") \
  X(std::string, billing_street_line1, "billingStreetLine1") X(std::string, billing_street_line2, "billingStreetLine2") \
  X(std::string, billing_zip_code, "billingZipCode") X(RawJson, metadata, "metadata")                         \
  X(std::string, card_ending, "cardEnding") X(std::string, challenge_mode, "challengeMode")                   \
  X(std::string, challenge_url, "challengeUrl") X(std::string, currency_code, "currencyCode")                 \
  X(std::string, end_to_end_id, "endToEndId") X(std::int64_t, fee, "fee") X(std::string, network, "network")  \
  X(std::string, source, "source") X(std::string, soft_descriptor, "softDescriptor") X(std::string, status, "status") \
  X(Strings, tags, "tags") X(Strings, transaction_ids, "transactionIds") X(Timestamp, created, "created")     \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(MerchantPurchase, BALCAO_MERCHANT_PURCHASE_FIELDS)

#define BALCAO_MERCHANT_CARD_FIELDS(X)                                                                    \
  X(std::string, id, "id") X(std::string, ending, "ending") X(Timestamp, expiration, "expiration")         \
  X(std::string, funding_type, "fundingType") X(std::string, holder_name, "holderName")                    \
  X(std::string, network, "network") X(std::string, status, "status") X(Strings, tags, "tags")             \
  X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(MerchantCard, BALCAO_MERCHANT_CARD_FIELDS)

#define BALCAO_MERCHANT_INSTALLMENT_FIELDS(X)                                                            \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(std::int64_t, fee, "fee") X(Timestamp, due, "due") \
  X(Timestamp, nominal_due, "nominalDue") X(std::string, funding_type, "fundingType")                     \
  X(bool, is_protected, "isProtected") X(std::string, network, "network") X(std::string, purchase_id, "purchaseId") \
  X(std::string, status, "status") X(Strings, tags, "tags") X(Strings, transaction_ids, "transactionIds") \
  X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(MerchantInstallment, BALCAO_MERCHANT_INSTALLMENT_FIELDS)

// ---- Payouts and payments ----
#define BALCAO_TRANSFER_FIELDS(X)                                                                             \
  X(std::string, id, "id") X(std::string, account_number, "accountNumber") X(std::string, account_type, "accountType") \
  X(std::int64_t, amount, "amount") X(std::string, bank_code, "bankCode") X(std::string, branch_code, "branchCode") \
  X(Timestamp, created, "created") X(std::string, description, "description")                                  \
  X(std::string, display_description, "displayDescription") X(std::string, external_id, "externalId")         \
  X(std::int64_t, fee, "fee") X(RawJson, metadata, "metadata") X(std::string, name, "name")                    \
  X(std::vector<Rule>, rules, "rules") X(Timestamp, scheduled, "scheduled") X(std::string, status, "status")   \
  X(Strings, tags, "tags") X(std::string, tax_id, "taxId") X(Strings, transaction_ids, "transactionIds")      \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(Transfer, BALCAO_TRANSFER_FIELDS)

#define BALCAO_BRCODE_PAYMENT_FIELDS(X)                                                                   \
  X(std::string, id, "id") X(std::string, brcode, "brcode") X(std::string, description, "description")     \
  X(std::string, tax_id, "taxId") X(std::int64_t, amount, "amount") X(std::vector<Rule>, rules, "rules")   \
  X(Timestamp, scheduled, "scheduled") X(Strings, tags, "tags") X(std::string, status, "status")           \
  X(std::int64_t, fee, "fee") X(std::string, name, "name") X(std::string, type, "type")                    \
  X(Strings, transaction_ids, "transactionIds") X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(BrcodePayment, BALCAO_BRCODE_PAYMENT_FIELDS)

// Boleto and utility payments (same wire shape; utility payments have no taxId).
#define BALCAO_BAR_CODE_PAYMENT_FIELDS(X)                                                                 \
  X(std::string, id, "id") X(std::string, bar_code, "barCode") X(std::string, line, "line")                \
  X(std::string, description, "description") X(std::string, tax_id, "taxId") X(std::int64_t, amount, "amount") \
  X(Timestamp, scheduled, "scheduled") X(Strings, tags, "tags") X(std::string, status, "status")           \
  X(std::int64_t, fee, "fee") X(std::string, type, "type") X(Strings, transaction_ids, "transactionIds")   \
  X(Timestamp, created, "created") X(Timestamp, updated, "updated")
BALCAO_MODEL(BoletoPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_MODEL(UtilityPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_MODEL(TaxPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)

#define BALCAO_DARF_PAYMENT_FIELDS(X)                                                                       \
  X(std::string, id, "id") X(std::int64_t, amount, "amount") X(Timestamp, competence, "competence")          \
  X(Timestamp, created, "created") X(std::string, description, "description") X(Timestamp, due, "due")      \
  X(std::int64_t, fee, "fee") X(std::int64_t, fine_amount, "fineAmount") X(std::int64_t, interest_amount, "interestAmount") \
  X(std::int64_t, nominal_amount, "nominalAmount") X(std::string, reference_number, "referenceNumber")      \
  X(std::string, revenue_code, "revenueCode") X(Timestamp, scheduled, "scheduled") X(std::string, status, "status") \
  X(Strings, tags, "tags") X(std::string, tax_id, "taxId") X(Strings, transaction_ids, "transactionIds")    \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(DarfPayment, BALCAO_DARF_PAYMENT_FIELDS)

// `id` is the brcode, line or bar code to preview; `payment` depends on `type`.
#define BALCAO_PAYMENT_PREVIEW_FIELDS(X) \
  X(std::string, id, "id") X(Timestamp, scheduled, "scheduled") X(std::string, type, "type") X(RawJson, payment, "payment")
BALCAO_MODEL(PaymentPreview, BALCAO_PAYMENT_PREVIEW_FIELDS)

#define BALCAO_PAYMENT_REQUEST_FIELDS(X)                                                                    \
  X(std::string, id, "id") X(std::string, center_id, "centerId") X(RawJson, payment, "payment")             \
  X(std::string, type, "type") X(Timestamp, due, "due") X(Strings, tags, "tags")                             \
  X(std::vector<PaymentAction>, actions, "actions") X(std::int64_t, amount, "amount")                        \
  X(std::string, description, "description") X(std::string, status, "status") X(Timestamp, created, "created") \
  X(Timestamp, updated, "updated")
BALCAO_MODEL(PaymentRequest, BALCAO_PAYMENT_REQUEST_FIELDS)

// ---- Webhooks and events ----
#define BALCAO_PUBLIC_KEY_ENTRY_FIELDS(X) X(std::string, content, "content") X(Timestamp, created, "created")
BALCAO_MODEL(PublicKeyEntry, BALCAO_PUBLIC_KEY_ENTRY_FIELDS)  // GET /v2/public-key items (PEM content)

#define BALCAO_WEBHOOK_FIELDS(X) X(std::string, id, "id") X(Strings, subscriptions, "subscriptions") X(std::string, url, "url")
BALCAO_MODEL(Webhook, BALCAO_WEBHOOK_FIELDS)

#define BALCAO_EVENT_FIELDS(X)                                                                          \
  X(std::string, id, "id") X(Timestamp, created, "created") X(bool, is_delivered, "isDelivered")         \
  X(RawJson, log, "log") X(std::string, subscription, "subscription") X(std::string, workspace_id, "workspaceId")
BALCAO_MODEL(BankEvent, BALCAO_EVENT_FIELDS)  // GET /v2/event items (webhook bodies: api/events.h)

#define BALCAO_EVENT_ATTEMPT_FIELDS(X)                                                                   \
  X(std::string, id, "id") X(std::string, code, "code") X(std::string, message, "message")               \
  X(std::string, webhook_id, "webhookId") X(std::string, event_id, "eventId") X(Timestamp, created, "created")
BALCAO_MODEL(EventAttempt, BALCAO_EVENT_ATTEMPT_FIELDS)

// ---- Logs ----
// What every log carries besides the entity (docs/wire.md, "Envelopes and naming");
// `errors` is a list of strings or of {code,message} objects depending on the resource,
// hence RawJson.
#define BALCAO_LOG_HEADER_FIELDS(X)                                                                       \
  X(std::string, id, "id") X(Timestamp, created, "created") X(std::string, type, "type")                  \
  X(RawJson, errors, "errors") X(Timestamp, updated, "updated") X(std::string, description, "description") \
  X(std::string, reason, "reason") X(std::string, transaction_id, "transactionId") X(RawJson, user, "user")
BALCAO_MODEL(LogHeader, BALCAO_LOG_HEADER_FIELDS)
// clang-format on

// A log of resource T: the header plus the entity as it was after the change, read from
// the key the resource table names (ResourceSpec::log_entity_key).
template <class T>
struct Log : LogHeader {
  std::optional<T> entity;
  bool operator==(const Log&) const = default;
};

}  // namespace balcao::api
