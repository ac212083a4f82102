// The virtual printer's core: an ESC/POS interpreter. It decodes text with the selected
// code table, applies styles, alignment and line spacing, draws raster images, native QR
// (re-encoded with libqrencode from the stored data) and CODE128 barcodes onto a paper
// canvas, answers status queries (DLE EOT, GS r, GS I) from a settable printer state, and
// splits the stream into pages at each cut. It accepts any bytes: unknown commands are
// skipped, truncated ones noted, sizes capped; it never crashes on garbage.
// Thread-safety: one Interpreter per stream, used from one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "printer/profile.h"

namespace balcao::printer {

namespace internal {
class Canvas;
}

struct PrinterState {
  bool paper_out = false;
  bool paper_near_end = false;
  bool cover_open = false;
  bool offline = false;  // e.g. after an error
  bool drawer_open = false;
};

struct StatusQuery {
  std::string command;  // "DLE EOT 1", "GS r 1", ...
  int reply = -1;       // byte answered
};

struct RasterImage {
  int x = 0, y = 0, width = 0, height = 0;  // dots
};

// One printed job: what lies between two cuts (or up to the end of the stream).
struct VirtualPage {
  std::vector<std::string> lines;        // text lines, UTF-8, shared text convention
  std::vector<std::string> qr_payloads;  // native QR codes printed (GS ( k fn 181)
  std::vector<RasterImage> images;       // GS v 0 images (consecutive bands merged)
  std::vector<std::string> barcodes;     // GS k data (CODE128 without the {B prefix)
  bool cut = false;                      // ended by a cut command
  int drawer_kicks = 0;
  std::vector<StatusQuery> status_queries;
  std::vector<std::string> code_tables;  // tables selected with ESC t, in order
  int high_bytes_before_code_table = 0;  // bytes >= 0x80 printed before any ESC t
  std::vector<std::string> notes;        // unknown commands, truncation, caps hit
  std::shared_ptr<internal::Canvas> canvas;

  std::string Text() const;           // lines joined, each ended by '\n'
  StatusOr<std::string> Png() const;  // the paper, profile dots wide
  std::string Json() const;           // everything above except the pixels
  bool has_content() const { return has_content_; }
  bool has_content_ = false;
};

struct InterpreterOptions {
  int dots = 576;
  // ESC t number -> table; defaults to the Epson numbering.
  std::vector<CodeTableNumber> code_tables = EpsonCodeTableNumbers();
  PrinterState state;
  bool draw = true;            // false: text and events only (cheap; used to inspect stored jobs)
  int max_page_dots = 200000;  // a page longer than ~25 m of paper is cut automatically
  // The options that decode what RenderEscPos produced for `profile`.
  static InterpreterOptions ForProfile(const PrinterProfile& profile);
};

class Interpreter {
 public:
  explicit Interpreter(InterpreterOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Consumes bytes (commands may be split across calls). Returns the bytes the printer
  // answers (status replies), to be sent back to the host.
  std::string Feed(std::string_view bytes);
  // End of stream: prints what is buffered, notes a truncated command, and completes the
  // current page if it has content.
  void Finish();
  // Pages completed so far (by cut or Finish), oldest first; removes them.
  std::vector<VirtualPage> TakePages();
  // After Finish: status queries answered after the last page was completed (a host that
  // checks the printer after its job, then closes). They belong to that last job.
  const std::vector<StatusQuery>& trailing_status_queries() const;
  void set_state(const PrinterState& state);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Interprets a whole buffer: Feed + Finish + TakePages.
std::vector<VirtualPage> Interpret(std::string_view bytes, const InterpreterOptions& options = {});

}  // namespace balcao::printer
