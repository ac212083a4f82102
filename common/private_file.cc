#include "common/private_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace balcao {

Status WritePrivateFile(const std::string& path, const std::string& text) {
  const std::string partial = path + ".new";
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return FailedPreconditionError("cannot write " + partial + ": " + std::strerror(errno));
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const int write_errno = errno;
  ::close(fd);
  if (!written) return FailedPreconditionError("cannot write " + partial + ": " + std::strerror(write_errno));
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) return FailedPreconditionError("cannot write " + path + ": " + ec.message());
  return OkStatus();
}

}  // namespace balcao
