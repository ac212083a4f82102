// The TEF Dial folders: DIR/req, where a PDV renames its request into IntPos.001, and DIR/resp,
// where the box answers with IntPos.Sts and IntPos.001 (docs/integration.md, "TEF Dial").
// Folder creates both (mode 2770, the configured group), watches req with inotify (falling back
// to polling every `poll_interval` when inotify is unavailable), and takes each request the
// moment it sees it: one atomic rename to a private name in req/ (".balcao-inbox-<seq>-<name>"),
// so the PDV may write its next request at once and no later step can touch it; the private file
// stays until the request is handled (Remove), and one left by a crash is handed over again at
// the next start. Temporary names (IntPos.tmp) are never read. Every answer is written to a
// temporary name in resp, fsync'ed and renamed, so a PDV never reads half a file.
// Thread-safety: Start/Stop from one thread; Write and Remove from any.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "common/status.h"

namespace balcao::integration::tefdial {

struct FolderOptions {
  std::string dir;    // holds req/ and resp/
  std::string group;  // group of req/ and resp/; "" keeps the process's
  std::chrono::milliseconds poll_interval{100};
  bool inotify = true;  // false: polling only
};

// A request taken from req/: the name the PDV gave it (its case decides the answers' names) and
// where the box keeps it until it is handled.
struct RequestFile {
  std::string name;   // as the PDV spelled it: "IntPos.001", "intpos.001"
  std::string inbox;  // the private file's name in req/
  auto operator<=>(const RequestFile&) const = default;
};

class Folder {
 public:
  using OnRequest = std::function<void(const RequestFile& file, std::string text)>;

  // Creates DIR, DIR/req and DIR/resp when missing; sets their mode to 2770 and their group.
  // kInvalidArgument for an unknown group; kFailedPrecondition when a folder cannot be made.
  static StatusOr<std::unique_ptr<Folder>> Open(const FolderOptions& options);
  ~Folder();  // Stop()s
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;

  // Reports the requests already in req/ (left by a crash or written while the box was down),
  // then each new one, on the watcher's thread.
  void Start(OnRequest on_request);
  void Stop();
  bool inotify() const { return inotify_fd_ >= 0; }

  // Writes resp/`name` through a temporary name and a rename (file and folder fsync'ed).
  Status Write(const std::string& name, const std::string& text);
  // Deletes the request's private file: it was handled.
  Status Remove(const RequestFile& file);
  const std::string& req_dir() const { return req_; }
  const std::string& resp_dir() const { return resp_; }

 private:
  Folder(FolderOptions options, std::string req, std::string resp);
  void Run();
  void Scan();

  const FolderOptions options_;
  const std::string req_, resp_;
  int inotify_fd_ = -1;
  int stop_fd_ = -1;  // an eventfd that wakes the watcher to stop
  OnRequest on_request_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::mutex seen_mu_;
  std::set<std::string> seen_;  // guarded by seen_mu_: private files handed over and not removed yet
  std::atomic<unsigned> temp_counter_{0};
};

}  // namespace balcao::integration::tefdial
