import { generateEs256KeyPair, signerFromPrivateJwk } from '@cp/credentials';
import { type CoseSigner, coseSignerFromPrivateJwk } from '@cp/credentials/mdoc';
import {
  createHolderKey,
  type HolderKey,
  postAuthorizationResponse,
  presentCredential as presentWithKeyBinding,
  receiveCredential,
  resolvePresentationRequest,
} from '@cp/holder';
import { buildMdocDeviceResponse, mdocHandover, postMdocPresentation, receiveMdocCredential } from '@cp/holder/mdoc';
import { setGlobalConfig } from '@openid4vc/oauth2';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import { expect } from 'vitest';

// The product under test speaks plain http on loopback; the protocol libraries refuse that unless told.
setGlobalConfig({ allowInsecureUrls: true });

/** The app under test as far as the wallet needs it (a TestApp of harness.ts). */
interface TestApp {
  app: FastifyInstance;
}

/**
 * The API tests' holder: @cp/holder (the wallet's own protocol library) over the app in process or real
 * HTTP, with the knobs a malicious holder needs (another nonce or audience, a tampered presentation, a
 * plain response to an encrypted request, another state).
 */

export type Holder = HolderKey;

export interface WalletResponse {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: protocol documents are read field by field in tests.
  json: () => any;
}

export type WalletHttp = (
  url: string,
  init?: {
    method?: 'GET' | 'POST';
    form?: Record<string, string>;
    json?: unknown;
    token?: string;
    /** More request headers (`DPoP`, an `Authorization: DPoP …`). */
    headers?: Record<string, string>;
  },
) => Promise<WalletResponse>;

/** The app under test (answered in process) or any HTTP function (e.g. `fetchHttp` for a running product). */
type Target = TestApp | WalletHttp;
const httpOf = (target: Target): WalletHttp => (typeof target === 'function' ? target : walletHttp(target));

/** An HTTP answer as a wallet reads it: status, headers and body, read once. */
async function walletResponse(response: Response): Promise<WalletResponse> {
  const body = await response.text();
  const headers: Record<string, unknown> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body, json: () => JSON.parse(body) };
}

/** HTTP as a wallet sees it, over the network (a product started as a process). */
export const fetchHttp: WalletHttp = async (url, init = {}) => {
  const response = await fetch(url, {
    method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(init.json ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
  return walletResponse(response);
};

/** HTTP as a wallet sees it, answered by the app in process (absolute URLs of PUBLIC_URL). */
export function walletHttp(t: TestApp): WalletHttp {
  return async function http(url: string, init: Parameters<WalletHttp>[1] = {}) {
    const { pathname, search } = new URL(url);
    const response = await t.app.inject({
      method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
      url: `${pathname}${search}`,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      ...(init.form ? { payload: new URLSearchParams(init.form).toString() } : {}),
      ...(init.json ? { payload: init.json as object } : {}),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      json: () => response.json(),
    };
  };
}

/** fetch over a WalletHttp: what the protocol libraries call, answered in process or over the network. */
export function fetchOf(target: Target): typeof fetch {
  const http = httpOf(target);
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? init.body : undefined;
    const contentType = headers.get('content-type') ?? '';
    const bearer = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '')?.[1];
    // DPoP (RFC 9449): the proof, and the token under the DPoP scheme, pass as they are.
    const more: Record<string, string> = {};
    const dpop = headers.get('dpop');
    if (dpop) more.dpop = dpop;
    // Wallet attestation (Attestation-Based Client Authentication): the attestation and its PoP too.
    for (const name of ['oauth-client-attestation', 'oauth-client-attestation-pop']) {
      const value = headers.get(name);
      if (value) more[name] = value;
    }
    const authorization = headers.get('authorization');
    if (authorization && !bearer) more.authorization = authorization;
    const answer = await http(url, {
      method: (init.method ?? 'GET').toUpperCase() as 'GET' | 'POST',
      ...(body !== undefined && contentType.includes('application/x-www-form-urlencoded')
        ? { form: Object.fromEntries(new URLSearchParams(body)) }
        : {}),
      ...(body !== undefined && contentType.includes('application/json') ? { json: JSON.parse(body) } : {}),
      ...(bearer ? { token: bearer } : {}),
      ...(Object.keys(more).length > 0 ? { headers: more } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) responseHeaders.set(name, String(value));
    }
    const noBody = answer.status === 204 || answer.status === 304;
    return new Response(noBody ? null : answer.body, { status: answer.status, headers: responseHeaders });
  }) as typeof fetch;
}

export const makeHolder = (): Promise<Holder> => createHolderKey();

/**
 * Redeems a credential offer (`openid-credential-offer://…`) and answers the SD-JWT VC: one, not a batch (the
 * tests that are not about batches keep one credential and one status slot per offer).
 */
export async function claimCredential(t: Target, connectionUrl: string, holder: Holder): Promise<string> {
  const { credential } = await receiveCredential(connectionUrl, { key: holder, batchSize: 1 }, { fetch: fetchOf(t) });
  return credential;
}

/** Redeems a credential offer as a batch of up to `batchSize` instances, each bound to a key of its own. */
export async function claimBatch(t: Target, connectionUrl: string, holder: Holder, batchSize?: number) {
  const { instances } = await receiveCredential(
    connectionUrl,
    { key: holder, ...(batchSize !== undefined ? { batchSize } : {}) },
    { fetch: fetchOf(t) },
  );
  return instances.map(({ credential, key }) => ({ credential, holder: key }));
}

export interface AuthorizationRequest {
  clientId: string;
  payload: Record<string, unknown> & {
    nonce: string;
    state: string;
    response_uri: string;
    response_mode: string;
    dcql_query: { credentials: { id: string; claims?: { path: string[] }[] }[] };
    client_metadata: { jwks: { keys: JWK[] }; encrypted_response_enc_values_supported?: string[] };
  };
}

/** Fetches and checks the signed request as the wallet does; the platform's verifier is an x509_hash client. */
export async function resolveRequest(t: Target, openid4vpUrl: string): Promise<AuthorizationRequest> {
  expect(openid4vpUrl.startsWith('openid4vp://?')).toBe(true);
  const request = await resolvePresentationRequest(openid4vpUrl, { fetch: fetchOf(t) });
  expect(request.clientIdPrefix).toBe('x509_hash');
  return { clientId: request.clientId, payload: request.payload as unknown as AuthorizationRequest['payload'] };
}

export interface PresentOptions {
  /** Claims to disclose (default: the ones the DCQL query asks for). */
  disclose?: string[];
  nonce?: string;
  audience?: string;
  mode?: 'direct_post' | 'direct_post.jwt';
  /** Changes the presentation before it is sent (tampering tests). */
  mutate?: (presentation: string) => string;
  state?: string;
}

/** Answers a request with the credential: key binding to this request, response (encrypted) posted. */
export async function presentCredential(
  t: Target,
  openid4vpUrl: string,
  credential: string,
  holder: Holder,
  options: PresentOptions = {},
): Promise<WalletResponse> {
  return (await preparePresentation(t, openid4vpUrl, credential, holder, options))();
}

/**
 * The same in two steps: the request fetched and the presentation made now, the response posted when the
 * answered function is called (a wallet that answers after the verifier changed something).
 */
export async function preparePresentation(
  t: Target,
  openid4vpUrl: string,
  credential: string,
  holder: Holder,
  options: PresentOptions = {},
): Promise<() => Promise<WalletResponse>> {
  const fetchImpl = fetchOf(t);
  const request = await resolvePresentationRequest(openid4vpUrl, { fetch: fetchImpl });
  const query = request.dcql.credentials[0]!;
  const disclose =
    options.disclose ??
    (query.claims ?? []).map((c) => c.path[0]).filter((name): name is string => typeof name === 'string');
  let presentation = await presentWithKeyBinding(credential, {
    key: holder,
    disclose,
    audience: options.audience ?? request.clientId,
    nonce: options.nonce ?? request.nonce,
  });
  if (options.mutate) presentation = options.mutate(presentation);
  return async () => {
    const response = await postAuthorizationResponse(
      request,
      { vp_token: { [query.id]: [presentation] } },
      {
        ...(options.mode ? { responseMode: options.mode } : {}),
        ...(options.state !== undefined ? { state: options.state } : {}),
      },
      { fetch: fetchImpl },
    );
    return walletResponse(response);
  };
}

/** A holder of mdocs: its key for the key proof, and the same key as a COSE signer for device signatures. */
export interface MdocHolder {
  key: Holder;
  cose: CoseSigner;
}

export async function makeMdocHolder(): Promise<MdocHolder> {
  const { privateJwk, publicJwk } = await generateEs256KeyPair();
  return {
    key: { signer: await signerFromPrivateJwk(privateJwk), publicJwk },
    cose: await coseSignerFromPrivateJwk(privateJwk),
  };
}

/** Redeems an offer's `mso_mdoc` configuration; answers the IssuerSigned (base64url). */
export async function claimMdoc(t: Target, connectionUrl: string, holder: MdocHolder): Promise<string> {
  const { credential } = await receiveMdocCredential(connectionUrl, { key: holder.key }, { fetch: fetchOf(t) });
  return credential;
}

export interface PresentMdocOptions {
  /** Elements to disclose, `[namespace, element]` (default: the ones the DCQL query asks for). */
  paths?: [string, string][];
  /** Another nonce in the session transcript (a response made for another request). */
  nonce?: string;
  /** Changes the DeviceResponse (base64url) before it is sent (tampering tests). */
  mutate?: (deviceResponse: string) => string;
  /** Another device key than the mdoc's. */
  signer?: CoseSigner;
}

/** Answers an mso_mdoc request with the mdoc: a DeviceResponse over this request's transcript, encrypted. */
export async function presentMdoc(
  t: Target,
  openid4vpUrl: string,
  issuerSigned: string,
  holder: MdocHolder,
  options: PresentMdocOptions = {},
): Promise<WalletResponse> {
  const fetchImpl = fetchOf(t);
  const request = await resolvePresentationRequest(openid4vpUrl, { fetch: fetchImpl });
  const query = request.dcql.credentials[0]!;
  const paths = options.paths ?? (query.claims ?? []).map((c) => c.path as [string, string]);
  const signer = options.signer ?? holder.cose;
  let response: Response;
  if (options.nonce || options.mutate) {
    // Built by hand so that the transcript or the bytes can be changed; posted as the holder would.
    const handover = await mdocHandover(request);
    let deviceResponse = await buildMdocDeviceResponse({
      ...handover,
      ...(options.nonce ? { nonce: options.nonce } : {}),
      issuerSigned,
      paths,
      signer,
    });
    if (options.mutate) deviceResponse = options.mutate(deviceResponse);
    response = await postAuthorizationResponse(
      request,
      { vp_token: { [query.id]: [deviceResponse] } },
      {},
      {
        fetch: fetchImpl,
      },
    );
  } else {
    response = await postMdocPresentation(
      request,
      { queryId: query.id, issuerSigned, paths, signer },
      {},
      { fetch: fetchImpl },
    );
  }
  return walletResponse(response);
}
