// Single-character mutations of valid codes. Each verdict of the library must equal the
// verdict of a small independent oracle written here from docs/formats.md, and the oracle shows
// how few changes the check digits cannot see (mod 11 maps two remainders to one DV).
#include <gtest/gtest.h>

#include <functional>

#include "api/formats/brcode.h"
#include "api/formats/check.h"
#include "api/formats/end_to_end_id.h"
#include "api/formats/tax_id.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::formats {
namespace {

// --- Oracles (docs/formats.md: "General check digit", "Digitable line", "Check digits",
// "CPF and CNPJ") ---------------------------------------------------------------------

int Mod11Sum(std::string_view digits) {
  int sum = 0;
  int weight = 2;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    sum += (*it - '0') * weight;
    weight = weight == 9 ? 2 : weight + 1;
  }
  return sum;
}

char Mod10(std::string_view digits) {
  int sum = 0;
  bool two = true;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it, two = !two) {
    int p = (*it - '0') * (two ? 2 : 1);
    sum += p / 10 + p % 10;
  }
  return static_cast<char>('0' + (10 - sum % 10) % 10);
}

char BoletoDv(std::string_view digits43) {
  int dv = 11 - Mod11Sum(digits43) % 11;
  return static_cast<char>('0' + ((dv == 0 || dv > 9) ? 1 : dv));
}

char UtilityDv(std::string_view digits, bool mod11) {
  if (!mod11) return Mod10(digits);
  int r = Mod11Sum(digits) % 11;
  return static_cast<char>('0' + (r < 2 ? 0 : 11 - r));
}

bool BoletoBarcodeOk(const std::string& b) { return b[3] == '9' && b[4] == BoletoDv(b.substr(0, 4) + b.substr(5)); }

bool BoletoLineOk(const std::string& l) {
  bool fields = l[9] == Mod10(l.substr(0, 9)) && l[20] == Mod10(l.substr(10, 10)) && l[31] == Mod10(l.substr(21, 10));
  std::string b = l.substr(0, 4) + l.substr(32, 15) + l.substr(4, 5) + l.substr(10, 10) + l.substr(21, 10);
  return fields && BoletoBarcodeOk(b);
}

bool UtilityBarcodeOk(const std::string& b) {
  bool header = b[0] == '8' && b[1] != '0' && b[1] != '8' && b[2] >= '6' && b[2] <= '9';
  return header && b[3] == UtilityDv(b.substr(0, 3) + b.substr(4), b[2] >= '8');
}

bool UtilityLineOk(const std::string& l) {
  if (l[2] < '6' || l[2] > '9') return false;
  std::string b;
  for (std::size_t k = 0; k < 4; ++k) {
    if (l[k * 12 + 11] != UtilityDv(l.substr(k * 12, 11), l[2] >= '8')) return false;
    b += l.substr(k * 12, 11);
  }
  return UtilityBarcodeOk(b);
}

// CPF/CNPJ DV: weights from `first` down to 2 then wrapping to `wrap`, r < 2 -> 0.
char TaxDv(std::string_view body, int first, int wrap) {
  int sum = 0;
  int w = first;
  for (char c : body) {
    sum += (c - '0') * w;
    w = w == 2 ? wrap : w - 1;
  }
  int r = sum % 11;
  return static_cast<char>('0' + (r < 2 ? 0 : 11 - r));
}

bool AllSame(const std::string& s) { return s.find_first_not_of(s[0]) == std::string::npos; }

bool CpfOk(const std::string& s) {
  std::string body = s.substr(0, 9);
  body += TaxDv(body, 10, 10);
  body += TaxDv(body, 11, 11);
  return body == s && !AllSame(s);
}

bool CnpjOk(const std::string& s) {
  if (s[12] < '0' || s[12] > '9' || s[13] < '0' || s[13] > '9') return false;
  std::string body = s.substr(0, 12);
  body += TaxDv(body, 5, 9);
  body += TaxDv(body, 6, 9);
  return body == s && !AllSame(s);
}

// --- Mutation driver ---------------------------------------------------------------------

struct Tally {
  int mutations = 0;
  int accepted = 0;
};

// Replaces each position of `valid` by every other char of `alphabet` and compares the
// library's verdict with the oracle's.
Tally Mutate(const std::string& valid, std::string_view alphabet, FormatKind kind,
             const std::function<bool(const std::string&)>& oracle) {
  Tally t;
  CheckOptions options{.reference_date = Date{std::chrono::year{2025}, std::chrono::month{6}, std::chrono::day{15}}};
  EXPECT_TRUE(CheckAs(kind, valid, options).valid) << valid;
  EXPECT_TRUE(oracle(valid)) << valid;
  for (std::size_t pos = 0; pos < valid.size(); ++pos) {
    for (char c : alphabet) {
      if (c == valid[pos]) continue;
      std::string mutated = valid;
      mutated[pos] = c;
      ++t.mutations;
      bool accepted = CheckAs(kind, mutated, options).valid;
      t.accepted += accepted;
      EXPECT_EQ(accepted, oracle(mutated)) << FormatKindName(kind) << " " << mutated << " (pos " << pos + 1 << ")";
    }
  }
  return t;
}

constexpr std::string_view kDigits = "0123456789";

TEST(FormatsMutation, BoletoBarcode) {
  for (const std::string valid :
       {"10499898100000214032006561000100040099726390", "00193373700000001000500940144816060680935031",
        "00196758600001026560000001149718606852452211"}) {
    Tally t = Mutate(valid, kDigits, FormatKind::kBoletoBarcode, BoletoBarcodeOk);
    EXPECT_EQ(t.mutations, 44 * 9);
    EXPECT_LT(t.accepted, t.mutations / 10) << valid;
  }
}

TEST(FormatsMutation, BoletoLine) {
  for (const std::string valid :
       {"00190000090114971860168524522114675860000102656", "23793381286000782713695000063305975520000370000",
        "10492006506100010004200997263900989810000021403"}) {
    Tally t = Mutate(valid, kDigits, FormatKind::kBoletoLine, BoletoLineOk);
    EXPECT_LT(t.accepted, t.mutations / 20) << valid;
  }
  // Fields 1-3 are under mod 10: every single change there is caught.
  const std::string valid = "00190000090114971860168524522114675860000102656";
  for (std::size_t pos = 0; pos < 32; ++pos) {
    for (char c : kDigits) {
      std::string m = valid;
      if (c == m[pos]) continue;
      m[pos] = c;
      EXPECT_FALSE(Check(m).valid) << m;
    }
  }
}

TEST(FormatsMutation, UtilityMod10) {
  for (const std::string valid :
       {"846100000005246100291102005460339004695895061080", "84610000000246100291100054603390069589506108",
        "846300000003299902962024004101360008002006441147"}) {
    bool line = valid.size() == 48;
    Tally t = Mutate(valid, kDigits, line ? FormatKind::kUtilityLine : FormatKind::kUtilityBarcode,
                     line ? UtilityLineOk : UtilityBarcodeOk);
    EXPECT_LT(t.accepted, t.mutations / 20) << valid;
  }
}

TEST(FormatsMutation, UtilityMod11) {
  for (const std::string valid :
       {"84890000000404201622018060519042958603411122", "85890000460524601791606075930508683148300001",
        "858900004609524601791605607593050865831483000010", "858000000070438403281922630720192528304729600523"}) {
    bool line = valid.size() == 48;
    Tally t = Mutate(valid, kDigits, line ? FormatKind::kUtilityLine : FormatKind::kUtilityBarcode,
                     line ? UtilityLineOk : UtilityBarcodeOk);
    EXPECT_LT(t.accepted, t.mutations / 10) << valid;
  }
}

TEST(FormatsMutation, Cpf) {
  for (const std::string valid : {"52998224725", "40364478829", "33745107608", "12345678909"}) {
    Tally t = Mutate(valid, kDigits, FormatKind::kCpf, CpfOk);
    EXPECT_LT(t.accepted, t.mutations / 20) << valid;
  }
}

TEST(FormatsMutation, CnpjIncludingLetters) {
  const std::string alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (const std::string valid : {"12ABC34501DE35", "91642017000106", "AA345678000A29", "60746948000112"}) {
    // Character values that differ by a multiple of 11 ('6' = 6 and 'A' = 17) weigh the
    // same mod 11, so letters let more substitutions through than digits do.
    Tally t = Mutate(valid, alnum, FormatKind::kCnpj, CnpjOk);
    EXPECT_LT(t.accepted, t.mutations / 10) << valid;
  }
}

// CRC-16 catches every single-character substitution (a burst of at most 8 bits).
TEST(FormatsMutation, BrCodeEveryCharacter) {
  std::string alphabet;
  for (char c = 0x20; c < 0x7F; ++c) alphabet.push_back(c);
  for (const std::string valid :
       {"00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de "
        "Tal6008BRASILIA62070503***63041D3D",
        "00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914Thales "
        "Ogliari6002SC62070503***6304E5AB"}) {
    Tally t = Mutate(valid, alphabet, FormatKind::kBrCode, [&](const std::string& m) { return m == valid; });
    EXPECT_EQ(t.accepted, 0);
    EXPECT_GT(t.mutations, 10000);
  }
}

TEST(FormatsMutation, EndToEndIdStructure) {
  // No check digit here: the shape rules are enforced position by position.
  const std::string valid = "E20018183202201201450u34sDGd19lz";
  for (std::size_t pos = 0; pos < 21; ++pos) {
    std::string m = valid;
    m[pos] = 'x';
    EXPECT_THAT(ParseEndToEndId(m), Not(IsOk())) << m;
  }
  for (std::size_t pos = 21; pos < 32; ++pos) {
    std::string m = valid;
    m[pos] = '-';
    EXPECT_THAT(ParseEndToEndId(m), Not(IsOk())) << m;
  }
}

}  // namespace
}  // namespace balcao::formats
