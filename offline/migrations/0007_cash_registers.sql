-- The store's cash registers (offline/cash_registers.h, docs/integration.md): the keys that
-- protect their messages, the nonces already seen (a replay is refused), and every request a
-- register made with its identity, so that a request seen again never starts a second sale.
CREATE TABLE pos_keys (
  register_id    TEXT NOT NULL,                -- the register's SaleID
  key_identifier TEXT NOT NULL,
  key_version    INTEGER NOT NULL,
  derived_keys   TEXT NOT NULL,                -- 160 hex: HMAC key, AES key, IV; not the passphrase
  created_at     INTEGER NOT NULL,             -- epoch ms
  retired_at     INTEGER NOT NULL DEFAULT 0,   -- a newer version was made then; 0 = current
  disabled       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_identifier, key_version)
) WITHOUT ROWID;
CREATE INDEX pos_keys_by_register ON pos_keys (register_id);
CREATE TABLE pos_nonces (
  key_identifier TEXT NOT NULL,
  nonce          TEXT NOT NULL,                -- base64, as the SecurityTrailer carried it
  seen_at        INTEGER NOT NULL,
  PRIMARY KEY (key_identifier, nonce)
) WITHOUT ROWID;
CREATE TABLE register_requests (
  register_id    TEXT NOT NULL,                -- who asked (nexo SaleID)
  service_id     TEXT NOT NULL,                -- the register's id of the message (nexo ServiceID)
  transaction_id TEXT NOT NULL DEFAULT '',     -- the register's sale (nexo SaleTransactionID)
  kind           TEXT NOT NULL CHECK (kind IN ('payment', 'reversal')),
  sale_id        TEXT NOT NULL DEFAULT '',     -- the box's sale it started or names
  request        TEXT NOT NULL,                -- the request's plaintext, to answer a status lookup
  outcome        TEXT NOT NULL DEFAULT '',     -- JSON once finished (integration/core); '' while running
  created_at     INTEGER NOT NULL,
  finished_at    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (register_id, service_id)
) WITHOUT ROWID;
CREATE INDEX register_requests_by_sale ON register_requests (sale_id, kind);
