#include "checkout/driver/driver.h"

#include <chrono>
#include <deque>
#include <thread>
#include <utility>

#include "checkout/driver/bank_calls.h"
#include "checkout/driver/queued_calls.h"
#include "checkout/journal_codec.h"
#include "checkout/resume.h"
#include "common/log.h"

namespace balcao::checkout {
namespace {

constexpr UnixMicros kTimerRetryAfterStoreFailure = kMicrosPerSecond;

// The sale no longer needs the counter: over, left open for later, waiting for a choice, or
// waiting for the outbox (the customer left with a provisional receipt, a PATCH is queued).
bool Settled(const State& state) {
  return IsTerminal(state) || std::holds_alternative<PayLater>(state) ||
         std::holds_alternative<ChoosingMethod>(state) || !internal::WaitedKey(state).empty();
}
bool NotSent(const Event& answer) {
  const auto* failed = std::get_if<CallFailed>(&answer);
  return failed && failed->failure == Failure::kNotSent;
}
const char* StateOf(const Sale& sale) { return StateName(static_cast<int>(sale.state.index())); }
const char* NameOf(const Event& event) { return EventName(static_cast<int>(event.index())); }

// The operator's trail of a bank call: what was asked and what came of it (never bodies).
void LogAnswer(const std::string& sale_id, const BankCall& call, const Event& answer) {
  const std::string asked = Describe(Effect{call});
  if (const auto* queued = std::get_if<Queued>(&answer)) {
    logging::Info("checkout", "queued in the outbox", {{"sale", sale_id}, {"call", asked}, {"key", queued->key}});
  } else if (const auto* failed = std::get_if<CallFailed>(&answer)) {
    logging::Warn(
        "checkout", "bank call failed",
        {{"sale", sale_id}, {"call", asked}, {"failure", Name(failed->failure)}, {"reason", failed->message}});
  } else {
    logging::Info("checkout", "bank answered", {{"sale", sale_id}, {"call", asked}, {"answer", NameOf(answer)}});
  }
}

std::string MaskOf(const std::string& number) {
  if (number.size() < 10) return "";
  return number.substr(0, 6) + std::string(number.size() - 10, '*') + number.substr(number.size() - 4);
}

}  // namespace

Driver::Driver(api::Bank bank, offline::Journal& journal, const Clock& clock, Observer observer)
    : bank_(std::move(bank)), journal_(journal), clock_(clock), observer_(std::move(observer)) {}

bool Driver::Crash(const char* point) {
  if (crash_hook_ && crash_hook_(point)) crashed_ = true;
  return crashed_;
}

Status Driver::Apply(OpenSale& open, Event first) {
  std::deque<Event> queue{std::move(first)};
  Status result;
  while (!queue.empty() && !crashed_) {
    Event event = std::move(queue.front());
    queue.pop_front();
    // 1. The event is durable before anything it causes happens.
    const std::string sale_id = open.sale.id.empty() ? std::get<Start>(event).sale_id : open.sale.id;
    BALCAO_RETURN_IF_ERROR(
        journal_.Append(sale_id, open.seq + 1, EventName(static_cast<int>(event.index())), EventToJson(event)));
    ++open.seq;
    if (Crash("journaled")) break;
    // 2. The pure transition.
    Step step = Next(open.sale, event);
    if (!step.accepted()) {
      logging::Warn("checkout", "event rejected",
                    {{"sale", sale_id}, {"event", NameOf(event)}, {"reason", step.rejection.message()}});
      if (result.ok()) result = step.rejection;
      continue;
    }
    if (step.sale.state.index() != open.sale.state.index()) {
      logging::Info(
          "checkout", "sale moved",
          {{"sale", sale_id}, {"from", StateOf(open.sale)}, {"to", StateOf(step.sale)}, {"on", NameOf(event)}});
    }
    open.sale = std::move(step.sale);
    // 3. Its effects, in order.
    for (const Effect& effect : step.effects) {
      if (const auto* set = std::get_if<SetTimer>(&effect)) {
        open.timers[set->timer] = set->at;
      } else if (const auto* cancel = std::get_if<CancelTimer>(&effect)) {
        open.timers.erase(cancel->timer);
      } else if (const auto* call = std::get_if<BankCall>(&effect)) {
        const CardData* card = nullptr;
        const BrowserData* browser = nullptr;
        const auto* purchase = std::get_if<CreatePurchase>(call);
        auto held = purchase ? cards_.find(purchase->card_ref) : cards_.end();
        if (held != cards_.end()) {
          card = &held->second.card;
          browser = &held->second.browser;
        }
        StatusOr<Event> answer = Run(open, *call, queue.size(), card, browser);
        if (held != cards_.end()) cards_.erase(held);  // the card lives for one call only
        if (!answer.ok()) return answer.status();
        LogAnswer(sale_id, *call, *answer);
        if (const auto* lookup = std::get_if<FindByTag>(call); lookup && on_unknown_resolved_ &&
                                                               !std::holds_alternative<CallFailed>(*answer) &&
                                                               !std::holds_alternative<Queued>(*answer))
          on_unknown_resolved_(lookup->kind, !std::holds_alternative<NothingFound>(*answer));
        if (Crash("called")) break;
        queue.push_back(*std::move(answer));
      }
      if (const auto* flag = std::get_if<FlagOperator>(&effect)) {
        logging::Warn(
            "checkout", "operator flagged",
            {{"sale", sale_id}, {"entity", flag->entity_id}, {"amount", flag->amount}, {"reason", flag->reason}});
      }
      if (observer_) observer_(sale_id, effect);
    }
  }
  if (crashed_) return Status(StatusCode::kAborted, "driver stopped by the crash hook");
  if (IsTerminal(open.sale.state) && open.sale.late_outstanding() == 0) {
    BALCAO_RETURN_IF_ERROR(journal_.MarkClosed(open.sale.id, StateName(static_cast<int>(open.sale.state.index()))));
  }
  return result;
}

StatusOr<Event> Driver::Run(OpenSale& open, const BankCall& call, std::size_t pending, const CardData* card,
                            const BrowserData* browser) {
  std::optional<offline::OutboxRequest> request;
  if (outbox_) request = internal::QueueableRequest(open.sale, call, clock_.Now());
  if (request) {
    // One key, one intent: once the request is in the outbox only the outbox sends it (a
    // restart may bring the sale back to a create or PATCH the outbox already holds).
    auto known = outbox_->GetByKey(request->key);
    if (known.ok()) {
      if (auto outcome = internal::OutboxOutcome(open.sale, *known, clock_.Now())) return *outcome;
      return Event{internal::QueuedEvent(call, request->key, clock_.Now())};
    }
    if (known.status().code() != StatusCode::kNotFound) return known.status();
  }
  if (!request || bank_online_) {
    Event answer = internal::ExecuteBankCall(bank_, open.sale, call, clock_.Now(), card, browser);
    if (NotSent(answer) && on_not_sent_) on_not_sent_();
    if (!request || !NotSent(answer)) return answer;
  }
  // Durable before the sale hears of it: the row and the Queued event in one transaction, the
  // event journaled at the seq it gets once the loop reaches it (the loop's own Append of it is
  // then a replayed write, a no-op). With other answers still waiting before it, the row goes
  // alone: were the process to die before the event is journaled, the resumed sale's next
  // queueable call finds the key in the outbox and hears "Queued" then.
  const Event queued = internal::QueuedEvent(call, request->key, clock_.Now());
  if (pending == 0) {
    BALCAO_RETURN_IF_ERROR(outbox_
                               ->EnqueueWithJournal(*request, open.seq + 1, EventName(static_cast<int>(queued.index())),
                                                    EventToJson(queued))
                               .status());
  } else {
    BALCAO_RETURN_IF_ERROR(outbox_->Enqueue(*request).status());
  }
  return queued;
}

StatusOr<Sale> Driver::Open(const std::string& sale_id, Cents amount, const Settings& settings) {
  if (sales_.count(sale_id)) return FailedPreconditionError("sale " + sale_id + " is already open");
  OpenSale open;
  BALCAO_RETURN_IF_ERROR(Apply(open, Start{sale_id, amount, settings, clock_.Now()}));
  if (std::holds_alternative<NotStarted>(open.sale.state)) return FailedPreconditionError("sale not started");
  auto [it, inserted] = sales_.emplace(sale_id, std::move(open));
  return it->second.sale;
}

StatusOr<Sale> Driver::Feed(const std::string& sale_id, const Event& event) {
  auto it = sales_.find(sale_id);
  if (it == sales_.end()) return NotFoundError("sale " + sale_id + " is not open in this driver");
  if (!bank_online_) {
    if (const char* why = NeedsTheBankNow(it->second.sale, event)) {
      if (observer_) observer_(sale_id, Show{Screen::kChooseMethod, why});
      return FailedPreconditionError(why);
    }
  }
  BALCAO_RETURN_IF_ERROR(Apply(it->second, event));
  return it->second.sale;
}

StatusOr<Sale> Driver::Reconcile(const std::string& sale_id) {
  auto it = sales_.find(sale_id);
  if (it == sales_.end()) return Resume(sale_id);  // which reconciles once it has the sale
  const std::string key = internal::WaitedKey(it->second.sale.state);
  if (!outbox_ || key.empty()) return it->second.sale;
  BALCAO_ASSIGN_OR_RETURN(offline::OutboxItem item, outbox_->GetByKey(key));
  if (auto outcome = internal::OutboxOutcome(it->second.sale, item, clock_.Now())) {
    Status s = Apply(it->second, *outcome);
    if (!s.ok() && s.code() != StatusCode::kFailedPrecondition) return s;
  }
  return it->second.sale;
}

StatusOr<Sale> Driver::SubmitCard(const std::string& sale_id, CardData card, FundingType funding, int installments,
                                  BrowserData browser) {
  const std::string ref = "card-" + std::to_string(++next_card_ref_);
  const std::string mask = MaskOf(card.number);
  cards_[ref] = HeldCard{std::move(card), std::move(browser)};
  auto sale = Feed(sale_id, checkout::SubmitCard{ref, mask, funding, installments, clock_.Now()});
  cards_.erase(ref);  // rejected or used: either way it goes
  return sale;
}

StatusOr<Sale> Driver::RunUntilSettled(const std::string& sale_id, UnixMicros deadline) {
  auto it = sales_.find(sale_id);
  if (it == sales_.end()) return NotFoundError("sale " + sale_id + " is not open in this driver");
  OpenSale& open = it->second;
  while (!crashed_) {
    const bool waiting_for_money = !Settled(open.sale.state);
    if (!waiting_for_money) return open.sale;
    const UnixMicros now = clock_.Now();
    if (now >= deadline) return DeadlineExceededError("sale " + sale_id + " not settled before the deadline");
    auto due = open.timers.end();
    for (auto t = open.timers.begin(); t != open.timers.end(); ++t) {
      if (due == open.timers.end() || t->second < due->second) due = t;
    }
    if (due != open.timers.end() && due->second <= now) {
      const Timer timer = due->first;
      open.timers.erase(due);
      const std::int64_t seq = open.seq;
      Status s = Apply(open, TimerFired{timer, now});
      if (!s.ok() && s.code() != StatusCode::kFailedPrecondition) {
        // The journal refused the timer's event (a full disk): it fires again shortly, so a
        // poll waits for the disk instead of ending (a paid Pix is seen once space returns).
        if (open.seq == seq) open.timers.emplace(timer, now + kTimerRetryAfterStoreFailure);
        return s;
      }
      continue;
    }
    UnixMicros wake = deadline;
    if (due != open.timers.end()) wake = std::min(wake, due->second);
    std::this_thread::sleep_for(std::chrono::microseconds(std::min<UnixMicros>(wake - now, 200'000)));
  }
  return Status(StatusCode::kAborted, "driver stopped by the crash hook");
}

StatusOr<Sale> Driver::Resume(const std::string& sale_id) {
  BALCAO_ASSIGN_OR_RETURN(std::vector<offline::JournalEntry> entries, journal_.Read(sale_id));
  if (entries.empty()) return NotFoundError("no journal for sale " + sale_id);
  std::vector<Event> events;
  for (const offline::JournalEntry& entry : entries) {
    BALCAO_ASSIGN_OR_RETURN(Event event, EventFromJson(entry.payload));
    events.push_back(std::move(event));
  }
  OpenSale open;
  open.sale = Replay(events);
  open.seq = entries.back().seq;
  const UnixMicros now = clock_.Now();
  logging::Info("checkout", "sale resumed from the journal",
                {{"sale", sale_id}, {"state", StateOf(open.sale)}, {"events", open.seq}});
  auto [it, inserted] = sales_.insert_or_assign(sale_id, std::move(open));
  for (const Event& event : ResumeEvents(it->second.sale, now)) {
    Status s = Apply(it->second, event);
    if (!s.ok() && s.code() != StatusCode::kFailedPrecondition) return s;
  }
  for (const SetTimer& timer : TimersFor(it->second.sale, now)) it->second.timers[timer.timer] = timer.at;
  if (outbox_) return Reconcile(sale_id);  // the outbox may have settled while we were down
  return it->second.sale;
}

bool Driver::Close(const std::string& sale_id) {
  auto it = sales_.find(sale_id);
  if (it == sales_.end() || !IsTerminal(it->second.sale.state)) return false;
  sales_.erase(it);
  return true;
}

std::optional<UnixMicros> Driver::NextTimer(const std::string& sale_id) const {
  auto it = sales_.find(sale_id);
  if (it == sales_.end() || it->second.timers.empty()) return std::nullopt;
  UnixMicros next = it->second.timers.begin()->second;
  for (const auto& [timer, at] : it->second.timers) next = std::min(next, at);
  return next;
}

bool Driver::PollNow(const std::string& sale_id, UnixMicros now) {
  auto it = sales_.find(sale_id);
  if (it == sales_.end()) return false;
  auto poll = it->second.timers.find(Timer::kPoll);
  if (poll == it->second.timers.end()) return false;
  poll->second = std::min(poll->second, now);
  return true;
}

StatusOr<Sale> Driver::Get(const std::string& sale_id) const {
  auto it = sales_.find(sale_id);
  if (it == sales_.end()) return NotFoundError("sale " + sale_id + " is not open in this driver");
  return it->second.sale;
}

}  // namespace balcao::checkout
