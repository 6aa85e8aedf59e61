import { Jwt, SDJwt } from '@sd-jwt/core';
import { base64url, fromBase64url, sha256 } from './encoding.ts';
import { decodeJwt, verifyJwtSignature } from './jws.ts';
import { SD_JWT_VC_TYP } from './sd-jwt-vc.ts';

/**
 * The one SD-JWT VC verification path (RFC 9901, SD-JWT VC): its steps, each used by the verifier's
 * presentation checks (presentation.ts: every step recorded as data) and by verifySdJwtVc (the holder
 * and tests: the first failure thrown).
 */

export type SdJwtVcErrorCode =
  | 'SD_JWT_MALFORMED'
  | 'SD_JWT_TYPE_INVALID'
  | 'SD_JWT_ISSUER_UNTRUSTED'
  | 'SD_JWT_SIGNATURE_INVALID'
  | 'SD_JWT_EXPIRED'
  | 'SD_JWT_KEY_BINDING_MISSING'
  | 'SD_JWT_KEY_BINDING_INVALID'
  | 'SD_JWT_KEY_BINDING_AUDIENCE'
  | 'SD_JWT_KEY_BINDING_STALE';

export class SdJwtVcError extends Error {
  constructor(
    readonly code: SdJwtVcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SdJwtVcError';
  }
}

export interface ParsedSdJwt {
  /** The whole compact serialization as received. */
  compact: string;
  issuerJwt: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  disclosures: string[];
  /** The key-binding JWT, when the serialization does not end with `~`. */
  kbJwt?: string;
}

/** Splits `<issuer-jwt>~<disclosure>~…~[<kb-jwt>]` and checks the SD-JWT VC `typ`. */
export function parseSdJwt(compact: unknown): ParsedSdJwt {
  const parts = typeof compact === 'string' ? compact.split('~') : [];
  if (parts.length < 2) throw new SdJwtVcError('SD_JWT_MALFORMED', 'The presentation is not an SD-JWT');
  const issuerJwt = parts[0]!;
  let decoded: { header: Record<string, unknown>; payload: Record<string, unknown> };
  try {
    decoded = decodeJwt(issuerJwt);
    if (!decoded.payload || typeof decoded.payload !== 'object' || Array.isArray(decoded.payload)) throw new Error();
  } catch {
    throw new SdJwtVcError('SD_JWT_MALFORMED', 'The presentation is not an SD-JWT');
  }
  if (decoded.header.typ !== SD_JWT_VC_TYP && decoded.header.typ !== 'vc+sd-jwt') {
    throw new SdJwtVcError(
      'SD_JWT_TYPE_INVALID',
      `The credential is not an SD-JWT VC (typ ${String(decoded.header.typ)})`,
    );
  }
  const text = compact as string;
  const kbJwt = text.endsWith('~') ? undefined : parts[parts.length - 1];
  return {
    compact: text,
    issuerJwt,
    ...decoded,
    disclosures: parts.slice(1, -1).filter(Boolean),
    ...(kbJwt ? { kbJwt } : {}),
  };
}

/**
 * A disclosure as @sd-jwt's unpacking reads it (its Disclosure class: `[salt, value]` or `[salt, key, value]`),
 * with the digest computed over its encoded form.
 */
function disclosureOf(encoded: string, digest: string) {
  const data = JSON.parse(new TextDecoder().decode(fromBase64url(encoded))) as unknown;
  if (!Array.isArray(data) || (data.length !== 2 && data.length !== 3)) throw new Error('Invalid disclosure data');
  const fields =
    data.length === 3 ? { salt: data[0], key: data[1], value: data[2] } : { salt: data[0], value: data[1] };
  return { ...fields, digest: async () => digest, digestSync: () => digest } as unknown as Disclosure;
}
type Disclosure = NonNullable<ConstructorParameters<typeof SDJwt>[0]>['disclosures'] extends (infer D)[] | undefined
  ? D
  : never;

const hasher = async (data: string | ArrayBuffer, alg: string) => {
  if (alg.toLowerCase() !== 'sha-256') throw new Error(`Unsupported _sd_alg ${alg}`);
  return sha256(data);
};

/**
 * The issuer's signature with a key bound to the issuer (the resolver decides which key speaks for
 * `iss`; see bindIssuerKey), then every disclosure covered by a digest of the signed payload, once
 * (RFC 9901 §7.1), folded into the claims.
 */
export async function verifyIssuerSignature<B extends { jwk: JsonWebKey }>(
  parsed: ParsedSdJwt,
  resolveIssuerKey: (header: Record<string, unknown>, payload: Record<string, unknown>) => Promise<B>,
): Promise<{ binding: B; claims: Record<string, unknown> }> {
  let binding: B;
  try {
    binding = await resolveIssuerKey(parsed.header, parsed.payload);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new SdJwtVcError(
      'SD_JWT_ISSUER_UNTRUSTED',
      reason.startsWith('No key of the issuer') ? reason : `No key of the issuer could be established: ${reason}`,
    );
  }
  if (!(await verifyJwtSignature(parsed.issuerJwt, binding.jwk))) {
    throw new SdJwtVcError('SD_JWT_SIGNATURE_INVALID', 'The issuer signature does not verify');
  }
  const referenced = collectDigests(parsed.payload);
  const seen = new Set<string>();
  const digests: string[] = [];
  for (const disclosure of parsed.disclosures) {
    const digest = base64url(await sha256(disclosure));
    if (!referenced.has(digest) || seen.has(digest)) {
      throw new SdJwtVcError('SD_JWT_MALFORMED', 'A disclosure is not covered by the issuer signature');
    }
    seen.add(digest);
    digests.push(digest);
  }
  try {
    // The signature was checked above with the bound key; the library only folds the disclosures in (its
    // unpacking, RFC 9901 §7.1), given the payload and disclosures decoded and hashed here: SDJwtInstance.verify
    // decoded the token and hashed every disclosure twice more, with a pure-JavaScript base64.
    const disclosures = parsed.disclosures.map((encoded, index) => disclosureOf(encoded, digests[index]!));
    const sdJwt = new SDJwt({ jwt: new Jwt({ header: parsed.header, payload: parsed.payload }), disclosures });
    return { binding, claims: (await sdJwt.getClaims(hasher)) as Record<string, unknown> };
  } catch (err) {
    throw new SdJwtVcError(
      'SD_JWT_MALFORMED',
      `The disclosures cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** `exp` and `nbf` of the issuer-signed payload, with clock skew; undefined when valid now. */
export function validityProblem(payload: Record<string, unknown>, now: number, skew: number): string | undefined {
  if (typeof payload.exp === 'number' && payload.exp + skew < now) return 'The credential has expired';
  if (typeof payload.nbf === 'number' && payload.nbf - skew > now) return 'The credential is not valid yet';
  return undefined;
}

export interface KeyBindingExpectation {
  nonce: string;
  /** The verifier's client identifier (with its prefix): the key-binding JWT's `aud`. */
  audience: string;
  /** Seconds a key-binding JWT may be old (default 300). */
  maxAgeSeconds?: number;
  now?: number;
  skewSeconds?: number;
}

export type KeyBindingCheckCode = 'KEY_BINDING' | 'NONCE' | 'AUDIENCE' | 'FRESHNESS';
export interface KeyBindingCheck {
  code: KeyBindingCheckCode;
  passed: boolean;
  detail?: string;
}

/**
 * Key binding (RFC 9901 §7.3): a `kb+jwt` signed by the holder key bound in `cnf.jwk`, covering exactly
 * these disclosures (`sd_hash`), for this request (`nonce`), this verifier (`aud`) and made just now (`iat`).
 */
export async function checkKeyBinding(
  parsed: ParsedSdJwt,
  expectation: KeyBindingExpectation,
): Promise<KeyBindingCheck[]> {
  const fail = (code: KeyBindingCheckCode, detail: string): KeyBindingCheck => ({ code, passed: false, detail });
  const pass = (code: KeyBindingCheckCode): KeyBindingCheck => ({ code, passed: true });
  let kb: { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined;
  try {
    kb = parsed.kbJwt ? decodeJwt(parsed.kbJwt) : undefined;
  } catch {
    kb = undefined;
  }
  if (!parsed.kbJwt || !kb) return [fail('KEY_BINDING', 'The presentation has no key-binding JWT')];
  const checks: KeyBindingCheck[] = [];
  const holderJwk = (parsed.payload.cnf as { jwk?: JsonWebKey } | undefined)?.jwk;
  const sdHash = base64url(await sha256(parsed.compact.slice(0, parsed.compact.length - parsed.kbJwt.length)));
  if (kb.header.typ !== 'kb+jwt') checks.push(fail('KEY_BINDING', 'The key-binding JWT has the wrong typ'));
  else if (!holderJwk || typeof holderJwk !== 'object' || !(await verifyJwtSignature(parsed.kbJwt, holderJwk)))
    checks.push(fail('KEY_BINDING', 'The key-binding JWT is not signed by the holder key'));
  else if (kb.payload.sd_hash !== sdHash)
    checks.push(fail('KEY_BINDING', 'The key-binding JWT covers other disclosures'));
  else checks.push(pass('KEY_BINDING'));

  checks.push(
    kb.payload.nonce === expectation.nonce
      ? pass('NONCE')
      : fail('NONCE', 'The presentation was made for another request (nonce)'),
  );
  const aud = kb.payload.aud;
  checks.push(
    aud === expectation.audience || (Array.isArray(aud) && aud.length === 1 && aud[0] === expectation.audience)
      ? pass('AUDIENCE')
      : fail('AUDIENCE', 'The presentation was made for another verifier (aud)'),
  );
  const now = expectation.now ?? Math.floor(Date.now() / 1000);
  const skew = expectation.skewSeconds ?? 60;
  const maxAge = expectation.maxAgeSeconds ?? 300;
  checks.push(
    typeof kb.payload.iat === 'number' && kb.payload.iat <= now + skew && now - kb.payload.iat <= maxAge
      ? pass('FRESHNESS')
      : fail('FRESHNESS', 'The presentation is too old or from the future'),
  );
  return checks;
}

export interface VerifySdJwtVcOptions {
  /** The key that speaks for the credential's issuer (see bindIssuerKey). */
  resolveIssuerKey(header: Record<string, unknown>, payload: Record<string, unknown>): Promise<{ jwk: JsonWebKey }>;
  /** Require and check a key-binding JWT (presentations). */
  keyBinding?: Omit<KeyBindingExpectation, 'now' | 'skewSeconds'>;
  now?: number;
  skewSeconds?: number;
}

const keyBindingErrors: Record<KeyBindingCheckCode, SdJwtVcErrorCode> = {
  KEY_BINDING: 'SD_JWT_KEY_BINDING_INVALID',
  NONCE: 'SD_JWT_KEY_BINDING_INVALID',
  AUDIENCE: 'SD_JWT_KEY_BINDING_AUDIENCE',
  FRESHNESS: 'SD_JWT_KEY_BINDING_STALE',
};

/**
 * Verifies an SD-JWT VC and throws at the first problem (a holder receiving a credential; tests): the
 * same steps as the verifier's presentation checks.
 */
export async function verifySdJwtVc(
  compact: string,
  options: VerifySdJwtVcOptions,
): Promise<{ header: Record<string, unknown>; payload: Record<string, unknown>; claims: Record<string, unknown> }> {
  const parsed = parseSdJwt(compact);
  const { claims } = await verifyIssuerSignature(parsed, options.resolveIssuerKey);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const skew = options.skewSeconds ?? 60;
  const problem = validityProblem(parsed.payload, now, skew);
  if (problem) throw new SdJwtVcError('SD_JWT_EXPIRED', problem);
  if (options.keyBinding) {
    const checks = await checkKeyBinding(parsed, { ...options.keyBinding, now, skewSeconds: skew });
    const first = checks.find((c) => !c.passed);
    if (first) {
      const code = first.detail?.includes('no key-binding')
        ? 'SD_JWT_KEY_BINDING_MISSING'
        : keyBindingErrors[first.code];
      throw new SdJwtVcError(code, first.detail ?? first.code);
    }
  }
  return { header: parsed.header, payload: parsed.payload, claims };
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
