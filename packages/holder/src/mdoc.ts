import type { DcqlClaimsQuery } from '@cp/credentials';
import {
  type CoseSigner,
  decodeMdoc,
  MdocError,
  type MdocHandoverInput,
  type OpenId4VpDcApiHandoverInput,
  type OpenId4VpHandoverInput,
  presentMdoc,
} from '@cp/credentials/mdoc';
import { calculateJwkThumbprint } from 'jose';
import type { HolderContext, HolderKey } from './callbacks.ts';
import {
  createDcApiResponse,
  type DcApiPresentationRequest,
  type DcApiResponseMode,
  resolveDcApiRequest,
} from './dc-api.ts';
import { answersRequest } from './dcql.ts';
import { errorMessage, HolderError } from './errors.ts';
import {
  type Issuance,
  type RequestCredentialOptions,
  requestIssuedCredentials,
  resolveCredentialOffer,
} from './issuance.ts';
import type { PresentationRequest } from './request.ts';
import { postAuthorizationResponse, type SendOptions } from './response.ts';

/**
 * ISO mdoc (`mso_mdoc`) as a holder reads and presents it: the IssuerSigned an issuer returned (OpenID4VCI 1.0
 * Appendix A.2.4, base64url CBOR) and the DeviceResponse for an OpenID4VP 1.0 `mso_mdoc` query (Appendix B.2),
 * built by @cp/credentials (presentMdoc). Decoding only: whether the issuer's chain is trusted is the
 * verifier's decision. Imported as `@cp/holder/mdoc` (not from the index), so that @owf/mdoc loads only
 * where mdocs are received or presented.
 */

/** An mdoc as far as DCQL matching and the wallet's screens need it. */
export interface ParsedMdoc {
  format: 'mso_mdoc';
  docType: string;
  /** Every element the mdoc could disclose, by namespace then identifier (dates as ISO 8601 text). */
  namespaces: Record<string, Record<string, unknown>>;
  deviceJwk: JsonWebKey | null;
  status?: { uri: string; idx: number };
  validFrom: Date;
  validUntil: Date;
}

export function parseMdoc(issuerSigned: string): ParsedMdoc {
  try {
    const decoded = decodeMdoc(issuerSigned);
    return {
      format: 'mso_mdoc',
      docType: decoded.docType,
      namespaces: decoded.namespaces,
      deviceJwk: decoded.deviceJwk,
      ...(decoded.status ? { status: decoded.status } : {}),
      validFrom: decoded.validFrom,
      validUntil: decoded.validUntil,
    };
  } catch (err) {
    throw new HolderError('CREDENTIAL_INVALID', `The credential is not an mdoc: ${errorMessage(err)}`);
  }
}

/** The handover is mdocHandover's (a request by redirect) or dcApiMdocHandover's (over the DC API). */
export type MdocDeviceResponseInput = MdocHandoverInput & {
  /** The IssuerSigned as issued (base64url). */
  issuerSigned: string;
  /** The requested elements: DCQL claims paths `[namespace, elementIdentifier]` (OpenID4VP 1.0 §7.2). */
  paths: DcqlClaimsQuery['path'][];
  /** The device key: the holder key the mdoc was issued to (its MSO deviceKey). */
  signer: CoseSigner;
};

/**
 * The DeviceResponse (base64url CBOR, the `vp_token` entry for an `mso_mdoc` credential query) disclosing only
 * the requested elements, device-signed over the OpenID4VP 1.0 session transcript of this request (client_id,
 * nonce, response_uri, and the thumbprint of the key the response is encrypted to, if it is; over the DC API,
 * origin, nonce and that thumbprint).
 */
export async function buildMdocDeviceResponse(input: MdocDeviceResponseInput): Promise<string> {
  const disclose: [string, string][] = [];
  for (const path of input.paths) {
    const [namespace, element] = path;
    if (path.length !== 2 || typeof namespace !== 'string' || typeof element !== 'string') {
      throw new HolderError(
        'REQUEST_INVALID',
        `An mdoc claim path is [namespace, element], not ${JSON.stringify(path)}`,
      );
    }
    disclose.push([namespace, element]);
  }
  try {
    return await presentMdoc({ ...input, disclose });
  } catch (err) {
    if (err instanceof MdocError && err.code === 'MDOC_ELEMENT_MISSING')
      throw new HolderError('NO_MATCHING_CREDENTIAL', err.message);
    throw new HolderError('CREDENTIAL_INVALID', `The mdoc cannot be presented: ${errorMessage(err)}`);
  }
}

const sameKey = (a: JsonWebKey | null, b: JsonWebKey) =>
  !!a && a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y;

export interface ReceivedMdoc {
  /** The IssuerSigned as issued (base64url CBOR). */
  credential: string;
  parsed: ParsedMdoc;
}

/** One mdoc received, with the holder key its MSO binds (deviceKey). */
export interface ReceivedMdocInstance extends ReceivedMdoc {
  key: HolderKey;
}

/**
 * Redeems a resolved `mso_mdoc` offer configuration (resolveCredentialOffer with `format: 'mso_mdoc'`) with every
 * option of requestIssuedCredentials (a transaction code, DPoP, a wallet attestation, the authorization code
 * flow, a batch) for mdocs whose MSO deviceKey is a holder key (OpenID4VCI 1.0 Appendix A.2.4): each bound to
 * one of the keys proven, no two to the same (a batch is unlinkable only on keys of its own), `key`'s first.
 */
export async function requestMdocCredentials(
  issuance: Issuance,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<ReceivedMdocInstance[]> {
  if (issuance.configuration.format !== 'mso_mdoc') {
    throw new HolderError('OFFER_UNSUPPORTED', 'Not an mso_mdoc credential configuration');
  }
  const { credentials, keys } = await requestIssuedCredentials(issuance, options, context);
  const byKey = new Map<HolderKey, ReceivedMdocInstance>();
  for (const credential of credentials) {
    const parsed = parseMdoc(credential);
    const key = keys.find((candidate) => sameKey(parsed.deviceJwk, candidate.publicJwk));
    if (!key) throw new HolderError('CREDENTIAL_INVALID', 'The mdoc is not bound to a holder key (deviceKey)');
    if (byKey.has(key)) throw new HolderError('CREDENTIAL_INVALID', 'Two mdocs are bound to the same key');
    byKey.set(key, { credential, parsed, key });
  }
  const instances = keys.flatMap((key) => byKey.get(key) ?? []);
  if (instances[0]?.key !== options.key) {
    throw new HolderError('CREDENTIAL_INVALID', 'The mdoc is not bound to the holder key (deviceKey)');
  }
  return instances;
}

/** requestMdocCredentials for one mdoc, bound to `key`: no batch. */
export async function requestMdocCredential(
  issuance: Issuance,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<ReceivedMdoc> {
  const [first] = await requestMdocCredentials(issuance, { ...options, batchSize: 1 }, context);
  return { credential: first!.credential, parsed: first!.parsed };
}

/** resolveCredentialOffer (as mdoc) then requestMdocCredential: a holder that takes the mdoc offered (tests). */
export async function receiveMdocCredential(
  offerLink: string,
  options: RequestCredentialOptions,
  context: HolderContext = {},
): Promise<ReceivedMdoc> {
  return requestMdocCredential(
    await resolveCredentialOffer(offerLink, context, { format: 'mso_mdoc' }),
    options,
    context,
  );
}

/**
 * The session transcript inputs of a request (OpenID4VP 1.0 Appendix B.2.6.1): its client_id, nonce and
 * response_uri, and for an encrypted response (`direct_post.jwt`) the JWK SHA-256 thumbprint of the key it is
 * encrypted to.
 */
export async function mdocHandover(
  request: PresentationRequest,
  options: Pick<SendOptions, 'responseMode'> = {},
): Promise<OpenId4VpHandoverInput> {
  const encrypted = (options.responseMode ?? request.responseMode) === 'direct_post.jwt' && request.encryption;
  return {
    clientId: request.clientId,
    nonce: request.nonce,
    responseUri: request.responseUri,
    ...(encrypted ? { jwkThumbprint: await calculateJwkThumbprint(request.encryption!.jwk, 'sha256') } : {}),
  };
}

/**
 * Answers an `mso_mdoc` credential query: a DeviceResponse for this request (`vp_token` `{<query id>:
 * [deviceResponse]}`, OpenID4VP 1.0 §8.1, Appendix B.2.4) posted as the request asks (encrypted for
 * `direct_post.jwt`). Answers the verifier's HTTP response as it is.
 */
export async function postMdocPresentation(
  request: PresentationRequest,
  selection: { queryId: string; issuerSigned: string; paths: DcqlClaimsQuery['path'][]; signer: CoseSigner },
  options: SendOptions = {},
  context: HolderContext = {},
): Promise<Response> {
  const deviceResponse = await buildMdocDeviceResponse({
    ...(await mdocHandover(request, options)),
    issuerSigned: selection.issuerSigned,
    paths: selection.paths,
    signer: selection.signer,
  });
  return postAuthorizationResponse(request, { vp_token: { [selection.queryId]: [deviceResponse] } }, options, context);
}

/**
 * The session transcript inputs of a request over the Digital Credentials API (OpenID4VP 1.0 Appendix B.2.6.2):
 * the origin the browser reported (without `origin:`), the nonce, and for `dc_api.jwt` the JWK SHA-256
 * thumbprint of the key the response is encrypted to (null in the transcript for `dc_api`).
 */
export async function dcApiMdocHandover(
  request: DcApiPresentationRequest,
  options: { responseMode?: DcApiResponseMode } = {},
): Promise<OpenId4VpDcApiHandoverInput> {
  const encrypted = (options.responseMode ?? request.responseMode) === 'dc_api.jwt' && request.encryption;
  return {
    origin: request.origin,
    nonce: request.nonce,
    ...(encrypted ? { jwkThumbprint: await calculateJwkThumbprint(request.encryption!.jwk, 'sha256') } : {}),
  };
}

export interface DcApiMdocSelection {
  queryId: string;
  /** The IssuerSigned as issued (base64url). */
  issuerSigned: string;
  /** The claims paths to disclose, `[namespace, element]` (DcqlMatch.paths). */
  paths: DcqlClaimsQuery['path'][];
  /** The device key (the MSO's deviceKey). */
  signer: CoseSigner;
}

/**
 * Answers the `data` of an `openid4vp-v1-signed` request made from `origin` with an mdoc, as a wallet behind
 * the browser would: the request checked (resolveDcApiRequest: signature, client id, `expected_origins`), the
 * query asked for an `mso_mdoc`, a DeviceResponse device-signed over the DC API session transcript
 * (dcApiMdocHandover), encrypted to the verifier's key for `dc_api.jwt`: the `data` the browser hands back.
 */
export async function answerDcApiMdocRequest(
  data: unknown,
  origin: string,
  selection: DcApiMdocSelection,
  options: { responseMode?: DcApiResponseMode } = {},
  context: HolderContext = {},
): Promise<Record<string, unknown>> {
  const request = await resolveDcApiRequest(data, origin, context);
  const query = request.dcql.credentials.find((c) => c.id === selection.queryId);
  if (query?.format !== 'mso_mdoc' || !answersRequest(request.dcql, [selection.queryId])) {
    throw new HolderError('NO_MATCHING_CREDENTIAL', 'The chosen mdoc does not answer the request');
  }
  const deviceResponse = await buildMdocDeviceResponse({
    ...(await dcApiMdocHandover(request, options)),
    issuerSigned: selection.issuerSigned,
    paths: selection.paths,
    signer: selection.signer,
  });
  return createDcApiResponse(request, { vp_token: { [selection.queryId]: [deviceResponse] } }, options, context);
}
