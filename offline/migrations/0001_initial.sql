-- The box's store, first schema: outbox, sale journal, print jobs, sealed cards,
-- operator actions and settings. Times are Unix epoch milliseconds (UTC), money is
-- int64 cents. Applied in one BEGIN IMMEDIATE transaction with PRAGMA user_version.

-- Requests that must reach the bank exactly once (docs/offline.md, docs/style.md S9).
CREATE TABLE outbox (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,   -- operator-facing number
  key             TEXT NOT NULL UNIQUE,                -- client-minted idempotency key (lowercase)
  kind            TEXT NOT NULL,                       -- "invoice.create", "transfer.create", "event.ack"...
  method          TEXT NOT NULL CHECK (method IN ('POST', 'PATCH', 'PUT', 'DELETE')),
  path            TEXT NOT NULL CHECK (path LIKE '/v2/%'),
  body            TEXT NOT NULL DEFAULT '',
  lookup          TEXT NOT NULL CHECK (lookup IN ('external_id', 'tags', 'entity')),
  lookup_path     TEXT NOT NULL,                       -- list route (external_id, tags) or entity route
  lookup_value    TEXT NOT NULL,                       -- the externalId or tag searched for
  sale_id         TEXT NOT NULL DEFAULT '',            -- rows of one sale go out in order
  amount          INTEGER NOT NULL DEFAULT 0,          -- cents at risk while not done
  state           TEXT NOT NULL DEFAULT 'pending'
                  CHECK (state IN ('pending', 'inflight', 'unknown', 'done', 'failed', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,      -- sends tried
  reached_bank    INTEGER NOT NULL DEFAULT 0,      -- 1 once a send may have reached the bank
  dropped         INTEGER NOT NULL DEFAULT 0,      -- 1 when an operator dropped it (with a reason)
  lookups         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  last_error      TEXT NOT NULL DEFAULT '',
  http_status     INTEGER NOT NULL DEFAULT 0,
  bank_codes      TEXT NOT NULL DEFAULT '',            -- "code: message" lines of the bank's 400
  bank_id         TEXT NOT NULL DEFAULT '',
  response        TEXT NOT NULL DEFAULT ''             -- the bank's answer once done
);
CREATE INDEX outbox_by_state ON outbox (state, next_attempt_at);
CREATE INDEX outbox_by_sale ON outbox (sale_id, id);

-- The checkout's append-only event log, one row per event of a sale.
CREATE TABLE sales (
  sale_id    TEXT PRIMARY KEY,
  opened_at  INTEGER NOT NULL,
  last_seq   INTEGER NOT NULL,
  closed_at  INTEGER,                                  -- NULL while open
  final_state TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sales_open ON sales (closed_at, opened_at);
CREATE TABLE sale_journal (
  sale_id    TEXT NOT NULL REFERENCES sales (sale_id),
  seq        INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  payload    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (sale_id, seq)
) WITHOUT ROWID;

-- Receipts to print.
CREATE TABLE print_jobs (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  sale_id    TEXT NOT NULL DEFAULT '',
  kind       TEXT NOT NULL,
  target     TEXT NOT NULL DEFAULT '',
  payload    BLOB NOT NULL,
  state      TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'printing', 'printed', 'failed')),
  attempts   INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX print_jobs_by_state ON print_jobs (state, id);

-- Card store-and-forward: card data sealed under a per-record data key, itself
-- wrapped by the key-encryption key (never in this file). Deleted on outcome.
CREATE TABLE sealed_cards (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  sale_id     TEXT NOT NULL UNIQUE,
  amount      INTEGER NOT NULL CHECK (amount > 0),
  masked_pan  TEXT NOT NULL,                           -- BIN (6) + last 4, for the operator
  wrapped_key BLOB NOT NULL,                           -- nonce || AES-256-GCM(KEK, data key) || tag
  sealed      BLOB NOT NULL,                           -- nonce || AES-256-GCM(data key, card) || tag
  state       TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'forwarding')),
  attempts    INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
-- What happened to each forwarded card sale; no card data beyond BIN + last 4.
CREATE TABLE card_outcomes (
  sale_id     TEXT PRIMARY KEY,
  amount      INTEGER NOT NULL,
  masked_pan  TEXT NOT NULL,
  outcome     TEXT NOT NULL CHECK (outcome IN ('approved', 'declined', 'expired')),
  reason      TEXT NOT NULL DEFAULT '',
  bank_id     TEXT NOT NULL DEFAULT '',
  accepted_at INTEGER NOT NULL,
  decided_at  INTEGER NOT NULL,
  reported_at INTEGER                                  -- NULL until the operator/settlement took it
);

-- Everything an operator did to the queues, with the reason they gave.
CREATE TABLE operator_actions (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  at        INTEGER NOT NULL,
  action    TEXT NOT NULL,                             -- "drop", "retry", "reprint"...
  target    TEXT NOT NULL,                             -- "outbox:12", "print_job:3"
  operator  TEXT NOT NULL DEFAULT '',
  reason    TEXT NOT NULL CHECK (length(trim(reason)) > 0)
);

CREATE TABLE settings (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
