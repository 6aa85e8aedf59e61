import { SDJwtInstance } from '@sd-jwt/core';
import { type AttributeType, compareClaim } from './claims.ts';
import { base64url, sha256 } from './encoding.ts';
import { decodeJwt, verifyJwtSignature } from './jws.ts';
import { collectDigests, SD_JWT_VC_TYP } from './sd-jwt-vc.ts';
import { STATUS_VALID, statusFromToken } from './status-list.ts';

/**
 * The verifier's side of an SD-JWT VC presentation (OpenID4VP), as data: every check that ran, passed
 * or failed with a code, instead of an exception at the first problem. Transport (the OpenID4VP
 * response, decryption) and key/status resolution belong to the caller.
 */

export type PresentationCheckCode =
  | 'RESPONSE_FORMAT'
  | 'ISSUER_SIGNATURE'
  | 'TRUSTED_ISSUER'
  | 'CREDENTIAL_TYPE'
  | 'EXPIRY'
  | 'STATUS'
  | 'KEY_BINDING'
  | 'NONCE'
  | 'AUDIENCE'
  | 'FRESHNESS'
  | 'CLAIMS_DISCLOSED'
  | 'RULE';

export type RuleOperator = 'EQUAL' | 'NOT' | 'BIGGER' | 'SMALLER';

export interface PresentationRule {
  attribute: string;
  type: AttributeType;
  operator: RuleOperator;
  value: string;
}

export interface PresentationCheck {
  code: PresentationCheckCode;
  passed: boolean;
  detail?: string;
  rule?: { attribute: string; operator: RuleOperator; value: string; presented: string | number | boolean | null };
}

export interface ResolvedIssuerKey {
  jwk: JsonWebKey;
  /** Names under which this issuer is known (its `iss`, its DID, …) for the trusted-issuer check. */
  identifiers: string[];
}

export interface PresentationExpectation {
  nonce: string;
  /** The verifier's client identifier (with its prefix): the key-binding JWT's `aud`. */
  audience: string;
  /** Accepted `vct` values; empty accepts any type. */
  vctValues: string[];
  /** Claims that must be disclosed. */
  requiredClaims: string[];
  /** Trusted issuers (DIDs or issuer URLs); empty trusts any issuer whose key resolves. */
  trustedIssuers: string[];
  rules: PresentationRule[];
  /** Seconds a key-binding JWT may be old (default 300). */
  maxKeyBindingAgeSeconds?: number;
  now?: number;
  skewSeconds?: number;
}

export interface PresentationVerifierDeps {
  /** The issuer key bound to the credential's issuer (x5c chain, JWT VC Issuer Metadata or DID). */
  resolveIssuerKey(header: Record<string, unknown>, payload: Record<string, unknown>): Promise<ResolvedIssuerKey>;
  /** The status list token at `uri`, signature checked against the credential's issuer. */
  fetchStatusListToken(uri: string, issuer: ResolvedIssuerKey): Promise<string>;
}

export interface PresentationResult {
  verified: boolean;
  checks: PresentationCheck[];
  /** The disclosed claims (only the schema-level claims: no `cnf`, `_sd`, `status`…). */
  claims: Record<string, unknown>;
  issuer: string | null;
  vct: string | null;
}

const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti', 'cnf', 'vct', 'status', '_sd', '_sd_alg']);
const hasher = async (data: string | ArrayBuffer) => sha256(data);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function evaluateRule(rule: PresentationRule, claims: Record<string, unknown>): PresentationCheck {
  const raw = claims[rule.attribute];
  const presented = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? raw : null;
  const base = { attribute: rule.attribute, operator: rule.operator, value: rule.value, presented };
  if (presented === null) return { code: 'RULE', passed: false, detail: 'The claim was not disclosed', rule: base };
  const order = compareClaim(rule.type, presented, rule.value);
  if (order === null) {
    return { code: 'RULE', passed: false, detail: `The claim is not a valid ${rule.type} value`, rule: base };
  }
  const passed =
    rule.operator === 'EQUAL'
      ? order === 0
      : rule.operator === 'NOT'
        ? order !== 0
        : rule.operator === 'BIGGER'
          ? order === 1
          : order === -1;
  return { code: 'RULE', passed, rule: base };
}

/**
 * Verifies one SD-JWT VC presentation (issuer-signed JWT, disclosures, key-binding JWT) against what the
 * request asked for. A broken issuer signature ends the checks: nothing else in the credential can be
 * believed then. Otherwise every check runs and is recorded.
 */
export async function verifySdJwtPresentation(
  presentation: string,
  expectation: PresentationExpectation,
  deps: PresentationVerifierDeps,
): Promise<PresentationResult> {
  const checks: PresentationCheck[] = [];
  const fail = (code: PresentationCheckCode, detail: string) => checks.push({ code, passed: false, detail });
  const pass = (code: PresentationCheckCode, detail?: string) =>
    checks.push({ code, passed: true, ...(detail ? { detail } : {}) });
  const result = (claims: Record<string, unknown> = {}, issuer: string | null = null, vct: string | null = null) => ({
    verified: checks.length > 0 && checks.every((c) => c.passed),
    checks,
    claims,
    issuer,
    vct,
  });

  // ---- Shape ------------------------------------------------------------------------------------
  const parts = typeof presentation === 'string' ? presentation.split('~') : [];
  const issuerJwt = parts[0] ?? '';
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    if (parts.length < 2) throw new Error('not an SD-JWT');
    ({ header, payload } = decodeJwt(issuerJwt));
  } catch {
    fail('RESPONSE_FORMAT', 'The presentation is not an SD-JWT');
    return result();
  }
  if (header.typ !== SD_JWT_VC_TYP && header.typ !== 'vc+sd-jwt') {
    fail('RESPONSE_FORMAT', `The credential is not an SD-JWT VC (typ ${String(header.typ)})`);
    return result();
  }
  const iss = typeof payload.iss === 'string' ? payload.iss : null;
  const vct = typeof payload.vct === 'string' ? payload.vct : null;
  const kbJwt = presentation.endsWith('~') ? undefined : parts[parts.length - 1];
  // The last part is the key-binding JWT, or empty when the presentation ends with `~`.
  const disclosures = parts.slice(1, -1).filter(Boolean);

  // ---- Issuer signature, and every disclosure covered by it (SD-JWT §7.1) --------------------------
  let issuerKey: ResolvedIssuerKey;
  try {
    issuerKey = await deps.resolveIssuerKey(header, payload);
  } catch (err) {
    fail('ISSUER_SIGNATURE', `The issuer key could not be resolved: ${message(err)}`);
    return result({}, iss, vct);
  }
  if (!(await verifyJwtSignature(issuerJwt, issuerKey.jwk))) {
    fail('ISSUER_SIGNATURE', 'The issuer signature does not verify');
    return result({}, iss, vct);
  }
  const referenced = collectDigests(payload);
  const seen = new Set<string>();
  for (const disclosure of disclosures) {
    const digest = base64url(await sha256(disclosure));
    if (!referenced.has(digest) || seen.has(digest)) {
      fail('ISSUER_SIGNATURE', 'A disclosure is not covered by the issuer signature');
      return result({}, iss, vct);
    }
    seen.add(digest);
  }
  let folded: Record<string, unknown>;
  try {
    const instance = new SDJwtInstance({ hasher, verifier: () => true });
    folded = (await instance.verify(`${[issuerJwt, ...disclosures].join('~')}~`, { skewSeconds: 1e9 }))
      .payload as Record<string, unknown>;
  } catch (err) {
    fail('ISSUER_SIGNATURE', `The disclosures cannot be read: ${message(err)}`);
    return result({}, iss, vct);
  }
  pass('ISSUER_SIGNATURE');
  const claims = Object.fromEntries(Object.entries(folded).filter(([name]) => !REGISTERED.has(name)));

  // ---- Who issued it, what it is, whether it is valid now ---------------------------------------------
  if (expectation.trustedIssuers.length > 0) {
    const known = new Set([...(iss ? [iss] : []), ...issuerKey.identifiers].map(normalizeIssuer));
    if (expectation.trustedIssuers.some((trusted) => known.has(normalizeIssuer(trusted)))) pass('TRUSTED_ISSUER');
    else fail('TRUSTED_ISSUER', `The issuer ${iss ?? 'unknown'} is not one of the trusted issuers`);
  }
  if (expectation.vctValues.length === 0 || (vct !== null && expectation.vctValues.includes(vct))) {
    pass('CREDENTIAL_TYPE');
  } else {
    fail('CREDENTIAL_TYPE', `The credential type ${vct ?? 'none'} is not the one asked for`);
  }
  const now = expectation.now ?? Math.floor(Date.now() / 1000);
  const skew = expectation.skewSeconds ?? 60;
  if (typeof payload.exp === 'number' && payload.exp + skew < now) fail('EXPIRY', 'The credential has expired');
  else if (typeof payload.nbf === 'number' && payload.nbf - skew > now)
    fail('EXPIRY', 'The credential is not valid yet');
  else pass('EXPIRY');

  const statusRef = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  if (!statusRef) {
    pass('STATUS', 'The credential carries no status list');
  } else if (typeof statusRef.idx !== 'number' || typeof statusRef.uri !== 'string') {
    fail('STATUS', 'The status reference is malformed');
  } else {
    try {
      const token = await deps.fetchStatusListToken(statusRef.uri, issuerKey);
      const status = statusFromToken(token, statusRef.idx);
      if (status.sub !== statusRef.uri) fail('STATUS', 'The status list token is for another list');
      else if (status.status === STATUS_VALID) pass('STATUS');
      else fail('STATUS', status.status === 1 ? 'The credential has been revoked' : 'The credential is suspended');
    } catch (err) {
      fail('STATUS', `The status list could not be checked: ${message(err)}`);
    }
  }

  // ---- Key binding (SD-JWT §4.3): the holder, this verifier, this request, now ------------------------
  const holderJwk = (payload.cnf as { jwk?: JsonWebKey } | undefined)?.jwk;
  let kb: { header: Record<string, unknown>; payload: Record<string, unknown> } | undefined;
  try {
    kb = kbJwt ? decodeJwt(kbJwt) : undefined;
  } catch {
    kb = undefined;
  }
  if (!kbJwt || !kb) {
    fail('KEY_BINDING', 'The presentation has no key-binding JWT');
  } else {
    const sdHash = base64url(await sha256(presentation.slice(0, presentation.length - kbJwt.length)));
    if (kb.header.typ !== 'kb+jwt') fail('KEY_BINDING', 'The key-binding JWT has the wrong typ');
    else if (!holderJwk || !(await verifyJwtSignature(kbJwt, holderJwk)))
      fail('KEY_BINDING', 'The key-binding JWT is not signed by the holder key');
    else if (kb.payload.sd_hash !== sdHash) fail('KEY_BINDING', 'The key-binding JWT covers other disclosures');
    else pass('KEY_BINDING');

    if (kb.payload.nonce === expectation.nonce) pass('NONCE');
    else fail('NONCE', 'The presentation was made for another request (nonce)');
    const aud = kb.payload.aud;
    if (aud === expectation.audience || (Array.isArray(aud) && aud.length === 1 && aud[0] === expectation.audience))
      pass('AUDIENCE');
    else fail('AUDIENCE', 'The presentation was made for another verifier (aud)');
    const maxAge = expectation.maxKeyBindingAgeSeconds ?? 300;
    if (typeof kb.payload.iat === 'number' && kb.payload.iat <= now + skew && now - kb.payload.iat <= maxAge)
      pass('FRESHNESS');
    else fail('FRESHNESS', 'The presentation is too old or from the future');
  }

  // ---- What was disclosed, and the rules -----------------------------------------------------------
  const missing = expectation.requiredClaims.filter((name) => !(name in claims));
  if (missing.length === 0) pass('CLAIMS_DISCLOSED');
  else fail('CLAIMS_DISCLOSED', `Not disclosed: ${missing.join(', ')}`);
  for (const rule of expectation.rules) checks.push(evaluateRule(rule, claims));

  return result(claims, iss, vct);
}

const normalizeIssuer = (value: string) => value.trim().replace(/\/+$/, '');
