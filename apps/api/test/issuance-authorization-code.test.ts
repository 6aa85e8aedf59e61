import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { base64url, signerFromPrivateJwk, signJwt } from '@cp/credentials';
import { makeCertificate } from '@cp/credentials/testing';
import { schema } from '@cp/db';
import {
  createHolderKey,
  createKeyProof,
  type HolderKey,
  requestCredential as holderRequestCredential,
  type Issuance,
  parseSdJwtVc,
  requestNonce,
  resolveCredentialOffer,
  resolveIssuerMetadata,
  resolveWalletInitiatedIssuance,
} from '@cp/holder';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { followAuthorizationRedirect } from './support/issuer.ts';
import { mailsTo, waitForMails } from './support/mailbox.ts';
import { fetchOf, walletHttp } from './support/wallet.ts';

/**
 * The authorization code flow with PAR (RFC 9126) and PKCE S256 (RFC 7636), issuer-initiated (the offer's
 * `issuer_state`) and wallet-initiated (the recipient proves an e-mail address with a one-time code), from an
 * attacker's side: each way of getting a code or a token without the request's secrets is refused.
 */

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const FORM = 'application/x-www-form-urlencoded';
const CLIENT_ID = 'wallet.example';
const REDIRECT_URI = 'https://wallet.example/callback';
const EMAIL_CODE_QUEUE = 'issuer.email-code';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_ISSUER_PER_MINUTE: '10000', RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;

interface Issuer {
  organizationId: string;
  issuer: string;
  path: string;
  slug: string;
  schemaId: string;
  adminHeaders: Record<string, string>;
}

async function buildIssuer(name: string, options: { dpopRequired?: boolean } = {}): Promise<Issuer> {
  const { organization, schemaRecord, member, headers } = await buildVerifiedOrganization(t, name, {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  if (options.dpopRequired) {
    const policy = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${organization.id}/issuer-policy`,
      headers: member.auth,
      payload: { dpop_required: true, wallet_attestation_required: false },
    });
    expect(policy.statusCode, policy.body).toBe(200);
  }
  return {
    organizationId: organization.id,
    issuer: `${t.config.publicUrl}/orgs/${organization.id}`,
    path: `/orgs/${organization.id}`,
    slug: schemaRecord.schema.slug,
    schemaId: schemaRecord.schema.id,
    adminHeaders: headers,
  };
}

/** A credential issued to `email`, and its offer as the wallet resolves it by reference. */
async function issueTo(issuer: Issuer, email: string, options: { txCode?: boolean } = {}) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.adminHeaders,
    payload: {
      credential: {
        name: `Membership of ${email}`,
        schema_id: issuer.schemaId,
        claims: [{ name: 'full_name', value: email }],
      },
      recipient: { email, first_name: 'Ada', last_name: 'Lovelace' },
      ...(options.txCode ? { tx_code: true } : {}),
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const credentialId: string = created.json().id;
  const http = walletHttp(t);
  const connect = (await http(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
  const offerUri = new URL(connect.connection_url).searchParams.get('credential_offer_uri')!;
  // biome-ignore lint/suspicious/noExplicitAny: the offer is read field by field.
  const offer: any = (await http(offerUri)).json();
  return { credentialId, offer };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

interface ParInput {
  client_id?: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  issuer_state?: string;
  state?: string;
  scope?: string;
  authorization_details?: string;
  response_type?: string;
}

function par(issuer: Issuer, fields: ParInput, headers: Record<string, string> = {}) {
  const form = { response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, ...fields };
  return t.app.inject({
    method: 'POST',
    url: `${issuer.path}/par`,
    headers: { 'content-type': FORM, ...headers },
    payload: new URLSearchParams(
      Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined)) as Record<string, string>,
    ).toString(),
  });
}

const details = (slug: string) => JSON.stringify([{ type: 'openid_credential', credential_configuration_id: slug }]);

/** A pushed request for `slug` with a fresh PKCE pair: its request_uri and the verifier. */
async function pushed(issuer: Issuer, fields: ParInput = {}, headers: Record<string, string> = {}) {
  const pair = pkce();
  const answer = await par(
    issuer,
    {
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
      authorization_details: details(issuer.slug),
      state: 'st-1',
      ...fields,
    },
    headers,
  );
  expect(answer.statusCode, answer.body).toBe(201);
  const body = answer.json();
  expect(body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  expect(body.expires_in).toBe(60);
  return { requestUri: body.request_uri as string, verifier: pair.verifier };
}

function authorize(issuer: Issuer, query: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({ url: `${issuer.path}/authorize?${new URLSearchParams(query)}`, headers });
}

/** Follows the authorization endpoint's redirect: the code and the state from `Location`. */
function codeOf(location: string | undefined) {
  expect(location).toBeDefined();
  const url = new URL(location!);
  expect(url.origin + url.pathname).toBe(REDIRECT_URI);
  return {
    code: url.searchParams.get('code')!,
    state: url.searchParams.get('state'),
    iss: url.searchParams.get('iss'),
  };
}

/** Issuer-initiated: offer → PAR with its issuer_state → authorization endpoint → code. */
async function codeForOffer(issuer: Issuer, offer: { grants: Record<string, { issuer_state?: string }> }) {
  const issuerStateValue = offer.grants.authorization_code?.issuer_state;
  expect(issuerStateValue).toBeTruthy();
  const { requestUri, verifier } = await pushed(issuer, { issuer_state: issuerStateValue! });
  const answer = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri });
  expect(answer.statusCode, answer.body).toBe(302);
  const { code, state, iss } = codeOf(answer.headers.location as string);
  expect(state).toBe('st-1');
  expect(iss).toBe(issuer.issuer);
  return { code, verifier };
}

function token(issuer: Issuer, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const form = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return t.app.inject({
    method: 'POST',
    url: `${issuer.path}/token`,
    headers: { 'content-type': FORM, ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

const codeTokenForm = (code: string, verifier: string | undefined, more: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: REDIRECT_URI,
  client_id: CLIENT_ID,
  code_verifier: verifier,
  ...more,
});

/** The credential request with a fresh key proof, as a wallet makes it after the token. */
async function requestCredential(
  issuer: Issuer,
  accessToken: string,
  holder: HolderKey,
  scheme = 'Bearer',
  dpop?: string,
) {
  const context = { fetch: fetchOf(t) };
  const issuerMetadata = await resolveIssuerMetadata(issuer.issuer, context);
  const issuance = { issuerMetadata, configurationId: issuer.slug } as Pick<
    Issuance,
    'issuerMetadata' | 'configurationId'
  >;
  const cNonce = await requestNonce(issuerMetadata, undefined, context);
  const proof = await createKeyProof(issuance, holder, cNonce, context);
  return t.app.inject({
    method: 'POST',
    url: `${issuer.path}/credential`,
    headers: {
      'content-type': 'application/json',
      authorization: `${scheme} ${accessToken}`,
      ...(dpop ? { dpop } : {}),
    },
    payload: { credential_configuration_id: issuer.slug, proofs: { jwt: [proof] } },
  });
}

function expectOAuthError(answer: { statusCode: number; json: () => unknown }, status: number, error: string) {
  expect(answer.statusCode).toBe(status);
  expect((answer.json() as { error: string }).error).toBe(error);
}

describe('metadata and offers', () => {
  it('announces the authorization code flow: PAR required, PKCE S256, authorization_details, both grants', async () => {
    const issuer = await buildIssuer('AC Metadata');
    const as = (
      await t.app.inject({ url: `/.well-known/oauth-authorization-server/orgs/${issuer.organizationId}` })
    ).json();
    expect(as).toMatchObject({
      authorization_endpoint: `${issuer.issuer}/authorize`,
      pushed_authorization_request_endpoint: `${issuer.issuer}/par`,
      require_pushed_authorization_requests: true,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_details_types_supported: ['openid_credential'],
    });
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', PRE_AUTHORIZED_GRANT]));
    const metadata = (await t.app.inject({ url: `${issuer.path}/.well-known/openid-credential-issuer` })).json();
    expect(metadata.credential_configurations_supported[issuer.slug].scope).toBe(issuer.slug);
  });

  it('offers both grants, the authorization code with an issuer_state; not with a PIN', async () => {
    const issuer = await buildIssuer('AC Offer');
    const { offer } = await issueTo(issuer, 'grants@example.com');
    expect(offer.grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code']).toBeTruthy();
    expect(offer.grants.authorization_code.issuer_state).toMatch(/^[0-9a-f-]{36}\.[\w-]{43}$/);
    const withPin = await issueTo(issuer, 'pin@example.com', { txCode: true });
    expect(withPin.offer.grants[PRE_AUTHORIZED_GRANT].tx_code).toBeDefined();
    expect(withPin.offer.grants.authorization_code).toBeUndefined();
  });
});

describe('issuer-initiated authorization code flow', () => {
  it('delivers the offered credential: PAR with issuer_state, code at once, token with the verifier', async () => {
    const issuer = await buildIssuer('AC Happy');
    const { offer, credentialId } = await issueTo(issuer, 'happy@example.com');
    const { code, verifier } = await codeForOffer(issuer, offer);
    const answer = await token(issuer, codeTokenForm(code, verifier));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    const holder = await createHolderKey();
    const credential = await requestCredential(issuer, answer.json().access_token, holder);
    expect(credential.statusCode, credential.body).toBe(200);
    const parsed = await parseSdJwtVc(credential.json().credentials[0].credential);
    expect(parsed.payload.iss).toBe(issuer.issuer);
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, credentialId));
    expect(row?.status).toBe('CLAIMED');
    // The offer is redeemed: its pre-authorized code no longer works.
    const preAuthorized = await token(issuer, {
      grant_type: PRE_AUTHORIZED_GRANT,
      'pre-authorized_code': offer.grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code'],
    });
    expectOAuthError(preAuthorized, 400, 'invalid_grant');
  });

  it('names the granted credential in the token response when asked by authorization_details (§6.2)', async () => {
    const issuer = await buildIssuer('AC Details');
    const { code, verifier } = await codeForOffer(issuer, (await issueTo(issuer, 'details@example.com')).offer);
    const answer = await token(issuer, codeTokenForm(code, verifier));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().authorization_details).toEqual([
      { type: 'openid_credential', credential_configuration_id: issuer.slug, credential_identifiers: [issuer.slug] },
    ]);
    const context = { fetch: fetchOf(t) };
    const issuerMetadata = await resolveIssuerMetadata(issuer.issuer, context);
    const proof = await createKeyProof(
      { issuerMetadata, configurationId: issuer.slug },
      await createHolderKey(),
      await requestNonce(issuerMetadata, undefined, context),
      context,
    );
    const request = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: `${issuer.path}/credential`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${answer.json().access_token}` },
        payload: body,
      });
    expectOAuthError(
      await request({ credential_identifier: 'made-up', proofs: { jwt: [proof] } }),
      400,
      'unknown_credential_identifier',
    );
    const credential = await request({ credential_identifier: issuer.slug, proofs: { jwt: [proof] } });
    expect(credential.statusCode, credential.body).toBe(200);
  });

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const issuer = await buildIssuer('AC Wrong Verifier');
    const { code } = await codeForOffer(issuer, (await issueTo(issuer, 'wrong-verifier@example.com')).offer);
    expectOAuthError(await token(issuer, codeTokenForm(code, pkce().verifier)), 400, 'invalid_grant');
  });

  it('refuses a missing code_verifier with invalid_grant, and the code is spent', async () => {
    const issuer = await buildIssuer('AC Missing Verifier');
    const { code, verifier } = await codeForOffer(issuer, (await issueTo(issuer, 'missing@example.com')).offer);
    expectOAuthError(await token(issuer, codeTokenForm(code, undefined)), 400, 'invalid_grant');
    expectOAuthError(await token(issuer, codeTokenForm(code, verifier)), 400, 'invalid_grant');
  });

  it('refuses PKCE plain, a missing challenge and a missing method at the PAR', async () => {
    const issuer = await buildIssuer('AC Plain');
    const { verifier } = pkce();
    const plain = await par(issuer, {
      code_challenge: verifier,
      code_challenge_method: 'plain',
      authorization_details: details(issuer.slug),
    });
    expectOAuthError(plain, 400, 'invalid_request');
    expectOAuthError(await par(issuer, { authorization_details: details(issuer.slug) }), 400, 'invalid_request');
    const noMethod = await par(issuer, {
      code_challenge: pkce().challenge,
      authorization_details: details(issuer.slug),
    });
    expectOAuthError(noMethod, 400, 'invalid_request');
  });

  it('refuses a PAR without client_id, with an unknown configuration or scope, or another response type', async () => {
    const issuer = await buildIssuer('AC Bad PAR');
    const good = { code_challenge: pkce().challenge, code_challenge_method: 'S256' };
    const noClient = await t.app.inject({
      method: 'POST',
      url: `${issuer.path}/par`,
      headers: { 'content-type': FORM },
      payload: new URLSearchParams({ response_type: 'code', redirect_uri: REDIRECT_URI, ...good }).toString(),
    });
    expectOAuthError(noClient, 400, 'invalid_request');
    expectOAuthError(
      await par(issuer, { ...good, authorization_details: details('no-such-configuration') }),
      400,
      'invalid_authorization_details',
    );
    expectOAuthError(await par(issuer, { ...good, scope: 'no-such-scope' }), 400, 'invalid_scope');
    expectOAuthError(
      await par(issuer, { ...good, scope: issuer.slug, response_type: 'token' }),
      400,
      'unsupported_response_type',
    );
    expectOAuthError(
      await par(issuer, { ...good, scope: issuer.slug, redirect_uri: 'javascript:alert(1)' }),
      400,
      'invalid_request',
    );
    // The configuration's scope is enough.
    expect((await par(issuer, { ...good, scope: issuer.slug })).statusCode).toBe(201);
  });

  it('uses a request_uri once: the second use is refused and not redirected', async () => {
    const issuer = await buildIssuer('AC PAR Reuse');
    const { offer } = await issueTo(issuer, 'reuse@example.com');
    const { requestUri } = await pushed(issuer, { issuer_state: offer.grants.authorization_code.issuer_state });
    const first = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri });
    expect(first.statusCode).toBe(302);
    const again = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri });
    expect(again.statusCode).toBe(400);
    expect(again.headers.location).toBeUndefined();
    expect(again.headers['content-type']).toMatch(/^text\/html/);
  });

  it('binds a request_uri to its client_id: another client is refused, the right one still goes through', async () => {
    const issuer = await buildIssuer('AC PAR Client');
    const { offer } = await issueTo(issuer, 'client@example.com');
    const { requestUri } = await pushed(issuer, { issuer_state: offer.grants.authorization_code.issuer_state });
    const other = await authorize(issuer, { client_id: 'attacker.example', request_uri: requestUri });
    expect(other.statusCode).toBe(400);
    expect(other.headers.location).toBeUndefined();
    expect((await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri })).statusCode).toBe(302);
  });

  it('refuses an authorization request that was not pushed, and a made-up request_uri', async () => {
    const issuer = await buildIssuer('AC No PAR');
    const { offer } = await issueTo(issuer, 'nopar@example.com');
    const direct = await authorize(issuer, {
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      issuer_state: offer.grants.authorization_code.issuer_state,
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.headers.location).toBeUndefined();
    const madeUp = await authorize(issuer, {
      client_id: CLIENT_ID,
      request_uri: `urn:ietf:params:oauth:request_uri:${randomBytes(32).toString('base64url')}`,
    });
    expect(madeUp.statusCode).toBe(400);
  });

  it('refuses a replayed code with invalid_grant and revokes the token it gave (RFC 6749 §4.1.2)', async () => {
    const issuer = await buildIssuer('AC Replay');
    const { code, verifier } = await codeForOffer(issuer, (await issueTo(issuer, 'replay@example.com')).offer);
    const first = await token(issuer, codeTokenForm(code, verifier));
    expect(first.statusCode, first.body).toBe(200);
    expectOAuthError(await token(issuer, codeTokenForm(code, verifier)), 400, 'invalid_grant');
    const credential = await requestCredential(issuer, first.json().access_token, await createHolderKey());
    expectOAuthError(credential, 401, 'invalid_token');
  });

  it('refuses a code sent with another redirect_uri or by another client', async () => {
    const issuer = await buildIssuer('AC Redirect');
    const one = await codeForOffer(issuer, (await issueTo(issuer, 'redirect@example.com')).offer);
    const otherRedirect = token(
      issuer,
      codeTokenForm(one.code, one.verifier, { redirect_uri: 'https://evil.example/cb' }),
    );
    expectOAuthError(await otherRedirect, 400, 'invalid_grant');
    const two = await codeForOffer(issuer, (await issueTo(issuer, 'client2@example.com')).offer);
    const otherClient = token(issuer, codeTokenForm(two.code, two.verifier, { client_id: 'attacker.example' }));
    expectOAuthError(await otherClient, 400, 'invalid_grant');
  });

  it('refuses an expired request_uri and an expired code', async () => {
    const issuer = await buildIssuer('AC Expired');
    const { offer } = await issueTo(issuer, 'expired@example.com');
    const { requestUri } = await pushed(issuer, { issuer_state: offer.grants.authorization_code.issuer_state });
    await db()
      .update(schema.authorizationRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.authorizationRequests.organizationId, issuer.organizationId));
    expect((await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri })).statusCode).toBe(400);

    const { code, verifier } = await codeForOffer(issuer, offer);
    await db()
      .update(schema.authorizationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.authorizationCodes.organizationId, issuer.organizationId));
    expectOAuthError(await token(issuer, codeTokenForm(code, verifier)), 400, 'invalid_grant');
  });

  it("refuses another organization's issuer_state, a forged one, and a code at another organization", async () => {
    const issuer = await buildIssuer('AC Org A');
    const other = await buildIssuer('AC Org B');
    const { offer } = await issueTo(other, 'cross@example.com');
    const state = offer.grants.authorization_code.issuer_state as string;
    const pair = pkce();
    const foreign = await par(issuer, {
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
      scope: issuer.slug,
      issuer_state: state,
    });
    expectOAuthError(foreign, 400, 'invalid_request');
    const forged = await par(other, {
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
      scope: other.slug,
      issuer_state: `${randomUUID()}.${state.split('.')[1]}`,
    });
    expectOAuthError(forged, 400, 'invalid_request');
    // A code of organization B is nothing at organization A's token endpoint.
    const { code, verifier } = await codeForOffer(other, offer);
    expectOAuthError(await token(issuer, codeTokenForm(code, verifier)), 400, 'invalid_grant');
  });
});

/** A DPoP proof made by hand (RFC 9449 §4.2). */
async function dpopProof(key: HolderKey, htu: string, nonce?: string, accessToken?: string) {
  const payload = {
    htm: 'POST',
    htu,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ...(nonce ? { nonce } : {}),
    ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
  };
  const input = `${base64url(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk }))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${await key.signer.sign(input)}`;
}

describe('DPoP through the authorization code flow', () => {
  it('binds the code to the PAR proof key and the token to it when the policy requires DPoP', async () => {
    const issuer = await buildIssuer('AC DPoP', { dpopRequired: true });
    const { offer } = await issueTo(issuer, 'dpop@example.com');
    const key = await createHolderKey();
    // Without a proof, the PAR is refused like the token request.
    const pair = pkce();
    const bare = await par(issuer, {
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
      scope: issuer.slug,
      issuer_state: offer.grants.authorization_code.issuer_state,
    });
    expectOAuthError(bare, 400, 'invalid_dpop_proof');
    // A proof without the nonce: use_dpop_nonce with one to retry with.
    const first = await par(
      issuer,
      { code_challenge: pair.challenge, code_challenge_method: 'S256', scope: issuer.slug },
      { dpop: await dpopProof(key, `${issuer.issuer}/par`) },
    );
    expectOAuthError(first, 400, 'use_dpop_nonce');
    const nonce = String(first.headers['dpop-nonce']);
    const { requestUri, verifier } = await pushed(
      issuer,
      { issuer_state: offer.grants.authorization_code.issuer_state },
      { dpop: await dpopProof(key, `${issuer.issuer}/par`, nonce) },
    );
    const redirect = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri });
    const { code } = codeOf(redirect.headers.location as string);
    // Another key at the token endpoint: refused (RFC 9449 §10).
    const attacker = await createHolderKey();
    const stolen = await token(issuer, codeTokenForm(code, verifier), {
      dpop: await dpopProof(attacker, `${issuer.issuer}/token`, nonce),
    });
    expectOAuthError(stolen, 400, 'invalid_dpop_proof');
  });

  it('issues a DPoP-bound token for the key of the PAR, usable only with that key', async () => {
    const issuer = await buildIssuer('AC DPoP Token', { dpopRequired: true });
    const { offer } = await issueTo(issuer, 'dpop2@example.com');
    const key = await createHolderKey();
    const nonceAnswer = await par(
      issuer,
      { code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: issuer.slug },
      { dpop: await dpopProof(key, `${issuer.issuer}/par`) },
    );
    const nonce = String(nonceAnswer.headers['dpop-nonce']);
    const { requestUri, verifier } = await pushed(
      issuer,
      { issuer_state: offer.grants.authorization_code.issuer_state },
      { dpop: await dpopProof(key, `${issuer.issuer}/par`, nonce) },
    );
    const { code } = codeOf(
      (await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri })).headers.location as string,
    );
    const answer = await token(issuer, codeTokenForm(code, verifier), {
      dpop: await dpopProof(key, `${issuer.issuer}/token`, nonce),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().token_type).toBe('DPoP');
    const accessToken: string = answer.json().access_token;
    const asBearer = await requestCredential(issuer, accessToken, await createHolderKey());
    expect(asBearer.statusCode).toBe(401);
    const nextNonce = String(answer.headers['dpop-nonce']);
    const credential = await requestCredential(
      issuer,
      accessToken,
      await createHolderKey(),
      'DPoP',
      await dpopProof(key, `${issuer.issuer}/credential`, nextNonce, accessToken),
    );
    expect(credential.statusCode, credential.body).toBe(200);
  });
});

// ---- wallet-initiated issuance ---------------------------------------------------------------------------

interface Flow {
  flow: string;
  cookie: string;
  body: string;
}

/** PAR without issuer_state, then the authorization endpoint's e-mail page: its flow secret and cookie. */
async function startWalletFlow(issuer: Issuer, headers: Record<string, string> = {}) {
  const { requestUri, verifier } = await pushed(issuer, { scope: issuer.slug });
  const page = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri }, headers);
  expect(page.statusCode, page.body).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  expect(String(page.headers['content-security-policy'])).toContain("form-action 'self' https://wallet.example");
  const flow = /name="flow" value="([^"]+)"/.exec(page.body)?.[1];
  const cookie = /cp_issuer_flow=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1];
  expect(flow).toBeTruthy();
  expect(cookie).toBe(flow);
  return { flow: flow!, cookie: cookie!, body: page.body, verifier };
}

function postForm(
  issuer: Issuer,
  step: 'email' | 'code',
  flow: Pick<Flow, 'flow' | 'cookie'>,
  fields: Record<string, string>,
) {
  return t.app.inject({
    method: 'POST',
    url: `${issuer.path}/authorize/${step}`,
    headers: { 'content-type': FORM, cookie: `cp_issuer_flow=${flow.cookie}` },
    payload: new URLSearchParams({ flow: flow.flow, ...fields }).toString(),
  });
}

/** The newest one-time code e-mailed to `email`. */
async function emailedCode(email: string, count = 1) {
  await waitForMails(t, email, { count, queue: EMAIL_CODE_QUEUE });
  const mails = (await mailsTo(t, email)).filter(
    (mail) => /\b\d{6}\b/.test(mail.text ?? '') && /code/i.test(mail.subject ?? ''),
  );
  expect(mails.length).toBeGreaterThanOrEqual(count);
  return /\b(\d{6})\b/.exec(mails[mails.length - 1]!.text!)![1]!;
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('wallet-initiated issuance', () => {
  it('delivers a claimable credential issued to the proven address', async () => {
    const issuer = await buildIssuer('AC Wallet');
    const email = 'lost-phone@example.com';
    const { credentialId } = await issueTo(issuer, email);
    const flow = await startWalletFlow(issuer);
    const sent = await postForm(issuer, 'email', flow, { email: 'Lost-Phone@Example.com' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('name="code"');
    const code = await emailedCode(email);
    const redirect = await postForm(issuer, 'code', flow, { code });
    expect(redirect.statusCode, redirect.body).toBe(303);
    const { code: authorizationCode, state } = codeOf(redirect.headers.location as string);
    expect(state).toBe('st-1');
    const answer = await token(issuer, codeTokenForm(authorizationCode, flow.verifier));
    expect(answer.statusCode, answer.body).toBe(200);
    const credential = await requestCredential(issuer, answer.json().access_token, await createHolderKey());
    expect(credential.statusCode, credential.body).toBe(200);
    const parsed = await parseSdJwtVc(credential.json().credentials[0].credential);
    expect(parsed.claims.full_name).toBe(email);
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, credentialId));
    expect(row?.status).toBe('CLAIMED');
  });

  it('ends the flow after 5 wrong codes: even the right code must start again', async () => {
    const issuer = await buildIssuer('AC Wallet Attempts');
    const email = 'attempts@example.com';
    await issueTo(issuer, email);
    const flow = await startWalletFlow(issuer);
    await postForm(issuer, 'email', flow, { email });
    const code = await emailedCode(email);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await postForm(issuer, 'code', flow, { code: wrongCode(code) });
      expect(wrong.statusCode).toBe(200);
      expect(wrong.body).toContain(`Attempts left: ${5 - attempt}`);
      expect(wrong.headers.location).toBeUndefined();
    }
    const last = await postForm(issuer, 'code', flow, { code: wrongCode(code) });
    expect(last.statusCode).toBe(400);
    expect(last.body).toContain('Start again');
    const right = await postForm(issuer, 'code', flow, { code });
    expect(right.headers.location).toBeUndefined();
    expect(right.statusCode).toBe(403);
  });

  it('refuses an expired one-time code: the flow must start again', async () => {
    const issuer = await buildIssuer('AC Wallet Expired Code');
    const email = 'expired-code@example.com';
    await issueTo(issuer, email);
    const flow = await startWalletFlow(issuer);
    await postForm(issuer, 'email', flow, { email });
    const code = await emailedCode(email);
    await db()
      .update(schema.emailOneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.emailOneTimeCodes.organizationId, issuer.organizationId));
    const late = await postForm(issuer, 'code', flow, { code });
    expect(late.statusCode).toBe(400);
    expect(late.headers.location).toBeUndefined();
    expect(late.body).toContain('Start again');
  });

  it('answers the same for an address with nothing claimable, and says so only after the right code', async () => {
    const issuer = await buildIssuer('AC Wallet Nothing');
    await issueTo(issuer, 'has-one@example.com');
    const known = await startWalletFlow(issuer);
    const unknown = await startWalletFlow(issuer);
    const knownAnswer = await postForm(issuer, 'email', known, { email: 'has-one@example.com' });
    const unknownAnswer = await postForm(issuer, 'email', unknown, { email: 'nobody@example.com' });
    expect(unknownAnswer.statusCode).toBe(knownAnswer.statusCode);
    expect(unknownAnswer.body.replace(unknown.flow, 'FLOW')).toBe(knownAnswer.body.replace(known.flow, 'FLOW'));
    const code = await emailedCode('nobody@example.com');
    const outcome = await postForm(issuer, 'code', unknown, { code });
    expect(outcome.statusCode).toBe(200);
    expect(outcome.headers.location).toBeUndefined();
    expect(outcome.body).toContain('No credentials from this issuer are waiting for this address');
    expect(outcome.body).not.toContain('has-one@example.com');
  });

  it('does not deliver a credential already claimed again', async () => {
    const issuer = await buildIssuer('AC Wallet Claimed');
    const email = 'claimed@example.com';
    const { offer } = await issueTo(issuer, email);
    const { code, verifier } = await codeForOffer(issuer, offer);
    const first = await token(issuer, codeTokenForm(code, verifier));
    expect((await requestCredential(issuer, first.json().access_token, await createHolderKey())).statusCode).toBe(200);
    const flow = await startWalletFlow(issuer);
    await postForm(issuer, 'email', flow, { email });
    const outcome = await postForm(issuer, 'code', flow, { code: await emailedCode(email) });
    expect(outcome.headers.location).toBeUndefined();
    expect(outcome.body).toContain('No credentials from this issuer are waiting');
  });

  it('refuses a form post without the flow cookie (CSRF) or with another flow', async () => {
    const issuer = await buildIssuer('AC Wallet CSRF');
    const flow = await startWalletFlow(issuer);
    const noCookie = await t.app.inject({
      method: 'POST',
      url: `${issuer.path}/authorize/email`,
      headers: { 'content-type': FORM },
      payload: new URLSearchParams({ flow: flow.flow, email: 'csrf@example.com' }).toString(),
    });
    expect(noCookie.statusCode).toBe(403);
    const mismatched = await postForm(
      issuer,
      'email',
      { flow: flow.flow, cookie: 'x'.repeat(43) },
      { email: 'csrf@example.com' },
    );
    expect(mismatched.statusCode).toBe(403);
    expect((await mailsTo(t, 'csrf@example.com')).length).toBe(0);
  });

  it('sends at most 3 codes per flow and 10 an hour to one address, whichever flows ask', async () => {
    const issuer = await buildIssuer('AC Wallet Bombing');
    const email = 'bombed@example.com';
    const flow = await startWalletFlow(issuer);
    for (let i = 0; i < 3; i++) expect((await postForm(issuer, 'email', flow, { email })).statusCode).toBe(200);
    const fourth = await postForm(issuer, 'email', flow, { email });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.body).toContain('Too many codes');
    for (let i = 0; i < 7; i++) {
      expect((await postForm(issuer, 'email', await startWalletFlow(issuer), { email })).statusCode).toBe(200);
    }
    // 10 sent: an eleventh flow is refused for that address, not for another one.
    expect((await postForm(issuer, 'email', await startWalletFlow(issuer), { email })).statusCode).toBe(429);
    const other = await postForm(issuer, 'email', await startWalletFlow(issuer), { email: 'other@example.com' });
    expect(other.statusCode).toBe(200);
    await waitForMails(t, email, { count: 10, queue: EMAIL_CODE_QUEUE });
    expect((await mailsTo(t, email)).length).toBe(10);
  });

  it('names the app the credentials go to (the redirect URI origin) on the e-mail and code pages', async () => {
    const issuer = await buildIssuer('AC Wallet Recipient');
    const email = 'recipient-origin@example.com';
    await issueTo(issuer, email);
    // A request someone else pushed, with their own redirect URI: the holder must see where the code would go.
    const { requestUri } = await pushed(issuer, {
      scope: issuer.slug,
      redirect_uri: 'https://other-app.example:8443/cb?x=1',
    });
    const page = await authorize(issuer, { client_id: CLIENT_ID, request_uri: requestUri });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(
      'Your credentials will be sent to the app at <strong data-recipient-origin>https://other-app.example:8443</strong>',
    );
    expect(page.body).not.toContain('/cb?x=1');
    expect(page.body).not.toContain('vouched for by');
    const flow = /name="flow" value="([^"]+)"/.exec(page.body)![1]!;
    const cookie = /cp_issuer_flow=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
    const codePage = await postForm(issuer, 'email', { flow, cookie }, { email });
    expect(codePage.statusCode).toBe(200);
    expect(codePage.body).toContain('name="code"');
    expect(codePage.body).toContain('<strong data-recipient-origin>https://other-app.example:8443</strong>');
  });

  it("names the redirect origin in the holder's language, and a custom scheme as its scheme", async () => {
    const issuer = await buildIssuer('AC Wallet Recipient Ja');
    const { requestUri } = await pushed(issuer, { scope: issuer.slug, redirect_uri: 'eudi-openid4vci:/callback' });
    const page = await authorize(
      issuer,
      { client_id: CLIENT_ID, request_uri: requestUri },
      { 'accept-language': 'ja' },
    );
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(
      '証明書は <strong data-recipient-origin>eudi-openid4vci:</strong> のアプリに送られます。',
    );
  });

  it('speaks the language of Accept-Language', async () => {
    const issuer = await buildIssuer('AC Wallet Ja');
    const flow = await startWalletFlow(issuer, { 'accept-language': 'ja-JP,ja;q=0.9' });
    expect(flow.body).toContain('lang="ja"');
    expect(flow.body).toContain('メールアドレス');
  });
});

// ---- the holder library (@cp/holder) through the authorization code flow ---------------------------------

/** The browser step of an issuer-initiated request: the authorization endpoint redirects at once. */
const followRedirect = (url: string) => followAuthorizationRedirect(t)(url);

/** The browser step of a wallet-initiated request: the address, the code from the mailbox, the redirect. */
const proveAddress = (issuer: Issuer, email: string) => async (authorizationRequestUrl: string) => {
  const { pathname, search } = new URL(authorizationRequestUrl);
  const page = await t.app.inject({ url: `${pathname}${search}` });
  expect(page.statusCode, page.body).toBe(200);
  const flow = /name="flow" value="([^"]+)"/.exec(page.body)![1]!;
  const cookie = /cp_issuer_flow=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
  const before = (await mailsTo(t, email)).length;
  await postForm(issuer, 'email', { flow, cookie }, { email });
  const code = await emailedCode(email, before + 1);
  const answer = await postForm(issuer, 'code', { flow, cookie }, { code });
  expect(answer.statusCode, answer.body).toBe(303);
  return answer.headers.location as string;
};

describe('@cp/holder through the authorization code flow', () => {
  it('claims an offer with PAR, PKCE and issuer_state instead of the pre-authorized code', async () => {
    const issuer = await buildIssuer('AC Holder');
    const { credentialId } = await issueTo(issuer, 'holder@example.com');
    const connect = (await walletHttp(t)(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
    const context = { fetch: fetchOf(t) };
    const issuance = await resolveCredentialOffer(connect.connection_url, context, { authorizationCode: true });
    const holder = await createHolderKey();
    const { parsed } = await holderRequestCredential(
      issuance,
      { key: holder, batchSize: 1, authorizationCode: { redirectUri: REDIRECT_URI, authorize: followRedirect } },
      context,
    );
    expect(parsed.payload.cnf).toMatchObject({ jwk: { x: holder.publicJwk.x } });
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, credentialId));
    expect(row?.status).toBe('CLAIMED');
  });

  it('receives with DPoP (PAR and token proofs, bound token) and a batch when the issuer requires DPoP', async () => {
    const issuer = await buildIssuer('AC Holder DPoP', { dpopRequired: true });
    const { credentialId } = await issueTo(issuer, 'holder-dpop@example.com');
    const connect = (await walletHttp(t)(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
    const context = { fetch: fetchOf(t) };
    const issuance = await resolveCredentialOffer(connect.connection_url, context, { authorizationCode: true });
    const received = await holderRequestCredential(
      issuance,
      {
        key: await createHolderKey(),
        batchSize: 3,
        dpopKey: await createHolderKey(),
        authorizationCode: { redirectUri: REDIRECT_URI, authorize: followRedirect },
      },
      context,
    );
    expect(received.instances).toHaveLength(3);
  });

  it('starts from the issuer alone (wallet-initiated): proves the address and receives what was issued to it', async () => {
    const issuer = await buildIssuer('AC Holder Wallet');
    const email = 'holder-lost@example.com';
    const { credentialId } = await issueTo(issuer, email);
    const context = { fetch: fetchOf(t) };
    const issuance = await resolveWalletInitiatedIssuance(issuer.issuer, issuer.slug, context);
    const { parsed } = await holderRequestCredential(
      issuance,
      {
        key: await createHolderKey(),
        batchSize: 1,
        authorizationCode: { redirectUri: REDIRECT_URI, authorize: proveAddress(issuer, email) },
      },
      context,
    );
    expect(parsed.claims.full_name).toBe(email);
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, credentialId));
    expect(row?.status).toBe('CLAIMED');
  });
});

describe('wallet attestation through the authorization code flow', () => {
  /** An issuer requiring wallet attestations from a provider it trusts, and a wallet that has one. */
  async function attestedWallet(name: string) {
    const issuer = await buildIssuer(name);
    const ca = await makeCertificate({ subject: `CN=${name} CA`, ca: true });
    const signer = await makeCertificate({ subject: `CN=${name} Signer`, issuer: ca });
    const provider = await t.app.inject({
      method: 'POST',
      url: '/api/wallet-providers',
      headers: issuer.adminHeaders,
      payload: { name: `${name} provider`, certificate_pem: ca.pem },
    });
    expect(provider.statusCode, provider.body).toBe(201);
    const policy = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${issuer.organizationId}/issuer-policy`,
      headers: issuer.adminHeaders,
      payload: { dpop_required: false, wallet_attestation_required: true },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const instance = await createHolderKey();
    const now = Math.floor(Date.now() / 1000);
    const attestation = await signJwt(
      await signerFromPrivateJwk(signer.key.privateJwk),
      { typ: 'oauth-client-attestation+jwt', x5c: [signer.b64] },
      {
        iss: 'https://provider.example',
        sub: CLIENT_ID,
        iat: now - 60,
        exp: now + 3600,
        cnf: { jwk: instance.publicJwk },
      },
    );
    return { issuer, walletAttestation: { attestation, key: instance } };
  }

  it('names the attested wallet provider on the authorization page of a wallet-initiated request', async () => {
    const name = 'AC Attestation Page';
    const { issuer, walletAttestation } = await attestedWallet(name);
    const context = { fetch: fetchOf(t) };
    const issuance = await resolveWalletInitiatedIssuance(issuer.issuer, issuer.slug, context);
    let body = '';
    const stop = new Error('seen');
    const received = holderRequestCredential(
      issuance,
      {
        key: await createHolderKey(),
        batchSize: 1,
        walletAttestation,
        authorizationCode: {
          redirectUri: REDIRECT_URI,
          authorize: async (url) => {
            const { pathname, search } = new URL(url);
            body = (await t.app.inject({ url: `${pathname}${search}` })).body;
            throw stop;
          },
        },
      },
      context,
    );
    await expect(received).rejects.toThrow();
    expect(body).toContain('<strong data-recipient-origin>https://wallet.example</strong>');
    expect(body).toContain(`That wallet app is vouched for by <strong>${name} provider</strong>.`);
  });

  it('refuses a PAR without the attestation the policy requires', async () => {
    const { issuer } = await attestedWallet('AC Attestation Missing');
    const { offer } = await issueTo(issuer, 'attest-missing@example.com');
    const answer = await par(issuer, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      scope: issuer.slug,
      issuer_state: offer.grants.authorization_code.issuer_state,
    });
    expectOAuthError(answer, 401, 'invalid_client');
  });

  it('lets an attested wallet through PAR and token (client_id = the attestation sub) and records its provider', async () => {
    const { issuer, walletAttestation } = await attestedWallet('AC Attestation Valid');
    const { credentialId } = await issueTo(issuer, 'attest@example.com');
    const connect = (await walletHttp(t)(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
    const context = { fetch: fetchOf(t) };
    const issuance = await resolveCredentialOffer(connect.connection_url, context, { authorizationCode: true });
    await holderRequestCredential(
      issuance,
      {
        key: await createHolderKey(),
        batchSize: 1,
        walletAttestation,
        authorizationCode: { redirectUri: REDIRECT_URI, authorize: followRedirect },
      },
      context,
    );
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, credentialId));
    expect(row?.status).toBe('CLAIMED');
    expect(row?.walletProviderId).toBeTruthy();
  });
});
