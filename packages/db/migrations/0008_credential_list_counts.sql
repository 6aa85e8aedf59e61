-- The console list at 1,000,000 credentials (issue 8, bench/credential-list.bench.ts): exact totals from
-- trigger-kept counters, EXPIRED as an indexed column, search through a trigram index on one generated column.
-- Writers wait until this migration commits, so the backfills below and the triggers see the same rows.
LOCK TABLE "credentials", "credential_offers" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it; PGlite loads it
-- (packages/db/src/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "credential_counts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credential_counts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"schema_id" uuid,
	"status" text NOT NULL,
	"expiry_hour" timestamp with time zone,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "offer_expires_at" timestamp with time zone;--> statement-breakpoint
-- Computed for existing rows by this statement (a table rewrite), then by PostgreSQL on every write.
ALTER TABLE "credentials" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("recipient_email" || chr(31) || "recipient_first_name" || ' ' || "recipient_last_name" || chr(31) || "name")) STORED;--> statement-breakpoint
-- The hour (UTC, whatever the session's time zone) an ISSUED credential's latest offer expires in.
CREATE FUNCTION credential_expiry_hour(expires_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_timestamp(floor(extract(epoch FROM expires_at) / 3600) * 3600) $$;--> statement-breakpoint
-- Backfill: the latest offer's expiry of existing credentials, then their counts.
UPDATE "credentials" c SET "offer_expires_at" = o.expires_at
  FROM (SELECT credential_id, max(expires_at) AS expires_at FROM "credential_offers" GROUP BY credential_id) o
  WHERE c.id = o.credential_id;--> statement-breakpoint
INSERT INTO "credential_counts" (organization_id, schema_id, status, expiry_hour, delta)
  SELECT organization_id, schema_id, status,
    CASE WHEN status = 'ISSUED' THEN credential_expiry_hour(offer_expires_at) END, count(*)
  FROM "credentials" WHERE deleted_at IS NULL
  GROUP BY 1, 2, 3, 4;--> statement-breakpoint
-- Counters: inserts and deletes write the statement's net change per key (a batch insert of 500 rows writes
-- a few rows here, not 500). Soft-deleted credentials are not counted.
CREATE FUNCTION credential_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credential_counts (organization_id, schema_id, status, expiry_hour, delta)
    SELECT organization_id, schema_id, status,
      CASE WHEN status = 'ISSUED' THEN credential_expiry_hour(offer_expires_at) END, count(*)
    FROM inserted WHERE deleted_at IS NULL
    GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Updates are row by row (most updates of a credential, e-mailed_at or a claim's holder key, change no
-- key: the WHEN clause skips them without calling the function).
CREATE FUNCTION credential_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credential_counts (organization_id, schema_id, status, expiry_hour, delta)
    SELECT OLD.organization_id, OLD.schema_id, OLD.status,
      CASE WHEN OLD.status = 'ISSUED' THEN credential_expiry_hour(OLD.offer_expires_at) END, -1
    WHERE OLD.deleted_at IS NULL
    UNION ALL
    SELECT NEW.organization_id, NEW.schema_id, NEW.status,
      CASE WHEN NEW.status = 'ISSUED' THEN credential_expiry_hour(NEW.offer_expires_at) END, 1
    WHERE NEW.deleted_at IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION credential_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credential_counts (organization_id, schema_id, status, expiry_hour, delta)
    SELECT organization_id, schema_id, status,
      CASE WHEN status = 'ISSUED' THEN credential_expiry_hour(offer_expires_at) END, -count(*)
    FROM deleted WHERE deleted_at IS NULL
    GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credential_counts_insert AFTER INSERT ON "credentials"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION credential_counts_on_insert();--> statement-breakpoint
CREATE TRIGGER credential_counts_update AFTER UPDATE ON "credentials" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.schema_id IS DISTINCT FROM NEW.schema_id
    OR OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
    OR ((OLD.status = 'ISSUED' OR NEW.status = 'ISSUED') AND OLD.offer_expires_at IS DISTINCT FROM NEW.offer_expires_at))
  EXECUTE FUNCTION credential_counts_on_update();--> statement-breakpoint
CREATE TRIGGER credential_counts_delete AFTER DELETE ON "credentials"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION credential_counts_on_delete();--> statement-breakpoint
-- credentials.offer_expires_at = the latest offer's expiry. A new offer can only raise it (and the update is
-- skipped when it does not); an offer whose expiry changes, moves or goes away makes it recomputed. A
-- CREATED credential takes it as it leaves CREATED instead (BEFORE UPDATE, same row version): the holder
-- page inserts the first offer and then marks the credential ISSUED, so issuing costs one update, not two.
CREATE FUNCTION credential_offer_expiry_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE credentials SET offer_expires_at = NEW.expires_at
    WHERE id = NEW.credential_id AND status <> 'CREATED'
      AND (offer_expires_at IS NULL OR offer_expires_at < NEW.expires_at);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION credential_offer_expiry_on_issue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.offer_expires_at := (SELECT max(expires_at) FROM credential_offers WHERE credential_id = NEW.id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER credential_offer_expiry_issue BEFORE UPDATE ON "credentials" FOR EACH ROW
  WHEN (OLD.status = 'CREATED' AND NEW.status IS DISTINCT FROM 'CREATED')
  EXECUTE FUNCTION credential_offer_expiry_on_issue();--> statement-breakpoint
CREATE FUNCTION credential_offer_expiry_recompute() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE credentials c
      SET offer_expires_at = (SELECT max(expires_at) FROM credential_offers o WHERE o.credential_id = c.id)
      WHERE c.id IN (NEW.credential_id, OLD.credential_id);
  ELSE
    UPDATE credentials c
      SET offer_expires_at = (SELECT max(expires_at) FROM credential_offers o WHERE o.credential_id = c.id)
      WHERE c.id IN (SELECT credential_id FROM deleted);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credential_offer_expiry_insert AFTER INSERT ON "credential_offers" FOR EACH ROW
  EXECUTE FUNCTION credential_offer_expiry_on_insert();--> statement-breakpoint
CREATE TRIGGER credential_offer_expiry_update AFTER UPDATE OF expires_at, credential_id ON "credential_offers"
  FOR EACH ROW WHEN (OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.credential_id IS DISTINCT FROM NEW.credential_id)
  EXECUTE FUNCTION credential_offer_expiry_recompute();--> statement-breakpoint
CREATE TRIGGER credential_offer_expiry_delete AFTER DELETE ON "credential_offers"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION credential_offer_expiry_recompute();--> statement-breakpoint
CREATE INDEX "credential_counts_org_idx" ON "credential_counts" USING btree ("organization_id","status","schema_id");--> statement-breakpoint
CREATE INDEX "credentials_org_issued_idx" ON "credentials" USING btree ("organization_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("offer_expires_at","schema_id") WHERE "credentials"."deleted_at" is null and "credentials"."status" = 'ISSUED';--> statement-breakpoint
CREATE INDEX "credentials_org_offer_expiry_idx" ON "credentials" USING btree ("organization_id","offer_expires_at") INCLUDE ("schema_id") WHERE "credentials"."deleted_at" is null and "credentials"."status" = 'ISSUED';--> statement-breakpoint
CREATE INDEX "credentials_search_idx" ON "credentials" USING gin ("search_text" gin_trgm_ops) WHERE "credentials"."deleted_at" is null;
