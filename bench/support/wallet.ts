/**
 * The wallet side of the protocols for the benchmarks, over real HTTP (the same steps as
 * apps/api/test/support/wallet.ts): OpenID4VCI claim of an offer, OpenID4VP presentation over
 * direct_post.jwt.
 */
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
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import type { httpClient } from './bench.ts';

type Http = ReturnType<typeof httpClient>['request'];
const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export interface Holder {
  signer: JwsSigner;
  publicJwk: JsonWebKey;
}

export async function makeHolder(): Promise<Holder> {
  const { privateJwk, publicJwk } = await generateEs256KeyPair();
  return { signer: await signerFromPrivateJwk(privateJwk), publicJwk };
}

/** Creates a credential (session of the organization) and claims it as `holder`; answers the SD-JWT VC. */
export async function issueAndClaim(
  http: Http,
  headers: Record<string, string>,
  schemaId: string,
  claims: Record<string, string>,
  holder: Holder,
): Promise<string> {
  const created = await http('/api/credentials/with-recipient', {
    headers,
    json: {
      credential: { name: 'Membership', schema_id: schemaId, claims },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const connect = (await http(`/api/credentials/${created.json().id}/connect`)).json();
  const offer = (await http(new URL(connect.connection_url).searchParams.get('credential_offer_uri')!)).json();
  const issuer = new URL(offer.credential_issuer);
  const metadata = (await http(`${issuer.origin}/.well-known/openid-credential-issuer${issuer.pathname}`)).json();
  const as = (await http(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`)).json();
  const token = await http(as.token_endpoint, {
    form: { grant_type: PRE_AUTHORIZED, 'pre-authorized_code': offer.grants[PRE_AUTHORIZED]['pre-authorized_code'] },
  });
  const { c_nonce } = (await http(metadata.nonce_endpoint, { method: 'POST' })).json();
  const proof = await signJwt(
    holder.signer,
    { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
    { aud: offer.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: c_nonce },
  );
  const response = await http(metadata.credential_endpoint, {
    headers: { authorization: `Bearer ${token.json().access_token}` },
    json: { credential_configuration_id: offer.credential_configuration_ids[0], proofs: { jwt: [proof] } },
  });
  if (response.status !== 200) throw new Error(`credential: ${response.status} ${response.text}`);
  return response.json().credentials[0].credential as string;
}

export interface RequestObject {
  clientId: string;
  nonce: string;
  state: string;
  responseUri: string;
  queryId: string;
  claims: string[];
  encryptionJwk: JWK;
}

/** Fetches the request object by reference (`request_uri`), checks its signature and client id, reads what the answer needs. */
export async function fetchRequest(http: Http, openid4vpUrl: string): Promise<RequestObject> {
  const params = new URL(openid4vpUrl).searchParams;
  const response = await http(params.get('request_uri')!);
  if (response.status !== 200) throw new Error(`request object: ${response.status} ${response.text}`);
  // As a wallet does: the request is signed by the x5c leaf, whose hash is the client id.
  const { header, payload } = decodeJwt(response.text) as {
    header: { x5c: string[] };
    payload: {
      client_id: string;
      nonce: string;
      state: string;
      response_uri: string;
      dcql_query: { credentials: { id: string; claims?: { path: string[] }[] }[] };
      client_metadata: { jwks: { keys: JWK[] } };
    };
  };
  if (!(await verifyJwtSignature(response.text, await x5cLeafJwk(header.x5c)))) {
    throw new Error('request object signature');
  }
  if (payload.client_id !== `x509_hash:${await x509Hash(header.x5c[0]!)}`) throw new Error('client_id');
  const query = payload.dcql_query.credentials[0]!;
  return {
    clientId: payload.client_id,
    nonce: payload.nonce,
    state: payload.state,
    responseUri: payload.response_uri,
    queryId: query.id,
    claims: (query.claims ?? []).map((c) => c.path[0]!),
    encryptionJwk: payload.client_metadata.jwks.keys[0]!,
  };
}

/** The direct_post.jwt form body: the presentation with key binding to this request, encrypted to the verifier. */
export async function buildResponse(request: RequestObject, credential: string, holder: Holder) {
  const presentation = await presentSdJwtVc(credential, {
    disclose: request.claims,
    keyBinding: { signer: holder.signer, audience: request.clientId, nonce: request.nonce },
  });
  const answer = { vp_token: { [request.queryId]: [presentation] }, state: request.state };
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(answer)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: request.encryptionJwk.kid! })
    .encrypt(await importJWK(request.encryptionJwk, 'ECDH-ES'));
  return { response: jwe };
}
