-- 0005: reserved for another branch's migration (the numbers must follow each other). The merge
-- that brings the real 0005 deletes this file.
SELECT 1;
