DROP INDEX "credential_offers_credential_idx";--> statement-breakpoint
DROP INDEX "credentials_org_idx";--> statement-breakpoint
CREATE INDEX "credentials_org_status_idx" ON "credentials" USING btree ("organization_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "credentials"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "credentials_org_schema_idx" ON "credentials" USING btree ("organization_id","schema_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "credentials"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "credential_offers_credential_idx" ON "credential_offers" USING btree ("credential_id","expires_at");--> statement-breakpoint
CREATE INDEX "credentials_org_idx" ON "credentials" USING btree ("organization_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "credentials"."deleted_at" is null;