// Every endpoint of both parts of the bank API v2 documentation, through the
// typed client, over real HTTP. The endpoint list is read from tests/data/api_endpoints.txt,
// extracted from the documents' endpoint tables (not from the client's own table);
// for each of the 140 method+path pairs the typed client is driven and a loopback server
// records what arrives: method, path, query and body envelope are compared with what the
// API documentation and docs/wire.md, "Envelopes and naming", prescribe, the signature is
// verified, and the server's answer in the recorded envelope shape is parsed back into the
// model and compared.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "api/bank.h"
#include "tests/api/client_test_util.h"
#include "tests/testing/status_matchers.h"

namespace balcao::api {

// ---- Sample models: every field of every model set, generated from the field lists ----
void FillValue(std::string& v, const char* key) { v = std::string("v-") + key; }
void FillValue(std::int64_t& v, const char*) { v = 123456789012; }
void FillValue(double& v, const char*) { v = 2.5; }
void FillValue(bool& v, const char*) { v = true; }
void FillValue(Timestamp& v, const char*) { v = Timestamp::At(1715353200123456); }
void FillValue(RawJson& v, const char*) { v.text = R"({"k":[1,"x",true]})"; }
void FillValue(Strings& v, const char* key) { v = {std::string("a-") + key, "b,c"}; }
#define BALCAO_TEST_FILL_FIELD(type, member, key) FillValue(m.member.emplace(), key);
#define BALCAO_TEST_FILL(Name, FIELDS) \
  void FillValue(Name& m, const char*) { FIELDS(BALCAO_TEST_FILL_FIELD) }
template <class T>
void FillValue(std::vector<T>& v, const char* key);
BALCAO_TEST_FILL(Rule, BALCAO_RULE_FIELDS)
BALCAO_TEST_FILL(Description, BALCAO_DESCRIPTION_FIELDS)
BALCAO_TEST_FILL(InvoiceDiscount, BALCAO_INVOICE_DISCOUNT_FIELDS)
BALCAO_TEST_FILL(BoletoDescription, BALCAO_BOLETO_DESCRIPTION_FIELDS)
BALCAO_TEST_FILL(BoletoDiscount, BALCAO_BOLETO_DISCOUNT_FIELDS)
BALCAO_TEST_FILL(SplitEntry, BALCAO_SPLIT_ENTRY_FIELDS)
BALCAO_TEST_FILL(AllowedInstallment, BALCAO_ALLOWED_INSTALLMENT_FIELDS)
BALCAO_TEST_FILL(PaymentAction, BALCAO_PAYMENT_ACTION_FIELDS)
template <class T>
void FillValue(std::vector<T>& v, const char* key) {
  v.resize(2);
  for (auto& x : v) FillValue(x, key);
}
BALCAO_TEST_FILL(Workspace, BALCAO_WORKSPACE_FIELDS)
BALCAO_TEST_FILL(Balance, BALCAO_BALANCE_FIELDS)
BALCAO_TEST_FILL(Transaction, BALCAO_TRANSACTION_FIELDS)
BALCAO_TEST_FILL(Invoice, BALCAO_INVOICE_FIELDS)
BALCAO_TEST_FILL(InvoicePayment, BALCAO_INVOICE_PAYMENT_FIELDS)
BALCAO_TEST_FILL(DynamicBrcode, BALCAO_DYNAMIC_BRCODE_FIELDS)
BALCAO_TEST_FILL(Deposit, BALCAO_DEPOSIT_FIELDS)
BALCAO_TEST_FILL(Boleto, BALCAO_BOLETO_FIELDS)
BALCAO_TEST_FILL(BoletoHolmes, BALCAO_BOLETO_HOLMES_FIELDS)
BALCAO_TEST_FILL(Split, BALCAO_SPLIT_FIELDS)
BALCAO_TEST_FILL(SplitReceiver, BALCAO_SPLIT_RECEIVER_FIELDS)
BALCAO_TEST_FILL(SplitProfile, BALCAO_SPLIT_PROFILE_FIELDS)
BALCAO_TEST_FILL(InvoicePullSubscription, BALCAO_INVOICE_PULL_SUBSCRIPTION_FIELDS)
BALCAO_TEST_FILL(InvoicePullRequest, BALCAO_INVOICE_PULL_REQUEST_FIELDS)
BALCAO_TEST_FILL(MerchantSession, BALCAO_MERCHANT_SESSION_FIELDS)
BALCAO_TEST_FILL(MerchantPurchase, BALCAO_MERCHANT_PURCHASE_FIELDS)
BALCAO_TEST_FILL(MerchantCard, BALCAO_MERCHANT_CARD_FIELDS)
BALCAO_TEST_FILL(MerchantInstallment, BALCAO_MERCHANT_INSTALLMENT_FIELDS)
BALCAO_TEST_FILL(Transfer, BALCAO_TRANSFER_FIELDS)
BALCAO_TEST_FILL(BrcodePayment, BALCAO_BRCODE_PAYMENT_FIELDS)
BALCAO_TEST_FILL(BoletoPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_TEST_FILL(UtilityPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_TEST_FILL(TaxPayment, BALCAO_BAR_CODE_PAYMENT_FIELDS)
BALCAO_TEST_FILL(DarfPayment, BALCAO_DARF_PAYMENT_FIELDS)
BALCAO_TEST_FILL(PaymentPreview, BALCAO_PAYMENT_PREVIEW_FIELDS)
BALCAO_TEST_FILL(PaymentRequest, BALCAO_PAYMENT_REQUEST_FIELDS)
BALCAO_TEST_FILL(PublicKeyEntry, BALCAO_PUBLIC_KEY_ENTRY_FIELDS)
BALCAO_TEST_FILL(Webhook, BALCAO_WEBHOOK_FIELDS)
BALCAO_TEST_FILL(BankEvent, BALCAO_EVENT_FIELDS)
BALCAO_TEST_FILL(EventAttempt, BALCAO_EVENT_ATTEMPT_FIELDS)
BALCAO_TEST_FILL(LogHeader, BALCAO_LOG_HEADER_FIELDS)

template <class T>
T Sample() {
  T m;
  FillValue(m, "");
  return m;
}

template <class T>
nlohmann::json AsJson(const T& m) {
  nlohmann::json j;
  ToJson(m, j);
  return j;
}

namespace {

using nlohmann::json;
using testing::RecordedRequest;
using testing::Reply;

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of a tests/data extract, without '#' comment lines and blank lines.
std::vector<std::string> DataLines(const std::string& name) {
  const std::filesystem::path path = std::filesystem::path(BALCAO_TEST_DATA_DIR) / name;
  std::istringstream text(ReadFile(path));
  std::vector<std::string> out;
  std::string line;
  while (std::getline(text, line))
    if (!line.empty() && line[0] != '#') out.push_back(line);
  EXPECT_FALSE(out.empty()) << "no data lines in " << path;
  return out;
}

// "POST /v2/invoice" lines of api_endpoints.txt (the documents' endpoint tables).
std::set<std::pair<std::string, std::string>> SeedEndpoints() {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& line : DataLines("api_endpoints.txt")) {
    const auto space = line.find(' ');
    EXPECT_NE(space, std::string::npos) << "not METHOD PATH: " << line;
    if (space != std::string::npos) out.insert({line.substr(0, space), line.substr(space + 1)});
  }
  return out;
}

// Field names of api_fields.tsv (part, resource, field, type; the documents' "Resources and
// their fields" tables): resource heading -> names.
std::map<std::string, std::set<std::string>> SeedFieldTables() {
  std::map<std::string, std::set<std::string>> out;
  const auto lines = DataLines("api_fields.tsv");
  for (std::size_t i = 1; i < lines.size(); ++i) {  // lines[0] is the column header
    std::vector<std::string> cells;
    std::stringstream row(lines[i]);
    std::string cell;
    while (std::getline(row, cell, '\t')) cells.push_back(cell);
    EXPECT_EQ(cells.size(), 4u) << "not part, resource, field, type: " << lines[i];
    if (cells.size() == 4) out[cells[1]].insert(cells[2]);
  }
  return out;
}

std::string Replace(std::string path, const std::string& placeholder, const std::string& value) {
  auto pos = path.find(placeholder);
  if (pos != std::string::npos) path.replace(pos, placeholder.size(), value);
  return path;
}

// What the test expects to arrive, and what the server answers.
struct Exchange {
  std::string method, path, query;
  std::optional<json> body;  // nullopt: no body
  Reply reply;
};

class EndpointHarness {
 public:
  EndpointHarness() {
    server_.SetHandler([this](const RecordedRequest&) {
      std::lock_guard<std::mutex> lock(mu_);
      return next_.reply;
    });
  }
  Bank bank() const { return Bank(server_.MakeClient(1)); }
  void Expect(Exchange e) {
    std::lock_guard<std::mutex> lock(mu_);
    next_ = std::move(e);
    server_.http().ClearRequests();
  }
  // The one request the last operation sent, compared with the expectation.
  void Check(const std::string& label) {
    auto requests = server_.http().Requests();
    ASSERT_EQ(requests.size(), 1u) << label;
    const RecordedRequest& r = requests[0];
    EXPECT_EQ(r.method, next_.method) << label;
    EXPECT_EQ(r.path, next_.path) << label;
    EXPECT_EQ(r.query, next_.query) << label;
    if (next_.body) {
      json got = json::parse(r.body, nullptr, false);
      EXPECT_EQ(got, *next_.body) << label << "\n got body: " << r.body;
    } else {
      EXPECT_TRUE(r.body.empty()) << label << " unexpected body " << r.body;
    }
    EXPECT_EQ(r.Header("content-type"), "application/json") << label;
    EXPECT_EQ(r.Header("accept-language"), "en-US") << label;
    EXPECT_EQ(r.Header("user-agent").rfind("balcao/", 0), 0u) << label;
    EXPECT_EQ(server_.bad_signatures(), 0) << label;
  }

 private:
  testing::SignedServer server_;
  std::mutex mu_;
  Exchange next_;
};

json WithUnknownField(json j) {
  j["someFieldFromTheFuture"] = {{"nested", 1}};  // must be ignored
  return j;
}

Reply JsonReply(const json& j) { return Reply{200, j.dump()}; }

template <class M>
void Drive(EndpointHarness& h, const Bank& bank, const ResourceClient<M>& rc, const Endpoint& ep) {
  const ResourceSpec& spec = *ep.resource;
  const std::string label = std::string(ep.method) + " " + ep.path;
  const M sample = Sample<M>();
  const json sj = AsJson(sample);
  const std::string single(spec.single_key), plural(spec.plural_key);
  const std::string id = "5656565656565656";
  const std::string path = Replace(Replace(ep.path, "{id}", id), "{uuid}", id);
  const std::string bytes("%PDF-1.4\n\0\xff\x89PNG", 14);

  if (ep.is_log) {
    LogHeader header = Sample<LogHeader>();
    json lj = AsJson(header);
    lj[std::string(spec.log_entity_key)] = sj;
    Log<M> expected_log;
    static_cast<LogHeader&>(expected_log) = header;
    expected_log.entity = sample;
    if (ep.op == kList) {
      h.Expect({"GET", path, "limit=3&" + std::string(spec.log_id_filter) + "=1%2C2&types=paid", std::nullopt,
                JsonReply({{"cursor", nullptr}, {"logs", {WithUnknownField(lj)}}})});
      auto page = rc.ListLogsPage(
          ListParams().Limit(3).Filter(std::string(spec.log_id_filter), {"1", "2"}).Filter("types", "paid"));
      ASSERT_OK(page) << label;
      ASSERT_EQ(page->items.size(), 1u);
      EXPECT_EQ(page->items[0], expected_log) << label;
      EXPECT_TRUE(page->cursor.empty());
    } else if (ep.op == kGet) {
      h.Expect({"GET", path, "", std::nullopt, JsonReply({{"log", lj}})});
      auto log = rc.GetLog(id);
      ASSERT_OK(log) << label;
      EXPECT_EQ(*log, expected_log) << label;
    } else {
      ASSERT_EQ(ep.op, kPdf);
      h.Expect({"GET", path, "", std::nullopt, Reply{200, bytes, "application/pdf"}});
      auto pdf = rc.LogPdf(id);
      ASSERT_OK(pdf) << label;
      EXPECT_EQ(*pdf, bytes);
    }
    h.Check(label);
    return;
  }

  StatusOr<M> one = InternalError("not run");
  switch (ep.op) {
    case kCreateBatch:
    case kPutBatch: {
      h.Expect({std::string(ep.method), path, "", json{{plural, {sj, sj}}},
                JsonReply({{plural, {WithUnknownField(sj), sj}}, {"message", "created"}})});
      auto many = ep.op == kPutBatch ? rc.Put({sample, sample}) : rc.Create({sample, sample});
      ASSERT_OK(many) << label;
      ASSERT_EQ(many->size(), 2u) << label;
      EXPECT_EQ((*many)[0], sample) << label;
      EXPECT_EQ((*many)[1], sample) << label;
      break;
    }
    case kCreateSingle:
      h.Expect({"POST", path, "", sj, JsonReply({{single, WithUnknownField(sj)}})});
      one = rc.CreateOne(sample);
      break;
    case kList: {
      std::string query = "limit=5&cursor=c1%3D%3D";
      ListParams params = ListParams().Limit(5).Cursor("c1==");
      for (auto f : spec.filters) {
        if (f == "fields") continue;
        params.Filter(std::string(f), {"a", "b c"});
        query += "&" + std::string(f) + "=a%2Cb%20c";
        break;
      }
      h.Expect({"GET", path, query, std::nullopt, JsonReply({{"cursor", "next=="}, {plural, {WithUnknownField(sj)}}})});
      auto page = rc.ListPage(params);
      ASSERT_OK(page) << label;
      ASSERT_EQ(page->items.size(), 1u) << label;
      EXPECT_EQ(page->items[0], sample) << label;
      EXPECT_EQ(page->cursor, "next==");
      break;
    }
    case kGet:
      h.Expect({"GET", path, "fields=id%2Camount", std::nullopt, JsonReply({{single, WithUnknownField(sj)}})});
      one = rc.Get(id, {"id", "amount"});
      break;
    case kPatch:
      h.Expect({"PATCH", path, "", sj, JsonReply({{single, sj}})});
      one = rc.Patch(id, sample);
      break;
    case kDelete:
      h.Expect({"DELETE", path, "", std::nullopt, JsonReply({{single, sj}})});
      one = rc.Delete(id);
      break;
    case kPdf:
    case kQrcode: {
      h.Expect({"GET", path, ep.op == kQrcode ? "size=9" : "", std::nullopt, Reply{200, bytes, "application/pdf"}});
      auto got = ep.op == kQrcode ? rc.Qrcode(id, 9) : rc.Pdf(id);
      ASSERT_OK(got) << label;
      EXPECT_EQ(*got, bytes) << label;
      break;
    }
    case kPaymentSub: {
      const auto payment = Sample<InvoicePayment>();
      h.Expect({"GET", path, "", std::nullopt, JsonReply({{"payment", AsJson(payment)}})});
      auto got = bank.GetInvoicePayment(id);
      ASSERT_OK(got) << label;
      EXPECT_EQ(*got, payment);
      break;
    }
    case kPurchaseSub: {
      const auto purchase = Sample<MerchantPurchase>();
      h.Expect({"POST", path, "", AsJson(purchase), JsonReply({{"purchase", AsJson(purchase)}})});
      auto got = bank.CreateSessionPurchase(id, purchase);
      ASSERT_OK(got) << label;
      EXPECT_EQ(*got, purchase);
      break;
    }
    default:
      FAIL() << "unhandled op for " << label;
  }
  if (ep.op == kCreateSingle || ep.op == kGet || ep.op == kPatch || ep.op == kDelete) {
    ASSERT_OK(one) << label;
    EXPECT_EQ(*one, sample) << label;
  }
  h.Check(label);
}

TEST(ClientEndpoints, SeedsListExactly140EndpointsAndTheTableCoversThem) {
  const auto seeds = SeedEndpoints();
  EXPECT_EQ(seeds.size(), 140u);
  std::set<std::pair<std::string, std::string>> table;
  for (const auto& ep : Endpoints()) table.insert({std::string(ep.method), ep.path});
  EXPECT_EQ(table, seeds);
}

TEST(ClientEndpoints, EverySeedEndpointThroughTheTypedClientOverHttp) {
  const auto seeds = SeedEndpoints();
  ASSERT_EQ(seeds.size(), 140u);
  EndpointHarness h;
  const Bank bank = h.bank();
  int driven = 0;
  for (const auto& [method, path] : seeds) {
    const Endpoint* ep = nullptr;
    for (const auto& e : Endpoints())
      if (e.method == method && e.path == path) ep = &e;
    ASSERT_NE(ep, nullptr) << method << " " << path;
    bool found = false;
#define BALCAO_TEST_DRIVE(accessor, res_name, Model) \
  if (!found && ep->resource->name == res_name) {    \
    found = true;                                    \
    Drive<Model>(h, bank, bank.accessor(), *ep);     \
  }
    BALCAO_BANK_RESOURCES(BALCAO_TEST_DRIVE)
#undef BALCAO_TEST_DRIVE
    ASSERT_TRUE(found) << "no typed client for " << ep->resource->name;
    ++driven;
  }
  EXPECT_EQ(driven, 140);
}

// Every field the documentation's tables name is a key the typed model writes (and so reads).
TEST(ClientEndpoints, ModelsCarryEveryFieldOfTheSeedTables) {
  const std::map<std::string, json> models = {
      {"Workspace", AsJson(Sample<Workspace>())},
      {"Balance", AsJson(Sample<Balance>())},
      {"Transaction", AsJson(Sample<Transaction>())},
      {"Invoice", AsJson(Sample<Invoice>())},
      {"Dynamic Brcode", AsJson(Sample<DynamicBrcode>())},
      {"Deposit", AsJson(Sample<Deposit>())},
      {"Boleto", AsJson(Sample<Boleto>())},
      {"Boleto Holmes", AsJson(Sample<BoletoHolmes>())},
      {"Split", AsJson(Sample<Split>())},
      {"Log (all resources)", AsJson(Sample<LogHeader>())},
      {"Invoice Pull Subscription", AsJson(Sample<InvoicePullSubscription>())},
      {"Tax Payment", AsJson(Sample<TaxPayment>())},
      {"Darf Payment", AsJson(Sample<DarfPayment>())},
      {"Event", AsJson(Sample<BankEvent>())},
  };
  const auto tables = SeedFieldTables();
  EXPECT_GE(tables.size(), models.size());
  for (const auto& [heading, names] : tables) {
    auto it = models.find(heading);
    ASSERT_NE(it, models.end()) << "seed table without a model: " << heading;
    for (const auto& name : names) EXPECT_TRUE(it->second.contains(name)) << heading << " lacks field " << name;
  }
}

}  // namespace
}  // namespace balcao::api
