// Receipts shaped like the bank's (docs/sandbox.md, "Receipts and PDFs"): an A4 page with
// the issuer's header band, the document's title, its fields as a shaded two-tone table
// (bold label, value), an authentication block (the SHA-256 of the receipt's text, grouped
// like the bank's authentication code, and a QR code of it drawn as vector squares) and a
// footer saying who issued it. Uncompressed content streams, standard fonts, so pdftotext
// reads every field back. Pure; thread-safe.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "api/crypto.h"
#include "api/formats/brcode.h"
#include "common/qr.h"
#include "sandbox/internal/artifacts.h"

namespace balcao::sandbox::internal {
namespace {

constexpr int kPageWidth = 595, kPageHeight = 842, kMargin = 50;
constexpr int kTopOfTable = 700, kBottomOfTable = 190;  // below it: the authentication block
constexpr std::size_t kWrapAt = 78;                     // characters of one value line

std::string PdfText(const std::string& s) {
  std::string out;
  for (char c : formats::FoldToBrCodeText(s, 400)) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// One text run at (x, y): font F1 (regular) or F2 (bold), size, gray level.
std::string Text(int x, int y, const std::string& font, int size, const std::string& text, double gray = 0) {
  return "BT " + Num(gray) + " g /" + font + " " + std::to_string(size) + " Tf " + std::to_string(x) + " " +
         std::to_string(y) + " Td (" + PdfText(text) + ") Tj ET\n";
}

std::string Rect(double x, double y, double w, double h, const std::string& rgb) {
  return rgb + " rg " + Num(x) + " " + Num(y) + " " + Num(w) + " " + Num(h) + " re f\n";
}

// A field line "Label: value" becomes a bold label and its value in one text run (pdftotext
// reads "Label: value" back); long values wrap onto the next lines.
struct Row {
  std::string label;  // up to its ':', empty for a free line
  std::vector<std::string> value_lines;
};

std::vector<Row> Rows(const std::vector<std::string>& lines) {
  std::vector<Row> rows;
  for (const auto& line : lines) {
    Row row;
    std::string value = line;
    if (const auto colon = line.find(": "); colon != std::string::npos && colon < 40) {
      row.label = line.substr(0, colon + 1);
      value = line.substr(colon + 2);
    }
    const std::size_t width = kWrapAt - row.label.size();
    do {
      row.value_lines.push_back(value.substr(0, width));
      value = value.size() > width ? value.substr(width) : std::string();
    } while (!value.empty());
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string Header(const std::string& title, int page, int pages) {
  std::string s = Rect(0, kPageHeight - 90, kPageWidth, 90, "0.07 0.19 0.36");
  s += Rect(0, kPageHeight - 94, kPageWidth, 4, "0.95 0.62 0.13");
  s += Text(kMargin, kPageHeight - 48, "F2", 20, "Balcao Sandbox", 1);
  s += Text(kMargin, kPageHeight - 70, "F1", 10, "Comprovante / Receipt - bank API v2 emulator", 1);
  s += Text(kPageWidth - kMargin - 70, kPageHeight - 48, "F1", 9,
            "Page " + std::to_string(page) + " of " + std::to_string(pages), 1);
  s += Text(kMargin, kTopOfTable + 30, "F2", 15, title);
  s += "0.07 0.19 0.36 RG 1.5 w " + std::to_string(kMargin) + " " + std::to_string(kTopOfTable + 20) + " m " +
       std::to_string(kPageWidth - kMargin) + " " + std::to_string(kTopOfTable + 20) + " l S\n";
  return s;
}

std::string Footer(const std::string& issued) {
  std::string s =
      "0.6 G 0.5 w " + std::to_string(kMargin) + " 70 m " + std::to_string(kPageWidth - kMargin) + " 70 l S\n";
  s += Text(kMargin, 56, "F1", 8,
            "Issued by Balcao Sandbox, a local emulator of the bank's API v2" +
                (issued.empty() ? std::string(".") : ", for the operation of " + issued + "."),
            0.35);
  s += Text(kMargin, 44, "F1", 8,
            "Not a bank document: no money moved. The authentication code identifies this receipt's content.", 0.35);
  s += Text(kMargin, 32, "F1", 8, "Comprovante emitido pelo sandbox; nenhum valor foi movimentado.", 0.35);
  return s;
}

// The authentication block: the code (SHA-256 of the receipt text, 8 groups of 8 hex
// digits) and a QR code of it, drawn module by module.
std::string Authentication(const std::string& code) {
  std::string s = Rect(kMargin, 90, kPageWidth - 2 * kMargin, 90, "0.95 0.96 0.98");
  s += Text(kMargin + 12, 158, "F2", 10, "Authentication code / Autenticacao:");
  std::string first, second;
  for (std::size_t i = 0; i < code.size(); i += 8) (i < 32 ? first : second) += code.substr(i, 8) + " ";
  s += Text(kMargin + 12, 140, "F1", 10, first);
  s += Text(kMargin + 12, 126, "F1", 10, second);
  s += Text(kMargin + 12, 104, "F1", 8, "Verify: balcao-sandbox receipt " + code.substr(0, 16), 0.35);
  const StatusOr<QrMatrix> qr = EncodeQr("balcao-sandbox:receipt:" + code, QrLevel::kM);
  if (!qr.ok()) return s;
  const double module = 80.0 / qr->size, left = kPageWidth - kMargin - 85, bottom = 95;
  s += "0 0 0 rg\n";
  for (int y = 0; y < qr->size; ++y)
    for (int x = 0; x < qr->size; ++x)
      if (qr->dark(x, y))
        s += Num(left + x * module) + " " + Num(bottom + (qr->size - 1 - y) * module) + " " + Num(module) + " " +
             Num(module) + " re\n";
  return s + "f\n";
}

// The table pages: each row shaded alternately, label bold, value regular.
std::vector<std::string> TablePages(const std::vector<Row>& rows) {
  std::vector<std::string> pages(1);
  int y = kTopOfTable, n = 0;
  for (const Row& row : rows) {
    const int height = 16 * static_cast<int>(row.value_lines.size()) + 4;
    if (y - height < kBottomOfTable) {
      pages.emplace_back();
      y = kTopOfTable;
    }
    std::string& page = pages.back();
    if (n++ % 2 == 0) page += Rect(kMargin, y - height + 4, kPageWidth - 2 * kMargin, height, "0.93 0.94 0.96");
    int line_y = y - 11;
    for (std::size_t i = 0; i < row.value_lines.size(); ++i, line_y -= 16) {
      const std::string label = i == 0 ? row.label : std::string();
      page += "BT 0.25 g /F2 10 Tf " + std::to_string(kMargin + 8) + " " + std::to_string(line_y) + " Td (" +
              PdfText(label) + ") Tj 0 g /F1 10 Tf (" + (label.empty() ? "" : " ") + PdfText(row.value_lines[i]) +
              ") Tj ET\n";
    }
    y -= height;
  }
  return pages;
}

std::string Hex(const std::array<std::uint8_t, 32>& digest) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string out;
  for (auto b : digest) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// Objects 1 catalog, 2 pages, 3 and 4 fonts, 5 info, then page and content per page.
std::string Assemble(const std::string& title, const std::vector<std::string>& contents) {
  std::vector<std::string> objects;
  std::string kids;
  const int first_page = 6;
  for (std::size_t i = 0; i < contents.size(); ++i) kids += std::to_string(first_page + 2 * i) + " 0 R ";
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(contents.size()) + " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  objects.push_back("<< /Title (" + PdfText(title) + ") /Producer (Balcao Sandbox) /Creator (Balcao Sandbox) >>");
  for (std::size_t i = 0; i < contents.size(); ++i) {
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + std::to_string(kPageWidth) + " " +
                      std::to_string(kPageHeight) + "] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents " +
                      std::to_string(first_page + 2 * i + 1) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(contents[i].size()) + " >>\nstream\n" + contents[i] + "endstream");
  }
  std::string pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
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
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R /Info 5 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

}  // namespace

File TextPdf(const std::string& title, const std::vector<std::string>& lines) {
  std::string text = title;
  for (const auto& l : lines) text += "\n" + l;
  const std::string code = Hex(api::Sha256(text));
  std::string issued;
  for (const auto& l : lines)
    if (l.rfind("Created: ", 0) == 0 || l.rfind("Date: ", 0) == 0) issued = l.substr(l.find(": ") + 2);
  std::vector<std::string> pages = TablePages(Rows(lines));
  const int count = static_cast<int>(pages.size());
  for (int i = 0; i < count; ++i)
    pages[i] = Header(title, i + 1, count) + pages[i] + (i + 1 == count ? Authentication(code) : "") + Footer(issued);
  return File{"application/pdf", Assemble(title, pages)};
}

}  // namespace balcao::sandbox::internal
