import {
  CoseKey,
  cborDecode,
  cborEncode,
  DataItem,
  DateOnly,
  DeviceKey,
  DeviceKeyInfo,
  Header,
  IssuerAuth,
  IssuerNamespaces,
  IssuerSigned,
  IssuerSignedItem,
  KeyType,
  MobileSecurityObject,
  ProtectedHeaders,
  SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
  ValidityInfo,
  ValueDigests,
} from '@owf/mdoc';
import type { AttributeDefinition, AttributeType, ClaimValue } from './claims.ts';
import { base64url, fromBase64url, randomBytes, sha256 } from './encoding.ts';
import { publicJwk } from './jws.ts';
import type { StatusReference } from './sd-jwt-vc.ts';

/**
 * ISO/IEC 18013-5 mdoc (`mso_mdoc`, OpenID4VCI 1.0 Appendix A.2, OpenID4VP 1.0 Appendix B.2), on @owf/mdoc's
 * data model and CBOR, with the bytes that are hashed or signed built here, in one place, for both sides.
 *
 * Names: every credential schema can be issued as an mdoc. Its doctype is derived from the schema's SD-JWT VC
 * `vct` (so the shared platform types stay shared and an organization's own types stay its own): the host of
 * the `vct` URL, labels reversed, then its path segments, joined with dots. The document has one namespace,
 * equal to the doctype; the data element identifiers are the schema's attribute names.
 *   `https://platform.example/orgs/3f…/vct/diploma` → doctype and namespace `example.platform.orgs.3f….vct.diploma`
 *   `https://platform.example/vct/kyc` → `example.platform.vct.kyc`
 *
 * Issuance (issueMdoc): an IssuerSigned signed ES256 by the organization's key with its certificate chain
 * in `x5chain` (leaf first, up to but without the platform CA, which acts as the IACA), the holder's key as
 * `deviceKeyInfo.deviceKey`, `validityInfo`, and the Token Status List reference as the MSO's `status`
 * (`{"status_list": {"idx", "uri"}}`, draft-ietf-oauth-status-list §6.3 / ISO 18013-5 2nd ed.).
 *
 * Presentation (presentMdoc): a DeviceResponse disclosing only the asked elements, signed by the device key
 * over the OpenID4VP 1.0 session transcript. Verification: mdoc-verify.ts.
 */

/**
 * A signing key for COSE: signs the bytes of a Sig_structure (RFC 9052 §4.4). Unlike a JwsSigner, which signs
 * a JWS signing input (text), COSE signs arbitrary bytes. ES256 signatures are r||s (RFC 9053 §2.1).
 */
export interface CoseSigner {
  alg: 'ES256';
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** A COSE signer over a private P-256 JWK with WebCrypto (tests, the wallet's software key). */
export async function coseSignerFromPrivateJwk(jwk: JsonWebKey): Promise<CoseSigner> {
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  return {
    alg: 'ES256',
    async sign(data) {
      return new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data as BufferSource));
    },
  };
}

export type MdocErrorCode = 'MDOC_INPUT_INVALID' | 'MDOC_MALFORMED' | 'MDOC_ELEMENT_MISSING' | 'MDOC_SIGNATURE_INVALID';

export class MdocError extends Error {
  constructor(
    readonly code: MdocErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MdocError';
  }
}

export interface MdocNames {
  docType: string;
  /** The one namespace of the document (equal to the doctype). */
  namespace: string;
}

/**
 * The mdoc doctype and namespace of a credential schema, derived from its SD-JWT VC `vct`: the `vct` host's
 * labels reversed (port dropped), then the path segments, joined with dots; the namespace is the doctype.
 * Element identifiers are the schema's attribute names. `https://platform.example/orgs/42/vct/diploma` →
 * `example.platform.orgs.42.vct.diploma`.
 */
export function mdocNames(schema: { vct: string }): MdocNames {
  let url: URL;
  try {
    url = new URL(schema.vct);
  } catch {
    throw new MdocError('MDOC_INPUT_INVALID', `The vct ${schema.vct} is not a URL`);
  }
  const host = url.hostname.toLowerCase().split('.').filter(Boolean).reverse();
  let path: string[];
  try {
    path = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new MdocError('MDOC_INPUT_INVALID', `The vct ${schema.vct} has a malformed path`);
  }
  const docType = [...host, ...path].join('.');
  return { docType, namespace: docType };
}

/**
 * Whether a doctype belongs to an issuer (its own types are under its issuer URL, as their `vct`): the
 * doctype of `<issuerUrl>/…`. A verifier admits an organization's certificate for its own types only.
 */
export function isMdocDocTypeOf(docType: string, issuerUrl: string): boolean {
  return docType.startsWith(`${mdocNames({ vct: issuerUrl.replace(/\/+$/, '') }).docType}.`);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A typed claim (typeClaimValue) as a CBOR data element value (ISO 18013-5 §7.2.1): a calendar date as
 * `full-date` (tag 1004, RFC 8943), a date-time as `tdate` (tag 0, UTC, no fraction of seconds), a number as
 * an integer or a float, a boolean as a boolean, TEXT, EMAIL and URL as text.
 */
export function mdocElementValue(type: AttributeType, value: ClaimValue): unknown {
  if (type === 'DATETIME') {
    const text = String(value);
    if (DATE_ONLY.test(text)) return new DateOnly(text);
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) throw new MdocError('MDOC_INPUT_INVALID', `${text} is not a date`);
    return date;
  }
  if (type === 'NUMBER') {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new MdocError('MDOC_INPUT_INVALID', 'Not a number');
    return value;
  }
  if (type === 'BOOLEAN') {
    if (typeof value !== 'boolean') throw new MdocError('MDOC_INPUT_INVALID', 'Not a boolean');
    return value;
  }
  return String(value);
}

/** A data element value as JSON (the verifier's claims): dates as ISO 8601 text, bytes as base64url. */
export function mdocValueToJson(value: unknown): unknown {
  if (value instanceof DateOnly) return value.toISOString();
  if (value instanceof Date) return `${value.toISOString().split('.')[0]}Z`;
  if (value instanceof Uint8Array) return base64url(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), mdocValueToJson(v)]));
  if (Array.isArray(value)) return value.map(mdocValueToJson);
  return value;
}

// ---- Issuance ----------------------------------------------------------------------------------------------

export interface IssueMdocInput {
  /** The organization's key (its certificate is x5chain[0]). */
  signer: CoseSigner;
  /** The issuer's certificate chain, leaf first, base64 DER (as `x5c`), without the trust anchor. */
  x5chain: string[];
  docType: string;
  namespace: string;
  /** The schema's attributes: their types decide the CBOR values. */
  attributes: readonly AttributeDefinition[];
  /** Typed claims (buildClaims), by attribute name. */
  claims: Record<string, ClaimValue>;
  /** The holder's key from the key proof: the MSO's deviceKey. */
  holderJwk: JsonWebKey;
  status?: StatusReference;
  signedAt?: Date;
  /** Default: signedAt. */
  validFrom?: Date;
  validUntil: Date;
}

/** `#6.24(bstr .cbor item)`: the bytes that a digest or signature covers for an embedded item. */
export const taggedCbor = (encoded: Uint8Array) => cborEncode(DataItem.fromBuffer(encoded));

/**
 * Issues an mdoc: the IssuerSigned (nameSpaces and issuerAuth) as base64url CBOR, the `credential` of an
 * OpenID4VCI 1.0 credential response for `mso_mdoc` (Appendix A.2.4). Each element gets a random 32-byte salt
 * and a random, unique digestID (18013-5 §9.1.2.5: digest IDs must not reveal the element), digests SHA-256.
 */
export async function issueMdoc(input: IssueMdocInput): Promise<string> {
  if (input.x5chain.length === 0) throw new MdocError('MDOC_INPUT_INVALID', 'x5chain needs the signing certificate');
  const signed = input.signedAt ?? new Date();
  const validFrom = input.validFrom ?? signed;
  if (!(input.validUntil > validFrom) || validFrom < new Date(signed.getTime() - 1000)) {
    throw new MdocError('MDOC_INPUT_INVALID', 'The validity must run from signed or later to a later validUntil');
  }
  const types = new Map(input.attributes.map((a) => [a.name, a.type]));
  const digestIds = new Set<number>();
  const items: IssuerSignedItem[] = [];
  for (const [name, value] of Object.entries(input.claims)) {
    const type = types.get(name);
    if (!type) throw new MdocError('MDOC_INPUT_INVALID', `${name} is not an attribute of the schema`);
    let digestId: number;
    do digestId = new DataView(randomBytes(4).buffer).getUint32(0) >>> 1;
    while (digestIds.has(digestId));
    digestIds.add(digestId);
    items.push(
      IssuerSignedItem.fromOptions({
        digestId,
        random: randomBytes(32),
        elementIdentifier: name,
        elementValue: mdocElementValue(type, value),
      }),
    );
  }
  const digests = new Map<number, Uint8Array>();
  for (const item of items) digests.set(item.digestId, await sha256(item.encode({ asDataItem: true })));

  // HAIP 1.0: P-256 device keys (the verifier checks ES256 device signatures only).
  if (input.holderJwk.kty !== 'EC' || input.holderJwk.crv !== 'P-256')
    throw new MdocError('MDOC_INPUT_INVALID', 'The holder key must be a P-256 EC key');
  const holder = publicJwk(input.holderJwk);
  const mso = MobileSecurityObject.create({
    docType: input.docType,
    digestAlgorithm: 'SHA-256',
    valueDigests: ValueDigests.create({ digests: new Map([[input.namespace, digests]]) }),
    deviceKeyInfo: DeviceKeyInfo.create({ deviceKey: DeviceKey.fromJwk(holder as Record<string, unknown>) }),
    validityInfo: ValidityInfo.create({ signed, validFrom, validUntil: input.validUntil }),
  });
  if (input.status) {
    // @owf/mdoc's MSO has no `status` member yet; its typed map keeps additional keys when encoding.
    (mso.decodedStructure as unknown as { set(key: string, value: unknown): void }).set(
      'status',
      new Map([
        [
          'status_list',
          new Map<string, unknown>([
            ['idx', input.status.idx],
            ['uri', input.status.uri],
          ]),
        ],
      ]),
    );
  }
  const x5chain = input.x5chain.map((b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  const issuerAuth = await IssuerAuth.create(
    {
      payload: mso,
      protectedHeaders: ProtectedHeaders.create({ protectedHeaders: new Map([[Header.Algorithm, -7]]) }),
      // 18013-5 §9.1.2.4: x5chain in the unprotected header; one certificate as a bstr, more as an array.
      unprotectedHeaders: UnprotectedHeaders.create({
        unprotectedHeaders: new Map([[Header.X5Chain, x5chain.length === 1 ? x5chain[0] : x5chain]]),
      }),
      // The key is the signer's; @owf/mdoc only hands it to the sign callback below.
      signingKey: CoseKey.create({ keyType: KeyType.Ec }),
      algorithm: SignatureAlgorithm.ES256,
    },
    { cose: coseContext((toBeSigned) => input.signer.sign(toBeSigned)) },
  );
  const issuerSigned = IssuerSigned.create({
    issuerNamespaces: IssuerNamespaces.create({ issuerNamespaces: new Map([[input.namespace, items]]) }),
    issuerAuth,
  });
  return issuerSigned.encodedForOid4Vci;
}

/** @owf/mdoc's COSE callbacks, signing only (verification is ours, in mdoc-verify.ts). */
function coseContext(sign: (toBeSigned: Uint8Array) => Promise<Uint8Array>) {
  const refuse = () => {
    throw new Error('Not used');
  };
  return {
    sign1: { sign: ({ toBeSigned }: { toBeSigned: Uint8Array }) => sign(toBeSigned), verify: refuse },
    mac0: { sign: refuse, verify: refuse },
  };
}

// ---- Reading an IssuerSigned (holder) ------------------------------------------------------------------------

export interface DecodedMdoc {
  docType: string;
  /** Every element, by namespace then identifier, as JSON (mdocValueToJson). */
  namespaces: Record<string, Record<string, unknown>>;
  validFrom: Date;
  validUntil: Date;
  signed: Date;
  deviceJwk: JsonWebKey | null;
  status: StatusReference | null;
  /** x5chain, leaf first, base64 DER. */
  x5chain: string[];
}

/** Decodes an IssuerSigned (base64url) without verifying it: what the wallet shows and matches queries with. */
export function decodeMdoc(issuerSigned: string): DecodedMdoc {
  let decoded: IssuerSigned;
  try {
    decoded = IssuerSigned.fromEncodedForOid4Vci(issuerSigned);
  } catch (err) {
    throw new MdocError('MDOC_MALFORMED', `Not an mdoc IssuerSigned: ${err instanceof Error ? err.message : err}`);
  }
  const mso = decoded.issuerAuth.mobileSecurityObject;
  const namespaces: Record<string, Record<string, unknown>> = {};
  for (const [namespace, items] of decoded.issuerNamespaces.issuerNamespaces) {
    namespaces[namespace] = Object.fromEntries(
      items.map((i) => [i.elementIdentifier, mdocValueToJson(i.elementValue)]),
    );
  }
  let deviceJwk: JsonWebKey | null = null;
  try {
    deviceJwk = coseKeyToPublicJwk(mso.deviceKeyInfo.deviceKey);
  } catch {
    deviceJwk = null;
  }
  return {
    docType: mso.docType,
    namespaces,
    validFrom: mso.validityInfo.validFrom,
    validUntil: mso.validityInfo.validUntil,
    signed: mso.validityInfo.signed,
    deviceJwk,
    status: msoStatus(mso),
    x5chain: (decoded.issuerAuth.x5chain ?? []).map(toBase64),
  };
}

export const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

/** A P-256 EC2 COSE key as a public JWK; throws for any other key. */
export function coseKeyToPublicJwk(key: CoseKey): JsonWebKey {
  if (key.keyType !== KeyType.Ec || key.curve !== 1 || !key.x || !key.y || key.x.length !== 32 || key.y.length !== 32)
    throw new Error('The device key is not a P-256 EC2 key');
  return { kty: 'EC', crv: 'P-256', x: base64url(key.x), y: base64url(key.y) };
}

const field = (value: unknown, name: string): unknown =>
  value instanceof Map
    ? value.get(name)
    : value && typeof value === 'object'
      ? (value as Record<string, unknown>)[name]
      : undefined;

/**
 * The MSO's Token Status List reference, `status.status_list` = {idx, uri}; null when it has none. Throws when
 * a status is present but malformed (a verifier must not read that as "no status").
 */
export function msoStatus(mso: MobileSecurityObject): StatusReference | null {
  // Not a member of @owf/mdoc's MSO model: read from its typed map, which keeps additional keys.
  const status = (mso.decodedStructure as unknown as { get(key: string): unknown }).get('status');
  if (status === undefined) return null;
  const list = field(status, 'status_list');
  const idx = field(list, 'idx');
  const uri = field(list, 'uri');
  if (typeof idx !== 'number' || !Number.isInteger(idx) || idx < 0 || typeof uri !== 'string') {
    throw new MdocError('MDOC_MALFORMED', 'The status reference is malformed');
  }
  return { idx, uri };
}

// ---- Presentation (holder) -----------------------------------------------------------------------------------

/** The session transcript inputs of an OpenID4VP 1.0 request invoked by redirect (Appendix B.2.6.1). */
export interface OpenId4VpHandoverInput {
  /** The verifier's client_id, with its prefix, as in the request. */
  clientId: string;
  nonce: string;
  /** The response_uri of the request (direct_post). */
  responseUri: string;
  /**
   * The JWK SHA-256 thumbprint (RFC 7638) of the verifier's key the response is encrypted to, as bytes or
   * base64url; absent for an unencrypted response.
   */
  jwkThumbprint?: Uint8Array | string;
  origin?: never;
}

/**
 * The session transcript inputs of an OpenID4VP 1.0 request over the Digital Credentials API (Appendix
 * B.2.6.2): no client_id and no response_uri, the origin instead.
 */
export interface OpenId4VpDcApiHandoverInput {
  /** The origin of the calling page as the browser asserts it (A.2), without the `origin:` prefix. */
  origin: string;
  nonce: string;
  /**
   * For `dc_api.jwt`, the JWK SHA-256 thumbprint (RFC 7638) of the verifier's key the response is encrypted
   * to, as bytes or base64url; absent (CBOR null) for `dc_api`.
   */
  jwkThumbprint?: Uint8Array | string;
  clientId?: never;
  responseUri?: never;
}

/** What an mdoc's device signature is bound to: a redirect request, or a request over the DC API. */
export type MdocHandoverInput = OpenId4VpHandoverInput | OpenId4VpDcApiHandoverInput;

export const isDcApiHandover = (input: MdocHandoverInput): input is OpenId4VpDcApiHandoverInput =>
  input.origin !== undefined;

const thumbprintBytes = (jwkThumbprint: Uint8Array | string | undefined) =>
  jwkThumbprint === undefined ? null : typeof jwkThumbprint === 'string' ? fromBase64url(jwkThumbprint) : jwkThumbprint;

/**
 * The SessionTranscript of an OpenID4VP 1.0 presentation. Over redirects (Appendix B.2.6.1): `[null, null,
 * ["OpenID4VPHandover", SHA-256(cbor([clientId, nonce, jwkThumbprint / null, responseUri]))]]`. Over the
 * Digital Credentials API (B.2.6.2): `[null, null, ["OpenID4VPDCAPIHandover", SHA-256(cbor([origin, nonce,
 * jwkThumbprint / null]))]]`, built by @owf/mdoc (SessionTranscript.forOid4VpDcApi; the test checks it against
 * the specification's example bytes). Answers the structure (to embed) and its bytes.
 */
export async function openId4VpSessionTranscript(
  input: MdocHandoverInput,
): Promise<{ structure: unknown[]; bytes: Uint8Array }> {
  const thumbprint = thumbprintBytes(input.jwkThumbprint);
  if (isDcApiHandover(input)) {
    // Both shapes at once would be a caller's mix-up: refuse it rather than pick one.
    if (input.clientId !== undefined || input.responseUri !== undefined) {
      throw new MdocError('MDOC_INPUT_INVALID', 'A DC API handover has an origin, not a client_id or response_uri');
    }
    const transcript = await SessionTranscript.forOid4VpDcApi(
      { origin: input.origin, nonce: input.nonce, ...(thumbprint ? { jwkThumbprint: thumbprint } : {}) },
      { crypto: { digest: async ({ bytes }: { bytes: Uint8Array }) => sha256(bytes) } as never },
    );
    return { structure: transcript.encodedStructure as unknown[], bytes: transcript.encode() };
  }
  const handoverInfo = cborEncode([input.clientId, input.nonce, thumbprint, input.responseUri]);
  const structure = [null, null, ['OpenID4VPHandover', await sha256(handoverInfo)]];
  return { structure, bytes: cborEncode(structure) };
}

/**
 * DeviceAuthenticationBytes (18013-5 §9.1.3.4): `#6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript,
 * DocType, DeviceNameSpacesBytes])`, with the device namespaces' bytes exactly as sent.
 */
export function deviceAuthenticationBytes(
  sessionTranscript: unknown[],
  docType: string,
  deviceNamespacesBytes: Uint8Array,
): Uint8Array {
  return taggedCbor(
    cborEncode(['DeviceAuthentication', sessionTranscript, docType, DataItem.fromBuffer(deviceNamespacesBytes)]),
  );
}

/** Sig_structure for a COSE_Sign1 (RFC 9052 §4.4), no external AAD. */
export const coseSign1ToBeSigned = (protectedHeader: Uint8Array, payload: Uint8Array) =>
  cborEncode(['Signature1', protectedHeader, new Uint8Array(), payload]);

export type PresentMdocInput = MdocHandoverInput & {
  /** The IssuerSigned as issued (base64url). */
  issuerSigned: string;
  /** The elements to disclose, `[namespace, elementIdentifier]` (DCQL claims paths for mso_mdoc). */
  disclose: [string, string][];
  /** The device key (the MSO's deviceKey). */
  signer: CoseSigner;
};

/**
 * Holder side: a DeviceResponse (base64url CBOR, the vp_token entry for an `mso_mdoc` query, OpenID4VP 1.0
 * Appendix B.2.4) disclosing only the asked elements, with a deviceSignature over DeviceAuthentication with
 * this request's session transcript (redirect or DC API: openId4VpSessionTranscript). The disclosed items keep
 * the issuer's exact bytes (their digests are over them). Throws MDOC_ELEMENT_MISSING when an asked element is not in the mdoc.
 */
export async function presentMdoc(input: PresentMdocInput): Promise<string> {
  let raw: Map<string, unknown>;
  try {
    raw = cborDecode<Map<string, unknown>>(fromBase64url(input.issuerSigned));
    if (!(raw instanceof Map)) throw new Error('not a map');
  } catch (err) {
    throw new MdocError('MDOC_MALFORMED', `Not an mdoc IssuerSigned: ${err instanceof Error ? err.message : err}`);
  }
  // Only the doctype is read from the MSO: the verifier, not the holder, judges the rest of it.
  const issuerAuth = raw.get('issuerAuth');
  let docType: unknown;
  try {
    docType = field(cborDecode<unknown>((issuerAuth as unknown[])[2] as Uint8Array), 'docType');
  } catch {
    docType = undefined;
  }
  if (typeof docType !== 'string') throw new MdocError('MDOC_MALFORMED', 'The mdoc has no readable MSO docType');
  const namespaces = raw.get('nameSpaces');
  if (!(namespaces instanceof Map)) throw new MdocError('MDOC_MALFORMED', 'The mdoc has no nameSpaces');
  const disclosed = new Map<string, DataItem[]>();
  for (const [namespace, element] of input.disclose) {
    const items = namespaces.get(namespace);
    const item = Array.isArray(items)
      ? (items as unknown[]).find(
          (i): i is DataItem => i instanceof DataItem && field(i.data, 'elementIdentifier') === element,
        )
      : undefined;
    if (!item) throw new MdocError('MDOC_ELEMENT_MISSING', `The mdoc has no ${namespace}/${element}`);
    const list = disclosed.get(namespace) ?? [];
    if (!list.includes(item)) list.push(item);
    disclosed.set(namespace, list);
  }
  const transcript = await openId4VpSessionTranscript(input);
  const deviceNamespacesBytes = cborEncode(new Map());
  const protectedHeader = cborEncode(new Map([[Header.Algorithm, -7]]));
  const signature = await input.signer.sign(
    coseSign1ToBeSigned(
      protectedHeader,
      deviceAuthenticationBytes(transcript.structure, docType, deviceNamespacesBytes),
    ),
  );
  const document = new Map<string, unknown>([
    ['docType', docType],
    [
      'issuerSigned',
      new Map<string, unknown>([
        ['nameSpaces', disclosed],
        ['issuerAuth', issuerAuth],
      ]),
    ],
    [
      'deviceSigned',
      new Map<string, unknown>([
        ['nameSpaces', DataItem.fromBuffer(deviceNamespacesBytes)],
        // Detached payload (18013-5 §9.1.3.6): the verifier rebuilds DeviceAuthenticationBytes.
        ['deviceAuth', new Map([['deviceSignature', [protectedHeader, new Map(), null, signature]]])],
      ]),
    ],
  ]);
  const response = new Map<string, unknown>([
    ['version', '1.0'],
    ['documents', [document]],
    ['status', 0],
  ]);
  return base64url(cborEncode(response));
}
