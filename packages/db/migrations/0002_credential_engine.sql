CREATE TABLE "credential_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credential_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"pre_authorized_code_hash" text NOT NULL,
	"tx_code_hash" text,
	"tx_code_attempts" integer DEFAULT 0 NOT NULL,
	"access_token_hash" text,
	"access_token_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"schema_id" uuid,
	"schema_snapshot" jsonb NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"recipient_email" text NOT NULL,
	"recipient_first_name" text NOT NULL,
	"recipient_last_name" text NOT NULL,
	"claims" jsonb NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"status_index" integer NOT NULL,
	"signing_key_id" uuid,
	"holder_jwk" jsonb,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "nonces" (
	"nonce_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organization_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kid" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk_ciphertext" text NOT NULL,
	"certificate_pem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "status_lists" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credential_offers" ADD CONSTRAINT "credential_offers_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_offers" ADD CONSTRAINT "credential_offers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_schema_id_credential_schemas_id_fk" FOREIGN KEY ("schema_id") REFERENCES "public"."credential_schemas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_signing_key_id_organization_keys_id_fk" FOREIGN KEY ("signing_key_id") REFERENCES "public"."organization_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_keys" ADD CONSTRAINT "organization_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "status_lists" ADD CONSTRAINT "status_lists_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_offers_code_key" ON "credential_offers" USING btree ("pre_authorized_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "credential_offers_token_key" ON "credential_offers" USING btree ("access_token_hash");--> statement-breakpoint
CREATE INDEX "credential_offers_credential_idx" ON "credential_offers" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "credentials_org_idx" ON "credentials" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_status_index_key" ON "credentials" USING btree ("organization_id","status_index");--> statement-breakpoint
CREATE INDEX "nonces_expires_idx" ON "nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_keys_kid_key" ON "organization_keys" USING btree ("kid");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_keys_active_key" ON "organization_keys" USING btree ("organization_id") WHERE "organization_keys"."retired_at" is null;