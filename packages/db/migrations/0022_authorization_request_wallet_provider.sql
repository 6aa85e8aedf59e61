-- Issue 17: the wallet provider whose attestation was checked at a pushed authorization request, so that the
-- authorization page can name the app the credentials go to (with the redirect URI's origin).
ALTER TABLE "authorization_requests" ADD COLUMN "wallet_provider_name" text;
