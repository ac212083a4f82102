// Every QR the printer emits, native (GS ( k) or raster (GS v 0), is decoded by the real
// `zbarimg` from the PNG the interpreter draws, and must equal the payload byte for byte:
// real BR Codes (from the formats builder and the public vectors of tests/data) and a 3-D Secure
// challenge URL, on every profile. CODE128 barcodes are decoded the same way.
#include <gtest/gtest.h>

#include <algorithm>

#include "printer/interpreter.h"
#include "printer/render.h"
#include "printer/samples.h"
#include "tests/printer/testing_util.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::printer {
namespace {

std::vector<std::string> Expected(const Document& d) {
  std::vector<std::string> out;
  for (const Block& b : d.blocks()) {
    if (auto* q = std::get_if<QrBlock>(&b)) out.push_back(q->data);
    if (auto* c = std::get_if<BarcodeBlock>(&b)) out.push_back(c->data);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Renders, interprets, writes each page's PNG and decodes it with zbarimg.
std::vector<std::string> DecodedFromPrinter(const Document& d, const PrinterProfile& p,
                                            const std::filesystem::path& dir) {
  StatusOr<std::string> bytes = RenderEscPos(d, p);
  EXPECT_OK(bytes);
  std::vector<std::string> decoded;
  int n = 0;
  for (const VirtualPage& page : Interpret(bytes.ok() ? *bytes : "", InterpreterOptions::ForProfile(p))) {
    if (page.qr_payloads.empty() && page.images.empty() && page.barcodes.empty()) continue;
    const auto png = dir / (p.name + "-" + std::to_string(n++) + ".png");
    testing::WriteFile(png, *page.Png());
    if (!page.qr_payloads.empty() || !page.images.empty()) {
      for (std::string& s : testing::Zbarimg(png, "qrcode")) decoded.push_back(std::move(s));
    }
    if (!page.barcodes.empty()) {
      for (std::string& s : testing::Zbarimg(png, "code128")) decoded.push_back(std::move(s));
    }
  }
  std::sort(decoded.begin(), decoded.end());
  return decoded;
}

class QrDecode : public ::testing::TestWithParam<std::string> {};

TEST_P(QrDecode, EveryTemplateWithACodeDecodesExactly) {
  const PrinterProfile& p = *FindProfile(GetParam());
  const test_util::TempDir tmp("printer-qr-" + p.name);
  const auto dir = tmp.path();
  for (const char* kind : {"pix", "invoice", "qr", "offline", "test"}) {
    StatusOr<Document> d = SampleDocument(kind);
    ASSERT_OK(d);
    EXPECT_EQ(DecodedFromPrinter(*d, p, dir), Expected(*d)) << kind << " on " << p.name;
  }
}

// Both paper widths, raster (58mm) and native (80mm), every valid BR Code of the vectors.
TEST(QrDecode, PublicBrCodeVectorsDecodeExactly) {
  const std::vector<std::string> codes = testing::PublicBrCodes();
  ASSERT_GE(codes.size(), 3u);
  for (const char* profile : {"58mm", "80mm"}) {
    const PrinterProfile& p = *FindProfile(profile);
    const test_util::TempDir tmp(std::string("printer-brcode-") + profile);
    const auto dir = tmp.path();
    for (const std::string& code : codes) {
      SampleInputs in;
      in.br_code = code;
      StatusOr<Document> d = SampleDocument("pix", in);
      ASSERT_OK(d);
      EXPECT_EQ(DecodedFromPrinter(*d, p, dir), std::vector<std::string>{code}) << p.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, QrDecode,
                         ::testing::Values("58mm", "80mm", "58mm-wpc1252", "80mm-wpc1252", "epson-tm-t20",
                                           "bematech-mp4200", "pos-5890"));

TEST(QrDecode, PreviewPngDecodesToo) {
  const test_util::TempDir tmp("printer-preview");
  const auto dir = tmp.path();
  StatusOr<Document> d = SampleDocument("qr");
  ASSERT_OK(d);
  for (const char* profile : {"58mm", "80mm"}) {
    StatusOr<std::string> png = RenderPng(*d, *FindProfile(profile));
    ASSERT_OK(png);
    testing::WriteFile(dir / "preview.png", *png);
    EXPECT_EQ(testing::Zbarimg(dir / "preview.png", "qrcode"), Expected(*d)) << profile;
  }
}

}  // namespace
}  // namespace balcao::printer
