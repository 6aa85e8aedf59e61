import { SDJwtInstance } from '@sd-jwt/core';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { ClaimValue } from './claims.ts';
import { base64url, sha256 } from './encoding.ts';
import { decodeJwt, type JwsSigner, verifyJwtSignature } from './jws.ts';

export const SD_JWT_VC_TYP = 'dc+sd-jwt';

const hasher = async (data: string | ArrayBuffer, alg: string) => {
  if (alg.toLowerCase() !== 'sha-256') throw new Error(`Unsupported _sd_alg ${alg}`);
  return sha256(data);
};
const saltGenerator = (length: number) => base64url(crypto.getRandomValues(new Uint8Array(length)));

export interface StatusReference {
  idx: number;
  uri: string;
}

export interface IssueSdJwtVcInput {
  signer: JwsSigner;
  /** JOSE header additions: `kid`, and `x5c` (the issuer's certificate chain, HAIP). */
  header: { kid?: string; x5c?: string[] };
  issuer: string;
  vct: string;
  /** Holder key from the key proof: bound as `cnf.jwk` (SD-JWT VC §3.2.2.2). */
  holderJwk: JsonWebKey;
  claims: Record<string, ClaimValue>;
  status?: StatusReference;
  issuedAt?: number;
  expiresAt?: number;
}

/** Issues an SD-JWT VC in which every claim is selectively disclosable. */
export async function issueSdJwtVc(input: IssueSdJwtVcInput): Promise<string> {
  const instance = new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    saltGenerator,
    signer: (data) => input.signer.sign(data),
    signAlg: input.signer.alg,
  });
  const payload = {
    iss: input.issuer,
    vct: input.vct,
    iat: input.issuedAt ?? Math.floor(Date.now() / 1000),
    ...(input.expiresAt ? { exp: input.expiresAt } : {}),
    cnf: { jwk: input.holderJwk },
    ...(input.status ? { status: { status_list: input.status } } : {}),
    ...input.claims,
  };
  return instance.issue(payload, { _sd: Object.keys(input.claims) } as never, {
    header: { typ: SD_JWT_VC_TYP, ...input.header },
  });
}

export interface DecodedSdJwtVc {
  header: Record<string, unknown>;
  /** The issuer-signed payload with the disclosed claims folded in (`_sd` digests removed). */
  claims: Record<string, unknown>;
  /** Names of claims that this presentation disclosed (or could disclose, for an issued credential). */
  disclosed: string[];
  keyBinding?: { header: Record<string, unknown>; payload: Record<string, unknown> };
}

/** Decodes without verifying (the wallet, to show what it holds). */
export async function decodeSdJwtVc(compact: string): Promise<DecodedSdJwtVc> {
  const instance = new SDJwtInstance({ hasher });
  const decoded = await instance.decode(compact);
  const claims = (await instance.getClaims(compact)) as Record<string, unknown>;
  return {
    header: (decoded.jwt?.header ?? {}) as Record<string, unknown>,
    claims,
    disclosed: (decoded.disclosures ?? []).map((d) => String(d.key)),
    ...(decoded.kbJwt?.header && decoded.kbJwt.payload
      ? {
          keyBinding: {
            header: decoded.kbJwt.header as Record<string, unknown>,
            payload: decoded.kbJwt.payload as Record<string, unknown>,
          },
        }
      : {}),
  };
}

export interface PresentInput {
  /** Claim names to disclose; every other disclosure is left out. */
  disclose: string[];
  keyBinding: { signer: JwsSigner; audience: string; nonce: string; issuedAt?: number };
}

/** Holder side: selects disclosures and appends a key-binding JWT (nonce, audience, `sd_hash`). */
export async function presentSdJwtVc(compact: string, input: PresentInput): Promise<string> {
  const instance = new SDJwtInstance({
    hasher,
    hashAlg: 'sha-256',
    kbSigner: (data) => input.keyBinding.signer.sign(data),
    kbSignAlg: input.keyBinding.signer.alg,
  });
  const frame = Object.fromEntries(input.disclose.map((name) => [name, true]));
  return instance.present(compact, frame, {
    kb: {
      payload: {
        aud: input.keyBinding.audience,
        nonce: input.keyBinding.nonce,
        iat: input.keyBinding.issuedAt ?? Math.floor(Date.now() / 1000),
      },
    },
  });
}

export class SdJwtVcError extends Error {
  constructor(
    readonly code:
      | 'SD_JWT_MALFORMED'
      | 'SD_JWT_TYPE_INVALID'
      | 'SD_JWT_SIGNATURE_INVALID'
      | 'SD_JWT_EXPIRED'
      | 'SD_JWT_KEY_BINDING_MISSING'
      | 'SD_JWT_KEY_BINDING_INVALID'
      | 'SD_JWT_KEY_BINDING_AUDIENCE'
      | 'SD_JWT_KEY_BINDING_STALE',
    message: string,
  ) {
    super(message);
    this.name = 'SdJwtVcError';
  }
}

export interface VerifySdJwtVcOptions {
  /** The issuer's public key for this credential (from x5c, issuer metadata or a DID: see resolve.ts). */
  resolveIssuerKey(header: Record<string, unknown>, payload: Record<string, unknown>): Promise<JsonWebKey>;
  /** Require and check a key-binding JWT (presentations). */
  keyBinding?: { nonce: string; audience: string; maxAgeSeconds?: number };
  now?: number;
  skewSeconds?: number;
}

/**
 * Verifies an SD-JWT VC: `typ`, issuer signature, every disclosure's digest, `iat`/`nbf`/`exp`, and, for
 * a presentation, the key-binding JWT against `cnf.jwk` with its nonce, audience, `sd_hash` and age.
 */
export async function verifySdJwtVc(compact: string, options: VerifySdJwtVcOptions): Promise<DecodedSdJwtVc> {
  const issuerJwt = compact.split('~')[0] ?? '';
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    ({ header, payload } = decodeJwt(issuerJwt));
  } catch {
    throw new SdJwtVcError('SD_JWT_MALFORMED', 'The credential is not an SD-JWT');
  }
  if (header.typ !== SD_JWT_VC_TYP && header.typ !== 'vc+sd-jwt') {
    throw new SdJwtVcError('SD_JWT_TYPE_INVALID', `Unexpected typ ${String(header.typ)}`);
  }
  const issuerKey = await options.resolveIssuerKey(header, payload);
  if (!(await verifyJwtSignature(issuerJwt, issuerKey))) {
    throw new SdJwtVcError('SD_JWT_SIGNATURE_INVALID', 'The issuer signature does not verify');
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const skew = options.skewSeconds ?? 60;
  if (typeof payload.exp === 'number' && payload.exp + skew < now) {
    throw new SdJwtVcError('SD_JWT_EXPIRED', 'The credential has expired');
  }
  if (typeof payload.nbf === 'number' && payload.nbf - skew > now) {
    throw new SdJwtVcError('SD_JWT_EXPIRED', 'The credential is not valid yet');
  }

  // SD-JWT §7.1: every disclosure must be referenced by a digest of the signed payload, once.
  const parts = compact.split('~');
  const lastIsKeyBinding = !compact.endsWith('~');
  const disclosures = parts.slice(1, lastIsKeyBinding ? -1 : undefined).filter(Boolean);
  const referenced = collectDigests(payload);
  const seen = new Set<string>();
  for (const disclosure of disclosures) {
    const digest = base64url(await sha256(disclosure));
    if (!referenced.has(digest) || seen.has(digest)) {
      throw new SdJwtVcError('SD_JWT_MALFORMED', 'A disclosure is not part of this credential');
    }
    seen.add(digest);
  }
  const instance = new SDJwtInstance({ hasher, verifier: () => true });
  let claims: Record<string, unknown>;
  try {
    // The issuer signature was checked above with the resolved key; here the disclosures are folded in.
    claims = (
      await instance.verify(`${parts.slice(0, disclosures.length + 1).join('~')}~`, {
        currentDate: now,
        skewSeconds: skew,
      })
    ).payload as Record<string, unknown>;
  } catch (err) {
    throw new SdJwtVcError('SD_JWT_MALFORMED', err instanceof Error ? err.message : String(err));
  }
  const decoded = await decodeSdJwtVc(compact);

  if (options.keyBinding) {
    const kbJwt = lastIsKeyBinding ? parts[parts.length - 1] : undefined;
    if (!kbJwt) throw new SdJwtVcError('SD_JWT_KEY_BINDING_MISSING', 'The presentation has no key-binding JWT');
    const holderJwk = (payload.cnf as { jwk?: JsonWebKey } | undefined)?.jwk;
    let kb: { header: Record<string, unknown>; payload: Record<string, unknown> };
    try {
      kb = decodeJwt(kbJwt);
    } catch {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_INVALID', 'The key-binding JWT is malformed');
    }
    if (kb.header.typ !== 'kb+jwt' || !holderJwk || !(await verifyJwtSignature(kbJwt, holderJwk))) {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_INVALID', 'The key-binding JWT is not signed by the holder key');
    }
    // SD-JWT §4.3.1: sd_hash covers the issuer JWT and the presented disclosures.
    const sdHash = base64url(await sha256(compact.slice(0, compact.length - kbJwt.length)));
    if (kb.payload.sd_hash !== sdHash) {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_INVALID', 'The key-binding JWT covers other disclosures');
    }
    if (kb.payload.nonce !== options.keyBinding.nonce) {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_INVALID', 'The key-binding JWT carries another nonce');
    }
    if (kb.payload.aud !== options.keyBinding.audience) {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_AUDIENCE', 'The key-binding JWT is for another audience');
    }
    const maxAge = options.keyBinding.maxAgeSeconds ?? 300;
    if (typeof kb.payload.iat !== 'number' || Math.abs(now - kb.payload.iat) > maxAge) {
      throw new SdJwtVcError('SD_JWT_KEY_BINDING_STALE', 'The key-binding JWT is too old or from the future');
    }
  }
  return { ...decoded, claims };
}

/** Every digest the signed payload references: `_sd` arrays and array-element `{"...": digest}`. */
export function collectDigests(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (
        item &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        typeof (item as { '...'?: unknown })['...'] === 'string'
      ) {
        into.add((item as { '...': string })['...']);
      } else collectDigests(item, into);
    }
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '_sd' && Array.isArray(child)) {
        for (const digest of child) {
          if (typeof digest === 'string') into.add(digest);
        }
      } else {
        collectDigests(child, into);
      }
    }
  }
  return into;
}
