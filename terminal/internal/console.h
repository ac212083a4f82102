// Console helpers of the `balcao` commands that drive sales from a terminal: QR codes drawn
// with Unicode half blocks, and the embedded sandbox's simulation API (the payer's and the
// customer's side of a sale, for demos and --autopay).
// Thread-safety: free functions, no shared state.
#pragma once

#include <cstdio>
#include <string>

namespace balcao::terminal {

// Draws `text` as a QR code (two modules per character row) on `out`.
void DrawQr(const std::string& text, std::FILE* out);

// POST http://127.0.0.1:<port>/sandbox/<route> with a JSON body (unsigned, loopback only).
// Returns the HTTP status (0 when no answer) and the answer body.
struct SimulationAnswer {
  long status = 0;
  std::string body;
};
SimulationAnswer Simulate(unsigned short sandbox_port, const std::string& route, const std::string& json_body);
// POST `url` with a JSON body and `user_agent`, unsigned (a customer's device calling the bank).
SimulationAnswer PostJson(const std::string& url, const std::string& json_body, const std::string& user_agent);

}  // namespace balcao::terminal
