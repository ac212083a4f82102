// The TEF Dial folders: DIR/req, where a PDV renames its request into IntPos.001, and DIR/resp,
// where the box answers with IntPos.Sts and IntPos.001 (docs/integration.md, "TEF Dial").
// Folder creates both (mode 2770, the configured group), watches req with inotify (falling back
// to polling every `poll_interval` when inotify is unavailable), and hands each request file to
// the callback once per file (a file is its inode, size and mtime: a new request under the same
// name is a new file). Temporary names (IntPos.tmp) are never read. Every answer is written to a
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

// Which file a request was: Remove() deletes it only if it is still that file.
struct RequestFile {
  std::string name;  // as the PDV spelled it
  ino_t inode = 0;
  off_t size = 0;
  std::int64_t mtime_ns = 0;
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
  // Deletes req/`file.name` if it is still the same file; a newer request is left alone.
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
  std::set<RequestFile> seen_;  // watcher thread: files already handed over, while they exist
  std::atomic<unsigned> temp_counter_{0};
};

}  // namespace balcao::integration::tefdial
