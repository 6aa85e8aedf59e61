-- Issue 16: a verifier's response may use a copy of the organization's trust anchors and webhook subscription
-- kept in memory by the process that read them, instead of reading them again. The outcome is then stored only
-- if this revision is still the one read with the copy: every change of what the copy holds bumps it, here, in
-- the database, whatever code path (or person with psql) makes the change.
ALTER TABLE "organizations" ADD COLUMN "verifier_revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION organization_verifier_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE organizations SET verifier_revision = verifier_revision + 1 WHERE id = OLD.organization_id;
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.organization_id IS DISTINCT FROM OLD.organization_id) THEN
    UPDATE organizations SET verifier_revision = verifier_revision + 1 WHERE id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Trust anchors: what the response reads of them (verifications.repository.ts, responseStatement). A trusted
-- list's refresh that finds the same certificates changes only its bookkeeping and bumps nothing.
CREATE TRIGGER trust_anchors_verifier_revision_insert_delete AFTER INSERT OR DELETE ON "trust_anchors"
  FOR EACH ROW EXECUTE FUNCTION organization_verifier_revision_bump();--> statement-breakpoint
CREATE TRIGGER trust_anchors_verifier_revision_update AFTER UPDATE ON "trust_anchors" FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.certificate_pem IS DISTINCT FROM NEW.certificate_pem
    OR OLD.list_certificates IS DISTINCT FROM NEW.list_certificates OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION organization_verifier_revision_bump();--> statement-breakpoint
-- Webhook endpoints: whether one takes `verification.completed` (enabled, not deleted, its events).
CREATE TRIGGER webhooks_verifier_revision_insert_delete AFTER INSERT OR DELETE ON "webhooks"
  FOR EACH ROW EXECUTE FUNCTION organization_verifier_revision_bump();--> statement-breakpoint
CREATE TRIGGER webhooks_verifier_revision_update AFTER UPDATE ON "webhooks" FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.enabled IS DISTINCT FROM NEW.enabled
    OR OLD.events IS DISTINCT FROM NEW.events OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION organization_verifier_revision_bump();
