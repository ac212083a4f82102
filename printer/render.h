// Renderers: one Document, one PrinterProfile, three outputs drawn from the same layout:
// ESC/POS bytes for the printer, UTF-8 text for the screen and logs, PNG for the
// touchscreen preview. Pure functions of their inputs (no I/O, no clock): equal inputs
// give equal bytes, which is what the golden tests rely on.
// Thread-safety: pure functions; safe from any thread.
#pragma once

#include <string>

#include "common/status.h"
#include "printer/profile.h"
#include "printer/receipt.h"

namespace balcao::printer {

// The job's printer bytes (std::string as a byte buffer: it is what print jobs store).
// Starts with ESC @, FS . (when the profile asks), ESC t n, ESC R 0, ESC 3 30; repeats
// that header after every cut that is followed by more content. kInvalidArgument when a
// QR payload does not fit a QR code or a barcode holds non-ASCII data.
StatusOr<std::string> RenderEscPos(const Document& doc, const PrinterProfile& profile);
// Whether RenderEscPos(doc, profile) opens the cash drawer: a DrawerKick block, on a profile
// with a drawer. Known when the job is queued, so the spooler need not read the bytes again.
bool OpensDrawer(const Document& doc, const PrinterProfile& profile);

struct TextOptions {
  // Show QR codes, barcodes, cuts and drawer kicks as bracketed lines ("[QR] ...").
  // Off: text lines only, exactly what the virtual printer's .txt holds.
  bool placeholders = true;
};
// UTF-8, one line per printed line, `profile.columns` wide. Double-width characters are
// followed by a space ("T O T A L") so the columns stay aligned.
std::string RenderText(const Document& doc, const PrinterProfile& profile, const TextOptions& options = {});

// A PNG of the paper (profile.dots wide, 1-bit). Cuts show as a dashed line.
StatusOr<std::string> RenderPng(const Document& doc, const PrinterProfile& profile);

}  // namespace balcao::printer
