-- The nightly settlement counts a sale's returns on the night of the day they were made, not
-- with the sale's payment (docs/settlement.md, rule 4). Per sale: the journal sequence the
-- last settlement read (a sale final since then comes back into scope when its journal grows:
-- a refund made days later), and what the nights counted of its refunds and late-money returns.
ALTER TABLE settlement_sales ADD COLUMN seen_seq INTEGER NOT NULL DEFAULT 0;
-- NULL on rows written before this migration: their refunds as they stood at seen_seq were
-- counted with the sale (settlement/settle.cc replays the journal up to seen_seq).
ALTER TABLE settlement_sales ADD COLUMN refunds_counted INTEGER;
ALTER TABLE settlement_sales ADD COLUMN late_returned_counted INTEGER;
UPDATE settlement_sales
   SET seen_seq = coalesce((SELECT last_seq FROM sales WHERE sales.sale_id = settlement_sales.sale_id), 0);
