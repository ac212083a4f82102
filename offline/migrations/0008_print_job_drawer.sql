-- Whether a print job opens the cash drawer, recorded when it is queued (offline/print_jobs.h):
-- such a job is never printed again without an operator. A job queued before this column
-- existed is taken as opening the drawer when its bytes hold a kick command anywhere (ESC p,
-- DLE DC4 1): a false match only means an operator reprints it, never a drawer that opens
-- by itself.
ALTER TABLE print_jobs ADD COLUMN opens_drawer INTEGER NOT NULL DEFAULT 0 CHECK (opens_drawer IN (0, 1));
UPDATE print_jobs SET opens_drawer = 1 WHERE instr(payload, X'1B70') > 0 OR instr(payload, X'101401') > 0;
