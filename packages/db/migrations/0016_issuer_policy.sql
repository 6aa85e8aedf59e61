-- HAIP 1.0 issuer policy per organization (issue 17): DPoP-bound access tokens required, wallet attestation
-- required (stored, not yet enforced). No row: nothing required.
CREATE TABLE "organization_issuer_policies" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"dpop_required" boolean DEFAULT false NOT NULL,
	"wallet_attestation_required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_issuer_policies" ADD CONSTRAINT "organization_issuer_policies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;