#include "sandbox/internal/artifacts.h"

#include <png.h>

#include <cstdio>
#include <memory>

#include "api/formats/brcode.h"
#include "common/qr.h"
#include "sandbox/internal/slip.h"

namespace balcao::sandbox::internal {
namespace {

void PngWrite(png_structp png, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), n);
}
void PngFlush(png_structp) {}

}  // namespace

File QrPng(const std::string& text, int box) {
  const StatusOr<QrMatrix> qr = EncodeQr(text, QrLevel::kM);
  File file{"image/png", {}};
  if (!qr.ok()) return file;  // empty or too long: an empty body
  const int quiet = kQrQuietModules, modules = qr->size + 2 * quiet, size = modules * box;
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
      row[x] = qr->dark_or_light(mx, my) ? 0 : 255;
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return file;
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
