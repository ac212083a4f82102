#include "printer/receipt.h"

#include <utility>

namespace balcao::printer {

template <typename T>
void Document::Add(T block) {
  blocks_.emplace_back(std::in_place_type<T>, std::move(block));
}

Document& Document::Text(std::string utf8, TextStyle style, Align align) {
  Add(TextBlock{{Span{std::move(utf8), style}}, align});
  return *this;
}

Document& Document::Line(std::vector<Span> spans, Align align) {
  Add(TextBlock{std::move(spans), align});
  return *this;
}

Document& Document::Code(std::string text) {
  Add(TextBlock{{Span{std::move(text), {}}}, Align::kLeft, true});
  return *this;
}

Document& Document::Columns(std::string left, std::string right, TextStyle style) {
  return Columns(Span{std::move(left), style}, Span{std::move(right), style});
}

Document& Document::Columns(Span left, Span right) {
  Add(ColumnsBlock{std::move(left), std::move(right)});
  return *this;
}

Document& Document::Rule(bool double_rule) {
  Add(RuleBlock{double_rule});
  return *this;
}

Document& Document::Feed(int lines) {
  Add(FeedBlock{lines});
  return *this;
}

Document& Document::Qr(std::string data, QrLevel level) {
  Add(QrBlock{std::move(data), level});
  return *this;
}

Document& Document::Barcode(std::string data, int height_dots) {
  Add(BarcodeBlock{std::move(data), height_dots});
  return *this;
}

Document& Document::Cut() {
  Add(CutBlock{});
  return *this;
}

Document& Document::DrawerKick() {
  Add(DrawerKickBlock{});
  return *this;
}

Document& Document::Append(const Document& other) {
  blocks_.insert(blocks_.end(), other.blocks_.begin(), other.blocks_.end());
  return *this;
}

}  // namespace balcao::printer
