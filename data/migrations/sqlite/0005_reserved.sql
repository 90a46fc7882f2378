-- 0005: reserved for another branch's migration (the numbers must follow each other). The merge
-- that brings the real 0005 deletes this file. Not repeatable (an index on the small bot_meta
-- table), like every migration, so a process starting at the same moment never re-applies it.
CREATE INDEX reserved_0005 ON bot_meta (value);
