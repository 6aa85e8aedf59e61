CREATE TABLE "credential_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credential_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"message" text,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sending_at" timestamp with time zone,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credential_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"schema_id" uuid,
	"created_by_user_id" uuid,
	"credential_name" text NOT NULL,
	"credential_description" text,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"total_count" integer DEFAULT 0 NOT NULL,
	"processed_count" integer DEFAULT 0 NOT NULL,
	"succeeded_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "import_id" uuid;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "import_row" integer;--> statement-breakpoint
ALTER TABLE "credential_deliveries" ADD CONSTRAINT "credential_deliveries_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_deliveries" ADD CONSTRAINT "credential_deliveries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_imports" ADD CONSTRAINT "credential_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_imports" ADD CONSTRAINT "credential_imports_schema_id_credential_schemas_id_fk" FOREIGN KEY ("schema_id") REFERENCES "public"."credential_schemas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_imports" ADD CONSTRAINT "credential_imports_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_deliveries_credential_key" ON "credential_deliveries" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "credential_deliveries_org_idx" ON "credential_deliveries" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "credential_imports_org_idx" ON "credential_imports" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_import_row_key" ON "credentials" USING btree ("import_id","import_row");