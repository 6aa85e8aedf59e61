import { decodeJwt, publicJwk } from '@cp/credentials';
import type { Database, KeyAttestationRecord } from '@cp/db';
import { z } from 'zod';
import { OAuthError } from '../../errors/oauth-error.ts';
import { jwkThumbprint } from '../organization-keys/organization-keys.service.ts';
import { verifyProviderSignedJwt } from './wallet-attestation.ts';

/**
 * Key attestations (OpenID4VCI 1.0 Appendix D.1): a key proof (`openid4vci-proof+jwt`) may carry a
 * `key_attestation` header, a `key-attestation+jwt` signed by the wallet provider that lists the keys it vouches
 * for (`attested_keys`) and how they are kept (`key_storage`, `user_authentication`). @openid4vc/openid4vci
 * already checks its form and that the proof's key is attested; this issuer adds the trust decision (the
 * attestation's `x5c` is one of the organization's trusted wallet providers or chains to one), the validity, and
 * the attested-key check once more on the key it binds the credential to. Called once per key proof, after the
 * proof itself was verified. Any failure is `invalid_proof` (§8.3.1.2).
 */

/** Both spellings seen: the 1.0 text's and the drafts' (`keyattestation+jwt`), which the library also takes. */
const KEY_ATTESTATION_TYPES = ['key-attestation+jwt', 'keyattestation+jwt'] as const;
const CLOCK_SKEW_SECONDS = 30;

const zLevels = z.array(z.string().max(200)).max(20);
const zKeyAttestationPayload = z
  .object({
    iat: z.number().int().nonnegative(),
    // Appendix D.1: required when the attestation travels in a `jwt` key proof.
    exp: z.number().int().nonnegative(),
    attested_keys: z.array(z.record(z.string(), z.unknown())).min(1).max(20),
    key_storage: zLevels.optional(),
    user_authentication: zLevels.optional(),
    certification: z.string().max(2000).optional(),
    nonce: z.string().max(500).optional(),
  })
  .loose();

const invalidProof = (description: string) =>
  new OAuthError('invalid_proof', `Key attestation refused: ${description}`);

const thumbprintOf = (jwk: unknown) => {
  try {
    return jwkThumbprint(publicJwk(jwk as JsonWebKey));
  } catch {
    return undefined;
  }
};

/**
 * The key attestation of one verified key proof, checked against the organization's trusted wallet providers:
 * what the credential records, or undefined when the proof carries none.
 */
export async function checkKeyAttestation(
  db: Database,
  organizationId: string,
  proofJwt: string,
  holderJwk: JsonWebKey,
  now = new Date(),
): Promise<KeyAttestationRecord | undefined> {
  const proof = decodeJwt<{ nonce?: unknown }>(proofJwt);
  const keyAttestation = proof.header.key_attestation;
  if (keyAttestation === undefined) return undefined;
  if (typeof keyAttestation !== 'string') throw invalidProof('key_attestation must be a compact JWT.');
  let signed: Awaited<ReturnType<typeof verifyProviderSignedJwt>>;
  try {
    signed = await verifyProviderSignedJwt(db, organizationId, keyAttestation, KEY_ATTESTATION_TYPES, now);
  } catch (err) {
    throw invalidProof(`${err instanceof Error ? err.message : String(err)}.`);
  }
  const claims = zKeyAttestationPayload.safeParse(signed.payload);
  if (!claims.success) throw invalidProof('it must carry iat, exp and attested_keys.');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const { iat, exp } = claims.data;
  if (exp <= nowSeconds - CLOCK_SKEW_SECONDS) throw invalidProof('it has expired.');
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) throw invalidProof('it is from the future (iat).');
  // Appendix D.1: a `nonce` in the key attestation is the issuer's c_nonce, the one the proof carries.
  if (claims.data.nonce !== undefined && claims.data.nonce !== proof.payload.nonce) {
    throw invalidProof('its nonce is not the c_nonce of the proof.');
  }
  const holder = thumbprintOf(holderJwk);
  if (!holder || !claims.data.attested_keys.some((jwk) => thumbprintOf(jwk) === holder)) {
    throw invalidProof('the proof key is not one of its attested_keys.');
  }
  return {
    provider_id: signed.provider.id,
    provider_name: signed.provider.name,
    certificate_subject: signed.certificateSubject,
    key_storage: claims.data.key_storage ?? null,
    user_authentication: claims.data.user_authentication ?? null,
    certification: claims.data.certification ?? null,
    expires_at: new Date(exp * 1000).toISOString(),
    verified_at: now.toISOString(),
  };
}
