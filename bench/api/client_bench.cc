// CPU cost of the client's hot paths (budget: <= 0.2 ms per signed create,
// <= 0.6 ms per 100-item page). The loopback server runs in another thread of this
// process; Google Benchmark's "CPU" column counts the calling thread only, i.e. the
// client's cost: serialise, sign (secp256k1), send over keep-alive, receive, parse.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "api/bank.h"
#include "tests/api/http_test_server.h"

namespace balcao::api {
namespace {

using testing::HttpTestServer;
using testing::RecordedRequest;
using testing::Reply;

// One invoice as the bank returns it (fields of the API documentation, realistic sizes).
std::string InvoiceJson(int i) {
  char buf[1400];
  std::snprintf(
      buf, sizeof buf,
      R"({"id":"57%014d","amount":24990,"brcode":"00020101021226930014br.gov.bcb.pix2571brcode-h.sandbox.starkinfra.com/v2/b3b4b5b6b7b8b9c0c1c2c3c4c5c6c7c8c9d05204000053039865802BR5915Loja do Balcao6009Sao Paulo62070503***6304ABCD",)"
      R"("created":"2024-05-10T15:00:00.123456+00:00","descriptions":[{"key":"Pedido","value":"1234"}],)"
      R"("discountAmount":0,"discounts":[{"percentage":5.0,"due":"2024-05-11T15:00:00.000000+00:00"}],)"
      R"("due":"2024-05-12T15:00:00.000000+00:00","expiration":5097600,"fee":0,"fine":2.0,"fineAmount":0,)"
      R"("interest":1.0,"interestAmount":0,"link":"https://balcao.sandbox.starkbank.com/invoicelink/5b1c",)"
      R"("name":"Maria da Silva","nominalAmount":24990,"pdf":"https://sandbox.api.starkbank.com/v2/invoice/5b1c.pdf",)"
      R"("rules":[],"splits":[],"status":"created","tags":["sale-0001"],"taxId":"012.345.678-90",)"
      R"("transactionIds":[],"updated":"2024-05-10T15:00:00.123456+00:00"})",
      i);
  return buf;
}

std::string InvoicePage(int n) {
  std::string page = R"({"cursor":"ClMKFAoHY3JlYXRlZBIJ==","invoices":[)";
  for (int i = 0; i < n; ++i) page += (i ? "," : "") + InvoiceJson(i);
  return page + "]}";
}

Invoice NewInvoice() {
  Invoice invoice;
  invoice.amount = 24990;
  invoice.name = "Maria da Silva";
  invoice.tax_id = "012.345.678-90";
  invoice.due = Timestamp::At(1715526000000000);
  invoice.tags = Strings{"sale-0001"};
  invoice.descriptions = std::vector<Description>{{"Pedido", "1234"}};
  return invoice;
}

Bank MakeBank(const HttpTestServer& server) {
  ClientOptions options;
  options.base_url = server.url();
  auto client = Client::Create(Credentials::Project("5656565656565656", PrivateKey::Generate()), options);
  if (!client.ok()) std::abort();
  return Bank(*std::move(client));
}

void BM_SignedInvoiceCreate(benchmark::State& state) {
  const std::string answer = R"({"message":"Invoice(s) successfully created","invoices":[)" + InvoiceJson(1) + "]}";
  HttpTestServer server([&](const RecordedRequest&) { return Reply{200, answer}; });
  Bank bank = MakeBank(server);
  const Invoice invoice = NewInvoice();
  for (auto _ : state) {
    auto created = bank.invoice().CreateOne(invoice);
    if (!created.ok()) state.SkipWithError(created.status().ToString().c_str());
    benchmark::DoNotOptimize(created);
  }
}
BENCHMARK(BM_SignedInvoiceCreate)->Unit(benchmark::kMicrosecond);

void BM_ParseInvoicePage100(benchmark::State& state) {
  const std::string page = InvoicePage(100);
  HttpTestServer server([](const RecordedRequest&) { return Reply{200, "{}"}; });
  Bank bank = MakeBank(server);
  const Client& client = bank.client();
  internal::Target target{&client, FindResource("invoice"), false};
  for (auto _ : state) {
    std::vector<Invoice> items;
    std::string cursor;
    Status s = internal::ParsePage(target, internal::CodecOf<Invoice>(), page, "bench", &items, &cursor);
    if (!s.ok() || items.size() != 100) state.SkipWithError(s.ToString().c_str());
    benchmark::DoNotOptimize(items);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_ParseInvoicePage100)->Unit(benchmark::kMicrosecond);

// The same page fetched over loopback: signed GET, receive ~75 KB, parse.
void BM_ListInvoicePage100Loopback(benchmark::State& state) {
  const std::string page = InvoicePage(100);
  HttpTestServer server([&](const RecordedRequest&) { return Reply{200, page}; });
  Bank bank = MakeBank(server);
  for (auto _ : state) {
    auto got = bank.invoice().ListPage(ListParams().Limit(100));
    if (!got.ok()) state.SkipWithError(got.status().ToString().c_str());
    benchmark::DoNotOptimize(got);
  }
}
BENCHMARK(BM_ListInvoicePage100Loopback)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace balcao::api

BENCHMARK_MAIN();
