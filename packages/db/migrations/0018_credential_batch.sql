-- Batch issuance (issue 17, HAIP 1.0; OpenID4VCI 1.0 §8.2 `proofs`): one claim may deliver several instances of a
-- credential, each bound to its own holder key and carrying its own status entry, so that a wallet can present
-- a fresh one each time (unlinkable). Instance 0 keeps the credential row's own (status_list_id, status_index);
-- the others' slots are here. Slots come from the same allocator as the credentials' (a list's counter only
-- moves forward), so a slot is never handed to two instances, in this table or across both; the unique index
-- below says so for this table. Their bits are 1 when the credential is revoked (read through the join).
CREATE TABLE "credential_status_entries" (
	"credential_id" uuid NOT NULL,
	"instance" integer NOT NULL,
	"organization_id" uuid NOT NULL,
	"status_list_id" uuid NOT NULL,
	"status_index" integer NOT NULL,
	"holder_jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credential_status_entries_pkey" PRIMARY KEY ("credential_id","instance"),
	CONSTRAINT "credential_status_entries_instance_check" CHECK ("instance" >= 1)
);
--> statement-breakpoint
ALTER TABLE "credential_status_entries" ADD CONSTRAINT "credential_status_entries_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_status_entries" ADD CONSTRAINT "credential_status_entries_status_list_fk" FOREIGN KEY ("organization_id","status_list_id") REFERENCES "public"."status_lists"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credential_status_entries_status_index_key" ON "credential_status_entries" USING btree ("status_list_id","status_index");
