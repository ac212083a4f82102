// Keys, signing and verification (api/crypto.h): round trips, RFC 6979 determinism, low-S,
// the bank's webhook vectors, and clear errors for every kind of bad key or signature.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "api/crypto.h"
#include "tests/api/crypto_test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::api {
namespace {

using ::testing::HasSubstr;
using testing::LoadWebhookVectors;
using testing::TempDir;
using testing::WriteFileOrDie;

std::string Hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string Unhex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

PrivateKey KeyOne() {
  return PrivateKey::FromSecret(Unhex("0000000000000000000000000000000000000000000000000000000000000001")).value();
}

TEST(Sha256, MatchesKnownDigest) {
  const auto d = Sha256("abc");
  EXPECT_EQ(Hex(std::string_view(reinterpret_cast<const char*>(d.data()), d.size())),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Base64, RoundTripsEveryLength) {
  std::string bytes;
  for (int n = 0; n < 70; ++n) {
    auto decoded = Base64Decode(Base64Encode(bytes));
    ASSERT_OK(decoded);
    EXPECT_EQ(*decoded, bytes);
    bytes.push_back(static_cast<char>(n * 37 + 11));
  }
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
}

TEST(Base64, RefusesWhatIsNotStrictStandardBase64) {
  for (const char* bad : {"Zm9vYg", "Zm9vYg=", "Zm9v\nYg==", "Zm9vYh==", "Zm9-Yg==", "Zm9_Yg==", "Z===", "====",
                          "Zm9vYmE+", "Zm9=Ymg="}) {
    if (std::string(bad) == "Zm9vYmE+") continue;  // valid: '+' is standard
    auto r = Base64Decode(bad);
    EXPECT_THAT(r, Not(IsOk())) << bad;
    if (!r.ok()) {
      EXPECT_THAT(r, StatusIs(StatusCode::kInvalidArgument));
      EXPECT_THAT(r.status().message(), HasSubstr("Base64")) << bad;
    }
  }
}

TEST(Sign, RoundTripsAndIsLowSAndDeterministic) {
  const PrivateKey key = PrivateKey::Generate();
  const PrivateKey other = PrivateKey::Generate();
  for (int i = 0; i < 200; ++i) {
    const std::string message = "project/1:" + std::to_string(1700000000 + i) + ":{\"n\":" + std::to_string(i) + "}";
    const Signature sig = key.SignToSignature(message);
    EXPECT_TRUE(sig.IsLowS());
    EXPECT_EQ(key.Sign(message), sig.ToBase64()) << "RFC 6979: same key and message, same signature";
    EXPECT_TRUE(key.public_key().Verify(message, sig.ToBase64()));
    EXPECT_FALSE(other.public_key().Verify(message, sig.ToBase64()));
    EXPECT_FALSE(key.public_key().Verify(message + " ", sig));
  }
}

// The well-known RFC 6979 secp256k1 vector (private key 1, used by Bitcoin Core, trezor,
// python-ecdsa): proves the nonce is RFC 6979 and the output low-S.
TEST(Sign, MatchesPublishedRfc6979Vector) {
  const Signature sig = KeyOne().SignToSignature("Satoshi Nakamoto");
  EXPECT_EQ(Hex(std::string_view(reinterpret_cast<const char*>(sig.r().data()), 32)),
            "934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8");
  EXPECT_EQ(Hex(std::string_view(reinterpret_cast<const char*>(sig.s().data()), 32)),
            "2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5");
}

TEST(Verify, AcceptsHighS) {
  const PrivateKey key = KeyOne();
  const Signature low = key.SignToSignature("Satoshi Nakamoto");
  // s' = n - s: the other valid signature, which older SDKs sent.
  std::string der = low.ToDer();
  auto high =
      Signature::FromDer(Unhex("3046022100934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8022100"
                               "dbbd3162d46e9f9bef7feb87c16dc13b4f6568a87f4e83f728e2443ba586675c"));
  ASSERT_OK(high);
  EXPECT_FALSE(high->IsLowS());
  EXPECT_TRUE(key.public_key().Verify("Satoshi Nakamoto", *high));
  EXPECT_TRUE(key.public_key().Verify("Satoshi Nakamoto", high->ToBase64()));
  EXPECT_FALSE(key.public_key().Verify("Satoshi Nakamotp", *high));
}

TEST(Signature, DerRoundTripsAndRefusesNonDer) {
  const Signature sig = KeyOne().SignToSignature("x");
  auto back = Signature::FromDer(sig.ToDer());
  ASSERT_OK(back);
  EXPECT_EQ(*back, sig);
  struct Case {
    const char* hex;
    const char* why;
  };
  // r = 1, s = 1 is "3006020101020101"; each case breaks one DER rule.
  for (const Case& c : std::initializer_list<Case>{
           {"3006020101020101ff", "bytes after the SEQUENCE"},
           {"300602010102010", "truncated"},
           {"30070201010201", "truncated"},
           {"3080020101020101", "indefinite length"},
           {"308106020101020101", "non-minimal length"},
           {"3106020101020101", "SEQUENCE"},
           {"3006030101020101", "not an INTEGER"},
           {"300702020001020101", "superfluous leading zero"},
           {"3006020181020101", "negative"},
           {"3006020100020101", "outside [1, n-1]"},
           {"30050200020101", "empty"},
           {"3008020101020101", "truncated"},
           {"30080201010201010500", "bytes after s"},
           {"", "SEQUENCE"},
       }) {
    auto r = Signature::FromDer(Unhex(c.hex));
    ASSERT_THAT(r, Not(IsOk())) << c.hex;
    EXPECT_THAT(r, StatusIs(StatusCode::kInvalidArgument));
    EXPECT_THAT(r.status().message(), HasSubstr(c.why)) << c.hex;
  }
  // r = n is out of range; r = n - 1 is fine.
  const std::string n = "00fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
  auto at_n = Signature::FromDer(Unhex("3026022100" + n.substr(2) + "020101"));
  EXPECT_THAT(at_n, Not(IsOk()));
  auto below_n = Signature::FromDer(Unhex("3026022100" + n.substr(2, 62) + "40020101"));
  EXPECT_OK(below_n);
}

TEST(Webhooks, EveryBankVectorVerifies) {
  const auto v = LoadWebhookVectors();
  auto pub = PublicKey::FromPem(v.public_key_pem);
  ASSERT_OK(pub);
  EXPECT_EQ(pub->ToPem(), v.public_key_pem) << "our SPKI encoding is the bank's";
  ASSERT_GE(v.vectors.size(), 3u);
  for (const auto& vec : v.vectors) EXPECT_TRUE(pub->Verify(vec.content, vec.signature)) << vec.source;
}

TEST(Webhooks, EverySingleByteChangeOfBodyFails) {
  const auto v = LoadWebhookVectors();
  const PublicKey pub = PublicKey::FromPem(v.public_key_pem).value();
  int checked = 0;
  for (const auto& vec : v.vectors) {
    const auto sig = Signature::FromBase64(vec.signature).value();
    for (std::size_t i = 0; i < vec.content.size(); ++i) {
      for (unsigned char mask : {0x01, 0x20, 0x80, 0xff}) {
        std::string changed = vec.content;
        changed[i] = static_cast<char>(changed[i] ^ mask);
        ASSERT_FALSE(pub.Verify(changed, sig)) << vec.source << " byte " << i;
        ++checked;
      }
      std::string removed = vec.content;
      removed.erase(i, 1);
      ASSERT_FALSE(pub.Verify(removed, sig)) << vec.source << " without byte " << i;
    }
    EXPECT_FALSE(pub.Verify(vec.content + "\n", sig));
    EXPECT_FALSE(pub.Verify(" " + vec.content, sig));
  }
  EXPECT_GT(checked, 4000);
}

// Every byte of the DER and every character of the Base64, changed to every other value,
// for the first vector; the other vectors get every bit flip (keeps the ASan run short).
TEST(Webhooks, EverySingleByteChangeOfSignatureFails) {
  const auto v = LoadWebhookVectors();
  const PublicKey pub = PublicKey::FromPem(v.public_key_pem).value();
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
  int checked = 0;
  for (std::size_t k = 0; k < v.vectors.size(); ++k) {
    const auto& vec = v.vectors[k];
    const bool exhaustive = k == 0;
    const std::string der = Base64Decode(vec.signature).value();
    for (std::size_t i = 0; i < der.size(); ++i) {
      for (int x = 1; x < 256; ++x) {
        if (!exhaustive && (x & (x - 1)) != 0 && x != 0xff) continue;  // single bits and 0xff
        std::string changed = der;
        changed[i] = static_cast<char>(changed[i] ^ x);
        ASSERT_FALSE(pub.Verify(vec.content, Base64Encode(changed))) << vec.source << " DER byte " << i << "^" << x;
        ++checked;
      }
    }
    for (std::size_t i = 0; i < vec.signature.size(); ++i) {
      for (std::size_t a = 0; a < alphabet.size(); ++a) {
        const char c = alphabet[a];
        if (c == vec.signature[i]) continue;
        const std::size_t current = alphabet.find(vec.signature[i]);
        const std::size_t diff = a ^ current;
        if (!exhaustive && (diff & (diff - 1)) != 0 && c != '=') continue;
        std::string changed = vec.signature;
        changed[i] = c;
        ASSERT_FALSE(pub.Verify(vec.content, changed)) << vec.source << " Base64 char " << i << "=" << c;
        ++checked;
      }
    }
    EXPECT_FALSE(pub.Verify(vec.content, vec.signature.substr(0, vec.signature.size() - 4)));
    EXPECT_FALSE(pub.Verify(vec.content, vec.signature + "AAAA"));
  }
  EXPECT_GT(checked, 25000);
}

TEST(Webhooks, MalformedSignaturesAreClearErrors) {
  // The SDK tests' own malformed and tampered examples (docs/wire.md, "Webhook test vectors").
  auto garbage = Signature::FromBase64("something is definitely wrong");
  ASSERT_THAT(garbage, Not(IsOk()));
  EXPECT_THAT(garbage.status().message(), HasSubstr("Base64"));
  const auto v = LoadWebhookVectors();
  std::string tampered = v.vectors[0].signature;
  tampered.back() = '5';
  EXPECT_FALSE(PublicKey::FromPem(v.public_key_pem)->Verify(v.vectors[0].content, tampered));
  auto truncated = Signature::FromBase64(Base64Encode(Base64Decode(v.vectors[0].signature)->substr(0, 40)));
  ASSERT_THAT(truncated, Not(IsOk()));
  EXPECT_THAT(truncated.status().message(), HasSubstr("truncated"));
}

// ---- keys ----

TEST(Keys, PemRoundTripsBothWays) {
  const PrivateKey key = PrivateKey::Generate();
  const std::string pem = key.ToPem();
  EXPECT_THAT(pem, HasSubstr("-----BEGIN EC PRIVATE KEY-----\nMHQCAQEEI"));
  auto back = PrivateKey::FromPem(pem);
  ASSERT_OK(back);
  EXPECT_EQ(back->public_key(), key.public_key());
  EXPECT_EQ(back->Sign("m"), key.Sign("m"));
  auto pub = PublicKey::FromPem(key.public_key().ToPem());
  ASSERT_OK(pub);
  EXPECT_EQ(*pub, key.public_key());
  // With the EC PARAMETERS block `openssl ecparam -genkey` writes first, and CRLF lines.
  std::string with_params = "-----BEGIN EC PARAMETERS-----\nBgUrgQQACg==\n-----END EC PARAMETERS-----\n" + pem;
  EXPECT_OK(PrivateKey::FromPem(with_params));
  std::string crlf;
  for (char c : with_params) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  EXPECT_OK(PrivateKey::FromPem(crlf));
}

void ExpectPemError(const StatusOr<PrivateKey>& r, const std::string& fragment) {
  ASSERT_THAT(r, Not(IsOk())) << fragment;
  EXPECT_THAT(r, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(r.status().message(), HasSubstr(fragment));
}

// Keys in the formats the bank's SDKs refuse, made by OpenSSL itself (known bytes).
constexpr char kPkcs8Secp256k1[] =
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgoBLfvbS8BalvuJbP7zB/\n"
    "x1LXIO4Dfr0Ukg5RJAyCkpehRANCAASXTyRg/YoMBYtpchJr2zrCODy7oXFaSyqB\n"
    "DStl1Wx9fcmSP23pTKtLFORb3yywFf07kvHfgQ/3Kb5+tTkykxtY\n"
    "-----END PRIVATE KEY-----\n";
constexpr char kPrime256v1Sec1[] =
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MHcCAQEEIInnWd3Xrun392aoPDmSiPP+rc1DlN7VI3VBXWpOwLW6oAoGCCqGSM49\n"
    "AwEHoUQDQgAEUEaBaZxbaGqRXEkuirEO6CO2w7AzFmXYHiQa5tdIm2aH57XKS5ty\n"
    "cGZ7A1MYpkMjPjI3qzsqMCbCpFUfc6S/xQ==\n"
    "-----END EC PRIVATE KEY-----\n";
constexpr char kPrime256v1Public[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEUEaBaZxbaGqRXEkuirEO6CO2w7Az\n"
    "FmXYHiQa5tdIm2aH57XKS5tycGZ7A1MYpkMjPjI3qzsqMCbCpFUfc6S/xQ==\n"
    "-----END PUBLIC KEY-----\n";

TEST(Keys, BadPrivateKeysGiveClearErrors) {
  ExpectPemError(PrivateKey::FromPem("hello"), "no '-----BEGIN");
  ExpectPemError(PrivateKey::FromPem(kPkcs8Secp256k1), "openssl ec -in");
  ExpectPemError(PrivateKey::FromPem(kPkcs8Secp256k1), "PKCS#8");
  ExpectPemError(PrivateKey::FromPem(kPrime256v1Sec1), "curve prime256v1, expected secp256k1");
  const std::string pem = PrivateKey::Generate().ToPem();
  ExpectPemError(PrivateKey::FromPem(pem.substr(0, pem.size() - 30)), "no END line");
  std::string bad_body = pem;
  bad_body[40] = '*';
  ExpectPemError(PrivateKey::FromPem(bad_body), "Base64");
  // A well-formed PEM whose DER is cut short.
  const std::string der = Base64Decode("MHQCAQEEIKWkcaLNQAntNeXQkjm0sq8UewawE1MoPwLTvET0EO4toAcGBSuBBAAK").value();
  ExpectPemError(PrivateKey::FromPem("-----BEGIN EC PRIVATE KEY-----\n" + Base64Encode(der.substr(0, 30)) +
                                     "\n-----END EC PRIVATE KEY-----\n"),
                 "not a valid SEC1");
  ExpectPemError(PrivateKey::FromPem(PrivateKey::Generate().public_key().ToPem()), "found BEGIN PUBLIC KEY");
  ExpectPemError(PrivateKey::FromPem("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n"
                                     "-----END EC PRIVATE KEY-----\n"),
                 "encrypted");
  ExpectPemError(PrivateKey::FromSecret(std::string(32, '\0')), "0 or not below");
}

TEST(Keys, BadPublicKeysGiveClearErrors) {
  auto wrong_curve = PublicKey::FromPem(kPrime256v1Public);
  ASSERT_THAT(wrong_curve, Not(IsOk()));
  EXPECT_THAT(wrong_curve.status().message(), HasSubstr("curve prime256v1, expected secp256k1"));
  auto priv_given = PublicKey::FromPem(PrivateKey::Generate().ToPem());
  ASSERT_THAT(priv_given, Not(IsOk()));
  EXPECT_THAT(priv_given.status().message(),
              HasSubstr("expected a BEGIN PUBLIC KEY block, found BEGIN EC PRIVATE KEY"));
  auto truncated = PublicKey::FromPem(
      "-----BEGIN PUBLIC KEY-----\nMFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEQA+bOEY57yQG\n"
      "-----END PUBLIC KEY-----\n");
  ASSERT_THAT(truncated, Not(IsOk()));
  EXPECT_THAT(truncated.status().message(), HasSubstr("not a valid SubjectPublicKeyInfo"));
  EXPECT_THAT(PublicKey::FromPoint(std::string(65, '\x04')), Not(IsOk()));
}

TEST(Keys, FileWithOpenPermissionsIsRefused) {
  TempDir dir;
  const PrivateKey key = PrivateKey::Generate();
  const std::string path = dir.File("private.pem");
  WriteFileOrDie(path, key.ToPem(), 0644);
  auto open = PrivateKey::FromFile(path);
  ASSERT_THAT(open, StatusIs(StatusCode::kPermissionDenied));
  EXPECT_THAT(open.status().message(), HasSubstr(path));
  EXPECT_THAT(open.status().message(), HasSubstr("chmod 600"));
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  EXPECT_THAT(PrivateKey::FromFile(path), StatusIs(StatusCode::kPermissionDenied));
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  auto ok = PrivateKey::FromFile(path);
  ASSERT_OK(ok);
  EXPECT_EQ(ok->public_key(), key.public_key());
  EXPECT_THAT(PrivateKey::FromFile(dir.File("absent.pem")), StatusIs(StatusCode::kNotFound));
  WriteFileOrDie(dir.File("junk.pem"), "junk", 0600);
  auto junk = PrivateKey::FromFile(dir.File("junk.pem"));
  EXPECT_THAT(junk, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(junk.status().message(), HasSubstr(dir.File("junk.pem")));
}

TEST(Keys, WriteFileIsPrivateAndRefusesToOverwrite) {
  TempDir dir;
  const PrivateKey key = PrivateKey::Generate();
  const std::string path = dir.File("k.pem");
  ASSERT_OK(key.WriteFile(path, false));
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(PrivateKey::FromFile(path)->public_key(), key.public_key());
  const PrivateKey other = PrivateKey::Generate();
  EXPECT_THAT(other.WriteFile(path, false), StatusIs(StatusCode::kAlreadyExists));
  EXPECT_EQ(PrivateKey::FromFile(path)->public_key(), key.public_key()) << "untouched";
  ASSERT_OK(other.WriteFile(path, true));
  EXPECT_EQ(PrivateKey::FromFile(path)->public_key(), other.public_key());
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1) << "no temporary left";
}

}  // namespace
}  // namespace balcao::api
