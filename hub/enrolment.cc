#include "hub/enrolment.h"

#include <crypt.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "checkout/types.h"
#include "common/private_file.h"
#include "hub/routing.h"

namespace balcao::hub {
namespace {

// JSON string syntax is nats-server's config string syntax for these characters.
std::string Quoted(const std::string& text) { return "\"" + text + "\""; }

Status Reload(const std::string& pid_file) {
  std::ifstream in(pid_file);
  long pid = 0;
  if (!(in >> pid) || pid <= 1) return FailedPreconditionError("nats-server pid file " + pid_file + ": no pid in it");
  if (::kill(static_cast<pid_t>(pid), SIGHUP) != 0)
    return FailedPreconditionError("cannot signal nats-server (pid " + std::to_string(pid) +
                                   ") to reload: " + std::strerror(errno));
  return OkStatus();
}

}  // namespace

std::string NatsAuthorization(const NatsAuthority& authority, const std::vector<EnrolledLane>& lanes) {
  std::string text = "# Written by balcao hub (docs/hub.md): do not edit, it is rewritten at each join and revoke.\n";
  text += "authorization {\n  users = [\n";
  text += "    {user: " + Quoted(authority.hub_user) + ", password: " + Quoted(authority.hub_password_hash) +
          ", permissions: {publish: \">\", subscribe: \">\"}}\n";
  const std::string consumers = std::string("$JS.API.CONSUMER.");
  for (const EnrolledLane& lane : lanes) {
    const std::string durable = ConsumerName(lane.store, lane.terminal);
    const std::string stream_durable = std::string(kStreamName) + "." + durable;
    text += "    {user: " + Quoted(lane.user) + ", password: " + Quoted(lane.password_hash) +
            ", permissions: {publish: {allow: [" + Quoted(consumers + "INFO." + stream_durable) + ", " +
            Quoted(consumers + "MSG.NEXT." + stream_durable) + ", " + Quoted("$JS.ACK." + stream_durable + ".>") +
            ", " + Quoted(BoxSubject(lane.store, lane.terminal, ">")) + "]}, subscribe: {allow: [" +
            Quoted(LaneInbox(lane.store, lane.terminal) + ".>") + "]}}}\n";
  }
  text += "  ]\n}\n";
  return text;
}

StatusOr<std::string> BcryptHash(const std::string& password) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  if (crypt_gensalt_rn("$2b$", 10, nullptr, 0, setting, sizeof setting) == nullptr)
    return InternalError(std::string("bcrypt salt: ") + std::strerror(errno));
  crypt_data data{};
  const char* hashed = crypt_rn(password.c_str(), setting, &data, sizeof data);
  if (hashed == nullptr || hashed[0] == '*') return InternalError("bcrypt: not available in libcrypt");
  return std::string(hashed);
}

std::string NewSecret() {
  static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // no 0/O, 1/I
  unsigned char bytes[20];
  if (RAND_bytes(bytes, sizeof bytes) != 1) std::abort();  // no randomness: nothing safe to hand out
  std::string out;
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    if (i > 0 && i % 5 == 0) out += '-';
    out += kAlphabet[bytes[i] % 32];
  }
  return out;
}

std::string Sha256Hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

Status ApplyLanes(HubStore& store, const NatsAuthority& authority) {
  if (authority.auth_file.empty()) return FailedPreconditionError("--nats-auth-file: the hub manages no NATS users");
  BALCAO_ASSIGN_OR_RETURN(std::vector<EnrolledLane> lanes, store.ActiveLanes());
  BALCAO_RETURN_IF_ERROR(WritePrivateFile(authority.auth_file, NatsAuthorization(authority, lanes)));
  return Reload(authority.pid_file);
}

StatusOr<std::string> Enroll(HubStore& store, const std::string& store_id, const std::string& terminal_id,
                             std::chrono::seconds valid) {
  if (std::string rule = checkout::LaneIdRule(store_id); !rule.empty()) return InvalidArgumentError("--store: " + rule);
  if (std::string rule = checkout::LaneIdRule(terminal_id); !rule.empty())
    return InvalidArgumentError("--lane: " + rule);
  const std::string code = NewSecret();
  const UnixMicros expires = SystemClock::Instance().Now() + valid.count() * kMicrosPerSecond;
  BALCAO_RETURN_IF_ERROR(store.AddEnrolCode(Sha256Hex(code), store_id, terminal_id, expires));
  return code;
}

StatusOr<Joined> Join(HubStore& store, NatsLink& admin, const NatsAuthority& authority, const std::string& code) {
  BALCAO_ASSIGN_OR_RETURN(auto lane, store.TakeEnrolCode(Sha256Hex(code), SystemClock::Instance().Now()));
  Joined joined{lane.first, lane.second, authority.public_url, LaneUser(lane.first, lane.second), NewSecret()};
  BALCAO_RETURN_IF_ERROR(admin.EnsureConsumer(kStreamName, ConsumerName(joined.store, joined.terminal),
                                              LaneSubject(joined.store, joined.terminal)));
  BALCAO_ASSIGN_OR_RETURN(std::string hash, BcryptHash(joined.password));
  BALCAO_RETURN_IF_ERROR(
      store.PutLane({joined.store, joined.terminal, joined.user, hash, SystemClock::Instance().Now()}));
  BALCAO_RETURN_IF_ERROR(ApplyLanes(store, authority));
  return joined;
}

Status Revoke(HubStore& store, const NatsAuthority& authority, const std::string& store_id,
              const std::string& terminal_id) {
  BALCAO_RETURN_IF_ERROR(store.RevokeLane(store_id, terminal_id));
  return ApplyLanes(store, authority);
}

}  // namespace balcao::hub
