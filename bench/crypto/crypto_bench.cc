// CPU cost of the crypto on the request and webhook paths: signing one request
// (docs/wire.md, "Signing"), verifying one delivery, parsing one event; and OpenSSL's own
// secp256k1 signing as the reference that made us pick libsecp256k1 (docs/api-crypto.md).
#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "api/crypto.h"
#include "api/events.h"

namespace balcao::api {
namespace {

// A signed-request message: id:time:body with a one-invoice body (about 200 bytes).
const std::string kRequest =
    "project/5656565656565656:1795272727:{\"invoices\":[{\"amount\":12345,\"name\":\"Maria da Silva\","
    "\"taxId\":\"012.345.678-90\",\"due\":\"2026-12-01T15:00:00.000000+00:00\",\"tags\":[\"sale-7f3a\"]}]}";

struct Vector {
  std::string pem, content, signature;
};
Vector InvoiceVector() {
  std::ifstream in(std::string(BALCAO_TEST_DATA_DIR) + "/webhooks.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  const auto& v = j.at("vectors").at(2);  // the invoice event, 1.3 KB
  return {j.at("public_key_pem").get<std::string>(), v.at("content").get<std::string>(),
          v.at("digital_signature").get<std::string>()};
}

void BM_SignRequest(benchmark::State& state) {
  const PrivateKey key = PrivateKey::Generate();
  for (auto _ : state) benchmark::DoNotOptimize(key.Sign(kRequest));
}
BENCHMARK(BM_SignRequest);

void BM_VerifyRequest(benchmark::State& state) {
  const PrivateKey key = PrivateKey::Generate();
  const std::string sig = key.Sign(kRequest);
  for (auto _ : state) benchmark::DoNotOptimize(key.public_key().Verify(kRequest, sig));
}
BENCHMARK(BM_VerifyRequest);

void BM_VerifyWebhook(benchmark::State& state) {
  const Vector v = InvoiceVector();
  const PublicKey pub = PublicKey::FromPem(v.pem).value();
  for (auto _ : state) benchmark::DoNotOptimize(pub.Verify(v.content, v.signature));
}
BENCHMARK(BM_VerifyWebhook);

// What a webhook handler pays per delivery: verify (cached key) and parse into an Event.
void BM_VerifyAndParseWebhook(benchmark::State& state) {
  const Vector v = InvoiceVector();
  EventVerifier verifier([&]() -> StatusOr<std::string> { return v.pem; });
  for (auto _ : state) benchmark::DoNotOptimize(verifier.Parse(v.content, v.signature));
}
BENCHMARK(BM_VerifyAndParseWebhook);

void BM_Sha256_1KiB(benchmark::State& state) {
  const std::string data(1024, 'x');
  for (auto _ : state) benchmark::DoNotOptimize(Sha256(data));
}
BENCHMARK(BM_Sha256_1KiB);

void BM_LoadPrivateKeyPem(benchmark::State& state) {
  const std::string pem = PrivateKey::Generate().ToPem();
  for (auto _ : state) benchmark::DoNotOptimize(PrivateKey::FromPem(pem));
}
BENCHMARK(BM_LoadPrivateKeyPem);

// Reference: the same signature through OpenSSL 3's EVP API (generic curve code).
void BM_OpensslSignRequestReference(benchmark::State& state) {
  const std::string pem = PrivateKey::Generate().ToPem();
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pkey(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
  unsigned char sig[80];
  for (auto _ : state) {
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    std::size_t len = sizeof sig;
    EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, pkey.get());
    EVP_DigestSign(ctx.get(), sig, &len, reinterpret_cast<const unsigned char*>(kRequest.data()), kRequest.size());
    benchmark::DoNotOptimize(len);
  }
}
BENCHMARK(BM_OpensslSignRequestReference);

}  // namespace
}  // namespace balcao::api
