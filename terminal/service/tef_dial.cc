// TEF Dial in `balcao serve`: the manager (integration/tefdial/manager.h) on the box's counter
// (register_counter.cc), its folders where --tef-dial-dir / tef_dial.dir says, its exchange log
// in the data dir. A sale the unresolved-sale policy settles is flagged on the touchscreen.
#include <cstdlib>
#include <filesystem>

#include "common/log.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {
namespace {

// 010-000's receipts are printable ASCII: the store's name without its accents.
std::string Ascii(const std::string& text) {
  static const std::pair<const char*, char> kAccents[] = {
      {"á", 'a'}, {"à", 'a'}, {"â", 'a'}, {"ã", 'a'}, {"é", 'e'}, {"ê", 'e'}, {"í", 'i'}, {"ó", 'o'}, {"ô", 'o'},
      {"õ", 'o'}, {"ú", 'u'}, {"ü", 'u'}, {"ç", 'c'}, {"Á", 'A'}, {"À", 'A'}, {"Â", 'A'}, {"Ã", 'A'}, {"É", 'E'},
      {"Ê", 'E'}, {"Í", 'I'}, {"Ó", 'O'}, {"Ô", 'O'}, {"Õ", 'O'}, {"Ú", 'U'}, {"Ç", 'C'}};
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    for (const auto& [accent, plain] : kAccents) {
      const std::size_t n = std::char_traits<char>::length(accent);
      if (text.compare(i, n, accent) == 0) {
        out += plain;
        i += n;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

}  // namespace

Status Service::Impl::OpenTefDial() {
  if (setup.options.tef_dial_dir.empty()) return OkStatus();
  namespace tef = integration::tefdial;
  tef::ManagerOptions m;
  std::error_code ec;
  const auto dir = std::filesystem::absolute(setup.options.tef_dial_dir, ec);
  if (ec) return InvalidArgumentError("--tef-dial-dir " + setup.options.tef_dial_dir + ": " + ec.message());
  m.folder.dir = dir.lexically_normal().string();
  m.folder.group = setup.config.tef_dial.group;
  m.log_path = (std::filesystem::path(setup.options.data_dir) / "tefdial.jsonl").string();
  integration::ParsePayMethod(setup.options.tef_dial_method, m.method);
  m.unresolved = setup.config.tef_dial.unresolved == "confirm" ? tef::Unresolved::kConfirm : tef::Unresolved::kUndo;
  m.unresolved_after_s = setup.config.tef_dial.unresolved_after_s;
  m.merchant = tef::Merchant{Ascii(setup.config.store.merchant.name), setup.config.store.merchant.cnpj, "BALCAO",
                             setup.config.nexo.institution_cnpj};
  // Fault injection for the kill tests only (docs/integration.md, "Power cuts").
  if (const char* step = std::getenv("BALCAO_TEF_DIAL_CRASH_AT"); step != nullptr) m.crash_at = step;
  // The bank's time (docs/adr/0005-bank-time.md): the journal's times and the unresolved-sale
  // deadlines neither follow the box's wall clock when it is wrong nor jump when it is set.
  BALCAO_ASSIGN_OR_RETURN(
      doors.tef_dial,
      tef::Manager::Open(m, *counter, bank_side->clock(), [this](const std::string& sale_id, const std::string& text) {
        sales->book().AddFlag(sale_id, text);
        logging::Warn("tefdial", text, {{"sale", sale_id}});
      }));
  doors.tef_dial_dir = m.folder.dir;
  return OkStatus();
}

}  // namespace balcao::terminal::service
