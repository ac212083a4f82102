#include "hub/hub_store.h"

#include <libpq-fe.h>

#include <algorithm>

namespace balcao::hub {

const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> migrations = {
      {1, "routed events and brcode lanes",
       "CREATE TABLE routed_event (id text PRIMARY KEY, created_us bigint NOT NULL, subject text NOT NULL,"
       " sequence bigint NOT NULL, routed_at timestamptz NOT NULL DEFAULT now());"
       "CREATE INDEX routed_event_created ON routed_event (created_us);"
       "CREATE TABLE brcode_lane (uuid text PRIMARY KEY, subject text NOT NULL);"},
      {2, "enrolment and lanes",
       "CREATE TABLE enrol_code (code_sha256 text PRIMARY KEY, store text NOT NULL, terminal text NOT NULL,"
       " expires_us bigint NOT NULL, used boolean NOT NULL DEFAULT false);"
       "CREATE TABLE lane (store text NOT NULL, terminal text NOT NULL, nats_user text NOT NULL,"
       " password_hash text NOT NULL, enrolled_us bigint NOT NULL, revoked boolean NOT NULL DEFAULT false,"
       " PRIMARY KEY (store, terminal));"},
      {3, "heartbeats",
       "CREATE TABLE heartbeat (store text NOT NULL, terminal text NOT NULL, body jsonb NOT NULL,"
       " seen_us bigint NOT NULL, PRIMARY KEY (store, terminal));"},
      {4, "journal chain heads and alarms",
       "CREATE TABLE chain_point (store text NOT NULL, terminal text NOT NULL, rows bigint NOT NULL,"
       " head text NOT NULL, seen_us bigint NOT NULL, PRIMARY KEY (store, terminal, rows));"
       "CREATE TABLE chain_alarm (id bigserial PRIMARY KEY, store text NOT NULL, terminal text NOT NULL,"
       " detail text NOT NULL, seen_us bigint NOT NULL);"},
      {5, "the boxes' nights",
       "CREATE TABLE lane_night (store text NOT NULL, terminal text NOT NULL, day date NOT NULL,"
       " settled_at text NOT NULL, status text NOT NULL, attention integer NOT NULL, summary jsonb NOT NULL,"
       " received_us bigint NOT NULL, PRIMARY KEY (store, terminal, day));"},
      {6, "the entity each routed event is about",
       "ALTER TABLE routed_event ADD COLUMN entity text NOT NULL DEFAULT '';"},
      {7, "the fleet page's users and sessions",
       "CREATE TABLE fleet_user (name text PRIMARY KEY, password_hash text NOT NULL, changed_us bigint NOT NULL);"
       "CREATE TABLE fleet_session (token_sha256 text PRIMARY KEY, name text NOT NULL REFERENCES fleet_user"
       " ON DELETE CASCADE, expires_us bigint NOT NULL);"},
      {8, "phone-card sessions",
       "CREATE TABLE phone_session (uuid text PRIMARY KEY, store text NOT NULL, terminal text NOT NULL,"
       " session_id text NOT NULL, facts jsonb NOT NULL, expires_us bigint NOT NULL);"},
      {9, "phone-card sessions that ended with their sale", "ALTER TABLE phone_session ADD COLUMN ended_us bigint;"},
      {10, "the fleet page's language of each user",
       "ALTER TABLE fleet_user ADD COLUMN language text NOT NULL DEFAULT '';"},
  };
  return migrations;
}

HubStore::HubStore(std::vector<pg_conn*> connections) : connections_(std::move(connections)), idle_(connections_) {}
HubStore::~HubStore() {
  for (pg_conn* connection : connections_) PQfinish(connection);
}

StatusOr<std::unique_ptr<HubStore>> HubStore::Open(const std::string& conninfo, int connections) {
  std::vector<pg_conn*> opened;
  auto close = [&opened] {
    for (pg_conn* connection : opened) PQfinish(connection);
  };
  for (int i = 0; i < std::max(1, connections); ++i) {
    PGconn* connection = PQconnectdb(conninfo.c_str());
    if (connection == nullptr) return close(), InternalError("postgresql: no memory for a connection");
    opened.push_back(connection);
    if (PQstatus(connection) != CONNECTION_OK) {
      const std::string reason = PQerrorMessage(connection);
      close();
      return UnavailableError("postgresql (" + conninfo + "): " + reason);
    }
    // The server's notices ("relation ... already exists, skipping") are not the operator's business.
    PQsetNoticeProcessor(
        connection, [](void*, const char*) {}, nullptr);
  }
  return std::unique_ptr<HubStore>(new HubStore(std::move(opened)));
}

HubStore::Lease::Lease(HubStore& store) : store_(store) {
  std::unique_lock lock(store_.mu_);
  store_.freed_.wait(lock, [this] { return !store_.idle_.empty(); });
  connection_ = store_.idle_.back();
  store_.idle_.pop_back();
}

HubStore::Lease::~Lease() {
  {
    std::lock_guard lock(store_.mu_);
    store_.idle_.push_back(connection_);
  }
  store_.freed_.notify_one();
}

StatusOr<std::vector<std::vector<std::string>>> HubStore::Lease::Query(const std::string& sql,
                                                                       const std::vector<std::string>& params) {
  std::vector<const char*> values;
  for (const std::string& p : params) values.push_back(p.c_str());
  // Without parameters the simple protocol: a migration is several statements.
  PGresult* result = values.empty() ? PQexec(connection_, sql.c_str())
                                    : PQexecParams(connection_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                                                   values.data(), nullptr, nullptr, 0);
  std::unique_ptr<PGresult, void (*)(PGresult*)> owned(result, PQclear);
  const ExecStatusType status = PQresultStatus(result);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    std::string reason = PQerrorMessage(connection_);
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    if (PQstatus(connection_) != CONNECTION_OK) {
      PQreset(connection_);  // the next call finds it again (a restarted server)
      return UnavailableError("postgresql: " + reason);
    }
    return InternalError("postgresql: " + reason);
  }
  std::vector<std::vector<std::string>> rows;
  for (int r = 0; r < PQntuples(result); ++r) {
    std::vector<std::string> row;
    for (int c = 0; c < PQnfields(result); ++c) row.emplace_back(PQgetvalue(result, r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

Status HubStore::Lease::Exec(const std::string& sql, const std::vector<std::string>& params) {
  auto rows = Query(sql, params);
  return rows.ok() ? OkStatus() : rows.status();
}

StatusOr<int> HubStore::SchemaVersion() {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT coalesce(max(version), 0) FROM schema_migrations"));
  return std::stoi(rows.at(0).at(0));
}

StatusOr<int> HubStore::Migrate() {
  {
    Lease db(*this);
    BALCAO_RETURN_IF_ERROR(
        db.Exec("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"));
    for (const Migration& m : Migrations()) {
      // One transaction per migration, under an advisory lock: two hubs starting at once apply it once.
      BALCAO_RETURN_IF_ERROR(db.Exec("BEGIN"));
      Status applied = db.Exec("SELECT pg_advisory_xact_lock(2524)");
      StatusOr<std::vector<std::vector<std::string>>> seen =
          applied.ok() ? db.Query("SELECT 1 FROM schema_migrations WHERE version = $1", {std::to_string(m.version)})
                       : StatusOr<std::vector<std::vector<std::string>>>(applied);
      if (seen.ok() && seen->empty()) {
        applied = db.Exec(m.sql);
        if (applied.ok())
          applied = db.Exec("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                            {std::to_string(m.version), m.name});
      } else if (!seen.ok()) {
        applied = seen.status();
      }
      if (!applied.ok()) {
        db.Exec("ROLLBACK").IgnoreError();  // the connection's error is the one reported
        return Status(applied.code(), "migration " + std::to_string(m.version) + ": " + applied.message());
      }
      BALCAO_RETURN_IF_ERROR(db.Exec("COMMIT"));
    }
  }
  return SchemaVersion();
}

StatusOr<bool> HubStore::Routed(const std::string& event_id) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT 1 FROM routed_event WHERE id = $1", {event_id}));
  return !rows.empty();
}

Status HubStore::RecordRouted(const RoutedEvent& event) {
  Lease db(*this);
  return db.Exec(
      "INSERT INTO routed_event (id, created_us, subject, sequence, entity) VALUES ($1, $2, $3, $4, $5)"
      " ON CONFLICT (id) DO NOTHING",
      {event.id, std::to_string(event.created), event.subject, std::to_string(event.sequence), event.entity});
}

StatusOr<long long> HubStore::ForgetRoutedBefore(UnixMicros cutoff) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(
      auto rows,
      db.Query("WITH gone AS (DELETE FROM routed_event WHERE created_us < $1 RETURNING 1) SELECT count(*) FROM gone",
               {std::to_string(cutoff)}));
  return std::stoll(rows.at(0).at(0));
}

StatusOr<long long> HubStore::CountRouted(const std::string& subject_prefix) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(
      auto rows, db.Query("SELECT count(*) FROM routed_event WHERE starts_with(subject, $1)", {subject_prefix}));
  return std::stoll(rows.at(0).at(0));
}

StatusOr<std::vector<RoutedEntity>> HubStore::RoutedSince(UnixMicros from) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT subject, entity FROM routed_event WHERE created_us >= $1"
                                              " ORDER BY created_us",
                                              {std::to_string(from)}));
  std::vector<RoutedEntity> routed;
  for (auto& row : rows) routed.push_back({row[0], row[1]});
  return routed;
}

StatusOr<std::optional<std::string>> HubStore::BrcodeSubject(const std::string& uuid) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT subject FROM brcode_lane WHERE uuid = $1", {uuid}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(rows[0][0]);
}

Status HubStore::RecordBrcodeSubject(const std::string& uuid, const std::string& subject) {
  Lease db(*this);
  return db.Exec("INSERT INTO brcode_lane (uuid, subject) VALUES ($1, $2) ON CONFLICT (uuid) DO NOTHING",
                 {uuid, subject});
}

Status HubStore::AddEnrolCode(const std::string& code_sha256, const std::string& store, const std::string& terminal,
                              UnixMicros expires) {
  Lease db(*this);
  return db.Exec("INSERT INTO enrol_code (code_sha256, store, terminal, expires_us) VALUES ($1, $2, $3, $4)",
                 {code_sha256, store, terminal, std::to_string(expires)});
}

StatusOr<std::pair<std::string, std::string>> HubStore::TakeEnrolCode(const std::string& code_sha256, UnixMicros now) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("UPDATE enrol_code SET used = true WHERE code_sha256 = $1 AND NOT used"
                                              " AND expires_us > $2 RETURNING store, terminal",
                                              {code_sha256, std::to_string(now)}));
  if (rows.empty())
    return NotFoundError("code: unknown, used already or expired (ask for a new one: balcao hub enroll)");
  return std::make_pair(rows[0][0], rows[0][1]);
}

Status HubStore::PutLane(const EnrolledLane& lane) {
  Lease db(*this);
  return db.Exec(
      "INSERT INTO lane (store, terminal, nats_user, password_hash, enrolled_us) VALUES ($1, $2, $3, $4, $5)"
      " ON CONFLICT (store, terminal) DO UPDATE SET nats_user = $3, password_hash = $4, enrolled_us = $5, revoked = "
      "false",
      {lane.store, lane.terminal, lane.user, lane.password_hash, std::to_string(lane.enrolled)});
}

Status HubStore::RevokeLane(const std::string& store, const std::string& terminal) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("UPDATE lane SET revoked = true WHERE store = $1 AND terminal = $2"
                                              " AND NOT revoked RETURNING 1",
                                              {store, terminal}));
  if (rows.empty()) return NotFoundError("no enrolled lane " + store + "/" + terminal);
  return OkStatus();
}

StatusOr<std::vector<EnrolledLane>> HubStore::ActiveLanes() {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT store, terminal, nats_user, password_hash, enrolled_us FROM lane"
                                              " WHERE NOT revoked ORDER BY store, terminal"));
  std::vector<EnrolledLane> lanes;
  for (auto& row : rows) lanes.push_back({row[0], row[1], row[2], row[3], std::stoll(row[4])});
  return lanes;
}

Status HubStore::RecordHeartbeat(const std::string& store, const std::string& terminal, const std::string& json,
                                 UnixMicros at) {
  Lease db(*this);
  return db.Exec(
      "INSERT INTO heartbeat (store, terminal, body, seen_us) VALUES ($1, $2, $3, $4)"
      " ON CONFLICT (store, terminal) DO UPDATE SET body = $3, seen_us = $4",
      {store, terminal, json, std::to_string(at)});
}

StatusOr<std::optional<std::string>> HubStore::ChainHeadAt(const std::string& store, const std::string& terminal,
                                                           std::int64_t rows) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto found,
                          db.Query("SELECT head FROM chain_point WHERE store = $1 AND terminal = $2 AND rows = $3",
                                   {store, terminal, std::to_string(rows)}));
  if (found.empty()) return std::optional<std::string>();
  return std::optional<std::string>(found[0][0]);
}

StatusOr<std::int64_t> HubStore::MostChainRows(const std::string& store, const std::string& terminal) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(
      auto found,
      db.Query("SELECT coalesce(max(rows), 0) FROM chain_point WHERE store = $1 AND terminal = $2", {store, terminal}));
  return std::stoll(found.at(0).at(0));
}

Status HubStore::RecordChainPoint(const std::string& store, const std::string& terminal, std::int64_t rows,
                                  const std::string& head, UnixMicros at) {
  Lease db(*this);
  return db.Exec(
      "INSERT INTO chain_point (store, terminal, rows, head, seen_us) VALUES ($1, $2, $3, $4, $5)"
      " ON CONFLICT DO NOTHING",
      {store, terminal, std::to_string(rows), head, std::to_string(at)});
}

Status HubStore::RecordChainAlarm(const std::string& store, const std::string& terminal, const std::string& detail,
                                  UnixMicros at) {
  Lease db(*this);
  return db.Exec("INSERT INTO chain_alarm (store, terminal, detail, seen_us) VALUES ($1, $2, $3, $4)",
                 {store, terminal, detail, std::to_string(at)});
}

StatusOr<std::string> HubStore::LastChainAlarm(const std::string& store, const std::string& terminal) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto found, db.Query("SELECT detail FROM chain_alarm WHERE store = $1 AND terminal = $2"
                                               " ORDER BY id DESC LIMIT 1",
                                               {store, terminal}));
  return found.empty() ? std::string() : found[0][0];
}

Status HubStore::PutFleetUser(const std::string& name, const std::string& password_hash, UnixMicros at) {
  Lease db(*this);
  // A new password ends the user's sessions.
  BALCAO_RETURN_IF_ERROR(db.Exec("DELETE FROM fleet_session WHERE name = $1", {name}));
  return db.Exec(
      "INSERT INTO fleet_user (name, password_hash, changed_us) VALUES ($1, $2, $3)"
      " ON CONFLICT (name) DO UPDATE SET password_hash = $2, changed_us = $3",
      {name, password_hash, std::to_string(at)});
}

StatusOr<std::optional<std::string>> HubStore::FleetUserHash(const std::string& name) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT password_hash FROM fleet_user WHERE name = $1", {name}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(rows[0][0]);
}

Status HubStore::SetFleetUserLanguage(const std::string& name, const std::string& language) {
  Lease db(*this);
  return db.Exec("UPDATE fleet_user SET language = $2 WHERE name = $1", {name, language});
}

StatusOr<std::string> HubStore::FleetUserLanguage(const std::string& name) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT language FROM fleet_user WHERE name = $1", {name}));
  return rows.empty() ? std::string() : rows[0][0];
}

Status HubStore::AddFleetSession(const std::string& token_sha256, const std::string& name, UnixMicros expires) {
  Lease db(*this);
  BALCAO_RETURN_IF_ERROR(db.Exec("DELETE FROM fleet_session WHERE expires_us < $1",
                                 {std::to_string(expires - 86400LL * kMicrosPerSecond)}));
  return db.Exec("INSERT INTO fleet_session (token_sha256, name, expires_us) VALUES ($1, $2, $3)",
                 {token_sha256, name, std::to_string(expires)});
}

StatusOr<std::optional<std::string>> HubStore::FleetSessionUser(const std::string& token_sha256, UnixMicros now) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows,
                          db.Query("SELECT name FROM fleet_session WHERE token_sha256 = $1 AND expires_us > $2",
                                   {token_sha256, std::to_string(now)}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(rows[0][0]);
}

Status HubStore::EndFleetSession(const std::string& token_sha256) {
  Lease db(*this);
  return db.Exec("DELETE FROM fleet_session WHERE token_sha256 = $1", {token_sha256});
}

Status HubStore::PutPhoneSession(const PhoneSession& session) {
  Lease db(*this);
  BALCAO_RETURN_IF_ERROR(db.Exec("DELETE FROM phone_session WHERE expires_us < $1",
                                 {std::to_string(SystemClock::Instance().Now() - 3600 * kMicrosPerSecond)}));
  // A uuid is another lane's only by a fault: the first lane to announce it keeps it.
  return db.Exec(
      "INSERT INTO phone_session (uuid, store, terminal, session_id, facts, expires_us) VALUES ($1, $2, $3, $4, $5, $6)"
      " ON CONFLICT (uuid) DO UPDATE SET facts = $5, expires_us = GREATEST(phone_session.expires_us, $6)"
      " WHERE phone_session.store = $2 AND phone_session.terminal = $3",
      {session.uuid, session.store, session.terminal, session.session_id, session.facts_json,
       std::to_string(session.expires)});
}

StatusOr<std::optional<PhoneSession>> HubStore::FindPhoneSession(const std::string& uuid, UnixMicros now) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT store, terminal, session_id, facts::text, expires_us FROM"
                                              " phone_session WHERE uuid = $1 AND expires_us > $2 AND ended_us IS NULL",
                                              {uuid, std::to_string(now)}));
  if (rows.empty()) return std::optional<PhoneSession>();
  return std::optional<PhoneSession>(
      PhoneSession{uuid, rows[0][0], rows[0][1], rows[0][2], rows[0][3], std::stoll(rows[0][4])});
}

Status HubStore::EndPhoneSession(const std::string& uuid, const std::string& store, const std::string& terminal,
                                 UnixMicros now) {
  Lease db(*this);
  // An end may overtake its announcement (two requests, two threads of the box): it is kept as
  // a tombstone the announcement does not revive, forgotten a day later.
  return db.Exec(
      "INSERT INTO phone_session (uuid, store, terminal, session_id, facts, expires_us, ended_us)"
      " VALUES ($1, $2, $3, '', '{}', $4, $5)"
      " ON CONFLICT (uuid) DO UPDATE SET ended_us = $5"
      " WHERE phone_session.store = $2 AND phone_session.terminal = $3",
      {uuid, store, terminal, std::to_string(now + 86400 * kMicrosPerSecond), std::to_string(now)});
}

Status HubStore::RecordNight(const LaneNight& night) {
  Lease db(*this);
  // A day is settled once on its box; a report sent again (an answer lost) changes nothing,
  // and a later run of the day (a box restored from a backup) replaces it.
  return db.Exec(
      "INSERT INTO lane_night (store, terminal, day, settled_at, status, attention, summary, received_us)"
      " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (store, terminal, day) DO UPDATE SET"
      " settled_at = $4, status = $5, attention = $6, summary = $7, received_us = $8"
      " WHERE lane_night.settled_at <> $4",
      {night.store, night.terminal, night.day, night.settled_at, night.status, std::to_string(night.attention),
       night.summary_json, std::to_string(night.received)});
}

StatusOr<std::vector<LaneNight>> HubStore::Nights(const std::string& day) {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows, db.Query("SELECT store, terminal, day::text, settled_at, status, attention,"
                                              " summary::text, received_us FROM lane_night WHERE day = $1::date"
                                              " ORDER BY store, terminal",
                                              {day}));
  std::vector<LaneNight> nights;
  for (auto& row : rows)
    nights.push_back({row[0], row[1], row[2], row[3], row[4], std::stoi(row[5]), row[6], std::stoll(row[7])});
  return nights;
}

StatusOr<std::vector<HubStore::LaneHealth>> HubStore::Health() {
  Lease db(*this);
  BALCAO_ASSIGN_OR_RETURN(auto rows,
                          db.Query("SELECT store, terminal, body::text, seen_us FROM heartbeat ORDER BY 1, 2"));
  std::vector<LaneHealth> out;
  for (auto& row : rows) out.push_back({row[0], row[1], row[2], std::stoll(row[3])});
  return out;
}

}  // namespace balcao::hub
