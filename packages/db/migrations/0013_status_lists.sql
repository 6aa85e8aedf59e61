-- Issue 16: as many status lists per organization as needed. The one row each organization had becomes its
-- list number 1 (same bits, same indexes; its old URI /orgs/:id/status-list keeps answering). Indexes it
-- handed out in order stay as they are: random_from marks them, and only the rest of the list is shuffled.
ALTER TABLE "status_lists" DROP CONSTRAINT "status_lists_pkey";--> statement-breakpoint
ALTER TABLE "status_lists" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "status_lists" ADD COLUMN "number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "status_lists" ALTER COLUMN "number" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "status_lists" ADD COLUMN "random_from" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "status_lists" ADD COLUMN "seed" text DEFAULT md5(gen_random_uuid()::text) NOT NULL;--> statement-breakpoint
ALTER TABLE "status_lists" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "status_lists" ADD PRIMARY KEY ("id");--> statement-breakpoint
UPDATE "status_lists" SET "random_from" = "next_index";--> statement-breakpoint
-- Credentials written without a counter row (only ever by direct SQL): a full list holding their indexes.
INSERT INTO "status_lists" ("organization_id", "number", "size", "next_index", "random_from")
SELECT "organization_id", 1, max("status_index") + 1, max("status_index") + 1, max("status_index") + 1
FROM "credentials" c
WHERE NOT EXISTS (SELECT 1 FROM "status_lists" s WHERE s."organization_id" = c."organization_id")
GROUP BY "organization_id";--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "status_list_id" uuid;--> statement-breakpoint
UPDATE "credentials" c SET "status_list_id" = s."id" FROM "status_lists" s WHERE s."organization_id" = c."organization_id";--> statement-breakpoint
ALTER TABLE "credentials" ALTER COLUMN "status_list_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "status_lists_org_number_key" ON "status_lists" USING btree ("organization_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "status_lists_org_id_key" ON "status_lists" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "status_lists_open_idx" ON "status_lists" USING btree ("organization_id") WHERE "status_lists"."next_index" < "status_lists"."size";--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_status_list_fk" FOREIGN KEY ("organization_id","status_list_id") REFERENCES "public"."status_lists"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "credentials_status_index_key";--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_status_index_key" ON "credentials" USING btree ("status_list_id","status_index");--> statement-breakpoint
CREATE INDEX "credentials_status_revoked_idx" ON "credentials" USING btree ("status_list_id","status_index") WHERE "credentials"."revoked_at" is not null;
