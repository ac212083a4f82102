#include "integration/tefdial/folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "integration/tefdial/intpos.h"

namespace balcao::integration::tefdial {
namespace {

constexpr mode_t kFolderMode = 02770;  // setgid: files made inside keep the folder's group

Status PrepareDir(const std::string& path, gid_t group) {
  if (::mkdir(path.c_str(), kFolderMode) != 0 && errno != EEXIST)
    return FailedPreconditionError("cannot create " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return FailedPreconditionError(path + " is not a folder");
  if (group != static_cast<gid_t>(-1) && st.st_gid != group &&
      ::chown(path.c_str(), static_cast<uid_t>(-1), group) != 0)
    return FailedPreconditionError("cannot give " + path + " to its group: " + std::strerror(errno));
  if ((st.st_mode & 07777) != kFolderMode && ::chmod(path.c_str(), kFolderMode) != 0)
    return FailedPreconditionError("cannot set mode 2770 on " + path + ": " + std::strerror(errno));
  return OkStatus();
}

constexpr std::string_view kInbox = ".balcao-inbox-";

// "<microseconds>-<counter>": private names sort in the order the requests were taken.
std::string InboxPrefix(unsigned counter) {
  const auto now =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  char text[48];
  std::snprintf(text, sizeof text, "%020lld-%06u-", static_cast<long long>(now), counter % 1000000);
  return std::string(kInbox) + text;
}

StatusOr<std::string> ReadAll(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return UnavailableError("cannot read " + path + ": " + std::strerror(errno));
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > (1 << 20)) break;  // an IntPos request is a few hundred bytes
  }
  ::close(fd);
  return text;
}

}  // namespace

Folder::Folder(FolderOptions options, std::string req, std::string resp)
    : options_(std::move(options)), req_(std::move(req)), resp_(std::move(resp)) {}

StatusOr<std::unique_ptr<Folder>> Folder::Open(const FolderOptions& options) {
  if (options.dir.empty()) return InvalidArgumentError("tef_dial.dir: required");
  gid_t group = static_cast<gid_t>(-1);
  if (!options.group.empty()) {
    const struct group* found = ::getgrnam(options.group.c_str());
    if (found == nullptr) return InvalidArgumentError("tef_dial.group: no group '" + options.group + "' on this box");
    group = found->gr_gid;
  }
  std::string dir = options.dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  BALCAO_RETURN_IF_ERROR(PrepareDir(dir, group));
  BALCAO_RETURN_IF_ERROR(PrepareDir(dir + "/req", group));
  BALCAO_RETURN_IF_ERROR(PrepareDir(dir + "/resp", group));
  std::unique_ptr<Folder> folder(new Folder(options, dir + "/req", dir + "/resp"));
  if (options.inotify) {
    folder->inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (folder->inotify_fd_ >= 0 &&
        ::inotify_add_watch(folder->inotify_fd_, folder->req_.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
      ::close(folder->inotify_fd_);
      folder->inotify_fd_ = -1;
    }
  }
  folder->stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  return folder;
}

Folder::~Folder() {
  Stop();
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

void Folder::Start(OnRequest on_request) {
  on_request_ = std::move(on_request);
  thread_ = std::thread([this] { Run(); });
}

void Folder::Stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  const std::uint64_t one = 1;
  if (stop_fd_ >= 0) (void)!::write(stop_fd_, &one, sizeof one);
  thread_.join();
}

void Folder::Run() {
  Scan();
  while (!stopping_) {
    pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {inotify_fd_, POLLIN, 0}};
    const int count = inotify_fd_ >= 0 ? 2 : 1;
    // With inotify, a periodic scan still runs (slowly): an event can be lost on overflow.
    const int timeout_ms = inotify_fd_ >= 0 ? 1000 : static_cast<int>(options_.poll_interval.count());
    const int ready = ::poll(fds, count, timeout_ms);
    if (stopping_) return;
    if (ready > 0 && count == 2 && (fds[1].revents & POLLIN)) {
      alignas(inotify_event) char buffer[4096];
      while (::read(inotify_fd_, buffer, sizeof buffer) > 0) {
      }
    }
    Scan();
  }
}

void Folder::Scan() {
  DIR* dir = ::opendir(req_.c_str());
  if (dir == nullptr) return;
  std::vector<std::string> inbox;
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, kInbox.size(), kInbox) == 0) {
      inbox.push_back(name);           // taken before (by a process that ended before handling it)
    } else if (IsRequestName(name)) {  // IntPos.tmp and anything else: not ours to read
      // Taken at once, atomically: the PDV's next request may come as soon as it has the status.
      const std::string taken = InboxPrefix(temp_counter_++) + name;
      if (::rename((req_ + "/" + name).c_str(), (req_ + "/" + taken).c_str()) == 0) inbox.push_back(taken);
    }
  }
  ::closedir(dir);
  std::sort(inbox.begin(), inbox.end());
  for (const std::string& taken : inbox) {
    {
      std::lock_guard<std::mutex> lock(seen_mu_);
      if (!seen_.insert(taken).second) continue;
    }
    auto text = ReadAll(req_ + "/" + taken);
    if (!text.ok()) {
      std::lock_guard<std::mutex> lock(seen_mu_);
      seen_.erase(taken);
      continue;
    }
    // "<prefix><microseconds>-<counter>-<name>": the name is what follows the second '-'.
    const std::size_t after = taken.find('-', taken.find('-', kInbox.size()) + 1);
    on_request_(RequestFile{taken.substr(after + 1), taken}, *std::move(text));
  }
}

Status Folder::Write(const std::string& name, const std::string& text) {
  const std::string temp =
      resp_ + "/.balcao-" + std::to_string(::getpid()) + "-" + std::to_string(temp_counter_++) + ".tmp";
  const std::string target = resp_ + "/" + name;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
  if (fd < 0) return UnavailableError("cannot write " + temp + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  const bool synced = written == text.size() && ::fsync(fd) == 0;
  ::close(fd);
  if (!synced || ::rename(temp.c_str(), target.c_str()) != 0) {
    ::unlink(temp.c_str());
    return UnavailableError("cannot write " + target + ": " + std::strerror(errno));
  }
  const int dir = ::open(resp_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return OkStatus();
}

Status Folder::Remove(const RequestFile& file) {
  const std::string path = req_ + "/" + file.inbox;
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return UnavailableError("cannot remove " + path + ": " + std::strerror(errno));
  std::lock_guard<std::mutex> lock(seen_mu_);
  seen_.erase(file.inbox);
  return OkStatus();
}

}  // namespace balcao::integration::tefdial
