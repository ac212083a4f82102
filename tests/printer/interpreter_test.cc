// The virtual printer's interpreter on hand-written byte streams: decoding, status
// replies, page splitting, streaming, and garbage that must never crash it.
#include "printer/interpreter.h"

#include <gtest/gtest.h>

#include <random>

#include "printer/internal/canvas.h"
#include "printer/render.h"
#include "printer/samples.h"
#include "tests/testing/status_matchers.h"

namespace balcao::printer {
namespace {

using namespace std::string_literals;

TEST(Interpreter, DecodesWithTheSelectedTable) {
  // "ã" is 0x84 in CP860 (ESC t 3) and 0xE3 in WPC1252 (ESC t 16).
  auto pages = Interpret("\x1b@\x1bt\x03p\x84o\n\x1bt\x10p\xe3o\n"s);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].lines, (std::vector<std::string>{"pão", "pão"}));
  EXPECT_EQ(pages[0].code_tables, (std::vector<std::string>{"CP860", "WPC1252"}));
  EXPECT_EQ(pages[0].high_bytes_before_code_table, 0);
}

TEST(Interpreter, HighBytesBeforeAnyCodeTableAreCounted) {
  auto pages = Interpret("\x1b@\x84\n");
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].high_bytes_before_code_table, 1);
  EXPECT_EQ(pages[0].lines[0], "ä");  // CP437, the power-on table
}

TEST(Interpreter, AnswersStatusFromThePrinterState) {
  InterpreterOptions o;
  Interpreter in(o);
  EXPECT_EQ(in.Feed("\x10\x04\x01\x10\x04\x02\x10\x04\x04"), std::string("\x12\x12\x12"));
  in.set_state({.paper_out = true});
  EXPECT_EQ(in.Feed("\x10\x04\x01\x10\x04\x02\x10\x04\x04"), std::string("\x1a\x32\x72"));
  in.set_state({.cover_open = true});
  EXPECT_EQ(in.Feed("\x10\x04\x02"), std::string("\x16"));
  in.set_state({.offline = true});
  EXPECT_EQ(in.Feed("\x10\x04\x01"), std::string("\x1a"));
  in.Finish();
  EXPECT_TRUE(in.TakePages().empty());  // queries alone are not a job
}

TEST(Interpreter, CommandsSplitAcrossFeedsAreReassembled) {
  const std::string bytes = *RenderEscPos(*SampleDocument("pix"), *FindProfile("80mm"));
  Interpreter whole(InterpreterOptions::ForProfile(*FindProfile("80mm")));
  whole.Feed(bytes);
  whole.Finish();
  Interpreter bytewise(InterpreterOptions::ForProfile(*FindProfile("80mm")));
  for (char c : bytes) bytewise.Feed(std::string_view(&c, 1));
  bytewise.Finish();
  auto a = whole.TakePages(), b = bytewise.TakePages();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].lines, b[i].lines);
    EXPECT_EQ(a[i].qr_payloads, b[i].qr_payloads);
    EXPECT_EQ(*a[i].Png(), *b[i].Png());
  }
}

TEST(Interpreter, CutsSplitPagesAndTruncationIsNoted) {
  auto pages = Interpret("one\n\x1dV\x01two\n\x1dV\x42\x00three\n\x1d(k\x10"s);
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_TRUE(pages[0].cut);
  EXPECT_TRUE(pages[1].cut);
  EXPECT_FALSE(pages[2].cut);
  EXPECT_EQ(pages[2].lines, std::vector<std::string>{"three"});
  ASSERT_FALSE(pages[2].notes.empty());
  EXPECT_NE(pages[2].notes.back().find("stream ended inside a command"), std::string::npos);
}

TEST(Interpreter, StylesAndAlignment) {
  // ESC ! 0x30 = double width + height; GS ! 0x00 back to normal; right-aligned text.
  auto pages = Interpret(
      "\x1b!\x30"
      "AB\n\x1d!\x00\x1b"
      "a\x02"
      "xy\n"s);
  ASSERT_EQ(pages.size(), 1u);
  ASSERT_EQ(pages[0].lines.size(), 2u);
  EXPECT_EQ(pages[0].lines[0], "A B");
  EXPECT_EQ(pages[0].lines[1], std::string(46, ' ') + "xy");
  EXPECT_GE(pages[0].canvas->height(), 48 + 6 + 30);
}

TEST(Interpreter, AutomaticLineFeedAtTheMargin) {
  auto pages = Interpret(std::string(50, 'a') + "\n");
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].lines, (std::vector<std::string>{std::string(48, 'a'), "aa"}));
}

TEST(Interpreter, NativeQrIsRecordedAndDrawn) {
  auto pages = Interpret(
      "\x1d(k\x03\x00\x31\x43\x04\x1d(k\x07\x00\x31\x50\x30"
      "abcd\x1d(k\x03\x00\x31\x51\x30"s);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].qr_payloads, std::vector<std::string>{"abcd"});
  EXPECT_EQ(pages[0].canvas->height(), (21 + 8) * 4);
}

std::string Mutate(std::string bytes, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<size_t> pos(0, bytes.size() - 1);
  const int edits = 1 + static_cast<int>(rng() % 20);
  for (int i = 0; i < edits; ++i) bytes[pos(rng)] = static_cast<char>(byte(rng));
  return bytes.substr(0, pos(rng) + 1);  // and truncate somewhere
}

TEST(Interpreter, GarbageAndTruncatedInputNeverCrashes) {
  std::mt19937 rng(20261121);
  std::vector<std::string> seeds;
  for (const char* kind : {"card", "pix", "offline", "test"}) {
    for (const char* profile : {"80mm", "58mm"}) {
      seeds.push_back(*RenderEscPos(*SampleDocument(kind), *FindProfile(profile)));
    }
  }
  size_t pages = 0;
  for (int round = 0; round < 300; ++round) {
    const std::string input = Mutate(seeds[round % seeds.size()], rng);
    InterpreterOptions o;
    o.max_page_dots = 20000;
    Interpreter in(o);
    // Feed in random chunks, as a socket would deliver it.
    size_t at = 0;
    while (at < input.size()) {
      const size_t n = 1 + rng() % 700;
      in.Feed(std::string_view(input).substr(at, n));
      at += n;
    }
    in.Finish();
    for (VirtualPage& p : in.TakePages()) {
      ++pages;
      EXPECT_OK(p.Png());
      EXPECT_FALSE(p.Json().empty());
    }
  }
  // Pure random bytes, including every command prefix.
  for (int round = 0; round < 200; ++round) {
    std::string input(1 + rng() % 4000, '\0');
    for (char& c : input) c = static_cast<char>(rng() % 4 == 0 ? "\x1b\x1d\x10\x1c"[rng() % 4] : rng() % 256);
    InterpreterOptions o;
    o.max_page_dots = 20000;
    for (VirtualPage& p : Interpret(input, o)) {
      ++pages;
      EXPECT_OK(p.Png());
    }
  }
  EXPECT_GT(pages, 0u);
}

TEST(Interpreter, HugeDeclaredSizesAreRejectedNotAllocated) {
  auto pages = Interpret(
      "\x1dv0\x00\xff\xff\xff\xff"
      "after\n"s);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].lines.back(), "after");
  EXPECT_FALSE(pages[0].notes.empty());
}

TEST(Interpreter, EndlessFeedsAreCappedPerPage) {
  InterpreterOptions o;
  o.max_page_dots = 10000;
  std::string feeds;
  for (int i = 0; i < 200; ++i)
    feeds +=
        "\x1b"
        "d\xff";
  auto pages = Interpret(feeds, o);
  EXPECT_GT(pages.size(), 1u);
  for (const auto& p : pages) EXPECT_LE(p.canvas->height(), 10000 + 300);
}

}  // namespace
}  // namespace balcao::printer
