-- The screen's language each operator chose (docs/terminal.md, "Language"): the touchscreen
-- turns to it when they log in. '' until they choose one.
ALTER TABLE operators ADD COLUMN language TEXT NOT NULL DEFAULT '';
