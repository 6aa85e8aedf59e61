-- Authorization code flow (issue 17, HAIP 1.0; OpenID4VCI 1.0 §5, RFC 6749 §4.1, RFC 9126 PAR, RFC 7636 PKCE).
-- Every secret is stored as its SHA-256 only (request_uri, browser flow, one-time code, authorization code).
--
-- A pushed authorization request (RFC 9126): valid 60 s, used once at the authorization endpoint (used_at), by
-- its client_id. `offer_id` is the offer named by `issuer_state` (issuer-initiated); without one the request
-- starts a wallet-initiated browser flow (flow_hash, flow_expires_at: 10 min) where the recipient proves an
-- e-mail address with a one-time code.
CREATE TABLE "authorization_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"request_uri_hash" text NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"credential_configuration_id" text NOT NULL,
	"scope" text,
	"authorization_details" jsonb,
	"offer_id" uuid,
	"state" text,
	"dpop_jkt" text,
	"flow_hash" text,
	"flow_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
-- The e-mail one-time code of a wallet-initiated flow: one current code per flow (a new one replaces it),
-- 10 minutes, at most 5 attempts (like tx_code), at most 3 sent per flow; kept after the flow ends, so that
-- the codes sent to one address in the last hour can be counted (at most 10, whichever flows asked).
CREATE TABLE "email_one_time_codes" (
	"authorization_request_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- An authorization code (RFC 6749 §4.1.2): 60 s, used once; it grants one credential (its open offer), and
-- carries what the token request is checked against (client, redirect URI, PKCE challenge, DPoP key), and the
-- hash of the access token it was exchanged for (revoked if the code is replayed).
CREATE TABLE "authorization_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"authorization_request_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"credential_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"dpop_jkt" text,
	"access_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "authorization_requests" ADD CONSTRAINT "authorization_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_requests" ADD CONSTRAINT "authorization_requests_offer_id_credential_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."credential_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_one_time_codes" ADD CONSTRAINT "email_one_time_codes_authorization_request_id_fk" FOREIGN KEY ("authorization_request_id") REFERENCES "public"."authorization_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_one_time_codes" ADD CONSTRAINT "email_one_time_codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_authorization_request_id_fk" FOREIGN KEY ("authorization_request_id") REFERENCES "public"."authorization_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_offer_id_credential_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."credential_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "authorization_requests_request_uri_key" ON "authorization_requests" USING btree ("request_uri_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "authorization_requests_flow_key" ON "authorization_requests" USING btree ("flow_hash");--> statement-breakpoint
CREATE INDEX "authorization_requests_expires_idx" ON "authorization_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "authorization_codes_offer_idx" ON "authorization_codes" USING btree ("offer_id");--> statement-breakpoint
CREATE INDEX "email_one_time_codes_email_idx" ON "email_one_time_codes" USING btree ("organization_id","email","created_at");--> statement-breakpoint
-- Wallet-initiated issuance looks up an organization's claimable credentials by recipient address
-- (case-insensitive). Partial: only ISSUED ones can be claimed, so a CSV import (CREATED rows) pays nothing for it.
CREATE INDEX "credentials_recipient_email_idx" ON "credentials" USING btree ("organization_id",lower("recipient_email")) WHERE "credentials"."deleted_at" is null and "credentials"."status" = 'ISSUED';
