// The hub's state in PostgreSQL (libpq): the events it routed (dedupe and the replay window),
// the brcodes whose lane it looked up, enrolment codes and the lanes' credentials, and what
// boxes report (heartbeats, chain heads). The schema is versioned: Migrate() applies, in one
// transaction each, the migrations newer than schema_migrations' highest version.
// docs/hub.md, "PostgreSQL".
// Ownership: owns its connections. Thread-safety: every call borrows one connection of the pool
// for its statements (a call's transaction stays on it), waiting while all are busy: calls on
// as many threads as connections run at once (their commits grouped by PostgreSQL).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/time.h"
#include "hub/night.h"

struct pg_conn;

namespace balcao::hub {

// One schema migration: its version (ascending, never reused) and its SQL.
struct Migration {
  int version;
  const char* name;
  const char* sql;
};
const std::vector<Migration>& Migrations();

struct RoutedEvent {
  std::string id;
  UnixMicros created = 0;
  std::string subject;
  std::uint64_t sequence = 0;  // the stream's
  std::string entity;          // "invoice/<id>", "deposit/<id>" (settlement::SourceOf's names)
};

struct EnrolledLane {
  std::string store, terminal;
  std::string user;           // NATS user
  std::string password_hash;  // bcrypt, as nats-server's authorization reads it
  UnixMicros enrolled = 0;
};

// A phone-card session's public facts as its box announced them (phone_home.h).
struct PhoneSession {
  std::string uuid, store, terminal;
  std::string session_id;  // the bank's merchant-session id
  std::string facts_json;
  UnixMicros expires = 0;
};

class HubStore {
 public:
  // Connects with a libpq connection string ("host=... dbname=... user=..."), `connections`
  // times. kUnavailable when the server cannot be reached.
  static StatusOr<std::unique_ptr<HubStore>> Open(const std::string& conninfo, int connections = 1);
  ~HubStore();
  HubStore(const HubStore&) = delete;
  HubStore& operator=(const HubStore&) = delete;

  // Applies the migrations not applied yet; returns the schema's version.
  StatusOr<int> Migrate();
  StatusOr<int> SchemaVersion();

  // Whether the event was routed before (its id recorded).
  StatusOr<bool> Routed(const std::string& event_id);
  // Records a routed event (again: nothing changes).
  Status RecordRouted(const RoutedEvent& event);
  // Forgets routed events created before `cutoff`; returns how many.
  StatusOr<long long> ForgetRoutedBefore(UnixMicros cutoff);
  StatusOr<long long> CountRouted(const std::string& subject_prefix);
  // The events routed that were created at or after `from` (the chain's night reads its day's).
  StatusOr<std::vector<RoutedEntity>> RoutedSince(UnixMicros from);

  // A brcode's lane, once looked up at the bank (subject "" = none known).
  StatusOr<std::optional<std::string>> BrcodeSubject(const std::string& uuid);
  Status RecordBrcodeSubject(const std::string& uuid, const std::string& subject);

  // Enrolment: a one-time code (stored as its SHA-256) for a lane, valid until `expires`.
  Status AddEnrolCode(const std::string& code_sha256, const std::string& store, const std::string& terminal,
                      UnixMicros expires);
  // Takes the code (once): the lane it was made for. kNotFound: unknown, used or expired.
  StatusOr<std::pair<std::string, std::string>> TakeEnrolCode(const std::string& code_sha256, UnixMicros now);
  Status PutLane(const EnrolledLane& lane);
  // Revokes the lane; kNotFound when it is not enrolled.
  Status RevokeLane(const std::string& store, const std::string& terminal);
  StatusOr<std::vector<EnrolledLane>> ActiveLanes();

  // A box's heartbeat (JSON as it sent it) and when it came.
  Status RecordHeartbeat(const std::string& store, const std::string& terminal, const std::string& json, UnixMicros at);
  struct LaneHealth {
    std::string store, terminal, heartbeat_json;
    UnixMicros last_seen = 0;
  };
  StatusOr<std::vector<LaneHealth>> Health();

  // The fleet page's users (bcrypt hashes) and sessions (a token's SHA-256, its user, expiry):
  // in PostgreSQL, so two hubs behind one proxy share them.
  Status PutFleetUser(const std::string& name, const std::string& password_hash, UnixMicros at);
  StatusOr<std::optional<std::string>> FleetUserHash(const std::string& name);
  // The page's language the user chose last ("pt-BR", "en-US"; "" none yet).
  Status SetFleetUserLanguage(const std::string& name, const std::string& language);
  StatusOr<std::string> FleetUserLanguage(const std::string& name);
  Status AddFleetSession(const std::string& token_sha256, const std::string& name, UnixMicros expires);
  // The session's user while it has not expired; nullopt otherwise.
  StatusOr<std::optional<std::string>> FleetSessionUser(const std::string& token_sha256, UnixMicros now);
  Status EndFleetSession(const std::string& token_sha256);

  // Phone-card sessions (phone_home.h): kept until they expire (then forgotten at the next put).
  Status PutPhoneSession(const PhoneSession& session);
  // An announced session that has not expired nor ended.
  StatusOr<std::optional<PhoneSession>> FindPhoneSession(const std::string& uuid, UnixMicros now);
  // The lane's sale no longer waits on `uuid` (cancelled, paid, replaced): FindPhoneSession
  // answers nothing for it from now on, even when its announcement arrives later. Another
  // lane's uuid is left alone.
  Status EndPhoneSession(const std::string& uuid, const std::string& store, const std::string& terminal,
                         UnixMicros now);

  // The boxes' nights (docs/hub.md, "The boxes' nights"): one per lane and day.
  Status RecordNight(const LaneNight& night);
  StatusOr<std::vector<LaneNight>> Nights(const std::string& day);

  // The boxes' journal heads (chain_watch.h): the head the hub saw at a row count, the most
  // rows seen, a head seen, and the alarms raised (the last one per lane, "" when none).
  StatusOr<std::optional<std::string>> ChainHeadAt(const std::string& store, const std::string& terminal,
                                                   std::int64_t rows);
  StatusOr<std::int64_t> MostChainRows(const std::string& store, const std::string& terminal);
  Status RecordChainPoint(const std::string& store, const std::string& terminal, std::int64_t rows,
                          const std::string& head, UnixMicros at);
  Status RecordChainAlarm(const std::string& store, const std::string& terminal, const std::string& detail,
                          UnixMicros at);
  StatusOr<std::string> LastChainAlarm(const std::string& store, const std::string& terminal);

 private:
  explicit HubStore(std::vector<pg_conn*> connections);
  // One connection of the pool, borrowed for a call's statements.
  class Lease {
   public:
    explicit Lease(HubStore& store);  // waits for an idle connection
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    // Runs `sql` with text parameters; the rows' text values.
    StatusOr<std::vector<std::vector<std::string>>> Query(const std::string& sql,
                                                          const std::vector<std::string>& params = {});
    Status Exec(const std::string& sql, const std::vector<std::string>& params = {});

   private:
    HubStore& store_;
    pg_conn* connection_;
  };

  const std::vector<pg_conn*> connections_;
  std::mutex mu_;
  std::condition_variable freed_;
  std::vector<pg_conn*> idle_;  // guarded by mu_
};

}  // namespace balcao::hub
