#include "printer/internal/layout.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/card_digits.h"
#include "printer/format.h"
#include "printer/internal/canvas.h"
#include "printer/internal/codepage.h"
#include "printer/internal/font.h"

namespace balcao::printer::internal {
namespace {

struct Replacement {
  char32_t cp;
  const char* ascii;
};
constexpr Replacement kReplacements[] = {
    {0x2018, "'"}, {0x2019, "'"}, {0x201A, ","},   {0x201C, "\""},  {0x201D, "\""},  {0x201E, "\""},
    {0x2013, "-"}, {0x2014, "-"}, {0x2026, "..."}, {0x2022, "*"},   {0x20AC, "EUR"}, {0x2122, "TM"},
    {0x00A0, " "}, {0x00AD, "-"}, {0x00B7, "."},   {0x2212, "-"},   {0x00D7, "x"},   {0x00AA, "a"},
    {0x00BA, "o"}, {0x00B0, "o"}, {0x00A9, "(c)"}, {0x00AE, "(R)"}, {0x00AB, "\""},  {0x00BB, "\""},
};

bool Printable(char32_t cp, const PrinterProfile& p) {
  if (cp < 0x20 || cp == 0x7F) return false;
  return FontHas(cp) && EncodeChar(p.code_table, cp) >= 0;
}

// Appends cp, or its fallback, as printable cells.
void AppendPrintable(std::vector<Cell>& out, char32_t cp, const TextStyle& style, const PrinterProfile& p) {
  if (cp == '\t') cp = ' ';
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return;  // C0/C1 controls never reach the printer
  if (Printable(cp, p)) {
    out.push_back({cp, style});
    return;
  }
  for (const Replacement& r : kReplacements) {
    if (r.cp == cp) {
      for (const char* s = r.ascii; *s; ++s) out.push_back({static_cast<char32_t>(*s), style});
      return;
    }
  }
  const char32_t base = BaseLetter(cp);
  out.push_back({base != 0 && Printable(base, p) ? base : U'?', style});
}

std::vector<Cell> ToCells(const Span& span, const PrinterProfile& p) {
  TextStyle style = span.style;
  style.width = std::clamp<std::uint8_t>(style.width, 1, 8);
  style.height = std::clamp<std::uint8_t>(style.height, 1, 8);
  std::vector<Cell> cells;
  for (char32_t cp : MaskCardNumbers(DecodeUtf8(span.text))) {
    if (cp == '\n') {
      cells.push_back({U'\n', style});
      continue;
    }
    AppendPrintable(cells, cp, style, p);
  }
  return cells;
}

int Width(const std::vector<Cell>& cells) {
  int w = 0;
  for (const Cell& c : cells) w += c.style.width;
  return w;
}

// Greedy word wrap to `columns`; words longer than a line are broken. '\n' forces a break.
std::vector<std::vector<Cell>> Wrap(const std::vector<Cell>& cells, int columns) {
  std::vector<std::vector<Cell>> lines(1);
  int width = 0;
  size_t i = 0;
  while (i < cells.size()) {
    if (cells[i].ch == '\n') {
      lines.emplace_back();
      width = 0;
      ++i;
      continue;
    }
    if (cells[i].ch == ' ') {
      // A space is kept only between words on the same line.
      if (width > 0 && width + cells[i].style.width <= columns) {
        lines.back().push_back(cells[i]);
        width += cells[i].style.width;
      }
      ++i;
      continue;
    }
    size_t end = i;
    int word = 0;
    while (end < cells.size() && cells[end].ch != ' ' && cells[end].ch != '\n') word += cells[end++].style.width;
    if (width + word > columns && width > 0) {
      while (!lines.back().empty() && lines.back().back().ch == ' ') lines.back().pop_back();
      lines.emplace_back();
      width = 0;
    }
    for (; i < end; ++i) {
      if (width + cells[i].style.width > columns && width > 0) {
        lines.emplace_back();
        width = 0;
      }
      lines.back().push_back(cells[i]);
      width += cells[i].style.width;
    }
  }
  for (auto& l : lines) {
    while (!l.empty() && l.back().ch == ' ') l.pop_back();
  }
  return lines;
}

std::vector<Cell> Padded(std::vector<Cell> line, Align align, int columns) {
  const int free = columns - Width(line);
  int pad = align == Align::kCenter ? free / 2 : align == Align::kRight ? free : 0;
  if (pad <= 0) return line;
  line.insert(line.begin(), static_cast<size_t>(pad), Cell{U' ', {}});
  return line;
}

class Layouter {
 public:
  explicit Layouter(const PrinterProfile& p) : p_(p) {}

  void operator()(const TextBlock& b) {
    std::vector<Cell> cells;
    for (const Span& s : b.spans) {
      std::vector<Cell> c = ToCells(s, p_);
      cells.insert(cells.end(), c.begin(), c.end());
    }
    if (b.verbatim) {
      std::vector<Cell> line;
      int width = 0;
      for (const Cell& c : cells) {
        if (c.ch == U'\n' || width + c.style.width > p_.columns) {
          AddText(std::exchange(line, {}));
          width = 0;
          if (c.ch == U'\n') continue;
        }
        line.push_back(c);
        width += c.style.width;
      }
      if (!line.empty()) AddText(std::move(line));
      return;
    }
    for (auto& line : Wrap(cells, p_.columns)) AddText(Padded(std::move(line), b.align, p_.columns));
  }

  void operator()(const ColumnsBlock& b) {
    std::vector<Cell> left = ToCells(b.left, p_);
    std::vector<Cell> right = ToCells(b.right, p_);
    const int rw = Width(right);
    if (Width(left) + 1 + rw <= p_.columns) {
      AddText(Joined(std::move(left), right));
      return;
    }
    auto left_lines = Wrap(left, p_.columns);
    std::vector<Cell> last = std::move(left_lines.back());
    left_lines.pop_back();
    for (auto& l : left_lines) AddText(std::move(l));
    if (Width(last) + 1 + rw <= p_.columns) {
      AddText(Joined(std::move(last), right));
      return;
    }
    AddText(std::move(last));
    for (auto& l : Wrap(right, p_.columns)) AddText(Padded(std::move(l), Align::kRight, p_.columns));
  }

  void operator()(const RuleBlock& b) {
    AddText(std::vector<Cell>(static_cast<size_t>(p_.columns), Cell{b.double_rule ? U'=' : U'-', {}}));
  }

  void operator()(const FeedBlock& b) {
    for (int i = 0; i < std::clamp(b.lines, 0, 255); ++i) AddText({});
  }

  void operator()(const QrBlock& b) {
    if (b.data.empty()) return;  // nothing to scan: print nothing
    LaidLine l;
    l.kind = LaidLine::Kind::kQr;
    l.data = b.data;
    l.level = b.level;
    lines_.push_back(std::move(l));
  }

  void operator()(const BarcodeBlock& b) {
    if (b.data.empty()) return;
    LaidLine l;
    l.kind = LaidLine::Kind::kBarcode;
    l.data = b.data;
    l.barcode_height = std::clamp(b.height_dots, 8, 255);
    lines_.push_back(std::move(l));
  }

  void operator()(const CutBlock&) {
    for (int i = 0; i < p_.feed_before_cut; ++i) AddText({});
    if (!p_.cutter) return;
    LaidLine l;
    l.kind = LaidLine::Kind::kCut;
    lines_.push_back(std::move(l));
  }

  void operator()(const DrawerKickBlock&) {
    if (!p_.drawer) return;
    LaidLine l;
    l.kind = LaidLine::Kind::kDrawerKick;
    lines_.push_back(std::move(l));
  }

  std::vector<LaidLine> Take() { return std::move(lines_); }

 private:
  std::vector<Cell> Joined(std::vector<Cell> left, const std::vector<Cell>& right) const {
    const int gap = p_.columns - Width(left) - Width(right);
    left.insert(left.end(), static_cast<size_t>(gap), Cell{U' ', {}});
    left.insert(left.end(), right.begin(), right.end());
    return left;
  }

  void AddText(std::vector<Cell> cells) {
    LaidLine l;
    l.cells = std::move(cells);
    lines_.push_back(std::move(l));
  }

  const PrinterProfile& p_;
  std::vector<LaidLine> lines_;
};

bool IsDigit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool IsSeparator(char32_t c) { return c == U' ' || c == U'-' || c == U'.'; }

}  // namespace

std::u32string MaskCardNumbers(const std::u32string& text) {
  std::u32string out;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsDigit(text[i])) {
      out.push_back(text[i++]);
      continue;
    }
    // A run of digit groups joined by single separators ("4111 1111-1111.1111 21").
    struct Group {
      size_t begin, end;  // [begin, end) in text
    };
    std::vector<Group> groups;
    size_t pos = i;
    while (true) {
      size_t e = pos;
      while (e < text.size() && IsDigit(text[e])) ++e;
      groups.push_back({pos, e});
      if (e + 1 < text.size() && IsSeparator(text[e]) && IsDigit(text[e + 1])) {
        pos = e + 1;
        continue;
      }
      break;
    }
    // Mask every range of whole groups holding 13-19 digits that passes Luhn.
    size_t g = 0, copied = i;
    while (g < groups.size()) {
      std::u32string digits;
      size_t match = groups.size();
      for (size_t h = g; h < groups.size(); ++h) {
        digits.append(text, groups[h].begin, groups[h].end - groups[h].begin);
        if (digits.size() > 19) break;
        if (digits.size() >= 13 && PassesLuhn(std::string(digits.begin(), digits.end()))) {
          match = h;
          break;
        }
      }
      if (match == groups.size()) {
        ++g;
        continue;
      }
      out.append(text, copied, groups[g].begin - copied);
      std::string ascii(digits.begin(), digits.end());
      const MaskedPan masked = MaskPan(ascii);
      for (char c : masked.str()) out.push_back(static_cast<char32_t>(c));
      copied = groups[match].end;
      g = match + 1;
    }
    out.append(text, copied, groups.back().end - copied);
    i = groups.back().end;
  }
  return out;
}

std::vector<LaidLine> LayOut(const Document& doc, const PrinterProfile& profile) {
  Layouter layouter(profile);
  for (const Block& b : doc.blocks()) std::visit(layouter, b);
  return layouter.Take();
}

int TextLinePitch(const LaidLine& line) {
  int h = 1;
  for (const Cell& c : line.cells) h = std::max<int>(h, c.style.height);
  return std::max(kLinePitch, kCellHeight * h + (kLinePitch - kCellHeight));
}

std::string CellsToText(const std::vector<Cell>& cells) {
  std::string out;
  for (const Cell& c : cells) {
    AppendUtf8(out, c.ch);
    out.append(static_cast<size_t>(c.style.width - 1), ' ');
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace balcao::printer::internal
