import { createHmac } from 'node:crypto';
import { decodeJwt, publicJwk, verifyJwtSignature } from '@cp/credentials';
import type { Database, WalletAttestationRecord } from '@cp/db';
import { SupportedClientAuthenticationMethod } from '@openid4vc/oauth2';
import { z } from 'zod';
import { OAuthError } from '../../errors/oauth-error.ts';
import { hmacSha256, safeEqual } from '../../lib/crypto.ts';
import * as nonces from '../nonces/nonces.service.ts';
import { jwkThumbprint } from '../organization-keys/organization-keys.service.ts';
import * as walletProvidersService from '../wallet-providers/wallet-providers.service.ts';

/**
 * Wallet attestation at the issuer's token endpoint: OAuth 2.0 Attestation-Based Client Authentication
 * (draft-ietf-oauth-attestation-based-client-auth-10), as HAIP 1.0 asks of an OpenID4VCI issuer.
 *
 * - `OAuth-Client-Attestation`: an `oauth-client-attestation+jwt` signed by the wallet provider, whose `x5c`
 *   must be one of the organization's trusted wallet providers or chain to one (wallet-providers.service.ts
 *   decides, with @cp/credentials' path validation); `sub` is the wallet's client_id, `cnf.jwk` the wallet
 *   instance key, `exp` required.
 * - `OAuth-Client-Attestation-PoP`: an `oauth-client-attestation-pop+jwt` signed by `cnf.jwk`, `aud` this
 *   issuer, a recent `iat`, a `jti` used once, and the `challenge` of this issuer's challenge endpoint (§Challenges:
 *   a server that offers the endpoint expects its challenge; a missing or stale one is `use_attestation_challenge`
 *   with a fresh challenge in the `OAuth-Client-Attestation-Challenge` header).
 * - Challenges are stateless like DPoP nonces (dpop.ts): the issue time and an HMAC of it with the organization.
 *
 * @openid4vc/oauth2 0.4.6 parses the two headers (parseAccessTokenRequest) and announces the method
 * (`attest_jwt_client_auth`), but its verifier implements an earlier draft (a PoP with `iss`, `exp` and `nonce`
 * required, no `challenge`, no `x5c` trust): it would refuse conforming draft-10 wallets and leaves the trust
 * decision, replay and freshness to the server anyway. So every check is here, in one place.
 */

/** The one algorithm announced for attestations and their PoPs (HAIP 1.0: ES256). */
export const CLIENT_ATTESTATION_ALG = 'ES256';
export const ATTEST_JWT_CLIENT_AUTH = SupportedClientAuthenticationMethod.ClientAttestationJwt;
/** How long a challenge of the challenge endpoint is accepted. */
export const ATTESTATION_CHALLENGE_TTL_SECONDS = 300;
/** How old a PoP may be (its `iat`): made just before its request. */
const POP_MAX_AGE_SECONDS = 120;
const CLOCK_SKEW_SECONDS = 30;
/** An attestation with a certificate chain of a few certificates is a few kB; headers are bounded anyway. */
const JWT_MAX_CHARS = 16_000;
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export const ATTESTATION_HEADER = 'oauth-client-attestation';
export const ATTESTATION_POP_HEADER = 'oauth-client-attestation-pop';
export const ATTESTATION_CHALLENGE_HEADER = 'oauth-client-attestation-challenge';

export interface WalletAttestationDeps {
  db: Database;
  /** The server's offer-code key: challenges are MACed under a key derived from it (never used as such). */
  offerCodeKey: Buffer;
}

const zPublicEcJwk = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().max(100), y: z.string().max(100) })
  .loose()
  .refine((jwk) => !('d' in jwk), 'cnf.jwk must be a public key');

const zNumericDate = z.number().int().nonnegative();

const zAttestationPayload = z
  .object({
    sub: z.string().min(1).max(500),
    exp: zNumericDate,
    cnf: z.object({ jwk: zPublicEcJwk }).loose(),
    iat: zNumericDate.optional(),
    nbf: zNumericDate.optional(),
    iss: z.string().max(500).optional(),
    wallet_name: z.string().max(200).optional(),
  })
  .loose();

const zPopPayload = z
  .object({
    aud: z.union([z.string(), z.array(z.string()).min(1).max(5)]),
    jti: z.string().min(1).max(200),
    iat: zNumericDate,
    exp: zNumericDate.optional(),
    nbf: zNumericDate.optional(),
    iss: z.string().max(500).optional(),
    challenge: z.string().max(200).optional(),
    // Drafts before -06 called the challenge `nonce`.
    nonce: z.string().max(200).optional(),
  })
  .loose();

const invalidClient = (description: string) =>
  new OAuthError('invalid_client', `Wallet attestation refused: ${description}`, 401);

const challengeMac = (deps: WalletAttestationDeps, organizationId: string, issuedAt: string) => {
  const key = hmacSha256(deps.offerCodeKey).update('client-attestation-challenge-key').digest();
  return createHmac('sha256', key).update(`${organizationId}|${issuedAt}`).digest('base64url').slice(0, 22);
};

/** A fresh challenge for this organization's issuer: `<issue time, base 36>.<MAC>`. */
export function createAttestationChallenge(deps: WalletAttestationDeps, organizationId: string, now = Date.now()) {
  const issuedAt = Math.floor(now / 1000).toString(36);
  return `${issuedAt}.${challengeMac(deps, organizationId, issuedAt)}`;
}

function isFreshChallenge(deps: WalletAttestationDeps, organizationId: string, value: unknown, nowSeconds: number) {
  if (typeof value !== 'string') return false;
  const match = /^([0-9a-z]{1,10})\.([\w-]{22})$/.exec(value);
  if (!match) return false;
  const age = nowSeconds - Number.parseInt(match[1]!, 36);
  if (age < -CLOCK_SKEW_SECONDS || age > ATTESTATION_CHALLENGE_TTL_SECONDS) return false;
  return safeEqual(challengeMac(deps, organizationId, match[1]!), match[2]!);
}

/** A JWT of a header, read as header and payload; undefined when it is not one compact JWT. */
function readJwt(value: string): { header: Record<string, unknown>; payload: unknown } | undefined {
  if (value.length > JWT_MAX_CHARS || !COMPACT_JWT.test(value)) return undefined;
  try {
    return decodeJwt<unknown>(value);
  } catch {
    return undefined;
  }
}

/** A JWT signed by a trusted wallet provider, as wallet and key attestations are. */
export interface ProviderSignedJwt {
  header: Record<string, unknown>;
  payload: unknown;
  provider: { id: string; name: string };
  certificateSubject: string;
}

/**
 * A JWT signed with the key of its `x5c` leaf, whose chain one of the organization's trusted wallet providers
 * vouches for: the typ, the algorithm, the trust decision (wallet-providers.service.ts) and the signature.
 * Throws an Error saying what is wrong (the caller answers with its endpoint's error code).
 */
export async function verifyProviderSignedJwt(
  db: Database,
  organizationId: string,
  jwt: string,
  typ: readonly string[],
  now: Date,
): Promise<ProviderSignedJwt> {
  const decoded = readJwt(jwt);
  if (!decoded) throw new Error('it is not a compact JWT');
  const { header, payload } = decoded;
  if (!typ.includes(String(header.typ))) throw new Error(`its typ must be ${typ[0]}`);
  if (header.alg !== CLIENT_ATTESTATION_ALG) throw new Error(`it must be signed with ${CLIENT_ATTESTATION_ALG}`);
  if (header.x5c === undefined) throw new Error('it names no signing certificate (x5c)');
  const vouch = await walletProvidersService.vouchForAttestation(db, organizationId, header.x5c, now);
  if (!(await verifyJwtSignature(jwt, vouch.signerJwk))) {
    throw new Error('its signature is not by the key of its x5c certificate');
  }
  return { header, payload, provider: vouch.provider, certificateSubject: vouch.certificateSubject };
}

/** A verified wallet attestation: what the credential records. */
export interface VerifiedWalletAttestation {
  providerId: string;
  record: WalletAttestationRecord;
}

/**
 * Token endpoint: the request's wallet attestation, verified, or undefined when it carries none and the
 * organization does not require one (`isRequired` is asked only then). An attestation that is present is
 * always checked: a wallet that sends a bad one is refused whatever the policy. Checked before the
 * pre-authorized code is looked at, so a retry for the challenge costs no PIN attempt and leaves the code unused.
 */
export async function checkTokenRequestWalletAttestation(
  deps: WalletAttestationDeps,
  organizationId: string,
  request: { issuer: string; headers: Headers; clientId?: string | undefined },
  isRequired: () => Promise<boolean>,
): Promise<VerifiedWalletAttestation | undefined> {
  const attestation = request.headers.get(ATTESTATION_HEADER);
  const pop = request.headers.get(ATTESTATION_POP_HEADER);
  if (attestation === null && pop === null) {
    if (!(await isRequired())) return undefined;
    throw invalidClient(
      'this issuer requires a wallet attestation: send OAuth-Client-Attestation and OAuth-Client-Attestation-PoP.',
    );
  }
  if (attestation === null || pop === null) {
    throw invalidClient('OAuth-Client-Attestation and OAuth-Client-Attestation-PoP go together.');
  }
  const now = new Date();
  const nowSeconds = Math.floor(now.getTime() / 1000);

  // The Client Attestation JWT (§5.1 of the checks).
  let signed: ProviderSignedJwt;
  try {
    signed = await verifyProviderSignedJwt(deps.db, organizationId, attestation, ['oauth-client-attestation+jwt'], now);
  } catch (err) {
    throw invalidClient(`the attestation is not valid: ${err instanceof Error ? err.message : String(err)}.`);
  }
  const claims = zAttestationPayload.safeParse(signed.payload);
  if (!claims.success) {
    throw invalidClient('the attestation must carry sub, exp and cnf.jwk (a public P-256 key).');
  }
  const { sub, exp, nbf, iat, cnf } = claims.data;
  if (exp <= nowSeconds - CLOCK_SKEW_SECONDS) throw invalidClient('the attestation has expired.');
  if ((nbf ?? 0) > nowSeconds + CLOCK_SKEW_SECONDS || (iat ?? 0) > nowSeconds + CLOCK_SKEW_SECONDS) {
    throw invalidClient('the attestation is not valid yet.');
  }
  // §Client Attestation as an OAuth Client Authentication: a client_id in the request is the attestation's sub.
  if (request.clientId !== undefined && request.clientId !== sub) {
    throw invalidClient('the attestation is for another client (sub is not the client_id).');
  }
  const instanceJwk = publicJwk(cnf.jwk as JsonWebKey);

  // The Client Attestation PoP JWT.
  const decodedPop = readJwt(pop);
  if (!decodedPop) throw invalidClient('the attestation PoP is not a compact JWT.');
  if (decodedPop.header.typ !== 'oauth-client-attestation-pop+jwt') {
    throw invalidClient('the attestation PoP must be typed oauth-client-attestation-pop+jwt.');
  }
  if (decodedPop.header.alg !== CLIENT_ATTESTATION_ALG) {
    throw invalidClient(`the attestation PoP must be signed with ${CLIENT_ATTESTATION_ALG}.`);
  }
  if (!(await verifyJwtSignature(pop, instanceJwk))) {
    throw invalidClient('the attestation PoP is not signed by the wallet instance key (cnf.jwk).');
  }
  const popClaims = zPopPayload.safeParse(decodedPop.payload);
  if (!popClaims.success) throw invalidClient('the attestation PoP must carry aud, jti and iat.');
  const proof = popClaims.data;
  const audiences = Array.isArray(proof.aud) ? proof.aud : [proof.aud];
  if (!audiences.includes(request.issuer)) throw invalidClient('the attestation PoP is for another issuer (aud).');
  if (proof.iss !== undefined && proof.iss !== sub) {
    throw invalidClient('the attestation PoP is of another client (iss is not the attestation sub).');
  }
  if (proof.iat > nowSeconds + CLOCK_SKEW_SECONDS || proof.iat < nowSeconds - POP_MAX_AGE_SECONDS) {
    throw invalidClient('the attestation PoP is too old or from the future (iat).');
  }
  if (proof.exp !== undefined && proof.exp <= nowSeconds - CLOCK_SKEW_SECONDS) {
    throw invalidClient('the attestation PoP has expired.');
  }
  if ((proof.nbf ?? 0) > nowSeconds + CLOCK_SKEW_SECONDS) throw invalidClient('the attestation PoP is not valid yet.');
  // §Challenges: this issuer offers a challenge endpoint, so the PoP must carry one of its challenges. Answered
  // before the jti is recorded, so that the retry with a challenge is not taken for a replay.
  const challenge = proof.challenge ?? proof.nonce;
  if (!isFreshChallenge(deps, organizationId, challenge, nowSeconds)) {
    throw new OAuthError(
      'use_attestation_challenge',
      challenge === undefined
        ? 'The attestation PoP must carry a challenge from the challenge endpoint.'
        : 'The attestation PoP challenge is stale or not this issuer’s: use the one in OAuth-Client-Attestation-Challenge.',
      400,
      { [ATTESTATION_CHALLENGE_HEADER]: createAttestationChallenge(deps, organizationId) },
    );
  }
  // Each PoP once (§Security considerations, replay): kept until its iat window and challenge have passed.
  const thumbprint = jwkThumbprint(instanceJwk);
  if (
    !(await nonces.recordOnce(
      deps.db,
      `client-attestation-jti:${organizationId}`,
      `${thumbprint}|${proof.jti}`,
      ATTESTATION_CHALLENGE_TTL_SECONDS + 2 * CLOCK_SKEW_SECONDS,
    ))
  ) {
    throw invalidClient('this attestation PoP was already used (jti).');
  }
  const attestationClaims = claims.data;
  return {
    providerId: signed.provider.id,
    record: {
      provider_id: signed.provider.id,
      provider_name: signed.provider.name,
      client_id: sub,
      issuer: attestationClaims.iss ?? null,
      wallet_name: attestationClaims.wallet_name ?? null,
      certificate_subject: signed.certificateSubject,
      instance_key_thumbprint: thumbprint,
      expires_at: new Date(exp * 1000).toISOString(),
      verified_at: now.toISOString(),
    },
  };
}
