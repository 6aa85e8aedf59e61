-- Trusted wallet providers per organization (issue 17): the certificates whose wallet attestations
-- (OAuth 2.0 Attestation-Based Client Authentication) and key attestations (OpenID4VCI 1.0 Appendix D) the
-- organization's issuer accepts. A credential records which provider vouched for the wallet and for its key.
CREATE TABLE "wallet_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"fingerprint" text NOT NULL,
	"subject" text NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_providers" ADD CONSTRAINT "wallet_providers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_providers" ADD CONSTRAINT "wallet_providers_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_providers_org_idx" ON "wallet_providers" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_providers_fingerprint_key" ON "wallet_providers" USING btree ("organization_id","fingerprint");--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "wallet_provider_id" uuid;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "wallet_attestation" jsonb;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "key_attestation" jsonb;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_wallet_provider_id_wallet_providers_id_fk" FOREIGN KEY ("wallet_provider_id") REFERENCES "public"."wallet_providers"("id") ON DELETE set null ON UPDATE no action;
