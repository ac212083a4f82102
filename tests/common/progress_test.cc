// ProgressLine: drawn in place when enabled, nothing at all otherwise.
#include "common/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

namespace balcao {
namespace {

std::string Contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buffer[256];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, f)) text.append(buffer, n);
  return text;
}

TEST(ProgressLine, DisabledWritesNothing) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line("pages", f, /*enabled=*/false);
    line.Update("3 pages, 300 items");
    line.Finish();
  }
  EXPECT_EQ(Contents(f), "");
  std::fclose(f);
}

TEST(ProgressLine, RedrawsInPlaceAndErasesAtTheEnd) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line("balcao api list", f, /*enabled=*/true);
    line.Update("1 page, 100 items");
    line.Update("skipped: under 100 ms after the last");
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    line.Update("2 pages, 200 items");
  }
  const std::string text = Contents(f);
  EXPECT_EQ(text.find("skipped"), std::string::npos);
  EXPECT_EQ(text.rfind("\r\033[Kbalcao api list: 1 page, 100 items, 0.", 0), 0u) << text;
  EXPECT_NE(text.find("\r\033[Kbalcao api list: 2 pages, 200 items, "), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K") << "the destructor erases the line";
  std::fclose(f);
}

}  // namespace
}  // namespace balcao
