-- ISO mdoc verification (issue 17, HAIP 1.0): the credential format a verification asks for, `dc+sd-jwt`
-- (every verification so far) or `mso_mdoc`. Hand-written: 0017 to 0019 were added concurrently elsewhere,
-- so no snapshot is generated for this step.
ALTER TABLE "verifications" ADD COLUMN "format" text DEFAULT 'dc+sd-jwt' NOT NULL;
