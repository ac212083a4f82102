-- The box's operators (offline/operators.h): who may sell and who may approve money going
-- back. A PIN is stored only as its Argon2id hash (libsodium's crypto_pwhash_str: the
-- algorithm, its costs and a per-operator random salt are inside the encoded string).
CREATE TABLE operators (
  id              INTEGER PRIMARY KEY,
  name            TEXT NOT NULL UNIQUE COLLATE NOCASE,
  role            TEXT NOT NULL CHECK (role IN ('cashier', 'supervisor')),
  pin_hash        TEXT NOT NULL,
  disabled        INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  failed_attempts INTEGER NOT NULL DEFAULT 0,          -- wrong PINs since the last right one
  locked_until    INTEGER NOT NULL DEFAULT 0,          -- epoch ms; 0: not locked
  created_at      INTEGER NOT NULL,                    -- epoch ms
  updated_at      INTEGER NOT NULL
);
