// Deterministic mutation tests of every parser of untrusted bytes in api/crypto.h and
// api/events.h (run under ASan+UBSan in CI): no crash, and strictness as a property,
// i.e. whatever is accepted re-encodes to exactly the bytes given.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/crypto.h"
#include "api/events.h"
#include "tests/api/crypto_test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::api {
namespace {

// One random edit: flip, replace, insert, delete or duplicate a byte range.
std::string Mutate(std::string s, std::mt19937& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const int edits = 1 + static_cast<int>(pick(3));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = pick(s.size() + 1);
    switch (pick(5)) {
      case 0:
        if (at < s.size()) s[at] = static_cast<char>(s[at] ^ (1 << pick(8)));
        break;
      case 1:
        if (at < s.size()) s[at] = static_cast<char>(pick(256));
        break;
      case 2:
        s.insert(at, 1, static_cast<char>(pick(256)));
        break;
      case 3:
        if (at < s.size()) s.erase(at, 1 + pick(std::min<std::size_t>(8, s.size() - at)));
        break;
      default:
        if (at < s.size()) s.insert(at, s.substr(at, 1 + pick(8)));
        break;
    }
  }
  return s;
}

TEST(Fuzz, AcceptedDerAndBase64AreCanonical) {
  std::mt19937 rng(20240510);
  const PrivateKey key = PrivateKey::Generate();
  std::vector<std::string> seeds;
  for (int i = 0; i < 8; ++i) seeds.push_back(key.SignToSignature("m" + std::to_string(i)).ToDer());
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string der = Mutate(seeds[i % seeds.size()], rng);
    auto sig = Signature::FromDer(der);
    if (sig.ok()) {
      ++accepted;
      ASSERT_EQ(sig->ToDer(), der) << "accepted a non-canonical DER";
    }
    const std::string b64 = Mutate(Base64Encode(seeds[i % seeds.size()]), rng);
    auto bytes = Base64Decode(b64);
    if (bytes.ok()) {
      ASSERT_EQ(Base64Encode(*bytes), b64) << "accepted a non-canonical Base64";
    }
  }
  EXPECT_GT(accepted, 0) << "some mutations (inside r or s) stay valid DER";
}

// A PEM around DER bytes, so that mutations of the DER reach OpenSSL's decoder.
std::string Armour(const char* label, const std::string& der) {
  return std::string("-----BEGIN ") + label + "-----\n" + Base64Encode(der) + "\n-----END " + label + "-----\n";
}

std::string Dearmour(const std::string& pem) {
  const std::size_t start = pem.find('\n') + 1;
  std::string body;
  for (char c : pem.substr(start, pem.find("-----END") - start)) {
    if (c != '\n') body.push_back(c);
  }
  return Base64Decode(body).value();
}

TEST(Fuzz, KeyParsersNeverCrashNorLoadAnotherKey) {
  std::mt19937 rng(7);
  const PrivateKey key = PrivateKey::Generate();
  const std::string private_pem = key.ToPem();
  const std::string public_pem = key.public_key().ToPem();
  const std::string private_der = Dearmour(private_pem);
  const std::string public_der = Dearmour(public_pem);
  for (int i = 0; i < 600; ++i) {  // OpenSSL's decoder costs ~160 µs a key
    for (const std::string& pem : {Mutate(private_pem, rng), Armour("EC PRIVATE KEY", Mutate(private_der, rng))}) {
      auto priv = PrivateKey::FromPem(pem);
      if (priv.ok()) {
        ASSERT_EQ(priv->public_key(), key.public_key()) << "a damaged key file loaded as another key";
      }
    }
    for (const std::string& pem : {Mutate(public_pem, rng), Armour("PUBLIC KEY", Mutate(public_der, rng))}) {
      auto pub = PublicKey::FromPem(pem);
      if (pub.ok()) {
        ASSERT_EQ(pub->ToPem(), public_pem) << "a damaged public key loaded as another key";
      }
    }
  }
}

TEST(Fuzz, EventParserNeverCrashes) {
  std::mt19937 rng(99);
  const auto vectors = testing::LoadWebhookVectors();
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    auto event = ParseEvent(Mutate(vectors.vectors[i % vectors.vectors.size()].content, rng));
    if (event.ok()) {
      ++parsed;
      EXPECT_FALSE(event->id.empty());
      EXPECT_FALSE(event->log.id.empty());
    } else {
      EXPECT_THAT(event, StatusIs(StatusCode::kInvalidArgument));
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace balcao::api
