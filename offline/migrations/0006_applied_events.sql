-- The bank events this box has taken (offline/applied_events.h, docs/security.md "Webhook
-- deliveries"): a delivery of an event already here is a replay and changes nothing. A row is
-- kept while its event is younger than the replay window (`security.webhook_retention_days`);
-- deliveries of older events are refused by age, so a pruned id cannot be replayed.
CREATE TABLE applied_events (
  event_id   TEXT PRIMARY KEY,                              -- the bank's event id
  sale_id    TEXT NOT NULL DEFAULT '',                      -- the sale it was about; '' for none
  outcome    TEXT NOT NULL CHECK (outcome IN ('applied', 'ignored')),
  created_at INTEGER NOT NULL,                              -- the event's `created` (the bank's clock), epoch ms
  applied_at INTEGER NOT NULL                               -- when this box took it, epoch ms
) WITHOUT ROWID;
CREATE INDEX applied_events_by_created ON applied_events (created_at);
