import { createHmac } from 'node:crypto';
import { publicJwk, verifyJwtSignature } from '@cp/credentials';
import type { Database } from '@cp/db';
import {
  type Jwk,
  Oauth2AuthorizationServer,
  Oauth2ServerErrorResponseError,
  type VerifyJwtCallback,
} from '@openid4vc/oauth2';
import { OAuthError } from '../../errors/oauth-error.ts';
import { hmacSha256, safeEqual } from '../../lib/crypto.ts';
import * as nonces from '../nonces/nonces.service.ts';
import { callbacks } from './issuer.protocol.ts';

/**
 * DPoP (RFC 9449) at the issuer's token and credential endpoints, as HAIP 1.0 asks of an OpenID4VCI issuer.
 *
 * - @openid4vc/oauth2 verifies each proof (`typ`, `jwk`, signature, `htm`, `htu`, `ath`, the key's thumbprint);
 *   this file adds what the library leaves to the server: a recent `iat`, a server nonce, a `jti` used once.
 * - Nonces (§8, §9) are stateless: the issue time and an HMAC of it with the organization, under a key derived
 *   from the server's offer-code key. Any API process checks them, and they expire after DPOP_NONCE_TTL_SECONDS.
 * - Replays (§11.1): the `jti` of every accepted proof is recorded (one insert) until its nonce has expired.
 * - Binding (§6): access tokens are opaque and stored as their hash, so a bound token carries the thumbprint of
 *   its key after a dot (`<random>.<jkt>`). The stored hash covers the whole token: a token whose thumbprint was
 *   changed matches no row. This is the `cnf.jkt` of RFC 9449 §6.1 for a token the issuer alone reads, and it
 *   needs no change to where tokens are stored.
 */

/** The one DPoP algorithm announced (`dpop_signing_alg_values_supported`, HAIP 1.0: ES256). */
export const DPOP_ALG = 'ES256';
/** How long a server nonce is accepted: short, the library client asks again on `use_dpop_nonce`. */
export const DPOP_NONCE_TTL_SECONDS = 120;
/** Clock difference tolerated between the wallet and the issuer (and between API processes). */
const CLOCK_SKEW_SECONDS = 30;
/** A proof is a few hundred characters (a P-256 `jwk` header, the standard claims). */
const DPOP_MAX_CHARS = 4_000;
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const THUMBPRINT = /^[\w-]{43}$/;

export interface DpopDeps {
  db: Database;
  /** The server's offer-code key: nonces are MACed under a key derived from it (never used as such). */
  offerCodeKey: Buffer;
}

/** Where a proof is checked: errors differ (RFC 9449 §5 token endpoint: 400; §7.1 resource: 401 + challenge). */
export type DpopEndpoint = 'token' | 'credential';

/** The proof's own signature: ES256 by the public `jwk` of its header, nothing else (§4.2). */
const verifyDpopSignature: VerifyJwtCallback = async (signer, { header, compact }) => {
  if (header.typ !== 'dpop+jwt') throw new Error('Only dpop+jwt proofs are accepted here.');
  if (header.alg !== DPOP_ALG) throw new Error(`The DPoP proof must be signed with ${DPOP_ALG}.`);
  if (signer.method !== 'jwk') throw new Error('The DPoP proof must carry its public key (jwk).');
  if ('d' in signer.publicJwk) throw new Error('The DPoP proof header carries a private key.');
  const jwk = publicJwk(signer.publicJwk as JsonWebKey);
  if (!(await verifyJwtSignature(compact, jwk))) return { verified: false };
  return { verified: true, signerJwk: jwk as Jwk };
};

const dpopServer = new Oauth2AuthorizationServer({ callbacks: { ...callbacks, verifyJwt: verifyDpopSignature } });

const nonceMac = (deps: DpopDeps, organizationId: string, issuedAt: string) => {
  const key = hmacSha256(deps.offerCodeKey).update('dpop-nonce-key').digest();
  return createHmac('sha256', key).update(`${organizationId}|${issuedAt}`).digest('base64url').slice(0, 22);
};

/** A fresh server nonce for this organization's issuer (§8): `<issue time, base 36>.<MAC>`. */
export function createDpopNonce(deps: DpopDeps, organizationId: string, now = Date.now()): string {
  const issuedAt = Math.floor(now / 1000).toString(36);
  return `${issuedAt}.${nonceMac(deps, organizationId, issuedAt)}`;
}

function isFreshNonce(deps: DpopDeps, organizationId: string, nonce: unknown, nowSeconds: number): boolean {
  if (typeof nonce !== 'string') return false;
  const match = /^([0-9a-z]{1,10})\.([\w-]{22})$/.exec(nonce);
  if (!match) return false;
  const age = nowSeconds - Number.parseInt(match[1]!, 36);
  if (age < -CLOCK_SKEW_SECONDS || age > DPOP_NONCE_TTL_SECONDS) return false;
  return safeEqual(nonceMac(deps, organizationId, match[1]!), match[2]!);
}

/**
 * A DPoP failure as the endpoint answers it, always with a fresh `DPoP-Nonce` (§8.2: a server may send one in
 * any response) so that the wallet's next proof can be right. At the credential endpoint, 401 with a `DPoP`
 * challenge naming the error and the algorithm (§7.1), which is what clients read to retry with the nonce.
 */
export function dpopError(
  deps: DpopDeps,
  organizationId: string,
  endpoint: DpopEndpoint,
  error: 'invalid_dpop_proof' | 'use_dpop_nonce' | 'invalid_token',
  description: string,
): OAuthError {
  const headers: Record<string, string> = { 'dpop-nonce': createDpopNonce(deps, organizationId) };
  if (endpoint === 'token') return new OAuthError(error, description, 400, headers);
  headers['www-authenticate'] = `DPoP error="${error}", algs="${DPOP_ALG}"`;
  return new OAuthError(error, description, 401, headers);
}

/** The one DPoP header of a request (§4.3: exactly one, a compact JWT), if any. */
function dpopHeader(
  deps: DpopDeps,
  organizationId: string,
  endpoint: DpopEndpoint,
  headers: Headers,
): string | undefined {
  const value = headers.get('dpop');
  if (value === null) return undefined;
  // Several DPoP headers arrive joined by ", ": no longer a compact JWT.
  if (value.length > DPOP_MAX_CHARS || !COMPACT_JWT.test(value)) {
    throw dpopError(
      deps,
      organizationId,
      endpoint,
      'invalid_dpop_proof',
      'The DPoP header must hold one DPoP proof JWT.',
    );
  }
  return value;
}

/**
 * Verifies one proof for `method url` (the endpoint's public URL, as announced in the metadata) and returns the
 * thumbprint of its key. Order matters for wallets: a missing or stale nonce is answered before the `jti` is
 * recorded, so the retry with the nonce is not taken for a replay.
 */
async function verifyDpopProof(
  deps: DpopDeps,
  organizationId: string,
  endpoint: DpopEndpoint,
  proof: string,
  request: { url: string; headers: Headers },
  binding: { accessToken: string; jkt: string } | undefined,
): Promise<string> {
  let verified: Awaited<ReturnType<typeof dpopServer.verifyDpopJwt>>;
  try {
    verified = await dpopServer.verifyDpopJwt({
      dpopJwt: proof,
      request: { url: request.url, method: 'POST', headers: request.headers },
      allowedSigningAlgs: [DPOP_ALG],
      // §4.3 check 11 (`ath`) and §7.1: the proof is of the key the token is bound to.
      ...(binding ? { accessToken: binding.accessToken, expectedJwkThumbprint: binding.jkt } : {}),
    });
  } catch (err) {
    const description =
      err instanceof Oauth2ServerErrorResponseError
        ? (err.errorResponse.error_description ?? 'The DPoP proof is not valid.')
        : `The DPoP proof is not valid${err instanceof Error ? `: ${err.message}` : '.'}`;
    throw dpopError(deps, organizationId, endpoint, 'invalid_dpop_proof', description.slice(0, 400));
  }
  const { payload, jwkThumbprint } = verified;
  const now = Math.floor(Date.now() / 1000);
  // §4.3 check 9 and §11.1: a proof is made just before its request.
  if (payload.iat > now + CLOCK_SKEW_SECONDS || payload.iat < now - DPOP_NONCE_TTL_SECONDS - CLOCK_SKEW_SECONDS) {
    throw dpopError(
      deps,
      organizationId,
      endpoint,
      'invalid_dpop_proof',
      'The DPoP proof is too old or from the future (iat).',
    );
  }
  // §8, §9: this issuer always provides the nonce; a proof without a fresh one gets one to retry with.
  if (!isFreshNonce(deps, organizationId, payload.nonce, now)) {
    throw dpopError(
      deps,
      organizationId,
      endpoint,
      'use_dpop_nonce',
      payload.nonce === undefined
        ? 'The DPoP proof must carry the server nonce given in the DPoP-Nonce header.'
        : 'The DPoP nonce is stale or not this issuer’s: use the one in the DPoP-Nonce header.',
    );
  }
  // §11.1: each proof once. Kept until its nonce (hence the proof) can no longer be accepted anyway.
  if (
    payload.jti.length > 200 ||
    !(await nonces.recordOnce(
      deps.db,
      `dpop-jti:${organizationId}`,
      `${jwkThumbprint}|${payload.jti}`,
      DPOP_NONCE_TTL_SECONDS + 2 * CLOCK_SKEW_SECONDS,
    ))
  ) {
    throw dpopError(deps, organizationId, endpoint, 'invalid_dpop_proof', 'This DPoP proof was already used (jti).');
  }
  return jwkThumbprint;
}

/**
 * Token endpoint (§5): the thumbprint the access token is to be bound to, or undefined for a Bearer token (no
 * proof, and the organization does not require DPoP: `isRequired` is asked only then). Checked before the
 * pre-authorized code is looked at, so a retry for the nonce costs the wallet no PIN attempt and leaves the code
 * unused.
 */
export async function checkTokenRequestDpop(
  deps: DpopDeps,
  organizationId: string,
  request: { url: string; headers: Headers },
  isRequired: () => Promise<boolean>,
): Promise<string | undefined> {
  const proof = dpopHeader(deps, organizationId, 'token', request.headers);
  if (!proof) {
    if (!(await isRequired())) return undefined;
    throw dpopError(
      deps,
      organizationId,
      'token',
      'invalid_dpop_proof',
      'This issuer requires DPoP (RFC 9449): send a DPoP proof with the nonce in the DPoP-Nonce header.',
    );
  }
  return verifyDpopProof(deps, organizationId, 'token', proof, request, undefined);
}

/** The access token for a key (`<random>.<jkt>`), or the plain one when not bound. */
export function bindAccessToken(token: string, jkt: string | undefined): string {
  return jkt ? `${token}.${jkt}` : token;
}

/** The thumbprint a token is bound to (undefined: a Bearer token). Trusted only once the token's hash matched. */
function boundThumbprint(token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot < 0) return undefined;
  const jkt = token.slice(dot + 1);
  return THUMBPRINT.test(jkt) ? jkt : '';
}

/**
 * Credential endpoint (§7): the access token of the request once its scheme and proof are right. A bound token
 * must come as `Authorization: DPoP` with a proof of its key over this request and token (`ath`); presented as
 * Bearer it is refused (§7.2: else a stolen token would be usable without the key). A Bearer token stays a
 * Bearer token. The token itself is checked afterwards by its stored hash, which also authenticates its `jkt`.
 */
export async function authorizeCredentialRequest(
  deps: DpopDeps,
  organizationId: string,
  request: { url: string; headers: Headers },
): Promise<string> {
  const match = /^(Bearer|DPoP)\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (!match) {
    throw new OAuthError('invalid_token', 'An access token from the token endpoint is required.', 401, {
      // Both schemes this endpoint takes (RFC 6750 §3, RFC 9449 §7.1).
      'www-authenticate': `Bearer error="invalid_token", DPoP algs="${DPOP_ALG}"`,
    });
  }
  const scheme = match[1]!.toLowerCase();
  const token = match[2]!;
  const jkt = boundThumbprint(token);
  if (jkt === '') throw new OAuthError('invalid_token', 'The access token is invalid or expired.', 401);
  if (scheme === 'bearer') {
    if (jkt) {
      throw dpopError(
        deps,
        organizationId,
        'credential',
        'invalid_token',
        'This access token is bound to a DPoP key: present it as "Authorization: DPoP" with a DPoP proof.',
      );
    }
    return token;
  }
  if (!jkt) {
    throw new OAuthError('invalid_token', 'This access token is not DPoP-bound: present it as Bearer.', 401);
  }
  const proof = dpopHeader(deps, organizationId, 'credential', request.headers);
  if (!proof) {
    throw dpopError(
      deps,
      organizationId,
      'credential',
      'invalid_dpop_proof',
      'A DPoP proof is required with a DPoP token.',
    );
  }
  await verifyDpopProof(deps, organizationId, 'credential', proof, request, { accessToken: token, jkt });
  return token;
}
