#include "integration/tefdial/manager.h"

#include <unistd.h>

#include <cctype>
#include <condition_variable>
#include <mutex>

#include "common/log.h"
#include "integration/tefdial/intpos.h"
#include "integration/tefdial/request.h"

namespace balcao::integration::tefdial {
namespace {

constexpr std::chrono::milliseconds kTickEvery{1000};
constexpr std::chrono::milliseconds kLookEvery{200};  // how often an idle manager reads the clock (it may jump)
constexpr UnixMicros kRetryAfter = 2'000'000;  // an in-progress sale, an undo or a CNC the counter could not take
constexpr const char* kRegister = "tef-dial";  // the register id of every TEF Dial request at the counter

// 030-000 is A..40 of printable ASCII, in capitals by custom.
std::string OperatorText(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text.substr(0, 40);
}

std::string Refused(const PaymentOutcome& o) {
  switch (o.result) {
    case Result::kRefused:
      return OperatorText(o.reason.empty() ? "TRANSACAO NEGADA" : "NEGADA: " + o.reason);
    case Result::kAborted:
      return "TRANSACAO CANCELADA NO CAIXA";
    case Result::kBusy:
      return "CAIXA OCUPADO COM OUTRA VENDA";
    case Result::kUnavailable:
      return "BANCO INDISPONIVEL: TENTE OUTRO MEIO";
    case Result::kNotAllowed:
      return "FORMA DE PAGAMENTO NAO PERMITIDA";
    default:
      return OperatorText(o.reason.empty() ? "TRANSACAO NAO CONCLUIDA" : o.reason);
  }
}

Request CrtOf(const TefSale& sale) {
  return Request{Command::kCrt, sale.request_id, sale.fiscal_document, sale.amount};
}

// The answer to a file that is not a valid request, when its command expects one.
IntPos Invalid(const IntPos& file, const Status& why) {
  IntPos out;
  out.Set(field::kCommand, file.Get(field::kCommand));
  out.Set(field::kId, file.Get(field::kId));
  out.Set(field::kStatus, "1");
  out.Set(field::kReceiptLines, "0");
  out.Set(field::kOperatorMessage, OperatorText(why.message()));
  return out;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

// Best effort: the request is handled already; a file that stays in the folder is the
// operator's to clear, so the log names it and why.
void RemoveHandled(Folder& folder, const RequestFile& file) {
  if (Status removed = folder.Remove(file); !removed.ok())
    logging::Warn("tefdial", "request file not removed", {{"file", file.name}, {"reason", removed.message()}});
}

}  // namespace

Manager::Manager(ManagerOptions options, Counter& counter, const Clock& clock, Notice notice)
    : options_(std::move(options)),
      counter_(counter),
      clock_(clock),
      notice_(std::move(notice)),
      loop_(TaskLoopOptions{kTickEvery, &clock_, kLookEvery, /*tick_at_start=*/true}, [this] { Tick(); }) {}

StatusOr<std::unique_ptr<Manager>> Manager::Open(ManagerOptions options, Counter& counter, const Clock& clock,
                                                 Notice notice) {
  std::unique_ptr<Manager> manager(new Manager(std::move(options), counter, clock, std::move(notice)));
  BALCAO_ASSIGN_OR_RETURN(manager->folder_, Folder::Open(manager->options_.folder));
  int skipped = 0;
  BALCAO_ASSIGN_OR_RETURN(manager->log_, ExchangeLog::Open(manager->options_.log_path, manager->exchange_, &skipped));
  if (skipped > 0)
    logging::Warn("tefdial", "exchange log events that did not apply were skipped", {{"skipped", skipped}});
  return manager;
}

Manager::~Manager() { Stop(); }

void Manager::Start() {
  loop_.Start();
  Post([this] { Resume(); });
  folder_->Start([this](const RequestFile& file, std::string text) { OnFile(file, std::move(text)); });
  logging::Info("tefdial", "TEF Dial manager watching",
                {{"req", folder_->req_dir()}, {"resp", folder_->resp_dir()}, {"inotify", folder_->inotify()}});
}

void Manager::Stop() {
  if (folder_) folder_->Stop();
  loop_.Stop();
}

Exchange Manager::Snapshot() {
  std::mutex done_mu;
  std::condition_variable done_cv;
  bool done = false;
  Exchange copy;
  Post([&] {
    std::lock_guard<std::mutex> lock(done_mu);
    copy = exchange_;
    done = true;
    done_cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(done_mu);
  done_cv.wait_for(lock, std::chrono::seconds(5), [&] { return done; });
  return copy;
}

void Manager::Post(std::function<void()> task) { loop_.Post(std::move(task)); }

void Manager::CrashPoint(const char* step) const {
  if (options_.crash_at == step) {
    logging::Warn("tefdial", "fault injection: the process ends here", {{"step", step}});
    ::_exit(86);
  }
}

// The watcher's thread: the status file first, whatever comes after (the PDV waits 7 s for it).
void Manager::OnFile(const RequestFile& file, std::string text) {
  auto parsed = Parse(text);
  const bool crt = parsed.ok() && Upper(parsed->Get(field::kCommand)) == "CRT";
  if (crt) CrashPoint("request-read");
  if (parsed.ok() && parsed->Has(field::kCommand) && parsed->Has(field::kId)) {
    if (Status written = folder_->Write(StatusNameFor(file.name), Write(StatusFile(*parsed))); !written.ok())
      logging::Error("tefdial", "status file not written", {{"reason", written.message()}});
    if (crt) CrashPoint("status-written");
  }
  Post([this, file, text = std::move(text)] { Handle(file, text); });
}

bool Manager::Journal(const Event& event) {
  const Status appended = log_->Append(exchange_, event);
  if (!appended.ok()) logging::Error("tefdial", "exchange event not journaled", {{"reason", appended.message()}});
  return appended.ok();
}

void Manager::Answer(const std::string& name, const std::string& request_key, const IntPos& response) {
  const std::string text = Write(response);
  if (Status written = folder_->Write(name, text); !written.ok()) {
    logging::Error("tefdial", "response not written", {{"reason", written.message()}});
    return;
  }
  CrashPoint("response-written");
  if (!request_key.empty()) Journal(Answered{request_key, text});
}

void Manager::Handle(const RequestFile& file, const std::string& text) {
  const std::string response_name = ResponseNameFor(file.name);
  auto parsed = Parse(text);
  StatusOr<Request> read = parsed.ok() ? ReadRequest(*parsed) : StatusOr<Request>(parsed.status());
  if (!read.ok()) {
    logging::Warn("tefdial", "request refused", {{"file", file.name}, {"reason", read.status().message()}});
    const std::string command = parsed.ok() ? Upper(parsed->Get(field::kCommand)) : "";
    if (parsed.ok() && command != "ATV" && command != "CNF" && command != "NCN" && parsed->Has(field::kId))
      Answer(response_name, "", Invalid(*parsed, read.status()));
    RemoveHandled(*folder_, file);
    return;
  }
  const UnixMicros now = clock_.Now();
  Request& request = *read;
  request.day = ReceiptDate(now);
  const Decision decision = Decide(exchange_, request);
  logging::Info("tefdial", "request",
                {{"command", CommandName(request.command)},
                 {"id", request.id},
                 {"sale", decision.sale_id},
                 {"note", decision.message}});
  switch (decision.verdict) {
    case Verdict::kStatusOnly:
    case Verdict::kWait:
      break;
    case Verdict::kRepeat:
      if (Status written = folder_->Write(response_name, decision.answer); !written.ok())
        logging::Error("tefdial", "response not written", {{"reason", written.message()}});
      break;
    case Verdict::kRefuse:
      Answer(response_name, "", Refusal(request, decision.message));
      break;
    case Verdict::kAdm:
      Answer(response_name, "", AdmResponse(request, exchange_.LastApproved(), options_.merchant));
      break;
    case Verdict::kStart: {
      const std::string key = RequestKey(request);
      if (!Journal(CrtOpened{key, request.id, request.fiscal_document, request.amount, response_name, now})) {
        Answer(response_name, "", Refusal(request, "ERRO NO GERENCIADOR: TENTE DE NOVO"));
        break;
      }
      CrashPoint("crt-journaled");
      RemoveHandled(*folder_, file);
      AskCounter(*exchange_.ByKey(key));
      return;
    }
    case Verdict::kConfirm:
      CrashPoint("cnf-read");
      Journal(Confirmed{decision.sale_id, "cnf", now});
      break;
    case Verdict::kUndo:
      if (Journal(UndoStarted{decision.sale_id, "ncn", now})) Undo(*exchange_.BySale(decision.sale_id));
      break;
    case Verdict::kCancel:
      if (Journal(CancelStarted{decision.sale_id, RequestKey(request), request.id, response_name, now}))
        Cancel(*exchange_.BySale(decision.sale_id));
      break;
  }
  RemoveHandled(*folder_, file);
}

void Manager::AskCounter(const TefSale& sale) {
  PaymentRequest payment;
  payment.identity = RequestIdentity{kRegister, sale.key, sale.fiscal_document};
  payment.amount = sale.amount;
  payment.method = options_.method;
  payment.register_name = sale.fiscal_document.empty() ? "TEF Dial" : "TEF Dial doc " + sale.fiscal_document;
  counter_.Pay(payment, options_.pay_wait, [this, key = sale.key](PaymentOutcome outcome) {
    Post([this, key, outcome = std::move(outcome)] { OnPayment(key, outcome); });
  });
}

void Manager::OnPayment(const std::string& key, const PaymentOutcome& outcome) {
  const TefSale* sale = exchange_.ByKey(key);
  if (sale == nullptr || sale->phase != Phase::kRunning) return;
  if (outcome.result == Result::kInProgress) {
    // Still running (the customer has not paid yet): ask again; the identity starts nothing new.
    reask_[key] = clock_.Now() + kRetryAfter;
    return;
  }
  const UnixMicros at = outcome.time_ms > 0 ? outcome.time_ms * 1000 : clock_.Now();
  if (outcome.result == Result::kApproved) {
    Approval approval;
    const bool pix =
        outcome.method == PayMethod::kPix || (outcome.method != PayMethod::kCard && !outcome.pix_end_to_end_id.empty());
    approval.method = pix ? "pix" : "card";
    // Pix: the end-to-end id when the bank gives one, else the deposit's id (the counter's reference).
    approval.authorization =
        pix && !outcome.pix_end_to_end_id.empty() ? outcome.pix_end_to_end_id : outcome.authorization_code;
    approval.card_mask = outcome.card_mask;
    approval.brand = pix ? "" : outcome.card_brand;
    approval.funding = pix ? "" : outcome.funding == CardFunding::kDebit ? "debit" : "credit";
    approval.installments = outcome.installments;
    approval.at = at;
    if (!Journal(SaleApproved{key, outcome.sale_id, NextNsu(exchange_), approval})) return;
    CrashPoint("sale-approved");
  } else {
    if (!Journal(SaleDeclined{key, outcome.sale_id, Refused(outcome), at})) return;
  }
  const TefSale& done = *exchange_.ByKey(key);
  Answer(done.response_name, key, CrtResponse(CrtOf(done), done, options_.merchant));
}

void Manager::Undo(const TefSale& sale) {
  ReversalRequest reversal;
  reversal.identity = RequestIdentity{kRegister, "undo|" + sale.sale_id, sale.fiscal_document};
  reversal.sale_id = sale.sale_id;
  reversal.reason =
      sale.resolved_by == "ncn" ? "TEF Dial NCN: the PDV undid the sale" : "TEF Dial: unresolved sale undone by policy";
  if (!in_flight_.insert("undo|" + sale.sale_id).second) return;
  counter_.Reverse(reversal, [this, sale_id = sale.sale_id](ReversalOutcome outcome) {
    Post([this, sale_id, outcome] {
      in_flight_.erase("undo|" + sale_id);
      const TefSale* s = exchange_.BySale(sale_id);
      if (s == nullptr || s->phase != Phase::kUndoing) return;
      if (outcome.result != Result::kApproved) {
        logging::Warn("tefdial", "undo not taken yet: asked again", {{"sale", sale_id}, {"reason", outcome.reason}});
        return;  // Tick asks again
      }
      CrashPoint("undo-sent");
      Journal(Undone{sale_id, clock_.Now()});
      logging::Info("tefdial", outcome.queued ? "sale undone (the return waits in the outbox)" : "sale undone",
                    {{"sale", sale_id}});
    });
  });
}

void Manager::Cancel(const TefSale& sale) {
  ReversalRequest reversal;
  reversal.identity = RequestIdentity{kRegister, "cnc|" + sale.sale_id, sale.fiscal_document};
  reversal.sale_id = sale.sale_id;
  reversal.reason = "TEF Dial CNC: the PDV cancelled the sale";
  if (!in_flight_.insert("cnc|" + sale.sale_id).second) return;
  counter_.Reverse(reversal, [this, sale_id = sale.sale_id](ReversalOutcome outcome) {
    Post([this, sale_id, outcome] {
      in_flight_.erase("cnc|" + sale_id);
      const TefSale* s = exchange_.BySale(sale_id);
      if (s == nullptr || s->phase != Phase::kCancelling) return;
      if (outcome.result != Result::kApproved) {
        logging::Warn("tefdial", "cancellation not taken yet: asked again",
                      {{"sale", sale_id}, {"reason", outcome.reason}});
        return;
      }
      if (!Journal(Cancelled{sale_id, clock_.Now()})) return;
      const TefSale& done = *exchange_.BySale(sale_id);
      Request cnc;
      cnc.command = Command::kCnc;
      cnc.id = done.cnc_request_id;
      cnc.nsu = done.nsu;
      cnc.amount = done.amount;
      Answer(done.cnc_response_name, done.cnc_key, CncResponse(cnc, done, options_.merchant, clock_.Now()));
    });
  });
}

void Manager::Resume() {
  for (const TefSale& sale : exchange_.sales) {
    switch (sale.phase) {
      case Phase::kRunning:
        logging::Info("tefdial", "CRT resumed", {{"key", sale.key}});
        AskCounter(sale);
        break;
      case Phase::kPending:
      case Phase::kDeclined:
        if (!exchange_.answers.count(sale.key))
          Answer(sale.response_name, sale.key, CrtResponse(CrtOf(sale), sale, options_.merchant));
        break;
      case Phase::kUndoing:
        Undo(sale);
        break;
      case Phase::kCancelling:
        Cancel(sale);
        break;
      default:
        break;
    }
  }
}

void Manager::Tick() {
  const UnixMicros now = clock_.Now();
  for (const std::string& sale_id : Overdue(exchange_, now, options_.unresolved_after_s)) {
    const TefSale& sale = *exchange_.BySale(sale_id);
    const std::string what = "TEF sale NSU " + sale.nsu +
                             (sale.fiscal_document.empty() ? "" : " (fiscal document " + sale.fiscal_document + ")") +
                             " was never confirmed nor undone by the PDV: ";
    if (options_.unresolved == Unresolved::kConfirm) {
      if (!Journal(Confirmed{sale_id, "policy-confirm", now})) continue;
      if (notice_) notice_(sale_id, what + "confirmed (tef_dial.unresolved = confirm)");
    } else {
      if (!Journal(UndoStarted{sale_id, "policy-undo", now})) continue;
      if (notice_) notice_(sale_id, what + "undone, the money goes back (tef_dial.unresolved = undo)");
      Undo(*exchange_.BySale(sale_id));
    }
    logging::Warn("tefdial", "unresolved sale settled by policy", {{"sale", sale_id}});
  }
  // CRTs still in progress at the counter, and undos and cancellations it did not take yet, are
  // asked again: the same identity starts nothing new.
  for (auto it = reask_.begin(); it != reask_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    const std::string key = it->first;
    it = reask_.erase(it);
    if (const TefSale* sale = exchange_.ByKey(key); sale != nullptr && sale->phase == Phase::kRunning)
      AskCounter(*sale);
  }
  if (now >= retry_at_) {
    retry_at_ = now + kRetryAfter;
    for (const TefSale& sale : exchange_.sales) {
      if (sale.phase == Phase::kUndoing) Undo(sale);
      if (sale.phase == Phase::kCancelling) Cancel(sale);
    }
  }
}

}  // namespace balcao::integration::tefdial
