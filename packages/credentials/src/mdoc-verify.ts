import { CoseKey, cborDecode, DataItem, IssuerAuth, type MobileSecurityObject } from '@owf/mdoc';
import { fromBase64url, sha256 } from './encoding.ts';
import type { IssuerBinding } from './issuer-trust.ts';
import {
  coseKeyToPublicJwk,
  coseSign1ToBeSigned,
  deviceAuthenticationBytes,
  isDcApiHandover,
  MdocError,
  type MdocHandoverInput,
  mdocValueToJson,
  msoStatus,
  openId4VpSessionTranscript,
  taggedCbor,
  toBase64,
} from './mdoc.ts';
import {
  evaluateRule,
  type IssuerAdmission,
  type PresentationCheck,
  type PresentationCheckCode,
  type PresentationRule,
  type RequestedClaim,
} from './presentation.ts';
import type { StatusReference } from './sd-jwt-vc.ts';
import { STATUS_VALID, statusFromToken } from './status-list.ts';
import {
  CertificatePathError,
  type CertificationPath,
  describeLeaf,
  validateCertificationPath,
  x5cLeafJwk,
} from './x509.ts';

/**
 * The verifier's side of an mdoc presentation (OpenID4VP 1.0, DCQL `mso_mdoc`), as data: every check that
 * ran, with the same codes and shape as the SD-JWT VC checks (presentation.ts), so the verifier records
 * both alike. What each code means here:
 *
 * - RESPONSE_FORMAT: the vp_token is a base64url CBOR DeviceResponse (18013-5 §8.3.2.1.2.2) with status 0
 *   and exactly one document.
 * - ISSUER_SIGNATURE: issuerAuth is a COSE_Sign1, ES256, whose signature verifies with the x5chain leaf's
 *   key, and every disclosed element's digest (SHA-256 over its IssuerSignedItemBytes as sent) is the MSO's
 *   valueDigests entry for its namespace and digestID (no element twice). A failure ends the checks.
 * - TRUSTED_ISSUER: the x5chain is a certification path to one of the trust anchors (validateCertificationPath:
 *   the platform CA as IACA, the organization's anchors, IACA certificates), and the verifier's policy admits it.
 * - CREDENTIAL_TYPE: the MSO's docType is the one asked for, the document's docType is the MSO's, and the
 *   policy lets this issuer issue it.
 * - EXPIRY: validityInfo: validFrom ≤ now ≤ validUntil, `signed` not in the future and within the leaf
 *   certificate's validity (with clock skew).
 * - STATUS: the MSO's Token Status List reference, read from the issuer's status list token.
 * - KEY_BINDING: deviceAuth is a deviceSignature (COSE_Sign1, ES256, detached payload) by the MSO's deviceKey
 *   over DeviceAuthentication with this request's OpenID4VP session transcript (B.2.6.1: client_id, nonce,
 *   response_uri, jwk thumbprint; over the DC API, B.2.6.2: origin, nonce, jwk thumbprint), so a response made
 *   for another request, verifier, origin or invocation fails here.
 * - CLAIMS_DISCLOSED, RULE: as for SD-JWT VC; claims are addressed `[namespace, elementIdentifier]` and
 *   only issuer-signed elements count (device-signed elements are the holder's own word and are ignored).
 *
 * Claims are answered only when every issuer and device check passed: otherwise they are nobody's word.
 */

/**
 * What the presentation must answer. The handover is the request's: `clientId`, `nonce`, `responseUri` (and the
 * thumbprint of the response encryption key) for a request by redirect, or `origin`, `nonce` (and the thumbprint)
 * for one over the Digital Credentials API; a device signature over the other transcript fails KEY_BINDING.
 */
export type MdocPresentationExpectation = MdocHandoverInput & {
  docType: string;
  /** Claims that must be disclosed, with paths `[namespace, elementIdentifier]`; only these are kept. */
  requestedClaims: RequestedClaim[];
  rules?: PresentationRule[];
  /** Seconds since the epoch (default: now). */
  now?: number;
  skewSeconds?: number;
};

export interface MdocVerifierDeps {
  /** PEM certificates an x5chain may end at: the platform CA, the organization's anchors, IACA certificates. */
  trustAnchors: string[];
  /** Path validation (a verifier passes a cached one); defaults to validateCertificationPath. */
  validatePath?: (x5c: unknown, anchors: string[], now?: Date) => Promise<CertificationPath>;
  /**
   * The verifier's trust policy on the issuer the certificate names (`iss`: its first SubjectAltName URI), and
   * whether it may issue this doctype (isMdocDocTypeOf for an organization's own types).
   */
  admitIssuer(
    binding: IssuerBinding,
    credential: { docType: string },
  ): Promise<{ issuer: IssuerAdmission; type: { passed: boolean; detail?: string } }>;
  /** The status list token at `uri`, verified as the issuer's (e.g. verifyStatusListToken). */
  fetchStatusListToken(uri: string, issuer: IssuerBinding): Promise<string>;
}

export interface MdocPresentationResult {
  verified: boolean;
  checks: PresentationCheck[];
  /** The requested claims as disclosed, by name (JSON values: dates as ISO 8601 text). */
  claims: Record<string, unknown>;
  /** The MSO's docType, once the issuer signature verified (null before that). */
  docType: string | null;
  /** The MSO's status list reference, once the issuer signature verified. */
  status: StatusReference | null;
  /** The x5chain as sent, leaf first, base64 DER. */
  certificateChain: string[];
  /** How the issuer's key was established (the validated path), when it was. */
  binding?: IssuerBinding;
  admission?: IssuerAdmission;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
const isBytes = (value: unknown): value is Uint8Array => value instanceof Uint8Array;

async function verifyEs256(jwk: JsonWebKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    return await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      signature as BufferSource,
      data as BufferSource,
    );
  } catch {
    return false;
  }
}

/** A COSE_Sign1 as sent: `[protected bstr, unprotected map, payload bstr / nil, signature bstr]`. */
interface RawSign1 {
  protectedBytes: Uint8Array;
  protectedHeader: Map<unknown, unknown>;
  unprotectedHeader: Map<unknown, unknown>;
  payload: Uint8Array | null;
  signature: Uint8Array;
}

function readSign1(value: unknown, what: string): RawSign1 {
  if (!Array.isArray(value) || value.length !== 4) throw new Error(`${what} is not a COSE_Sign1`);
  const [protectedBytes, unprotectedHeader, payload, signature] = value as unknown[];
  if (!isBytes(protectedBytes) || !(unprotectedHeader instanceof Map) || !isBytes(signature))
    throw new Error(`${what} is not a COSE_Sign1`);
  if (payload !== null && !isBytes(payload)) throw new Error(`${what} has a malformed payload`);
  const protectedHeader = protectedBytes.length === 0 ? new Map() : cborDecode<unknown>(protectedBytes);
  if (!(protectedHeader instanceof Map)) throw new Error(`${what} has a malformed protected header`);
  return { protectedBytes, protectedHeader, unprotectedHeader, payload, signature };
}

/**
 * Verifies one mdoc DeviceResponse (the vp_token value for an `mso_mdoc` query) against what the request asked
 * for; see the codes above. Never throws for anything in the response: a failure is a failed check.
 */
export async function verifyMdocPresentation(
  deviceResponse: string,
  expectation: MdocPresentationExpectation,
  deps: MdocVerifierDeps,
): Promise<MdocPresentationResult> {
  const checks: PresentationCheck[] = [];
  const fail = (code: PresentationCheckCode, detail: string) => checks.push({ code, passed: false, detail });
  const pass = (code: PresentationCheckCode, detail?: string) =>
    checks.push({ code, passed: true, ...(detail ? { detail } : {}) });
  const result = (extra: Partial<MdocPresentationResult> = {}): MdocPresentationResult => ({
    verified: checks.length > 0 && checks.every((c) => c.passed),
    checks,
    claims: {},
    docType: null,
    status: null,
    certificateChain: [],
    ...extra,
  });

  // ---- Shape ------------------------------------------------------------------------------------------------
  let document: Map<string, unknown>;
  let issuerSigned: Map<string, unknown>;
  let deviceSigned: Map<string, unknown>;
  let issuerAuthRaw: RawSign1;
  try {
    const response = cborDecode<unknown>(fromBase64url(deviceResponse));
    if (!(response instanceof Map)) throw new Error('The vp_token is not a DeviceResponse');
    if (response.get('status') !== 0)
      throw new Error(`The DeviceResponse has status ${String(response.get('status'))}`);
    const documents = response.get('documents');
    if (!Array.isArray(documents) || documents.length !== 1)
      throw new Error('The DeviceResponse must hold exactly one document');
    const [first] = documents as unknown[];
    if (!(first instanceof Map)) throw new Error('The document is malformed');
    document = first;
    const is = document.get('issuerSigned');
    const ds = document.get('deviceSigned');
    if (!(is instanceof Map) || !(ds instanceof Map))
      throw new Error('The document lacks issuerSigned or deviceSigned');
    issuerSigned = is;
    deviceSigned = ds;
    issuerAuthRaw = readSign1(issuerSigned.get('issuerAuth'), 'issuerAuth');
  } catch (err) {
    fail('RESPONSE_FORMAT', `The response cannot be read as an mdoc DeviceResponse: ${message(err)}`);
    return result();
  }
  pass('RESPONSE_FORMAT');

  // ---- issuerAuth: ES256 by the x5chain leaf, every disclosed element covered by the MSO ----------------------
  const x5chainValue = issuerAuthRaw.protectedHeader.get(33) ?? issuerAuthRaw.unprotectedHeader.get(33);
  const x5chain = (Array.isArray(x5chainValue) ? x5chainValue : [x5chainValue]).filter(isBytes).map(toBase64);
  let mso: MobileSecurityObject;
  let disclosed: Map<string, Map<string, unknown>>;
  try {
    if (issuerAuthRaw.protectedHeader.get(1) !== -7) throw new Error('issuerAuth is not signed ES256 (alg -7)');
    if (x5chain.length === 0) throw new Error('issuerAuth carries no x5chain');
    if (!issuerAuthRaw.payload) throw new Error('issuerAuth carries no MSO');
    let leafJwk: JsonWebKey;
    try {
      // Not a trust decision (that is TRUSTED_ISSUER): only the key the signature is checked with.
      leafJwk = await x5cLeafJwk([x5chain[0]!]);
    } catch (err) {
      throw new Error(`The x5chain leaf cannot be read: ${message(err)}`);
    }
    const toBeSigned = coseSign1ToBeSigned(issuerAuthRaw.protectedBytes, issuerAuthRaw.payload);
    if (!(await verifyEs256(leafJwk, issuerAuthRaw.signature, toBeSigned)))
      throw new Error('The issuer signature does not verify with the x5chain leaf');
    try {
      mso = IssuerAuth.fromEncodedStructure([
        issuerAuthRaw.protectedBytes,
        issuerAuthRaw.unprotectedHeader,
        issuerAuthRaw.payload,
        issuerAuthRaw.signature,
      ] as never).mobileSecurityObject;
    } catch (err) {
      throw new Error(`The MSO cannot be read: ${message(err)}`);
    }
    if (mso.digestAlgorithm !== 'SHA-256') throw new Error(`Unsupported digest algorithm ${mso.digestAlgorithm}`);
    disclosed = await checkDigests(issuerSigned.get('nameSpaces'), mso);
  } catch (err) {
    fail('ISSUER_SIGNATURE', message(err));
    return result({ certificateChain: x5chain });
  }
  pass('ISSUER_SIGNATURE', 'Signed by the x5chain leaf; every disclosed element is in the MSO');
  const docType = mso.docType;

  // ---- The chain to a trust anchor, and the verifier's policy -----------------------------------------------------
  const now = expectation.now ?? Math.floor(Date.now() / 1000);
  const skew = expectation.skewSeconds ?? 60;
  const nowDate = new Date(now * 1000);
  let binding: IssuerBinding | undefined;
  let admission: Awaited<ReturnType<MdocVerifierDeps['admitIssuer']>> | undefined;
  try {
    const path = await (deps.validatePath ?? validateCertificationPath)(x5chain, deps.trustAnchors, nowDate);
    binding = {
      iss: path.uris[0] ?? '',
      jwk: path.leafJwk,
      source: 'x5c',
      certificate: { subject: path.subject, anchored: true, path },
      identifiers: path.uris,
    };
  } catch (err) {
    const code = err instanceof CertificatePathError ? `${err.code}: ` : '';
    fail('TRUSTED_ISSUER', `The issuer certificate does not lead to a trusted anchor (${code}${message(err)})`);
  }
  if (binding) {
    try {
      admission = await deps.admitIssuer(binding, { docType });
      if (admission.issuer.admitted) pass('TRUSTED_ISSUER', admission.issuer.detail);
      else fail('TRUSTED_ISSUER', admission.issuer.detail);
    } catch (err) {
      fail('TRUSTED_ISSUER', `The trust policy could not be applied: ${message(err)}`);
    }
  }

  // ---- What it is, whether it is valid now ----------------------------------------------------------------------
  const documentDocType = document.get('docType');
  if (docType !== expectation.docType) fail('CREDENTIAL_TYPE', `The doctype ${docType} is not the one asked for`);
  else if (documentDocType !== docType) fail('CREDENTIAL_TYPE', 'The document names another doctype than its MSO');
  else if (admission && !admission.type.passed)
    fail('CREDENTIAL_TYPE', admission.type.detail ?? `The issuer may not issue ${docType}`);
  else if (!admission) fail('CREDENTIAL_TYPE', 'Not established: the issuer is not trusted');
  else pass('CREDENTIAL_TYPE');

  const validity = mso.validityInfo;
  const leaf = describeLeaf(x5chain[0]!);
  const at = (date: Date) => date.getTime() / 1000;
  if (at(validity.validUntil) + skew < now) fail('EXPIRY', 'The credential has expired (validUntil)');
  else if (at(validity.validFrom) - skew > now) fail('EXPIRY', 'The credential is not valid yet (validFrom)');
  else if (at(validity.signed) - skew > now) fail('EXPIRY', 'The credential was signed in the future');
  else if (at(validity.signed) + skew < at(leaf.notBefore) || at(validity.signed) - skew > at(leaf.notAfter))
    fail('EXPIRY', 'The credential was signed outside its certificate’s validity');
  else pass('EXPIRY');

  let status: StatusReference | null = null;
  try {
    status = msoStatus(mso);
  } catch (err) {
    fail('STATUS', message(err));
  }
  if (status && !binding) {
    fail('STATUS', 'Not checked: the issuer is not trusted');
  } else if (status && binding) {
    try {
      const token = await deps.fetchStatusListToken(status.uri, binding);
      const read = statusFromToken(token, status.idx);
      if (read.sub !== status.uri) fail('STATUS', 'The status list token is for another list');
      else if (read.status === STATUS_VALID) pass('STATUS');
      else fail('STATUS', read.status === 1 ? 'The credential has been revoked' : 'The credential is suspended');
    } catch (err) {
      fail('STATUS', `The status list could not be checked: ${message(err)}`);
    }
  } else if (checks.every((c) => c.code !== 'STATUS')) {
    pass('STATUS', 'The credential carries no status list');
  }

  // ---- Device authentication: the holder's key, this request, this verifier ---------------------------------------
  const deviceProblem = await checkDeviceSignature(deviceSigned, mso, documentDocType, expectation);
  if (deviceProblem) fail('KEY_BINDING', deviceProblem);
  else pass('KEY_BINDING', 'Signed by the device key over this request’s session transcript');

  // ---- What was disclosed, and the rules -----------------------------------------------------------------------------
  const claims: Record<string, unknown> = {};
  for (const claim of expectation.requestedClaims) {
    const [namespace, element] = claim.path;
    if (typeof namespace !== 'string' || typeof element !== 'string' || claim.path.length !== 2) continue;
    const items = disclosed.get(namespace);
    if (items?.has(element)) claims[claim.name] = items.get(element);
  }
  const missing = expectation.requestedClaims.filter((claim) => !(claim.name in claims)).map((c) => c.name);
  if (missing.length === 0) pass('CLAIMS_DISCLOSED');
  else fail('CLAIMS_DISCLOSED', `Not disclosed: ${missing.join(', ')}`);
  const believable = checks
    .filter((c) => ['ISSUER_SIGNATURE', 'TRUSTED_ISSUER', 'KEY_BINDING'].includes(c.code))
    .every((c) => c.passed);
  for (const rule of expectation.rules ?? []) {
    if (believable) checks.push(evaluateRule(rule, claims));
    else
      checks.push({
        code: 'RULE',
        passed: false,
        detail: 'Not evaluated: the presentation is not the trusted issuer’s, bound to its holder and this request',
        rule: { attribute: rule.attribute, operator: rule.operator, value: rule.value, presented: null },
      });
  }

  return result({
    claims: believable ? claims : {},
    docType,
    status,
    certificateChain: x5chain,
    ...(binding ? { binding } : {}),
    ...(admission ? { admission: admission.issuer } : {}),
  });
}

/** An IssuerSigned as its holder has checked it (verifyIssuerSigned). */
export interface VerifiedIssuerSigned {
  docType: string;
  /** Every element, by namespace then identifier, as JSON (mdocValueToJson: dates as ISO 8601 text). */
  namespaces: Record<string, Record<string, unknown>>;
  /** x5chain as sent, leaf first, base64 DER: whether it speaks for an issuer is the caller's trust decision. */
  x5chain: string[];
  /** The key the issuerAuth signature verified with: the x5chain leaf's. */
  signerJwk: JsonWebKey;
  deviceJwk: JsonWebKey | null;
  status: StatusReference | null;
  validFrom: Date;
  validUntil: Date;
  signed: Date;
}

/**
 * The holder's side of receiving an mdoc (OpenID4VCI 1.0 Appendix A.2.4): the IssuerSigned's issuerAuth is a
 * COSE_Sign1, ES256, that verifies with its x5chain leaf, and every element it carries has its digest in the MSO
 * (the checks ISSUER_SIGNATURE runs on a presentation, here over all elements). Trust in the chain, the doctype,
 * the validity dates and the device key are the caller's to judge. Throws MdocError MDOC_MALFORMED for what is not
 * an IssuerSigned and MDOC_SIGNATURE_INVALID for what does not verify.
 */
export async function verifyIssuerSigned(issuerSigned: string): Promise<VerifiedIssuerSigned> {
  let raw: Map<string, unknown>;
  let issuerAuth: RawSign1;
  try {
    const decoded = cborDecode<unknown>(fromBase64url(issuerSigned));
    if (!(decoded instanceof Map)) throw new Error('not a map');
    raw = decoded;
    issuerAuth = readSign1(raw.get('issuerAuth'), 'issuerAuth');
  } catch (err) {
    throw new MdocError('MDOC_MALFORMED', `Not an mdoc IssuerSigned: ${message(err)}`);
  }
  const x5chainValue = issuerAuth.protectedHeader.get(33) ?? issuerAuth.unprotectedHeader.get(33);
  const x5chain = (Array.isArray(x5chainValue) ? x5chainValue : [x5chainValue]).filter(isBytes).map(toBase64);
  try {
    if (issuerAuth.protectedHeader.get(1) !== -7) throw new Error('issuerAuth is not signed ES256 (alg -7)');
    if (x5chain.length === 0) throw new Error('issuerAuth carries no x5chain');
    if (!issuerAuth.payload) throw new Error('issuerAuth carries no MSO');
    const signerJwk = await x5cLeafJwk([x5chain[0]!]);
    if (
      !(await verifyEs256(
        signerJwk,
        issuerAuth.signature,
        coseSign1ToBeSigned(issuerAuth.protectedBytes, issuerAuth.payload),
      ))
    )
      throw new Error('The issuer signature does not verify with the x5chain leaf');
    const mso = IssuerAuth.fromEncodedStructure([
      issuerAuth.protectedBytes,
      issuerAuth.unprotectedHeader,
      issuerAuth.payload,
      issuerAuth.signature,
    ] as never).mobileSecurityObject;
    if (mso.digestAlgorithm !== 'SHA-256') throw new Error(`Unsupported digest algorithm ${mso.digestAlgorithm}`);
    const elements = await checkDigests(raw.get('nameSpaces'), mso);
    const namespaces: Record<string, Record<string, unknown>> = {};
    for (const [namespace, values] of elements) namespaces[namespace] = Object.fromEntries(values);
    const deviceKey = mso.deviceKeyInfo?.deviceKey;
    let deviceJwk: JsonWebKey | null = null;
    try {
      deviceJwk = deviceKey instanceof CoseKey ? coseKeyToPublicJwk(deviceKey) : null;
    } catch {
      deviceJwk = null;
    }
    return {
      docType: mso.docType,
      namespaces,
      x5chain,
      signerJwk,
      deviceJwk,
      status: msoStatus(mso),
      validFrom: mso.validityInfo.validFrom,
      validUntil: mso.validityInfo.validUntil,
      signed: mso.validityInfo.signed,
    };
  } catch (err) {
    if (err instanceof MdocError) throw err;
    throw new MdocError('MDOC_SIGNATURE_INVALID', message(err));
  }
}

/**
 * Every disclosed IssuerSignedItem, hashed over the bytes as sent (`#6.24(bstr)`, 18013-5 §9.1.2.5), must be
 * the MSO's digest for its namespace and digestID; an element or a digestID may appear once. Answers the
 * disclosed values by namespace and element.
 */
async function checkDigests(
  namespaces: unknown,
  mso: MobileSecurityObject,
): Promise<Map<string, Map<string, unknown>>> {
  const disclosed = new Map<string, Map<string, unknown>>();
  if (namespaces === undefined) return disclosed;
  if (!(namespaces instanceof Map)) throw new Error('The disclosed nameSpaces are malformed');
  for (const [namespace, items] of namespaces) {
    if (typeof namespace !== 'string' || !Array.isArray(items))
      throw new Error('The disclosed nameSpaces are malformed');
    const digests = mso.valueDigests.valueDigests.get(namespace);
    const values = new Map<string, unknown>();
    const seenIds = new Set<number>();
    for (const item of items as unknown[]) {
      if (!(item instanceof DataItem)) throw new Error(`An element of ${namespace} is not an IssuerSignedItemBytes`);
      const data = item.data;
      const digestId = data instanceof Map ? data.get('digestID') : undefined;
      const element = data instanceof Map ? data.get('elementIdentifier') : undefined;
      if (typeof digestId !== 'number' || typeof element !== 'string' || !(data as Map<string, unknown>).has('random'))
        throw new Error(`An element of ${namespace} is malformed`);
      if (seenIds.has(digestId) || values.has(element)) throw new Error(`${namespace}/${element} is disclosed twice`);
      seenIds.add(digestId);
      const expected = digests?.get(digestId);
      if (!expected) throw new Error(`${namespace}/${element} is not in the MSO (no digest ${digestId})`);
      if (!sameBytes(await sha256(taggedCbor(item.buffer)), expected))
        throw new Error(`${namespace}/${element} does not match its digest in the MSO`);
      values.set(element, mdocValueToJson((data as Map<string, unknown>).get('elementValue')));
    }
    disclosed.set(namespace, values);
  }
  return disclosed;
}

/** The deviceSignature over DeviceAuthentication with this request's session transcript; a problem, or undefined. */
async function checkDeviceSignature(
  deviceSigned: Map<string, unknown>,
  mso: MobileSecurityObject,
  documentDocType: unknown,
  expectation: MdocPresentationExpectation,
): Promise<string | undefined> {
  let deviceJwk: JsonWebKey;
  try {
    const deviceKey = mso.deviceKeyInfo?.deviceKey;
    if (!(deviceKey instanceof CoseKey)) return 'The MSO binds no device key';
    deviceJwk = coseKeyToPublicJwk(deviceKey);
  } catch (err) {
    return `The MSO's device key cannot be used: ${message(err)}`;
  }
  const deviceNamespaces = deviceSigned.get('nameSpaces');
  const deviceAuth = deviceSigned.get('deviceAuth');
  if (!(deviceNamespaces instanceof DataItem) || !(deviceAuth instanceof Map))
    return 'The document has no device authentication';
  if (deviceAuth.has('deviceMac')) return 'Device MAC authentication is not supported over OpenID4VP';
  let sign1: RawSign1;
  try {
    sign1 = readSign1(deviceAuth.get('deviceSignature'), 'deviceSignature');
  } catch (err) {
    return message(err);
  }
  if (sign1.protectedHeader.get(1) !== -7) return 'The device signature is not ES256 (alg -7)';
  if (sign1.payload !== null) return 'The device signature must have a detached payload';
  if (typeof documentDocType !== 'string') return 'The document names no doctype';
  const transcript = await openId4VpSessionTranscript(expectation);
  const payload = deviceAuthenticationBytes(transcript.structure, documentDocType, deviceNamespaces.buffer);
  const ok = await verifyEs256(deviceJwk, sign1.signature, coseSign1ToBeSigned(sign1.protectedBytes, payload));
  if (ok) return undefined;
  return isDcApiHandover(expectation)
    ? `The device signature does not verify with the device key over this request’s DC API session transcript for ${expectation.origin} (another key, or made for another request, origin or invocation)`
    : 'The device signature does not verify with the device key over this request’s session transcript (another key, or made for another request or verifier)';
}
