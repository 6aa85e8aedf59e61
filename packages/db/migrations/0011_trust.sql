-- Verification you can trust (issue 13): trust anchors per organization, a trust policy per verification
-- (existing verifications that named issuers keep them; the others move from "any issuer" to this
-- platform's verified organizations), external credential types, and who vouches for a customer id.
CREATE TABLE "trust_anchors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"certificate_pem" text,
	"subject" text,
	"fingerprint" text,
	"not_after" timestamp with time zone,
	"list_url" text,
	"list_certificates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"list_fetched_at" timestamp with time zone,
	"list_error" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifications" ALTER COLUMN "schema_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_individuals" ADD COLUMN "customer_binding" text DEFAULT 'LABEL' NOT NULL;--> statement-breakpoint
ALTER TABLE "verification_individuals" ADD COLUMN "issuer_trust" jsonb;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "credential_type" jsonb;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "trust_policy" text DEFAULT 'PLATFORM_VERIFIED' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "link_secret_ciphertext" text;--> statement-breakpoint
ALTER TABLE "trust_anchors" ADD CONSTRAINT "trust_anchors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_anchors" ADD CONSTRAINT "trust_anchors_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trust_anchors_org_idx" ON "trust_anchors" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_anchors_fingerprint_key" ON "trust_anchors" USING btree ("organization_id","fingerprint");--> statement-breakpoint
UPDATE "verifications" SET "trust_policy" = 'NAMED_ISSUERS' WHERE "trusted_issuers" <> '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_schema_or_type_check" CHECK ("schema_id" IS NOT NULL OR "credential_type" IS NOT NULL);
