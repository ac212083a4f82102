// Real artefacts the API serves: QR code PNGs (libqrencode + libpng; zbarimg decodes them),
// text PDFs (pdftotext reads them), and the sandbox's BR Codes (api/formats builders).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sandbox/internal/engine.h"

namespace balcao::sandbox::internal {

// PNG of `text` as a QR code, `box` pixels per module (1..50), 4-module quiet zone.
File QrPng(const std::string& text, int box);
// A receipt PDF shaped like the bank's (receipt_pdf.cc): header, title, the lines as a
// table ("Label: value" lines get a bold label), authentication code and QR, footer;
// one A4 page or more; text ASCII-folded, read back by pdftotext.
File TextPdf(const std::string& title, const std::vector<std::string>& lines);
// A dynamic BR Code whose location URL ends with `key` (invoice id or brcode uuid):
// "<host:port>/brcode/<kind>/<key>". Amount 0 means "any amount" (54 omitted).
std::string SandboxBrCode(Context& ctx, const std::string& kind, const std::string& key, std::int64_t amount);
// The (kind, key) of a BR Code this sandbox issued; empty kind when it is not one.
std::pair<std::string, std::string> ParseSandboxBrCode(const std::string& brcode);

}  // namespace balcao::sandbox::internal
