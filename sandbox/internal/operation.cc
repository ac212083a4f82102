#include "sandbox/internal/operation.h"

#include "sandbox/internal/family.h"
#include "sandbox/internal/listing.h"
#include "sandbox/internal/responses.h"

namespace balcao::sandbox::internal {
namespace {

Problem Unsupported(const Route& r) {
  return MakeProblem("unsupportedOperation",
                     "This sandbox does not emulate " + r.template_path + " for this method yet.",
                     "Este sandbox ainda não emula " + r.template_path + " para este método.");
}

std::string PluralMessage(const api::ResourceSpec& spec, std::string_view verb) {
  return std::string(spec.name) + "(s) successfully " + std::string(verb);
}

// One generic operation on a resource, run inside one engine transaction: one method per
// kind of route (list, get, create, patch or delete, file, sub-resource).
class Operation {
 public:
  Operation(const Route& r, const Query& query, const std::optional<Json>& body, Problems& problems)
      : r_(r),
        family_(Registry::Instance().Find(r.spec->name)),
        resource_(std::string(r.spec->name) + (r.is_log ? "/log" : "")),
        query_(query),
        body_(body),
        problems_(problems) {}

  void Run(Context& ctx) {
    switch (r_.op) {
      case api::kList:
        return List(ctx);
      case api::kGet:
        return Get(ctx);
      case api::kCreateBatch:
      case api::kPutBatch:
        return CreateBatch(ctx);
      case api::kCreateSingle:
        return CreateSingle(ctx);
      case api::kPatch:
      case api::kDelete:
        return PatchOrDelete(ctx);
      case api::kPdf:
      case api::kQrcode:
        return FileOf(ctx);
      case api::kPaymentSub:
        return PaymentSub(ctx);
      case api::kPurchaseSub:
        return PurchaseSub(ctx);
      default:
        problems_.push_back(Unsupported(r_));
    }
  }

  Json answer;
  File file;
  bool is_file = false;

 private:
  std::optional<Entity> Lookup(Context& ctx) {
    const std::string key = family_ && !r_.is_log ? family_->lookup_key : "id";
    auto e = ctx.FindBy(resource_, key, r_.id);
    if (!e) problems_.push_back(NotFound(resource_, r_.id));
    return e;
  }

  void List(Context& ctx) {
    if (family_ && family_->list && !r_.is_log)
      answer = family_->list(ctx, query_, problems_);
    else
      answer = ListEnvelope(ctx, *r_.spec, r_.is_log, query_, problems_);
  }

  void Get(Context& ctx) {
    auto e = Lookup(ctx);
    if (!e) return;
    ApplyFields(e->doc, query_);
    answer = {{r_.is_log ? std::string("log") : std::string(r_.spec->single_key), std::move(e->doc)}};
  }

  void CreateBatch(Context& ctx) {
    if (!family_ || !family_->create) return problems_.push_back(Unsupported(r_));
    const std::string plural(r_.spec->plural_key);
    const Json& body = *body_;
    auto items = body.is_object() ? body.find(plural) : body.end();
    if (!body.is_object() || items == body.end() || !items->is_array() || items->empty() || items->size() > 100 ||
        body.size() != 1) {
      return problems_.push_back(MakeProblem(std::string(kInvalidJson),
                                             "Body must be {\"" + plural + "\": [...]} with 1 to 100 items.",
                                             "O corpo deve ser {\"" + plural + "\": [...]} com 1 a 100 itens."));
    }
    Json out = Json::array();
    for (std::size_t i = 0; i < items->size(); ++i) {
      const std::size_t before = problems_.size();
      Json doc = family_->create(ctx, (*items)[i], problems_);
      const std::string where = plural + "[" + std::to_string(i) + "]: ";
      for (std::size_t k = before; k < problems_.size(); ++k) {
        problems_[k].en = where + problems_[k].en;
        problems_[k].pt = where + problems_[k].pt;
      }
      if (problems_.size() == before) out.push_back(std::move(doc));
    }
    answer = {{plural, std::move(out)},
              {"message", PluralMessage(*r_.spec, r_.op == api::kPutBatch ? "updated" : "created")}};
  }

  void CreateSingle(Context& ctx) {
    if (!family_ || !family_->create) return problems_.push_back(Unsupported(r_));
    Json doc = family_->create(ctx, *body_, problems_);
    answer = {{std::string(r_.spec->single_key), std::move(doc)}};
  }

  void PatchOrDelete(Context& ctx) {
    const bool patch = r_.op == api::kPatch;
    if (!family_ || !(patch ? static_cast<bool>(family_->patch) : static_cast<bool>(family_->remove)))
      return problems_.push_back(Unsupported(r_));
    if (patch && (!body_->is_object() || body_->empty()))
      return problems_.push_back(MakeProblem(std::string(kInvalidJson), "Body must be a non-empty JSON object.",
                                             "O corpo deve ser um objeto JSON não vazio."));
    auto e = Lookup(ctx);
    if (!e) return;
    if (patch)
      family_->patch(ctx, *e, *body_, problems_);
    else
      family_->remove(ctx, *e, problems_);
    answer = {{std::string(r_.spec->single_key), e->doc}};
  }

  void FileOf(Context& ctx) {
    if (!family_ || !family_->file) return problems_.push_back(Unsupported(r_));
    auto e = Lookup(ctx);
    if (!e) return;
    file = family_->file(ctx, *e, r_.is_log ? "log-pdf" : (r_.op == api::kPdf ? "pdf" : "qrcode"), query_, problems_);
    is_file = true;
  }

  void PaymentSub(Context& ctx) {
    if (!family_ || !family_->sub_get) return problems_.push_back(Unsupported(r_));
    auto e = Lookup(ctx);
    if (!e) return;
    answer = {{"payment", family_->sub_get(ctx, *e, problems_)}};
  }

  void PurchaseSub(Context& ctx) {
    if (!family_ || !family_->sub_post) return problems_.push_back(Unsupported(r_));
    auto parent = ctx.FindBy(resource_, "uuid", r_.id);
    if (!parent) return problems_.push_back(NotFound(resource_, r_.id));
    answer = {{"purchase", family_->sub_post(ctx, *parent, *body_, problems_)}};
  }

  const Route& r_;
  const Family* family_;
  const std::string resource_;
  const Query& query_;
  const std::optional<Json>& body_;  // set for POST, PUT and PATCH
  Problems& problems_;
};

}  // namespace

// The generic operations. Runs inside one engine transaction.
HttpResponse Serve(Engine& engine, const Route& r, const Caller& caller, const Query& query, const HttpRequest& req,
                   Lang lang) {
  std::optional<Json> body;
  Problems problems;
  if (req.method == "POST" || req.method == "PUT" || req.method == "PATCH") {
    body = ParseBody(req.body, problems);
    if (!body) return ErrorResponse(400, problems, lang);
  }
  Operation operation(r, query, body, problems);
  Status st = engine.Run(caller, lang, problems, [&](Context& ctx) { operation.Run(ctx); });
  if (!st.ok()) return InternalErrorResponse(st);
  if (!problems.empty()) return ErrorResponse(400, problems, lang);
  if (operation.is_file) {
    HttpResponse res;
    res.content_type = operation.file.content_type;
    res.body = std::move(operation.file.bytes);
    return res;
  }
  return JsonResponse(200, operation.answer);
}

}  // namespace balcao::sandbox::internal
