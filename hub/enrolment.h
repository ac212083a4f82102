// Enrolment and least privilege (docs/hub.md, "Enrolment"): `balcao hub enroll` makes a
// one-time code for one lane (kept in PostgreSQL as its SHA-256, valid 24 hours); the box
// trades it once at the hub (`balcao hub join`) for that lane's NATS user, whose permissions
// (NatsAuthorization) let it pull only its own consumer and publish only its own box subjects.
// nats-server 2.9 reads users from the authorization include file the hub rewrites, and takes
// them on a reload (SIGHUP to the pid in its pid_file): a revoked lane's connection is closed
// by that reload. Passwords reach the file as bcrypt hashes ($2b$, which nats-server checks).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "common/status.h"
#include "hub/hub_store.h"
#include "hub/nats.h"

namespace balcao::hub {

// How the hub manages nats-server's users.
struct NatsAuthority {
  std::string auth_file;  // the include file nats-server's config names ("" = no users managed)
  std::string pid_file;   // nats-server's pid_file: the reload signal goes to that pid
  std::string hub_user;   // the hub's own user, kept in the file (bcrypt hash of its password)
  std::string hub_password_hash;
  std::string public_url;  // what boxes dial (tls://hub.example:4222), handed out at join
};

// The authorization block for the hub's user and `lanes` (pure).
std::string NatsAuthorization(const NatsAuthority& authority, const std::vector<EnrolledLane>& lanes);
// "$2b$10$...": bcrypt of `password` (libcrypt).
StatusOr<std::string> BcryptHash(const std::string& password);
// 20 random characters of an unambiguous alphabet, in groups of 5 ("K7QX2-...").
std::string NewSecret();
std::string Sha256Hex(const std::string& text);

// Writes the file (0600, through a rename) from the active lanes and signals the reload.
Status ApplyLanes(HubStore& store, const NatsAuthority& authority);
// A code for the lane; kInvalidArgument names a bad store or terminal id.
StatusOr<std::string> Enroll(HubStore& store, const std::string& store_id, const std::string& terminal_id,
                             std::chrono::seconds valid = std::chrono::hours(24));

struct Joined {
  std::string store, terminal;
  std::string nats_url, user, password;
};
// Trades a code for the lane's user (a new password each time), creates its durable consumer
// and applies the users. kNotFound: unknown, used or expired code.
StatusOr<Joined> Join(HubStore& store, NatsLink& admin, const NatsAuthority& authority, const std::string& code);
// Ends the lane's access at once (its user gone from the file, the server reloaded).
Status Revoke(HubStore& store, const NatsAuthority& authority, const std::string& store_id,
              const std::string& terminal_id);

}  // namespace balcao::hub
