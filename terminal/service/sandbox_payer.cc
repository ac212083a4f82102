#include "terminal/service/sandbox_payer.h"

namespace balcao::terminal::service {

SandboxPayer::SandboxPayer(unsigned short sandbox_port, const Clock& clock, int autopay_s)
    : port_(sandbox_port),
      clock_(clock),
      autopay_s_(autopay_s),
      thread_(std::make_unique<DriverLoop>(std::chrono::hours(1), [] {})) {}

void SandboxPayer::Start() { thread_->Start(); }
void SandboxPayer::Stop() { thread_->Stop(); }

void SandboxPayer::Run(PayerStep step, std::function<void(const SimulationAnswer&)> answered) {
  thread_->Post(
      [port = port_, step = std::move(step), answered = std::move(answered)] { answered(RunPayerStep(port, step)); });
}

void SandboxPayer::Schedule(const SaleBook& book) {
  if (autopay_s_ <= 0) return;
  for (const std::string& id : book.Unsettled()) {
    const std::optional<checkout::Sale> sale = book.Copy(id);
    const auto* pix = sale ? std::get_if<checkout::ShowingPix>(&sale->state) : nullptr;
    if (pix == nullptr || !scheduled_.insert(pix->brcode.uuid).second) continue;
    due_[pix->brcode.uuid] = clock_.Now() + autopay_s_ * kMicrosPerSecond;
  }
}

void SandboxPayer::PayDue(UnixMicros now) {
  for (auto due = due_.begin(); due != due_.end();) {
    if (due->second > now) {
      ++due;
      continue;
    }
    // On the payer's own thread, like the touchscreen's simulate button: never a thread per QR.
    thread_->Post([port = port_, step = PayPix(due->first, kSandboxPayerName)] {
      (void)RunPayerStep(port, step);  // a QR left unpaid stays on the screen: nothing to undo
    });
    due = due_.erase(due);
  }
}

}  // namespace balcao::terminal::service
