-- OpenID4VP 1.0 §5.9.3 (issue 17, HAIP 1.0): how a verification's requests name the verifier: the hash of the
-- organization's certificate (x509_hash, as before) or the platform's host (x509_san_dns).
ALTER TABLE "verifications" ADD COLUMN "client_id_scheme" text DEFAULT 'x509_hash' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_client_id_scheme_check" CHECK ("client_id_scheme" in ('x509_hash', 'x509_san_dns'));
