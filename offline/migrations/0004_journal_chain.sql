-- The sale journal's hash chain (offline/journal_chain.h, docs/offline.md "The journal chain").
-- Every row gets its place in the whole journal (1, 2, 3... over all sales, in the order rows
-- were appended), the hash it was linked to and its own hash (32-byte SHA-256 blobs). SQLite
-- has no SHA-256: this migration's C++ part (internal/migration_steps.cc) fills the rows
-- already there, in the same transaction.
ALTER TABLE sale_journal ADD COLUMN chain_seq INTEGER;
ALTER TABLE sale_journal ADD COLUMN chain_prev BLOB;
ALTER TABLE sale_journal ADD COLUMN chain_hash BLOB;
CREATE UNIQUE INDEX sale_journal_chain ON sale_journal (chain_seq);
-- A row written without its chain value (a process of an older build still running on this
-- file after the upgrade) fails loudly instead of breaking the chain in silence.
CREATE TRIGGER sale_journal_chained BEFORE INSERT ON sale_journal
  WHEN NEW.chain_seq IS NULL OR NEW.chain_prev IS NULL OR NEW.chain_hash IS NULL
BEGIN
  SELECT RAISE(ABORT, 'sale_journal: a row needs its chain value (a build older than the store wrote it?)');
END;
-- The journal's head when a nightly settlement was recorded (its last row's position and
-- hash): `balcao journal verify` checks the chain still passes through it. NULL on records
-- kept before this migration.
ALTER TABLE settlements ADD COLUMN journal_rows INTEGER;
ALTER TABLE settlements ADD COLUMN journal_head BLOB;
