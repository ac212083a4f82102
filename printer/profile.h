// Printer profiles: what one printer model understands (paper width, code table and its
// ESC t number, native QR, cutter, drawer). Profiles are data, looked up by name; the
// renderers take one and never guess. Add a model: see docs/printer.md.
// Thread-safety: immutable after static initialisation; share freely.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace balcao::printer {

// Single-byte code tables the renderer can encode to and the interpreter can decode.
enum class CodeTable { kCp437, kCp850, kCp858, kCp860, kWpc1252 };
const char* CodeTableName(CodeTable t);  // "CP860", "WPC1252", ...

struct PrinterProfile {
  std::string name;         // "80mm", "epson-tm-t20", ...
  std::string description;  // one line for `balcao print --help`
  int dots = 576;           // printable width in dots (203 dpi): 384 on 58 mm, 576 on 80 mm
  int columns = 48;         // Font A (12x24) columns: dots / 12
  CodeTable code_table = CodeTable::kCp860;
  int code_table_number = 3;  // n of ESC t n for that table on this model
  bool cancel_kanji = true;   // send FS . after ESC @ (Chinese clones boot in GB18030 mode)
  bool native_qr = true;      // GS ( k supported; otherwise QR goes as a GS v 0 raster
  int native_qr_max_bytes = 7089;
  int qr_module_max = 8;       // largest module size (dots) used for a QR
  int raster_band_rows = 256;  // GS v 0 images are sent in bands of at most this many rows
  bool cutter = true;
  bool partial_cut = true;  // GS V 1 (partial) rather than GS V 0 (full)
  int feed_before_cut = 4;  // blank lines so the last line clears the cutter
  bool drawer = true;       // ESC p kick supported
};

// nullptr when unknown. Names are case-sensitive; see ProfileNames().
const PrinterProfile* FindProfile(std::string_view name);
const std::vector<PrinterProfile>& AllProfiles();
// The ESC t number -> table mapping an Epson-compatible printer uses; the interpreter's
// default. A profile's own (table, number) pair is added on top of it.
struct CodeTableNumber {
  int number;
  CodeTable table;
};
const std::vector<CodeTableNumber>& EpsonCodeTableNumbers();

}  // namespace balcao::printer
