import { type AttributeType, compareClaim } from './claims.ts';
import type { IssuerBinding } from './issuer-trust.ts';
import {
  checkKeyBinding,
  type ParsedSdJwt,
  parseSdJwt,
  SdJwtVcError,
  validityProblem,
  verifyIssuerSignature,
} from './sd-jwt-verify.ts';
import { STATUS_VALID, statusFromToken } from './status-list.ts';

/**
 * The verifier's side of an SD-JWT VC presentation (OpenID4VP), as data: every check that ran, passed
 * or failed with a code, instead of an exception at the first problem. Transport (the OpenID4VP
 * response, decryption), which keys speak for which issuer and which issuers the verifier admits
 * belong to the caller (deps).
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
  /** The claim's name (a schema attribute, or a named claim of an external credential type). */
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

/** A claim the verifier asks for: its name (shown, used by rules) and its path in the credential (DCQL). */
export interface RequestedClaim {
  name: string;
  path: (string | number | null)[];
}

export interface PresentationExpectation {
  nonce: string;
  /** The verifier's client identifier (with its prefix): the key-binding JWT's `aud`. */
  audience: string;
  /** Accepted `vct` values. */
  vctValues: string[];
  /** Claims that must be disclosed; only these are kept. */
  requestedClaims: RequestedClaim[];
  rules: PresentationRule[];
  /** Seconds a key-binding JWT may be old (default 300). */
  maxKeyBindingAgeSeconds?: number;
  now?: number;
  skewSeconds?: number;
}

/** Whether the verifier's trust policy admits an issuer, and why (shown in the history). */
export interface IssuerAdmission {
  admitted: boolean;
  /** A stable code: the rule of the policy that admitted or refused the issuer. */
  reason: string;
  /** One sentence for people: "admitted because …" / "refused because …". */
  detail: string;
}

export interface PresentationVerifierDeps {
  /** The key that speaks for the credential's `iss` (bindIssuerKey with the verifier's trust anchors). */
  bindIssuerKey(header: Record<string, unknown>, payload: Record<string, unknown>): Promise<IssuerBinding>;
  /**
   * The verifier's trust policy on a bound issuer, and whether this issuer may issue this type (a type
   * belongs to its issuer).
   */
  admitIssuer(
    binding: IssuerBinding,
    credential: { vct: string | null },
  ): Promise<{ issuer: IssuerAdmission; type: { passed: boolean; detail?: string } }>;
  /** The status list token at `uri`, verified for this issuer (verifyStatusListToken). */
  fetchStatusListToken(uri: string, issuer: IssuerBinding): Promise<string>;
}

export interface PresentationResult {
  verified: boolean;
  checks: PresentationCheck[];
  /**
   * The requested claims as disclosed, by name: only when the issuer signature and the key binding
   * passed (otherwise they are nobody's word and are not kept).
   */
  claims: Record<string, unknown>;
  /** The credential's `iss`, once a key bound to it verified the signature (null before that). */
  issuer: string | null;
  vct: string | null;
  /** How the issuer's key was established, when it was. */
  binding?: IssuerBinding;
  /** Why the issuer was admitted or refused, when its key was established. */
  admission?: IssuerAdmission;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The value at a DCQL claims path (OpenID4VP §7): names, array indexes, null for every element. */
export function claimAtPath(claims: Record<string, unknown>, path: RequestedClaim['path']): unknown {
  let value: unknown = claims;
  for (const segment of path) {
    if (segment === null) {
      if (!Array.isArray(value)) return undefined;
      continue;
    }
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (value && typeof value === 'object' && !Array.isArray(value) && typeof segment === 'string')
      value = (value as Record<string, unknown>)[segment];
    else return undefined;
  }
  return value;
}

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
 * request asked for. A broken issuer signature, or a key that does not speak for the issuer, ends the
 * checks: nothing else in the credential can be believed then. Otherwise every check runs and is recorded.
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
  const verified = () => checks.length > 0 && checks.every((c) => c.passed);

  // ---- Shape ------------------------------------------------------------------------------------
  let parsed: ParsedSdJwt;
  try {
    parsed = parseSdJwt(presentation);
  } catch (err) {
    fail('RESPONSE_FORMAT', message(err));
    return { verified: false, checks, claims: {}, issuer: null, vct: null };
  }
  const { payload } = parsed;
  const iss = typeof payload.iss === 'string' ? payload.iss : null;
  const vct = typeof payload.vct === 'string' ? payload.vct : null;

  // ---- A key that speaks for the issuer, its signature, every disclosure covered by it --------------------
  let binding: IssuerBinding;
  let folded: Record<string, unknown>;
  try {
    ({ binding, claims: folded } = await verifyIssuerSignature(parsed, (header, body) =>
      deps.bindIssuerKey(header, body),
    ));
  } catch (err) {
    const reason = err instanceof SdJwtVcError ? err.message : `The credential cannot be read: ${message(err)}`;
    fail('ISSUER_SIGNATURE', iss ? `Claims to be from ${iss}: ${reason}` : reason);
    // No issuer is recorded: nothing says the one it names issued it.
    return { verified: false, checks, claims: {}, issuer: null, vct };
  }
  pass('ISSUER_SIGNATURE', `Key ${keyOrigin(binding)}`);

  // ---- Who issued it, whether this verifier admits them, what it is, whether it is valid now ---------------
  const admission = await deps.admitIssuer(binding, { vct });
  if (admission.issuer.admitted) pass('TRUSTED_ISSUER', admission.issuer.detail);
  else fail('TRUSTED_ISSUER', admission.issuer.detail);
  if (vct === null || !expectation.vctValues.includes(vct)) {
    fail('CREDENTIAL_TYPE', `The credential type ${vct ?? 'none'} is not the one asked for`);
  } else if (!admission.type.passed) {
    fail('CREDENTIAL_TYPE', admission.type.detail ?? `The issuer may not issue ${vct}`);
  } else {
    pass('CREDENTIAL_TYPE');
  }
  const now = expectation.now ?? Math.floor(Date.now() / 1000);
  const skew = expectation.skewSeconds ?? 60;
  const invalid = validityProblem(payload, now, skew);
  if (invalid) fail('EXPIRY', invalid);
  else pass('EXPIRY');

  const statusRef = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  if (!statusRef) {
    pass('STATUS', 'The credential carries no status list');
  } else if (
    typeof statusRef.idx !== 'number' ||
    !Number.isInteger(statusRef.idx) ||
    statusRef.idx < 0 ||
    typeof statusRef.uri !== 'string'
  ) {
    fail('STATUS', 'The status reference is malformed');
  } else {
    try {
      const token = await deps.fetchStatusListToken(statusRef.uri, binding);
      const status = statusFromToken(token, statusRef.idx);
      if (status.sub !== statusRef.uri) fail('STATUS', 'The status list token is for another list');
      else if (status.status === STATUS_VALID) pass('STATUS');
      else fail('STATUS', status.status === 1 ? 'The credential has been revoked' : 'The credential is suspended');
    } catch (err) {
      fail('STATUS', `The status list could not be checked: ${message(err)}`);
    }
  }

  // ---- Key binding: the holder, this verifier, this request, now --------------------------------------------
  const keyBinding = await checkKeyBinding(parsed, {
    nonce: expectation.nonce,
    audience: expectation.audience,
    ...(expectation.maxKeyBindingAgeSeconds ? { maxAgeSeconds: expectation.maxKeyBindingAgeSeconds } : {}),
    now,
    skewSeconds: skew,
  });
  checks.push(...keyBinding);
  const bound = keyBinding.length === 4 && keyBinding.every((c) => c.passed);

  // ---- What was disclosed, and the rules -----------------------------------------------------------------
  const disclosed: Record<string, unknown> = {};
  for (const claim of expectation.requestedClaims) {
    const value = claimAtPath(folded, claim.path);
    if (value !== undefined) disclosed[claim.name] = value;
  }
  const missing = expectation.requestedClaims.filter((claim) => !(claim.name in disclosed)).map((c) => c.name);
  if (missing.length === 0) pass('CLAIMS_DISCLOSED');
  else fail('CLAIMS_DISCLOSED', `Not disclosed: ${missing.join(', ')}`);
  for (const rule of expectation.rules) {
    if (bound) checks.push(evaluateRule(rule, disclosed));
    else
      checks.push({
        code: 'RULE',
        passed: false,
        detail: 'Not evaluated: the presentation is not bound to its holder and this request',
        rule: { attribute: rule.attribute, operator: rule.operator, value: rule.value, presented: null },
      });
  }

  return {
    verified: verified(),
    checks,
    // Claims are kept only when they are the issuer's (signature) and this holder's answer to this request.
    claims: bound ? disclosed : {},
    issuer: iss,
    vct,
    binding,
    admission: admission.issuer,
  };
}

/** "from its certificate (CN=…, anchored at CN=…)" and the like, for the ISSUER_SIGNATURE detail. */
export function keyOrigin(binding: IssuerBinding): string {
  if (binding.source === 'x5c') {
    const anchor = binding.certificate?.path?.anchor.subject;
    return `from the certificate ${binding.certificate?.subject ?? ''}${anchor ? ` (certified by ${anchor})` : ' (self-asserted)'}`;
  }
  if (binding.source === 'did') return `from the DID document of ${binding.iss} (${binding.verificationMethod ?? ''})`;
  return `from the JWT VC Issuer Metadata of ${binding.iss}`;
}
