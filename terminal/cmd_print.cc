// `balcao print`: render sample receipts, test pages and QR slips to ESC/POS and send them
// to a printer or a file; render ESC/POS files back to text/PNG with the virtual
// printer's interpreter; list profiles; list and reprint the print queue.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "offline/print_jobs.h"
#include "offline/spooler.h"
#include "offline/store.h"
#include "printer/interpreter.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/samples.h"
#include "printer/transport.h"
#include "terminal/command.h"
#include "terminal/service/config.h"

namespace balcao::terminal {
namespace {

using namespace balcao::printer;

constexpr const char* kUsage =
    "usage: balcao print <command> [options]\n"
    "  sample --kind card|pix|pix-paid|invoice|refund|offline|summary|qr|test\n"
    "         [--profile 80mm] [--lang pt-BR|en-US] [--out FILE.bin | --to TARGET] [--png FILE.png]\n"
    "  test   [--profile 80mm] [--out FILE.bin | --to TARGET]      code-table self-test page\n"
    "  qr TEXT [--title T] [--profile 80mm] [--out FILE.bin | --to TARGET]\n"
    "  render --in FILE.bin [--text OUT.txt] [--png OUT.png] [--json OUT.json] [--profile 80mm]\n"
    "  profiles                                                   list printer profiles\n"
    "  jobs [--db BOX.db] [--state queued|printing|printed|failed] the print queue (the box's store)\n"
    "  reprint [--db BOX.db] --id N                                 queue a job again\n"
    "  spool [--db BOX.db]                                         print the queue once\n"
    "TARGET: tcp://host:9100 | file:/dev/usb/lp0 | file:/path/out.bin | cups:QUEUE\n"
    "Without --out/--to the text rendering goes to stdout. With --queue [--db BOX.db] [--sale ID]\n"
    "the job is queued for --to TARGET in the box's print queue instead of sent.\n"
    "The box's store: --db BOX.db, else $BALCAO_DB, else the data_dir of the box's config\n"
    "(--config FILE, $BALCAO_CONFIG, /etc/balcao/balcao.conf).\n";

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> flags;
  std::string error;
};

Args Parse(const std::vector<std::string>& in, size_t from) {
  Args a;
  for (size_t i = from; i < in.size(); ++i) {
    if (in[i] == "--queue") {  // the one flag without a value
      a.flags["queue"] = "1";
    } else if (in[i].rfind("--", 0) == 0) {
      if (i + 1 >= in.size()) {
        a.error = in[i] + " needs a value";
        return a;
      }
      a.flags[in[i].substr(2)] = in[i + 1];
      ++i;
    } else {
      a.positional.push_back(in[i]);
    }
  }
  return a;
}

std::string Flag(const Args& a, const std::string& name, const std::string& fallback = "") {
  auto it = a.flags.find(name);
  return it == a.flags.end() ? fallback : it->second;
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "balcao print: %s\n", message.c_str());
  return code;
}

bool WriteFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  return static_cast<bool>(out.write(data.data(), static_cast<std::streamsize>(data.size())));
}

const PrinterProfile* ProfileFlag(const Args& a) {
  const std::string name = Flag(a, "profile", "80mm");
  const PrinterProfile* p = FindProfile(name);
  if (!p) std::fprintf(stderr, "balcao print: unknown profile '%s' (see `balcao print profiles`)\n", name.c_str());
  return p;
}

int WithQueue(const Args& a, const std::function<int(offline::PrintJobs&)>& fn) {
  auto box = service::FindBox(Flag(a, "db", ""), Flag(a, "config", ""));
  if (!box.ok()) return Fail(1, box.status().message());
  StatusOr<std::unique_ptr<offline::Store>> store = offline::Store::Open(box->store_path);
  if (!store.ok()) return Fail(2, store.status().ToString());
  offline::PrintJobs jobs(**store);
  return fn(jobs);
}

// --queue: the job goes into the box's print queue instead of straight to the printer;
// `balcao print spool` (or the service's spooler) prints it, retries it, shows failures.
int Enqueue(const Args& a, const std::string& bytes, bool opens_drawer) {
  if (!a.flags.count("to")) return Fail(1, "--queue needs --to TARGET (the printer the job is for)");
  if (!OpenTransport(Flag(a, "to")).ok()) return Fail(1, OpenTransport(Flag(a, "to")).status().message());
  return WithQueue(a, [&](offline::PrintJobs& jobs) {
    StatusOr<std::int64_t> id =
        jobs.Enqueue(Flag(a, "sale"), Flag(a, "kind", "test"), Flag(a, "to"), bytes, opens_drawer);
    if (!id.ok()) return Fail(2, id.status().ToString());
    std::printf("queued job %lld for %s\n", static_cast<long long>(*id), Flag(a, "to").c_str());
    return 0;
  });
}

// Renders `doc` and delivers it: --out file, --to target, or text on stdout.
int Deliver(const Document& doc, const PrinterProfile& profile, const Args& a) {
  StatusOr<std::string> bytes = RenderEscPos(doc, profile);
  if (!bytes.ok()) return Fail(1, bytes.status().ToString());
  if (a.flags.count("png")) {
    StatusOr<std::string> png = RenderPng(doc, profile);
    if (!png.ok()) return Fail(2, png.status().ToString());
    if (!WriteFile(Flag(a, "png"), *png)) return Fail(2, "cannot write " + Flag(a, "png"));
  }
  if (a.flags.count("queue")) return Enqueue(a, *bytes, OpensDrawer(doc, profile));
  if (a.flags.count("out")) {
    if (!WriteFile(Flag(a, "out"), *bytes)) return Fail(2, "cannot write " + Flag(a, "out"));
    std::printf("wrote %zu bytes to %s\n", bytes->size(), Flag(a, "out").c_str());
    return 0;
  }
  if (a.flags.count("to")) {
    StatusOr<std::unique_ptr<Transport>> t = OpenTransport(Flag(a, "to"));
    if (!t.ok()) return Fail(1, t.status().message());
    StatusOr<SendReport> r = (*t)->Send(*bytes, {});
    if (!r.ok()) return Fail(2, r.status().message());
    std::printf("printed %zu bytes on %s (status before: %s, after: %s)\n", bytes->size(), Flag(a, "to").c_str(),
                r->before.Describe().c_str(), r->after.Describe().c_str());
    return 0;
  }
  std::fputs(RenderText(doc, profile).c_str(), stdout);
  return 0;
}

int Sample(const Args& a) {
  const PrinterProfile* p = ProfileFlag(a);
  if (!p) return 1;
  SampleInputs in;
  const std::string lang = Flag(a, "lang", "pt-BR");
  if (lang != "pt-BR" && lang != "en-US") return Fail(1, "--lang must be pt-BR or en-US");
  in.language = lang == "pt-BR" ? Language::kPtBr : Language::kEnUs;
  StatusOr<Document> d = SampleDocument(Flag(a, "kind", "card"), in);
  if (!d.ok()) return Fail(1, d.status().message());
  return Deliver(*d, *p, a);
}

int Test(const Args& a) {
  const PrinterProfile* p = ProfileFlag(a);
  if (!p) return 1;
  return Deliver(TestPage(p->name, CodeTableName(p->code_table)), *p, a);
}

int Qr(const Args& a) {
  const PrinterProfile* p = ProfileFlag(a);
  if (!p) return 1;
  if (a.positional.size() != 1) return Fail(1, "qr takes exactly one TEXT argument");
  QrSlip slip;
  slip.title = Flag(a, "title");
  slip.data = a.positional[0];
  return Deliver(QrSlipReceipt(slip), *p, a);
}

int Render(const Args& a) {
  const PrinterProfile* p = ProfileFlag(a);
  if (!p) return 1;
  if (!a.flags.count("in")) return Fail(1, "render needs --in FILE.bin");
  std::ifstream in(Flag(a, "in"), std::ios::binary);
  if (!in) return Fail(2, "cannot read " + Flag(a, "in"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::vector<VirtualPage> pages = Interpret(ss.str(), InterpreterOptions::ForProfile(*p));
  // One page per cut: OUT.png, OUT-2.png, ...; the text holds every page, in order.
  auto numbered = [](const std::string& path, size_t i) {
    if (i == 0) return path;
    const size_t dot = path.rfind('.');
    const std::string suffix = "-" + std::to_string(i + 1);
    return dot == std::string::npos ? path + suffix : path.substr(0, dot) + suffix + path.substr(dot);
  };
  std::string text;
  for (size_t i = 0; i < pages.size(); ++i) {
    text += pages[i].Text();
    if (a.flags.count("png")) {
      StatusOr<std::string> png = pages[i].Png();
      if (!png.ok() || !WriteFile(numbered(Flag(a, "png"), i), *png)) return Fail(2, "cannot write the PNG");
    }
    if (a.flags.count("json") && !WriteFile(numbered(Flag(a, "json"), i), pages[i].Json())) {
      return Fail(2, "cannot write the JSON");
    }
  }
  if (a.flags.count("text")) {
    if (!WriteFile(Flag(a, "text"), text)) return Fail(2, "cannot write " + Flag(a, "text"));
  } else {
    std::fputs(text.c_str(), stdout);
  }
  std::fprintf(stderr, "%zu page(s)\n", pages.size());
  return 0;
}

int Profiles() {
  for (const PrinterProfile& p : AllProfiles()) {
    std::printf("%-16s %s\n", p.name.c_str(), p.description.c_str());
  }
  return 0;
}

int Jobs(const Args& a) {
  return WithQueue(a, [&](offline::PrintJobs& jobs) {
    std::optional<offline::PrintJobState> state;
    const std::string s = Flag(a, "state");
    for (auto st : {offline::PrintJobState::kQueued, offline::PrintJobState::kPrinting,
                    offline::PrintJobState::kPrinted, offline::PrintJobState::kFailed}) {
      if (s == offline::PrintJobStateName(st)) state = st;
    }
    if (!s.empty() && !state) return Fail(1, "--state must be queued, printing, printed or failed");
    StatusOr<std::vector<offline::PrintJob>> list = jobs.List(state, 1000);
    if (!list.ok()) return Fail(2, list.status().ToString());
    for (const offline::PrintJob& j : *list) {
      // A failed job of a sale is the "paid but not printed" case: say so.
      const bool unprinted_sale = j.state == offline::PrintJobState::kFailed && !j.sale_id.empty();
      std::printf("%6lld  %-8s  %-9s  attempts=%d  sale=%s  target=%s%s%s\n", static_cast<long long>(j.id),
                  offline::PrintJobStateName(j.state), j.kind.c_str(), j.attempts, j.sale_id.c_str(), j.target.c_str(),
                  j.last_error.empty() ? "" : ("  error=" + j.last_error).c_str(),
                  unprinted_sale ? "  PAID BUT NOT PRINTED" : "");
    }
    return 0;
  });
}

int Reprint(const Args& a) {
  return WithQueue(a, [&](offline::PrintJobs& jobs) {
    const std::string id = Flag(a, "id");
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return Fail(1, "--id must be a job id");
    Status s = jobs.Requeue(std::stoll(id));
    if (!s.ok()) return Fail(s.code() == StatusCode::kNotFound ? 1 : 2, s.ToString());
    std::printf("job %s queued again\n", id.c_str());
    return 0;
  });
}

int Spool(const Args& a) {
  return WithQueue(a, [&](offline::PrintJobs& jobs) {
    offline::Spooler spooler(jobs);
    StatusOr<offline::SpoolPass> pass = spooler.RunOnce();
    if (!pass.ok()) return Fail(2, pass.status().ToString());
    std::printf("printed %d, failed %d, requeued %d\n", pass->printed, pass->failed, pass->requeued);
    return pass->failed > 0 ? 1 : 0;
  });
}

int RunPrint(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  const Args a = Parse(args, 1);
  if (!a.error.empty()) return Fail(2, a.error);
  const std::string& cmd = args[0];
  if (cmd == "sample") return Sample(a);
  if (cmd == "test") return Test(a);
  if (cmd == "qr") return Qr(a);
  if (cmd == "render") return Render(a);
  if (cmd == "profiles") return Profiles();
  if (cmd == "jobs") return Jobs(a);
  if (cmd == "reprint") return Reprint(a);
  if (cmd == "spool") return Spool(a);
  std::fputs(kUsage, stderr);
  return Fail(2, "unknown print command '" + cmd + "'");
}

}  // namespace

BALCAO_COMMAND("print", "print receipts, test pages and QR codes; render ESC/POS files", RunPrint);

}  // namespace balcao::terminal
