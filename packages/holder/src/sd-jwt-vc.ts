import { decodeSdJwtVc } from '@cp/credentials';
import { errorMessage, HolderError } from './errors.ts';

/**
 * SD-JWT VC (draft-ietf-oauth-sd-jwt-vc) as a holder reads it: the issuer-signed payload with every
 * disclosure folded in. Decoding only: whether the issuer's key speaks for the issuer is the caller's
 * decision (a wallet's trust, a verifier's policy).
 */

/** Registered JWT and SD-JWT VC claims (§3.2.2): not claims about the holder. */
export const REGISTERED_CLAIMS = new Set([
  'iss',
  'sub',
  'vct',
  'cnf',
  'status',
  'iat',
  'exp',
  'nbf',
  'jti',
  'aud',
  '_sd',
  '_sd_alg',
  'vct#integrity',
]);

export interface ParsedSdJwtVc {
  vct: string;
  iss?: string;
  header: Record<string, unknown>;
  /** The payload with the disclosures folded in. */
  payload: Record<string, unknown>;
  /** The claims about the holder (the payload less the registered claims). */
  claims: Record<string, unknown>;
  /** Top-level claims that are selectively disclosable. */
  disclosable: string[];
  holderJwk?: JsonWebKey;
  status?: { uri: string; idx: number };
  issuedAt?: number;
  expiresAt?: number;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export async function parseSdJwtVc(raw: string): Promise<ParsedSdJwtVc> {
  let decoded: Awaited<ReturnType<typeof decodeSdJwtVc>>;
  try {
    decoded = await decodeSdJwtVc(raw);
  } catch (err) {
    throw new HolderError('CREDENTIAL_INVALID', `The credential is not an SD-JWT: ${errorMessage(err)}`);
  }
  const payload = decoded.claims;
  if (typeof payload.vct !== 'string' || payload.vct === '') {
    throw new HolderError('CREDENTIAL_INVALID', 'The credential has no vct');
  }
  const cnf = payload.cnf as { jwk?: unknown } | undefined;
  const reference = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  const issuedAt = num(payload.iat);
  const expiresAt = num(payload.exp);
  return {
    vct: payload.vct,
    ...(typeof payload.iss === 'string' ? { iss: payload.iss } : {}),
    header: decoded.header,
    payload,
    claims: Object.fromEntries(Object.entries(payload).filter(([name]) => !REGISTERED_CLAIMS.has(name))),
    disclosable: decoded.disclosed,
    ...(cnf && typeof cnf.jwk === 'object' && cnf.jwk !== null ? { holderJwk: cnf.jwk as JsonWebKey } : {}),
    ...(reference && typeof reference.idx === 'number' && typeof reference.uri === 'string'
      ? { status: { uri: reference.uri, idx: reference.idx } }
      : {}),
    ...(issuedAt !== undefined ? { issuedAt } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

/** Whether two public keys are the same key (their public members; `kid`, `alg`, `use` aside). */
export const sameKey = (a: JsonWebKey | undefined, b: JsonWebKey | undefined) =>
  !!a && !!b && a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y && a.n === b.n && a.e === b.e;

/** Whether the credential is bound (`cnf.jwk`, §3.2.2.2) to this holder key. */
export const isBoundTo = (credential: Pick<ParsedSdJwtVc, 'holderJwk'>, key: JsonWebKey) =>
  sameKey(credential.holderJwk, key);
