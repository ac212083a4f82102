#include "printer/profile.h"

namespace balcao::printer {
namespace {

PrinterProfile Make(std::string name, std::string description, int dots, CodeTable table, int number, bool native_qr) {
  PrinterProfile p;
  p.name = std::move(name);
  p.description = std::move(description);
  p.dots = dots;
  p.columns = dots / 12;
  p.code_table = table;
  p.code_table_number = number;
  p.native_qr = native_qr;
  return p;
}

std::vector<PrinterProfile> BuildProfiles() {
  std::vector<PrinterProfile> v;
  // Generic profiles: the safest choices for an unknown printer of that width. Cheap 58 mm
  // clones often lack GS ( k, so the 58 mm default rasterises QR codes.
  v.push_back(
      Make("58mm", "generic 58 mm (384 dots, 32 cols), CP860 (ESC t 3), raster QR", 384, CodeTable::kCp860, 3, false));
  v.push_back(
      Make("80mm", "generic 80 mm (576 dots, 48 cols), CP860 (ESC t 3), native QR", 576, CodeTable::kCp860, 3, true));
  v.push_back(
      Make("58mm-wpc1252", "generic 58 mm, WPC1252 (ESC t 16), raster QR", 384, CodeTable::kWpc1252, 16, false));
  v.push_back(Make("80mm-wpc1252", "generic 80 mm, WPC1252 (ESC t 16), native QR", 576, CodeTable::kWpc1252, 16, true));
  v.push_back(Make("epson-tm-t20", "Epson TM-T20II/III 80 mm, WPC1252 (ESC t 16), native QR", 576, CodeTable::kWpc1252,
                   16, true));
  v.back().cancel_kanji = false;
  v.back().qr_module_max = 16;
  v.push_back(Make("elgin-i9", "Elgin i9 80 mm, CP860 (ESC t 3), native QR", 576, CodeTable::kCp860, 3, true));
  v.push_back(
      Make("elgin-i7", "Elgin i7 80 mm without cutter, CP860 (ESC t 3), native QR", 576, CodeTable::kCp860, 3, true));
  v.back().cutter = false;
  // Bematech MP-4200 TH in ESC/POS mode has no 2D codes: QR goes as raster.
  v.push_back(Make("bematech-mp4200", "Bematech MP-4200 TH (ESC/POS mode) 80 mm, CP850 (ESC t 2), raster QR", 576,
                   CodeTable::kCp850, 2, false));
  v.push_back(Make("pos-5890", "POS-5890 class 58 mm, CP860 (ESC t 3), raster QR, partial cut only", 384,
                   CodeTable::kCp860, 3, false));
  v.back().native_qr_max_bytes = 0;
  // HPRT-class printers store at most ~1 KB of QR data natively.
  v.push_back(Make("hprt-tp80k", "HPRT TP80K 80 mm, CP860 (ESC t 3), native QR up to 1020 bytes", 576,
                   CodeTable::kCp860, 3, true));
  v.back().native_qr_max_bytes = 1020;
  return v;
}

}  // namespace

const char* CodeTableName(CodeTable t) {
  switch (t) {
    case CodeTable::kCp437:
      return "CP437";
    case CodeTable::kCp850:
      return "CP850";
    case CodeTable::kCp858:
      return "CP858";
    case CodeTable::kCp860:
      return "CP860";
    case CodeTable::kWpc1252:
      return "WPC1252";
  }
  return "?";
}

const std::vector<PrinterProfile>& AllProfiles() {
  static const std::vector<PrinterProfile> profiles = BuildProfiles();
  return profiles;
}

const PrinterProfile* FindProfile(std::string_view name) {
  for (const PrinterProfile& p : AllProfiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const std::vector<CodeTableNumber>& EpsonCodeTableNumbers() {
  static const std::vector<CodeTableNumber> numbers = {{0, CodeTable::kCp437},
                                                       {2, CodeTable::kCp850},
                                                       {3, CodeTable::kCp860},
                                                       {16, CodeTable::kWpc1252},
                                                       {19, CodeTable::kCp858}};
  return numbers;
}

}  // namespace balcao::printer
