import {
  decodeJwt,
  generateEs256KeyPair,
  type JwsSigner,
  presentSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  verifyJwtSignature,
  x5cLeafJwk,
  x509Hash,
} from '@cp/credentials';
import type { FastifyInstance } from 'fastify';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { expect } from 'vitest';

/** The app under test as far as the wallet needs it (a TestApp of harness.ts). */
interface TestApp {
  app: FastifyInstance;
}

/**
 * A minimal standard holder for tests, written from the protocols' client side: OpenID4VCI (offer by
 * reference, pre-authorized code, nonce, key proof) and OpenID4VP (request by reference, x509_hash
 * client id checked against the x5c leaf, DCQL, SD-JWT VC with key binding, direct_post(.jwt)).
 */

export interface Holder {
  signer: JwsSigner;
  publicJwk: JsonWebKey;
}

export interface WalletResponse {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: protocol documents are read field by field in tests.
  json: () => any;
}

export type WalletHttp = (
  url: string,
  init?: { method?: 'GET' | 'POST'; form?: Record<string, string>; json?: unknown; token?: string },
) => Promise<WalletResponse>;

/** The app under test (answered in process) or any HTTP function (e.g. `fetchHttp` for a running product). */
type Target = TestApp | WalletHttp;
const httpOf = (target: Target): WalletHttp => (typeof target === 'function' ? target : walletHttp(target));

/** HTTP as a wallet sees it, over the network (a product started as a process). */
export const fetchHttp: WalletHttp = async (url, init = {}) => {
  const response = await fetch(url, {
    method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(init.json ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
  const body = await response.text();
  const headers: Record<string, unknown> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    status: response.status,
    headers,
    body,
    json: () => JSON.parse(body),
  };
};

/** HTTP as a wallet sees it, answered by the app in process (absolute URLs of PUBLIC_URL). */
export function walletHttp(t: TestApp): WalletHttp {
  return async function http(
    url: string,
    init: { method?: 'GET' | 'POST'; form?: Record<string, string>; json?: unknown; token?: string } = {},
  ) {
    const { pathname, search } = new URL(url);
    const response = await t.app.inject({
      method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
      url: `${pathname}${search}`,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
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

export async function makeHolder(): Promise<Holder> {
  const { privateJwk, publicJwk } = await generateEs256KeyPair();
  return { signer: await signerFromPrivateJwk(privateJwk), publicJwk };
}

/** Redeems a credential offer (`openid-credential-offer://…`) and answers the SD-JWT VC. */
export async function claimCredential(t: Target, connectionUrl: string, holder: Holder): Promise<string> {
  const http = httpOf(t);
  const offerUri = new URL(connectionUrl).searchParams.get('credential_offer_uri');
  const offer = (await http(offerUri!)).json();
  const issuer = new URL(offer.credential_issuer);
  const metadata = (await http(`${issuer.origin}/.well-known/openid-credential-issuer${issuer.pathname}`)).json();
  const as = (await http(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`)).json();
  const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
  const token = await http(as.token_endpoint, {
    form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code },
  });
  expect(token.status).toBe(200);
  const { c_nonce } = (await http(metadata.nonce_endpoint, { method: 'POST' })).json();
  const proof = await signJwt(
    holder.signer,
    { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
    { aud: offer.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: c_nonce },
  );
  const response = await http(metadata.credential_endpoint, {
    token: token.json().access_token,
    json: { credential_configuration_id: offer.credential_configuration_ids[0], proofs: { jwt: [proof] } },
  });
  expect(response.status).toBe(200);
  return response.json().credentials[0].credential as string;
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

/** Fetches and checks the signed request: signature by the x5c leaf, whose hash is the client id. */
export async function resolveRequest(t: Target, openid4vpUrl: string): Promise<AuthorizationRequest> {
  const http = httpOf(t);
  expect(openid4vpUrl.startsWith('openid4vp://?')).toBe(true);
  const params = new URL(openid4vpUrl).searchParams;
  const clientId = params.get('client_id')!;
  const response = await http(params.get('request_uri')!);
  expect(response.status).toBe(200);
  expect(String(response.headers['content-type'])).toContain('application/oauth-authz-req+jwt');
  const jwt = response.body;
  const { header, payload } = decodeJwt(jwt);
  expect(header.typ).toBe('oauth-authz-req+jwt');
  const x5c = header.x5c as string[];
  expect(await verifyJwtSignature(jwt, await x5cLeafJwk(x5c))).toBe(true);
  expect(clientId).toBe(`x509_hash:${await x509Hash(x5c[0]!)}`);
  expect(payload.client_id).toBe(clientId);
  return { clientId, payload: payload as AuthorizationRequest['payload'] };
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
) {
  const http = httpOf(t);
  const request = await resolveRequest(t, openid4vpUrl);
  const query = request.payload.dcql_query.credentials[0]!;
  const disclose = options.disclose ?? (query.claims ?? []).map((c) => c.path[0]!);
  let presentation = await presentSdJwtVc(credential, {
    disclose,
    keyBinding: {
      signer: holder.signer,
      audience: options.audience ?? request.clientId,
      nonce: options.nonce ?? request.payload.nonce,
    },
  });
  if (options.mutate) presentation = options.mutate(presentation);
  const answer = { vp_token: { [query.id]: [presentation] }, state: options.state ?? request.payload.state };
  const mode = options.mode ?? 'direct_post.jwt';
  let form: Record<string, string>;
  if (mode === 'direct_post.jwt') {
    const jwk = request.payload.client_metadata.jwks.keys[0]!;
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: jwk.kid! })
      .encrypt(await importJWK(jwk, 'ECDH-ES'));
    form = { response: jwe };
  } else {
    form = { vp_token: JSON.stringify(answer.vp_token), state: answer.state };
  }
  return http(request.payload.response_uri, { form });
}
