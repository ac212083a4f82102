#include "sandbox/internal/artifacts.h"

#include <png.h>
#include <qrencode.h>

#include <cstdio>
#include <memory>

#include "api/formats/brcode.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

void PngWrite(png_structp png, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), n);
}
void PngFlush(png_structp) {}

std::string PdfEscape(const std::string& s) {
  std::string out;
  for (char c : formats::FoldToBrCodeText(s, 200)) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

File QrPng(const std::string& text, int box) {
  std::unique_ptr<QRcode, decltype(&QRcode_free)> qr(QRcode_encodeString8bit(text.c_str(), 0, QR_ECLEVEL_M),
                                                     &QRcode_free);
  File file{"image/png", {}};
  if (!qr) return file;
  const int quiet = 4, modules = qr->width + 2 * quiet, size = modules * box;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return File{"image/png", {}};
  }
  png_set_write_fn(png, &file.bytes, &PngWrite, &PngFlush);
  png_set_IHDR(png, info, size, size, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<png_byte> row(size);
  for (int y = 0; y < size; ++y) {
    const int my = y / box - quiet;
    for (int x = 0; x < size; ++x) {
      const int mx = x / box - quiet;
      const bool dark = mx >= 0 && my >= 0 && mx < qr->width && my < qr->width && (qr->data[my * qr->width + mx] & 1);
      row[x] = dark ? 0 : 255;
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return file;
}

File TextPdf(const std::string& title, const std::vector<std::string>& lines) {
  // Page content: 14 pt title, then 11 pt lines, 50 lines per page.
  std::vector<std::string> pages;
  std::string content;
  int y = 800;
  auto line = [&](const std::string& text, int size) {
    content +=
        "BT /F1 " + std::to_string(size) + " Tf 50 " + std::to_string(y) + " Td (" + PdfEscape(text) + ") Tj ET\n";
    y -= size + 5;
    if (y < 60) {
      pages.push_back(content);
      content.clear();
      y = 800;
    }
  };
  line(title, 14);
  for (const auto& l : lines) line(l, 11);
  if (!content.empty() || pages.empty()) pages.push_back(content);

  std::vector<std::string> objects;
  std::string kids;
  const int first_page = 4;
  for (std::size_t i = 0; i < pages.size(); ++i) kids += std::to_string(first_page + 2 * i) + " 0 R ";
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  for (std::size_t i = 0; i < pages.size(); ++i) {
    objects.push_back(
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> "
        "/Contents " +
        std::to_string(first_page + 2 * i + 1) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(pages[i].size()) + " >>\nstream\n" + pages[i] + "endstream");
  }
  std::string pdf = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (auto off : offsets) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%010zu 00000 n \n", off);
    pdf += buf;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return File{"application/pdf", std::move(pdf)};
}

std::string SandboxBrCode(Context& ctx, const std::string& kind, const std::string& key, std::int64_t amount) {
  std::string host = ctx.public_base_url();
  if (auto p = host.find("://"); p != std::string::npos) host = host.substr(p + 3);
  formats::DynamicBrCodeSpec spec;
  spec.url = host + "/brcode/" + kind + "/" + key;
  spec.merchant_name = "Balcao Sandbox";
  spec.merchant_city = "Sao Paulo";
  if (amount > 0) spec.amount_cents = amount;
  auto code = formats::BuildDynamicBrCode(spec);
  return code.ok() ? *code : std::string();
}

std::pair<std::string, std::string> ParseSandboxBrCode(const std::string& brcode) {
  auto code = ReadBrCode(brcode);
  if (!code.ok()) return {};
  const std::string& url = code->url;
  auto p = url.find("/brcode/");
  if (p == std::string::npos) return {};
  std::string rest = url.substr(p + 8);
  auto slash = rest.find('/');
  if (slash == std::string::npos) return {};
  return {rest.substr(0, slash), rest.substr(slash + 1)};
}

}  // namespace balcao::sandbox::internal
