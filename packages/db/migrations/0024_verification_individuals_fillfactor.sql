-- Issue 16: an attempt's row is written three times (created, its request object fetched, answered) and grows
-- to ≈ 2.7 KB when answered. On full pages the answer's UPDATE found no room beside the old version, so it went
-- to another page and added an entry to each of the table's three indexes: in the presentation benchmark only
-- 3,200 of 5,556 updates were heap-only (HOT). Pages filled to 40 % at insert keep room for the row's later
-- versions (the dead ones are pruned in place): 8,861 of 9,095 HOT. pgbench of that update on this machine:
-- 3,340-3,530 → 3,980-4,260 per second. Applies to pages written from now on.
ALTER TABLE "verification_individuals" SET (fillfactor = 40);
