// The interpreter's state and its two halves: the printing actions (interpreter.cc) and
// the ESC/POS command decoder (internal/escpos_commands.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "printer/internal/canvas.h"
#include "printer/interpreter.h"

namespace balcao::printer {
namespace internal {

using Byte = std::uint8_t;
inline constexpr size_t kNeedMore = 0;
inline constexpr size_t kMaxImageBytes = 4u << 20;  // one GS v 0 / GS 8 L command
inline constexpr int kDefaultSpacing = kLinePitch;

std::string Hex(int b);

struct PendingChar {
  char32_t ch;
  TextStyle style;
  int x;
};

}  // namespace internal

struct Interpreter::Impl {
  using Byte = internal::Byte;
  InterpreterOptions opt;
  std::string buf;  // unconsumed bytes (an incomplete command)
  std::string replies;
  std::vector<VirtualPage> done;
  VirtualPage page;
  std::vector<StatusQuery> trailing;  // see trailing_status_queries()
  int y = 0;

  // Printer modes.
  CodeTable table = CodeTable::kCp437;
  bool table_selected = false;
  TextStyle style;
  Align align = Align::kLeft;
  int spacing = internal::kDefaultSpacing;
  std::vector<internal::PendingChar> line;
  int x = 0;
  // QR symbol storage (GS ( k).
  std::string qr_data;
  int qr_module = 3;
  QrLevel qr_level = QrLevel::kL;
  // Barcode settings.
  int bar_height = 162, bar_module = 3, hri = 0;

  explicit Impl(InterpreterOptions o) : opt(std::move(o)) { NewPage(); }

  void NewPage();
  void Reset();  // ESC @: buffer cleared, modes back to power-on defaults
  void Note(std::string n);
  void Advance(int dots);
  void CompletePage(bool by_cut);
  void PrintLine();  // prints the line buffer (LF semantics) and advances the paper
  void FlushIfPending();
  void PutChar(Byte b);
  void SelectTable(int n);
  void Status(const std::string& command, int reply);
  int DleEot(int n);
  void Image(int width_bytes, int rows, const Byte* data);
  void PrintQr();
  void Barcode(int m, std::string data);
  void QrFunction(const Byte* p, size_t len);
  void Run();

  // Executes the command at p (n bytes available); returns bytes consumed, or kNeedMore.
  size_t Step(const Byte* p, size_t n);
  size_t Dle(const Byte* p, size_t n);
  size_t Esc(const Byte* p, size_t n);
  size_t Fs(const Byte* p, size_t n);
  size_t Gs(const Byte* p, size_t n);
  // Esc and Gs by group of commands; nullopt: not a command of the group.
  std::optional<size_t> EscStyle(const Byte* p, size_t n);
  std::optional<size_t> EscPaper(const Byte* p, size_t n);
  size_t EscSkipped(const Byte* p, size_t n);
  std::optional<size_t> GsStyle(const Byte* p, size_t n);
  std::optional<size_t> GsGraphics(const Byte* p, size_t n);
  size_t GsRasterImage(const Byte* p, size_t n);
  size_t GsBarcode(const Byte* p, size_t n);
  size_t GsOther(const Byte* p, size_t n);
};

}  // namespace balcao::printer
