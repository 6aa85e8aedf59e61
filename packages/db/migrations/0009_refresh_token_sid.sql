ALTER TABLE "refresh_tokens" ADD COLUMN "provider_sid" text;--> statement-breakpoint
CREATE INDEX "refresh_tokens_provider_sid_idx" ON "refresh_tokens" USING btree ("provider_sid");