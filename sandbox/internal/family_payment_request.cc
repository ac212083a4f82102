// Payment requests (API documentation, part 2, "Payment Preview and Payment Request";
// docs/wire.md, "Resources"): a payment submitted for approval by the workspace's
// controllers in a cost center. centerId is required on create and on list; every item
// carries `payment` (object) and `type`; status pending. Approval is a simulation: POST
// /sandbox/payment-request/approve {"id"} creates the payment through its own family (same
// validation) and moves the request to approved; .../deny -> denied.
#include <algorithm>

#include "sandbox/internal/family.h"
#include "sandbox/internal/listing.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

// `transaction` is an internal transfer to another workspace (the SDKs' Transaction
// payment: amount, receiverId, description, externalId).
const std::vector<std::string> kTypes = {"transfer",        "transaction", "brcode-payment", "boleto-payment",
                                         "utility-payment", "tax-payment", "darf-payment"};

// Approval of a `transaction` request: the ledger debit of an internal transfer.
Json DebitTransaction(Context& ctx, const Entity& request, const Json& payment, Problems& problems) {
  const std::int64_t amount =
      payment.value("amount", Json(0)).is_number_integer() ? payment["amount"].get<std::int64_t>() : 0;
  if (amount <= 0) {
    problems.push_back(MakeProblem("invalidAmount", "payment.amount must be a positive integer.",
                                   "payment.amount deve ser um inteiro positivo."));
    return nullptr;
  }
  if (ctx.Balance() < amount) {
    problems.push_back(MakeProblem("insufficientBalance", "The balance does not cover this transaction.",
                                   "O saldo não cobre esta transação."));
    return nullptr;
  }
  return ctx.AddTransaction({-amount,
                             0,
                             payment.value("description", std::string("Internal transfer")),
                             "payment-request/" + request.id,
                             {},
                             payment.value("externalId", std::string())});
}

Json CreatePaymentRequest(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto center = in.String("centerId", Need::kRequired, "invalidCenterId", 1, 64);
  auto type = in.Enum("type", Need::kRequired, kTypes, "invalidType");
  const Json* payment = in.Raw("payment");
  auto due = in.Time("due", Need::kOptional, "invalidDue");
  auto tags = in.Tags();
  in.RejectUnknown();
  if (!payment)
    in.Fail("payment", "invalidJson", "is required.", "é obrigatório.");
  else if (!payment->is_object())
    in.Fail("payment", "invalidPayment", "must be an object.", "deve ser um objeto.");
  else if (payment->contains("scheduled"))
    in.Fail("payment", "invalidPayment", "must not carry 'scheduled' (use 'due').",
            "não deve ter 'scheduled' (use 'due').");
  else if (payment->contains("amount") &&
           !((*payment)["amount"].is_number_integer() && (*payment)["amount"].get<std::int64_t>() > 0))
    in.Fail("payment", "invalidAmount", "amount must be a positive integer.", "amount deve ser um inteiro positivo.");
  if (!problems.empty()) return nullptr;
  Entity e = ctx.Insert(
      "payment-request",
      {{"centerId", *center},
       {"type", *type},
       {"payment", *payment},
       {"amount", payment->value("amount", Json(0))},
       {"description", payment->value("description", payment->value("name", Json("")))},
       {"due", FormatTimestamp(due.value_or(ctx.Now()))},
       {"status", "pending"},
       {"actions", Json::array({{{"action", "requester"}, {"id", ctx.caller().access_id}, {"type", "project"}}})},
       {"tags", tags}});
  ctx.AddLog(e, "created");
  return e.doc;
}

Json ListRequests(Context& ctx, const Query& query, Problems& problems) {
  if (!query.count("centerId") || query.at("centerId").empty()) {
    problems.push_back(MakeProblem("invalidCenterId", "Query parameter 'centerId' is required.",
                                   "O parâmetro 'centerId' é obrigatório."));
    return nullptr;
  }
  return ListEnvelope(ctx, *api::FindResource("payment-request"), false, query, problems);
}

SimulationFn DecideSimulation(bool approve) {
  return [approve](Context& ctx, const Json& body, Problems& problems) -> Json {
    Reader in(body, problems);
    auto id = in.String("id", Need::kRequired, "invalidRequest", 1, 64);
    in.RejectUnknown();
    if (!problems.empty()) return nullptr;
    auto e = ctx.Find("payment-request", *id);
    if (!e) return problems.push_back(NotFound("payment-request", *id)), nullptr;
    if (e->status() != "pending") {
      problems.push_back(MakeProblem("invalidOperation", "Payment request " + *id + " is " + e->status() + ".",
                                     "A solicitação " + *id + " está " + e->status() + "."));
      return nullptr;
    }
    Json answer = Json::object();
    if (approve) {
      const std::string type = e->doc["type"].get<std::string>();
      Json element = e->doc["payment"];
      element["scheduled"] = FormatTimestamp(std::max(*ParseTimestamp(e->doc["due"].get<std::string>()), ctx.Now()));
      const Family* family = Registry::Instance().Find(type);
      const std::size_t before = problems.size();
      Json created = type == "transaction" || !family || !family->create
                         ? DebitTransaction(ctx, *e, e->doc["payment"], problems)
                         : family->create(ctx, element, problems);
      if (problems.size() != before) return nullptr;
      answer["payment"] = created;
      e->doc["actions"].push_back({{"action", "approver"}, {"id", "sandbox"}, {"type", "user"}});
    }
    e->doc["status"] = approve ? "approved" : "denied";
    ctx.Save(*e);
    ctx.AddLog(*e, approve ? "approved" : "denied");
    answer["request"] = e->doc;
    return answer;
  };
}

}  // namespace

BALCAO_SANDBOX_FAMILY(payment_request) {
  registry.Add({.resource = "payment-request",
                .statuses = {"pending", "approved", "denied", "canceled", "success", "failed"},
                .log_types = {"created", "approved", "denied"},
                .create = CreatePaymentRequest,
                .list = ListRequests});
  registry.AddSimulation("payment-request/approve", DecideSimulation(true));
  registry.AddSimulation("payment-request/deny", DecideSimulation(false));
}

}  // namespace balcao::sandbox::internal
