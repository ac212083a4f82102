// `balcao keys create --out DIR [--force]` makes a secp256k1 key pair for the bank API:
// DIR/private.pem (SEC1, mode 0600 from creation) and DIR/public.pem (to register with
// the bank). `balcao keys show --key FILE` prints the public key PEM of a key file.
// Exit 0 done, 1 refused (file exists, bad or exposed key file), 2 usage or I/O error.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/crypto.h"
#include "terminal/command.h"
#include "terminal/internal/subcommand_args.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao keys create --out DIR [--force]\n"
    "       balcao keys show --key FILE\n"
    "create  writes DIR/private.pem (EC PRIVATE KEY on secp256k1, mode 0600) and DIR/public.pem,\n"
    "        the key to register with the bank; refuses to replace existing files unless --force.\n"
    "show    prints the public key (PUBLIC KEY PEM) of a private or public key file.\n"
    "Exit 0 done, 1 refused (existing file, invalid or exposed key file), 2 usage or I/O error.\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "balcao keys: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

int Fail(const Status& status) {
  std::fprintf(stderr, "balcao keys: %s\n", status.message().c_str());
  const bool refused = status.code() == StatusCode::kAlreadyExists || status.code() == StatusCode::kPermissionDenied ||
                       status.code() == StatusCode::kInvalidArgument;
  return refused ? 1 : 2;
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Writes the public key atomically (temporary + rename) with mode 0644 whatever the
// umask: readable by all, writable by the owner only, so nobody swaps it before it is
// registered with the bank.
Status WritePublicFile(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return InternalError("cannot write " + tmp + ": " + std::strerror(errno));
  const bool written = ::write(fd, contents.data(), contents.size()) == static_cast<ssize_t>(contents.size()) &&
                       ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(written ? errno : err);
    ::unlink(tmp.c_str());
    return InternalError("cannot write " + path + ": " + why);
  }
  return OkStatus();
}

int Create(const std::string& dir, bool force) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Fail(InternalError("cannot create directory " + dir + ": " + std::strerror(errno)));
  }
  const std::string private_path = dir + "/private.pem";
  const std::string public_path = dir + "/public.pem";
  // Checked before anything is written, so a refusal leaves the directory as it was.
  for (const auto& path : {private_path, public_path}) {
    if (!force && Exists(path)) {
      return Fail(AlreadyExistsError(path + " already exists; use --force to replace the key pair"));
    }
  }
  const api::PrivateKey key = api::PrivateKey::Generate();
  if (Status st = key.WriteFile(private_path, force); !st.ok()) return Fail(st);
  const std::string public_pem = key.public_key().ToPem();
  if (Status st = WritePublicFile(public_path, public_pem); !st.ok()) return Fail(st);
  std::printf("wrote %s (mode 0600, keep it secret) and %s; register this public key with the bank:\n%s",
              private_path.c_str(), public_path.c_str(), public_pem.c_str());
  return 0;
}

int Show(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Fail(NotFoundError("cannot read " + file + ": " + std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  // A public key file is shown as is (normalised); anything else must be a private key,
  // with its permission check.
  if (text.str().find("-----BEGIN PUBLIC KEY-----") != std::string::npos) {
    auto pub = api::PublicKey::FromPem(text.str());
    if (!pub.ok()) return Fail(InvalidArgumentError(file + ": " + pub.status().message()));
    std::fputs(pub->ToPem().c_str(), stdout);
    return 0;
  }
  auto key = api::PrivateKey::FromFile(file);
  if (!key.ok()) return Fail(key.status());
  std::fputs(key->public_key().ToPem().c_str(), stdout);
  return 0;
}

int RunKeys(const std::vector<std::string>& args) {
  if (args.empty()) return Usage("missing subcommand");
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::string& sub = args[0];
  if (sub != "create" && sub != "show") return Usage("unknown subcommand '" + sub + "'");
  const bool create = sub == "create";
  const internal::SubcommandSpec spec =
      create ? internal::SubcommandSpec{{"--force"}, {"--out"}, ""} : internal::SubcommandSpec{{}, {"--key"}, ""};
  auto parsed = internal::ParseSubcommandArgs(args, spec);
  if (!parsed.ok()) return Usage(parsed.status().message() + " for keys " + sub);
  if (parsed->help) return std::fputs(kUsage, stdout), 0;
  if (parsed->positional.size() > 1) return Usage("unknown argument '" + parsed->positional[1] + "' for keys " + sub);
  if (create) {
    if (!parsed->Has("--out")) return Usage("keys create needs --out DIR");
    return Create(parsed->Get("--out"), parsed->Has("--force"));
  }
  if (!parsed->Has("--key")) return Usage("keys show needs --key FILE");
  return Show(parsed->Get("--key"));
}

}  // namespace

BALCAO_COMMAND("keys", "create and show the secp256k1 key pair for the bank API", RunKeys);

}  // namespace balcao::terminal
