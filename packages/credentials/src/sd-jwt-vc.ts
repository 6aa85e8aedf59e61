import { SDJwtInstance } from '@sd-jwt/core';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { ClaimValue } from './claims.ts';
import { base64url, randomBytes, sha256 } from './encoding.ts';
import type { JwsSigner } from './jws.ts';

export const SD_JWT_VC_TYP = 'dc+sd-jwt';

const hasher = async (data: string | ArrayBuffer, alg: string) => {
  if (alg.toLowerCase() !== 'sha-256') throw new Error(`Unsupported _sd_alg ${alg}`);
  return sha256(data);
};
const saltGenerator = (length: number) => base64url(randomBytes(length));

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
