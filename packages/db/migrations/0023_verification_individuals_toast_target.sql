-- Issue 16: an answered attempt's row (its frozen request, checks and issuer trust as JSON) is about 2.5 KB, over
-- the 2 KB from which PostgreSQL compresses a row's largest values on every write: each response's update paid
-- for a pglz compression of its JSON. Rows stay as they are up to a page (8,160 bytes); larger ones are moved out
-- of line as before.
ALTER TABLE "verification_individuals" SET (toast_tuple_target = 8160);
