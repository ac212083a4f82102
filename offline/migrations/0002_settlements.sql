-- The nightly settlement's record (settlement/, `balcao settle`): one row per business day
-- (America/Sao_Paulo), written once; settling the same day again reads it back.
CREATE TABLE settlements (
  business_day TEXT PRIMARY KEY CHECK (business_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  settled_at   INTEGER NOT NULL,                       -- epoch ms
  status       TEXT NOT NULL CHECK (status IN ('reconciled', 'attention')),
  attention    INTEGER NOT NULL,                       -- items for the operator
  sales        INTEGER NOT NULL,                       -- sales paid in the day
  gross        INTEGER NOT NULL,                       -- cents received
  refunds      INTEGER NOT NULL,                       -- cents given back
  report_json  TEXT NOT NULL,                          -- the whole report (settlement/report.h)
  report_text  TEXT NOT NULL                           -- the operator's text
);

-- Which settlement counted each sale's money, and whether the sale still needs a nightly look
-- (open, late money, a discrepancy...): a sale is counted in exactly one day's totals.
CREATE TABLE settlement_sales (
  sale_id     TEXT PRIMARY KEY,
  counted_day TEXT NOT NULL DEFAULT '',                -- the day whose totals hold its payment
  done        INTEGER NOT NULL CHECK (done IN (0, 1))  -- 1: final, out of later nights' scope
);
