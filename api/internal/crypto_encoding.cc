#include "api/internal/crypto_encoding.h"

#include <openssl/crypto.h>

#include <array>
#include <string>

#include "api/crypto.h"

namespace balcao::api {
namespace {

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Value of a Base64 character, or -1.
constexpr std::array<std::int8_t, 256> MakeBase64Table() {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kBase64Alphabet[i])] = static_cast<std::int8_t>(i);
  return table;
}
constexpr std::array<std::int8_t, 256> kBase64Values = MakeBase64Table();

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kBase64Alphabet[(v >> shift) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    out.push_back(kBase64Alphabet[(v >> 18) & 63]);
    out.push_back(kBase64Alphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kBase64Alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

StatusOr<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    return InvalidArgumentError("Base64: length " + std::to_string(text.size()) +
                                " is not a multiple of 4 (padding '=' is required)");
  }
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t acc = 0;
  const std::size_t data_chars = text.size() - padding;
  for (std::size_t i = 0; i < data_chars; ++i) {
    const int v = kBase64Values[static_cast<unsigned char>(text[i])];
    if (v < 0) {
      return InvalidArgumentError("Base64: character " + std::to_string(i) + " ('" +
                                  (text[i] >= 0x20 && text[i] < 0x7f ? std::string(1, text[i]) : "\\x..") +
                                  "') is not in the standard alphabet");
    }
    acc = acc << 6 | static_cast<std::uint32_t>(v);
    if (i % 4 == 3) {
      out.push_back(static_cast<char>(acc >> 16));
      out.push_back(static_cast<char>(acc >> 8));
      out.push_back(static_cast<char>(acc));
      acc = 0;
    }
  }
  // The last quantum: 2 or 3 characters carry 1 or 2 bytes; the unused low bits must be
  // zero, so that exactly one text encodes each byte string.
  if (padding == 2) {
    if (acc & 0x0f) return InvalidArgumentError("Base64: non-zero bits before the padding (not canonical)");
    out.push_back(static_cast<char>(acc >> 4));
  } else if (padding == 1) {
    if (acc & 0x03) return InvalidArgumentError("Base64: non-zero bits before the padding (not canonical)");
    out.push_back(static_cast<char>(acc >> 10));
    out.push_back(static_cast<char>(acc >> 2));
  }
  return out;
}

}  // namespace balcao::api

namespace balcao::api::internal {

const Scalar kCurveOrder = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                            0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48,
                            0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
const Scalar kHalfCurveOrder = {0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4,
                                0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0};

int CompareScalars(const Scalar& a, const Scalar& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

// ---- PEM ----

namespace {

std::string_view TrimLine(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  return line;
}

// "-----BEGIN X-----" -> "X" (with kind "BEGIN"), else empty.
std::string_view BoundaryLabel(std::string_view line, std::string_view kind) {
  const std::string prefix = "-----" + std::string(kind) + " ";
  if (line.size() < prefix.size() + 5 || line.substr(0, prefix.size()) != prefix ||
      line.substr(line.size() - 5) != "-----") {
    return {};
  }
  return line.substr(prefix.size(), line.size() - prefix.size() - 5);
}

}  // namespace

StatusOr<std::vector<PemBlock>> ParsePem(std::string_view text) {
  std::vector<PemBlock> blocks;
  std::string label;  // of the open block; empty outside blocks
  std::string body;   // Base64 of a private key, possibly: wiped, and reserved so that it never reallocates
  body.reserve(text.size());
  struct Wipe {
    std::string& s;
    ~Wipe() { OPENSSL_cleanse(s.data(), s.size()); }
  } wipe_body{body};
  bool in_block = false;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = TrimLine(text.substr(0, eol));
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (!in_block) {
      std::string_view begin = BoundaryLabel(line, "BEGIN");
      if (!begin.empty()) {
        label.assign(begin);
        body.clear();
        in_block = true;
      }
      continue;
    }
    if (line.empty()) continue;
    std::string_view end = BoundaryLabel(line, "END");
    if (!end.empty()) {
      if (end != label) {
        return InvalidArgumentError("PEM: block BEGIN " + label + " ends with END " + std::string(end));
      }
      auto der = Base64Decode(body);
      if (!der.ok()) return InvalidArgumentError("PEM: body of " + label + ": " + der.status().message());
      blocks.push_back({label, std::move(der).value()});
      in_block = false;
      continue;
    }
    if (line.find(':') != std::string_view::npos) {
      return InvalidArgumentError("PEM: block " + label + " has a header line ('" + std::string(line) +
                                  "'); encrypted keys are not supported: decrypt it first (openssl ec -in KEY "
                                  "-out PLAIN.pem)");
    }
    body.append(line);
  }
  if (in_block) return InvalidArgumentError("PEM: block BEGIN " + label + " has no END line (truncated file?)");
  if (blocks.empty()) return InvalidArgumentError("not PEM: no '-----BEGIN ...-----' line found");
  return blocks;
}

std::string EncodePem(std::string_view label, std::string_view der) {
  std::string b64 = Base64Encode(der);
  std::string out;
  out.reserve(b64.size() + b64.size() / 64 + 2 * label.size() + 40);  // no reallocation: no stray copies
  out += "-----BEGIN " + std::string(label) + "-----\n";
  for (std::size_t i = 0; i < b64.size(); i += 64) {
    out.append(b64, i, 64);
    out.push_back('\n');
  }
  out += "-----END " + std::string(label) + "-----\n";
  OPENSSL_cleanse(b64.data(), b64.size());  // the Base64 of a private key
  return out;
}

// ---- DER signatures ----

namespace {

// Reads one definite length (short form, or minimal long form up to 2 bytes).
Status ReadLength(std::string_view& in, std::size_t& length, const char* what) {
  if (in.empty()) return InvalidArgumentError(std::string("signature DER: truncated before the length of ") + what);
  const auto first = static_cast<unsigned char>(in[0]);
  in.remove_prefix(1);
  if (first < 0x80) {
    length = first;
    return OkStatus();
  }
  const std::size_t count = first & 0x7f;
  if (count == 0) return InvalidArgumentError(std::string("signature DER: indefinite length of ") + what);
  if (count > 2 || in.size() < count) {
    return InvalidArgumentError(std::string("signature DER: bad long-form length of ") + what);
  }
  length = 0;
  for (std::size_t i = 0; i < count; ++i) length = length << 8 | static_cast<unsigned char>(in[i]);
  in.remove_prefix(count);
  if (length < 0x80 || (count == 2 && length < 0x100)) {
    return InvalidArgumentError(std::string("signature DER: non-minimal length of ") + what);
  }
  return OkStatus();
}

Status ReadInteger(std::string_view& in, Scalar& out, const char* name) {
  if (in.empty() || in[0] != 0x02) {
    return InvalidArgumentError(std::string("signature DER: ") + name + " is not an INTEGER");
  }
  in.remove_prefix(1);
  std::size_t length = 0;
  BALCAO_RETURN_IF_ERROR(ReadLength(in, length, name));
  if (length > in.size()) return InvalidArgumentError(std::string("signature DER: ") + name + " is truncated");
  std::string_view value = in.substr(0, length);
  in.remove_prefix(length);
  if (value.empty()) return InvalidArgumentError(std::string("signature DER: ") + name + " is empty");
  if (static_cast<unsigned char>(value[0]) & 0x80) {
    return InvalidArgumentError(std::string("signature DER: ") + name + " is negative");
  }
  if (value.size() > 1 && value[0] == 0 && !(static_cast<unsigned char>(value[1]) & 0x80)) {
    return InvalidArgumentError(std::string("signature DER: ") + name + " has a superfluous leading zero");
  }
  if (value[0] == 0) value.remove_prefix(1);
  if (value.size() > out.size()) {
    return InvalidArgumentError(std::string("signature DER: ") + name + " is longer than 32 bytes");
  }
  out.fill(0);
  for (std::size_t i = 0; i < value.size(); ++i)
    out[out.size() - value.size() + i] = static_cast<std::uint8_t>(value[i]);
  const Scalar zero{};
  if (CompareScalars(out, zero) == 0 || CompareScalars(out, kCurveOrder) >= 0) {
    return InvalidArgumentError(std::string("signature DER: ") + name + " is outside [1, n-1]");
  }
  return OkStatus();
}

void AppendInteger(std::string& out, const Scalar& v) {
  std::size_t start = 0;
  while (start < v.size() - 1 && v[start] == 0) ++start;
  const bool pad = v[start] & 0x80;
  out.push_back(0x02);
  out.push_back(static_cast<char>(v.size() - start + (pad ? 1 : 0)));
  if (pad) out.push_back(0);
  out.append(reinterpret_cast<const char*>(v.data()) + start, v.size() - start);
}

}  // namespace

Status ParseDerSignature(std::string_view der, Scalar& r, Scalar& s) {
  if (der.empty() || der[0] != 0x30) return InvalidArgumentError("signature DER: does not start with a SEQUENCE");
  der.remove_prefix(1);
  std::size_t length = 0;
  BALCAO_RETURN_IF_ERROR(ReadLength(der, length, "the SEQUENCE"));
  if (length > der.size()) return InvalidArgumentError("signature DER: the SEQUENCE is truncated");
  if (length < der.size()) return InvalidArgumentError("signature DER: bytes after the SEQUENCE");
  BALCAO_RETURN_IF_ERROR(ReadInteger(der, r, "r"));
  BALCAO_RETURN_IF_ERROR(ReadInteger(der, s, "s"));
  if (!der.empty()) return InvalidArgumentError("signature DER: bytes after s inside the SEQUENCE");
  return OkStatus();
}

std::string EncodeDerSignature(const Scalar& r, const Scalar& s) {
  std::string body;
  AppendInteger(body, r);
  AppendInteger(body, s);
  std::string out;
  out.push_back(0x30);
  out.push_back(static_cast<char>(body.size()));  // at most 2 * 35 = 70 < 0x80
  return out + body;
}

// ---- key layouts ----

namespace {
// DER prefixes; the variable bytes (secret, point) follow each one directly.
constexpr std::string_view kSec1Prefix("\x30\x74\x02\x01\x01\x04\x20", 7);
constexpr std::string_view kSec1Middle("\xa0\x07\x06\x05\x2b\x81\x04\x00\x0a\xa1\x44\x03\x42\x00", 14);
constexpr std::string_view kSpkiPrefix(
    "\x30\x56\x30\x10\x06\x07\x2a\x86\x48\xce\x3d\x02\x01\x06\x05\x2b\x81\x04\x00\x0a\x03\x42\x00", 23);
}  // namespace

std::string EncodeSec1PrivateKey(const Scalar& secret, const std::array<std::uint8_t, 65>& point) {
  std::string out(kSec1Prefix);
  out.append(reinterpret_cast<const char*>(secret.data()), secret.size());
  out.append(kSec1Middle);
  out.append(reinterpret_cast<const char*>(point.data()), point.size());
  return out;
}

std::string EncodeSubjectPublicKeyInfo(const std::array<std::uint8_t, 65>& point) {
  std::string out(kSpkiPrefix);
  out.append(reinterpret_cast<const char*>(point.data()), point.size());
  return out;
}

}  // namespace balcao::api::internal
