import {
  bindIssuerKey,
  decodeJwt,
  decodeSdJwtVc,
  generateEs256KeyPair,
  type JwsSigner,
  resolveDidKeyReference,
  signerFromPrivateJwk,
  signJwt,
  statusFromToken,
  validateCertificationPath,
  verifyJwtSignature,
  verifySdJwtVc,
} from '@cp/credentials';
import { schema } from '@cp/db';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as credentialSchemasService from '../src/modules/credential-schemas/credential-schemas.service.ts';
import {
  buildOrganization,
  buildUser,
  buildVerifiedOrganization,
  startTestApp,
  type TestApp,
  WORK_CERTIFICATE_CLAIMS,
} from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** HTTP as a wallet sees it: absolute URLs answered by the app (GET/POST, JSON or form bodies). */
async function http(
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
  return { status: response.statusCode, headers: response.headers, body: response.body, json: () => response.json() };
}
const fetchJson = async (url: string) => (await http(url)).json();

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, {
    name: 'Diploma',
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'score', type: 'NUMBER' },
      { name: 'graduated', type: 'BOOLEAN' },
      { name: 'graduated_on', type: 'DATETIME' },
    ],
  });

async function createCredential(headers: Record<string, string>, schemaId: string, extra: object = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: {
        name: 'Diploma of Ada',
        schema_id: schemaId,
        claims: [
          { name: 'full_name', value: 'Ada Lovelace' },
          { name: 'score', value: '97.5' },
          { name: 'graduated', value: 'true' },
          { name: 'graduated_on', value: '1835-06-01' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      ...extra,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

/** The holder: a key pair, and the OpenID4VCI client steps. */
async function makeHolder() {
  const { privateJwk, publicJwk } = await generateEs256KeyPair();
  return { signer: await signerFromPrivateJwk(privateJwk), publicJwk };
}

async function proofJwt(holder: { signer: JwsSigner; publicJwk: JsonWebKey }, issuer: string, nonce?: string) {
  return signJwt(
    holder.signer,
    { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
    { aud: issuer, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}) },
  );
}

async function resolveOffer(connectionUrl: string) {
  const offerUri = new URL(connectionUrl).searchParams.get('credential_offer_uri');
  expect(connectionUrl.startsWith('openid-credential-offer://?credential_offer_uri=')).toBe(true);
  const offer = await fetchJson(offerUri!);
  const issuerMetadataUrl = `${new URL(offer.credential_issuer).origin}/.well-known/openid-credential-issuer${new URL(offer.credential_issuer).pathname}`;
  const metadata = await fetchJson(issuerMetadataUrl);
  const asUrl = `${new URL(offer.credential_issuer).origin}/.well-known/oauth-authorization-server${new URL(offer.credential_issuer).pathname}`;
  const as = await fetchJson(asUrl);
  return { offer, metadata, as };
}

describe('OpenID4VCI issuance of an SD-JWT VC', () => {
  it('lets a standard holder redeem an offer end to end, verifiable with public information only; revocation shows at once', async () => {
    const { organization, schemaRecord, headers } = await verifiedOrganization('Acme University');
    const created = await createCredential(headers, schemaRecord.schema.id);
    expect(created).toMatchObject({ status: 'CREATED', claims: { score: 97.5, graduated: true } });

    // The holder page (public) makes the offer.
    const connect = await http(`${t.config.publicUrl}/api/credentials/${created.id}/connect`);
    expect(connect.status).toBe(200);
    const page = connect.json();
    expect(page).toMatchObject({ status: 'ISSUED', issuer: { name: 'Acme University', verified: true } });
    expect(JSON.stringify(page)).not.toContain('ada@example.com');

    const { offer, metadata, as } = await resolveOffer(page.connection_url);
    const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
    expect(offer.credential_issuer).toBe(issuer);
    const configurationId = offer.credential_configuration_ids[0];
    expect(metadata.credential_configurations_supported[configurationId]).toMatchObject({
      format: 'dc+sd-jwt',
      vct: `${issuer}/vct/${configurationId}`,
    });
    expect(metadata.display.map((d: { locale: string }) => d.locale)).toEqual(['en', 'ja', 'es', 'ko']);

    const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    const token = await http(as.token_endpoint, {
      form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code },
    });
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    const { access_token } = token.json();
    const { c_nonce } = (await http(metadata.nonce_endpoint, { method: 'POST' })).json();

    const holder = await makeHolder();
    const credentialResponse = await http(metadata.credential_endpoint, {
      token: access_token,
      json: {
        credential_configuration_id: configurationId,
        proofs: { jwt: [await proofJwt(holder, issuer, c_nonce)] },
      },
    });
    expect(credentialResponse.status).toBe(200);
    const sdJwt: string = credentialResponse.json().credentials[0].credential;

    // The credential: typ, x5c chain to the platform CA, iss, vct, cnf, status, typed disclosures.
    const { header, payload } = decodeJwt(sdJwt.split('~')[0]!);
    expect(header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
    expect(payload).toMatchObject({
      iss: issuer,
      vct: `${issuer}/vct/${configurationId}`,
      cnf: { jwk: holder.publicJwk },
    });
    const ca = (await http(`${t.config.publicUrl}/api/platform/ca.pem`)).body;
    expect((await validateCertificationPath(header.x5c, [ca])).uris).toEqual([issuer]);
    const decoded = await decodeSdJwtVc(sdJwt);
    expect(decoded.claims).toMatchObject({
      full_name: 'Ada Lovelace',
      score: 97.5,
      graduated: true,
      graduated_on: '1835-06-01',
    });
    expect(decoded.disclosed.sort()).toEqual(['full_name', 'graduated', 'graduated_on', 'score']);

    // Signature through the issuer metadata, and through did:web.
    const bindOptions = { fetchJson, trustAnchors: [ca], allowHttp: () => true };
    expect(
      (await verifySdJwtVc(sdJwt, { resolveIssuerKey: (h, p) => bindIssuerKey(h, p, bindOptions) })).claims,
    ).toMatchObject({
      full_name: 'Ada Lovelace',
    });
    await verifySdJwtVc(sdJwt, { resolveIssuerKey: (h, p) => bindIssuerKey({ kid: h.kid }, p, bindOptions) });
    const did = `did:web:${encodeURIComponent(new URL(t.config.publicUrl).host)}:orgs:${organization.id}`;
    const viaDid = await resolveDidKeyReference(`${did}#${header.kid}`, fetchJson, { allowHttp: () => true });
    expect(await verifyJwtSignature(sdJwt.split('~')[0]!, viaDid)).toBe(true);

    // Type metadata at the vct URL.
    const vct = (await http(payload.vct as string)).json();
    expect(vct.claims.map((c: { path: string[] }) => c.path[0])).toEqual([
      'full_name',
      'score',
      'graduated',
      'graduated_on',
    ]);

    // Status: bit 0, then revoke, then bit 1 in the very next list.
    const status = payload.status as { status_list: { idx: number; uri: string } };
    const listBefore = await http(status.status_list.uri);
    expect(listBefore.headers['content-type']).toContain('application/statuslist+jwt');
    const signerKey = await bindIssuerKey(decodeJwt(listBefore.body).header, { iss: issuer }, bindOptions);
    expect(await verifyJwtSignature(listBefore.body, signerKey.jwk)).toBe(true);
    expect(statusFromToken(listBefore.body, status.status_list.idx)).toMatchObject({
      status: 0,
      sub: status.status_list.uri,
    });
    const claimed = await t.app.inject({ method: 'GET', url: `/api/credentials/${created.id}`, headers });
    expect(claimed.json()).toMatchObject({ status: 'CLAIMED' });

    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [created.id] },
    });
    expect(revoke.json()).toEqual({ revoked: [created.id] });
    expect(statusFromToken((await http(status.status_list.uri)).body, status.status_list.idx).status).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: '/api/credentials?filter.status=revoked', headers });
    expect(list.json().results.map((c: { id: string }) => c.id)).toEqual([created.id]);
    // The list carries the offer's expiry like the single read does.
    const one = (await t.app.inject({ method: 'GET', url: `/api/credentials/${created.id}`, headers })).json();
    expect(one.expired_at).not.toBeNull();
    expect(list.json().results[0].expired_at).toBe(one.expired_at);
  });

  it('refuses reuse, wrong tx_code, missing or reused nonces, foreign proofs, withdrawn offers and other organizations', async () => {
    const { organization, schemaRecord, headers } = await verifiedOrganization('Globex');
    const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
    const holder = await makeHolder();
    const tokenFor = (code: string, extra: Record<string, string> = {}) =>
      http(`${issuer}/token`, {
        form: {
          grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
          'pre-authorized_code': code,
          ...extra,
        },
      });

    // tx_code: the PIN is returned once at creation; a wrong one is refused; the right one works once.
    const withPin = await createCredential(headers, schemaRecord.schema.id, { tx_code: true });
    expect(withPin.tx_code).toMatch(/^\d{6}$/);
    const pinPage = (await http(`${t.config.publicUrl}/api/credentials/${withPin.id}/connect`)).json();
    expect(pinPage.tx_code_required).toBe(true);
    const pinOffer = (await resolveOffer(pinPage.connection_url)).offer;
    const pinCode = pinOffer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    expect((await tokenFor(pinCode)).json().error).toBe('invalid_request');
    const wrongPin = withPin.tx_code === '000000' ? '111111' : '000000';
    expect((await tokenFor(pinCode, { tx_code: wrongPin })).json().error).toBe('invalid_grant');
    const good = await tokenFor(pinCode, { tx_code: withPin.tx_code });
    expect(good.status).toBe(200);
    // The pre-authorized code a second time.
    const again = await tokenFor(pinCode, { tx_code: withPin.tx_code });
    expect(again.status).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    const accessToken = good.json().access_token;
    const configurationId = pinOffer.credential_configuration_ids[0];
    const request = (jwt: string, token = accessToken) =>
      http(`${issuer}/credential`, {
        token,
        json: { credential_configuration_id: configurationId, proofs: { jwt: [jwt] } },
      });

    // Missing nonce, unknown nonce.
    expect((await request(await proofJwt(holder, issuer))).json().error).toBe('invalid_nonce');
    expect((await request(await proofJwt(holder, issuer, 'made-up'))).json().error).toBe('invalid_nonce');
    // A proof whose header key is not the signing key.
    const other = await makeHolder();
    const nonce1 = (await http(`${issuer}/nonce`, { method: 'POST' })).json().c_nonce;
    const forged = await signJwt(
      other.signer,
      { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
      { aud: issuer, iat: Math.floor(Date.now() / 1000), nonce: nonce1 },
    );
    expect((await request(forged)).json().error).toBe('invalid_proof');
    // Wrong audience.
    const nonce2 = (await http(`${issuer}/nonce`, { method: 'POST' })).json().c_nonce;
    expect((await request(await proofJwt(holder, 'https://elsewhere.example', nonce2))).json().error).toBe(
      'invalid_proof',
    );
    // A good proof works; its nonce cannot be used again.
    const nonce3 = (await http(`${issuer}/nonce`, { method: 'POST' })).json().c_nonce;
    expect((await request(await proofJwt(holder, issuer, nonce3))).status).toBe(200);
    expect((await request(await proofJwt(holder, issuer, nonce3))).json().error).toMatch(
      /invalid_nonce|credential_request_denied/,
    );
    // Bad access token.
    const noToken = await request(await proofJwt(holder, issuer), 'nope');
    expect(noToken.status).toBe(401);
    expect(noToken.headers['www-authenticate']).toContain('invalid_token');

    // A revoked credential's offer cannot be redeemed, and its page shows no link.
    const revoked = await createCredential(headers, schemaRecord.schema.id);
    const revokedPage = (await http(`${t.config.publicUrl}/api/credentials/${revoked.id}/connect`)).json();
    const revokedOffer = (await resolveOffer(revokedPage.connection_url)).offer;
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [revoked.id] },
    });
    const revokedCode =
      revokedOffer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    expect((await tokenFor(revokedCode)).json().error).toBe('invalid_grant');
    expect((await http(`${t.config.publicUrl}/api/credentials/${revoked.id}/connect`)).json()).toMatchObject({
      status: 'REVOKED',
      connection_url: null,
    });

    // An expired offer cannot be redeemed and shows as EXPIRED.
    const late = await createCredential(headers, schemaRecord.schema.id);
    const latePage = (await http(`${t.config.publicUrl}/api/credentials/${late.id}/connect`)).json();
    const lateOffer = (await resolveOffer(latePage.connection_url)).offer;
    await t.runtime.ctx.database.db
      .update(schema.credentialOffers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.credentialOffers.credentialId, late.id));
    const lateCode = lateOffer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
    expect((await tokenFor(lateCode)).json().error).toBe('invalid_grant');
    expect((await t.app.inject({ method: 'GET', url: `/api/credentials/${late.id}`, headers })).json().status).toBe(
      'EXPIRED',
    );
    const expiredList = await t.app.inject({ method: 'GET', url: '/api/credentials?filter.status=expired', headers });
    expect(expiredList.json().results.map((c: { id: string }) => c.id)).toEqual([late.id]);
    const issuedList = await t.app.inject({ method: 'GET', url: '/api/credentials?filter.status=issued', headers });
    expect(issuedList.json().results.map((c: { id: string }) => c.id)).not.toContain(late.id);

    // Another organization's code at this issuer, and this issuer's schema from another organization.
    const foreign = await verifiedOrganization('Initech');
    const foreignCredential = await createCredential(foreign.headers, foreign.schemaRecord.schema.id);
    const foreignPage = (await http(`${t.config.publicUrl}/api/credentials/${foreignCredential.id}/connect`)).json();
    const foreignCode = (await resolveOffer(foreignPage.connection_url)).offer.grants[
      'urn:ietf:params:oauth:grant-type:pre-authorized_code'
    ]['pre-authorized_code'];
    expect((await tokenFor(foreignCode)).json().error).toBe('invalid_grant');
    const crossSchema = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: foreign.headers,
      payload: {
        credential: { name: 'X', schema_id: schemaRecord.schema.id, claims: {} },
        recipient: { email: 'x@example.com', first_name: 'X', last_name: 'Y' },
      },
    });
    expect(crossSchema.statusCode).toBe(404);
    // Another organization cannot read, revoke or delete this organization's credentials.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/credentials/${late.id}`, headers: foreign.headers })).statusCode,
    ).toBe(404);
    const crossRevoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: foreign.headers,
      payload: { credentials: [late.id] },
    });
    expect(crossRevoke.statusCode).toBe(404);
    const crossDelete = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/delete',
      headers: foreign.headers,
      payload: { credentials: [late.id] },
    });
    expect(crossDelete.statusCode).toBe(404);
    const crossList = await t.app.inject({
      method: 'GET',
      url: '/api/credentials?limit=100',
      headers: foreign.headers,
    });
    expect(crossList.json().results.map((c: { id: string }) => c.id)).toEqual([foreignCredential.id]);
    // And this organization's credential is untouched.
    expect((await t.app.inject({ method: 'GET', url: `/api/credentials/${late.id}`, headers })).statusCode).toBe(200);
  });

  it('refuses for its token, its configuration or a withdrawal before all else, and spends no nonce doing so', async () => {
    const { organization, schemaRecord, headers } = await verifiedOrganization('Hooli');
    const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
    const holder = await makeHolder();
    // Spent nonces are rows (a fresh one is stateless): the count says whether a request spent one.
    const nonces = async () => (await t.runtime.ctx.database.db.select({ n: count() }).from(schema.nonces))[0]!.n;
    const offerToken = async () => {
      const credential = await createCredential(headers, schemaRecord.schema.id);
      const page = (await http(`${t.config.publicUrl}/api/credentials/${credential.id}/connect`)).json();
      const offer = (await resolveOffer(page.connection_url)).offer;
      const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
      const token = await http(`${issuer}/token`, {
        form: { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code },
      });
      expect(token.status).toBe(200);
      return {
        credential,
        accessToken: token.json().access_token as string,
        configurationId: offer.credential_configuration_ids[0] as string,
      };
    };
    const freshProof = async () =>
      proofJwt(holder, issuer, (await http(`${issuer}/nonce`, { method: 'POST' })).json().c_nonce);
    const request = (token: string, configurationId: string, jwt: string) =>
      http(`${issuer}/credential`, {
        token,
        json: { credential_configuration_id: configurationId, proofs: { jwt: [jwt] } },
      });

    // A good proof for another configuration than the token grants: refused, its nonce still fresh.
    const first = await offerToken();
    const proof = await freshProof();
    const before = await nonces();
    const otherConfiguration = await request(first.accessToken, 'another-schema', proof);
    expect(otherConfiguration.json().error).toBe('unknown_credential_configuration');
    expect(await nonces()).toBe(before);
    expect((await request(first.accessToken, first.configurationId, proof)).status).toBe(200);
    expect(await nonces()).toBe(before + 1);

    // An unknown token is refused as such, whatever else is wrong with the request (a forged proof, no
    // configuration, another configuration), and a good proof with it is not spent.
    const forged = await signJwt(
      (await makeHolder()).signer,
      { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk },
      { aud: issuer, iat: Math.floor(Date.now() / 1000), nonce: 'made-up' },
    );
    for (const answer of [
      await request('not-a-token', first.configurationId, forged),
      await request('not-a-token', 'another-schema', forged),
      await http(`${issuer}/credential`, { token: 'not-a-token', json: { proofs: { jwt: [forged] } } }),
      await request('not-a-token', first.configurationId, await freshProof()),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toContain('invalid_token');
    }
    expect(await nonces()).toBe(before + 1);

    // An expired token, and a token of this organization at another organization's issuer.
    const second = await offerToken();
    const foreign = await verifiedOrganization('Pied Piper');
    const foreignIssuer = `${t.config.publicUrl}/orgs/${foreign.organization.id}`;
    const foreignProof = await proofJwt(
      holder,
      foreignIssuer,
      (await http(`${foreignIssuer}/nonce`, { method: 'POST' })).json().c_nonce,
    );
    const atForeign = await http(`${foreignIssuer}/credential`, {
      token: second.accessToken,
      json: { credential_configuration_id: second.configurationId, proofs: { jwt: [foreignProof] } },
    });
    expect(atForeign.status).toBe(401);
    await t.runtime.ctx.database.db
      .update(schema.credentialOffers)
      .set({ accessTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.credentialOffers.credentialId, second.credential.id));
    const expired = await request(second.accessToken, second.configurationId, await freshProof());
    expect(expired.status).toBe(401);
    expect(expired.headers['www-authenticate']).toContain('invalid_token');
    expect(await nonces()).toBe(before + 1);

    // A credential revoked after its token was issued: refused, nothing spent, nothing claimed.
    const third = await offerToken();
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers,
      payload: { credentials: [third.credential.id] },
    });
    const revoked = await request(third.accessToken, third.configurationId, await freshProof());
    expect(revoked.json().error).toBe('credential_request_denied');
    expect(await nonces()).toBe(before + 1);
    const [row] = await t.runtime.ctx.database.db
      .select({ status: schema.credentials.status, holderJwk: schema.credentials.holderJwk })
      .from(schema.credentials)
      .where(eq(schema.credentials.id, third.credential.id));
    expect(row).toEqual({ status: 'REVOKED', holderJwk: null });
  });

  it('only a verified organization issues, with claims typed and checked by the schema', async () => {
    const member = await buildUser(t);
    const organization = await buildOrganization(t, member.user.id, 'Unverified Co');
    const record = await credentialSchemasService.createCredentialSchema(
      t.runtime.ctx.database.db,
      { organizationId: organization.id, userId: member.user.id, actor: { kind: 'user', userId: member.user.id } },
      { name: 'Badge', attributes: [{ name: 'level', type: 'NUMBER' }] },
    );
    const headers = { ...member.auth, currentidentity: organization.id };
    const payload = {
      credential: { name: 'Badge', schema_id: record.schema.id, claims: { level: '3' } },
      recipient: { email: 'a@example.com', first_name: 'A', last_name: 'B' },
    };
    const refused = await t.app.inject({ method: 'POST', url: '/api/credentials/with-recipient', headers, payload });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ORGANIZATION_NOT_VERIFIED');

    const { headers: verifiedHeaders, schemaRecord } = await verifiedOrganization('Typed Co');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: verifiedHeaders,
      payload: {
        credential: {
          name: 'D',
          schema_id: schemaRecord.schema.id,
          claims: { full_name: 'A', score: 'high', extra: 'x' },
        },
        recipient: { email: 'a@example.com', first_name: 'A', last_name: 'B' },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('CREDENTIAL_CLAIMS_INVALID');
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['credential.claims.score', 'credential.claims.graduated', 'credential.claims.extra']),
    );
  });
});

describe('the schema a credential is issued from', () => {
  it("is one the organization sees: not another organization's, not deleted, not verify-only", async () => {
    const mine = await verifiedOrganization('Schema Owner Co');
    const theirs = await verifiedOrganization('Other Schema Co');
    const issue = (schemaId: string, claims: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/credentials/with-recipient',
        headers: mine.headers,
        payload: {
          credential: { name: 'Badge', schema_id: schemaId, claims },
          recipient: { email: 'a@example.com', first_name: 'A', last_name: 'B' },
        },
      });
    const foreign = await issue(theirs.schemaRecord.schema.id, {
      full_name: 'A',
      score: '1',
      graduated: 'true',
      graduated_on: '2020-05-01',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('CREDENTIAL_SCHEMA_NOT_FOUND');
    expect((await issue(crypto.randomUUID(), { full_name: 'A' })).json().code).toBe('CREDENTIAL_SCHEMA_NOT_FOUND');

    const diploma = { full_name: 'Ada', score: '3', graduated: 'true', graduated_on: '2020-05-01' };
    const own = await issue(mine.schemaRecord.schema.id, diploma);
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ schema: { id: mine.schemaRecord.schema.id } });
    const schemas = (await t.app.inject({ url: '/api/schemas?limit=100', headers: mine.headers })).json().results as {
      id: string;
      slug: string;
    }[];
    const work = schemas.find((s) => s.slug === 'work-certificate')!;
    const platform = await issue(work.id, WORK_CERTIFICATE_CLAIMS);
    expect(platform.statusCode, platform.body).toBe(201);
    const kyc = schemas.find((s) => s.slug === 'kyc')!;
    const verifyOnly = await issue(kyc.id, { first_name: 'Grace' });
    expect(verifyOnly.statusCode).toBe(409);
    expect(verifyOnly.json().code).toBe('CREDENTIAL_SCHEMA_ISSUE_DISABLED');

    const unused = await t.app.inject({
      method: 'POST',
      url: '/api/schemas',
      headers: mine.headers,
      payload: { name: 'Retired badge', attributes: [{ name: 'level', type: 'NUMBER' }] },
    });
    expect(unused.statusCode, unused.body).toBe(201);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/schemas/${unused.json().id}`,
      headers: mine.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await issue(unused.json().id, { level: '1' })).json().code).toBe('CREDENTIAL_SCHEMA_NOT_FOUND');
  });
});

describe('platform schemas in the issuer metadata', () => {
  it('share one vct across issuers and read in each language; organization schemas keep their own names', async () => {
    const { organization } = await verifiedOrganization('Multilingual College');
    const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
    const metadata = await fetchJson(
      `${t.config.publicUrl}/.well-known/openid-credential-issuer/orgs/${organization.id}`,
    );
    const work = metadata.credential_configurations_supported['work-certificate'];
    expect(work.vct).toBe(`${t.config.publicUrl}/vct/work-certificate`);
    const name = (locale: string) =>
      work.credential_metadata.display.find((d: { locale: string }) => d.locale === locale).name;
    expect([name('en'), name('ja'), name('es'), name('ko')]).toEqual([
      'Work Certificate',
      '在職証明書',
      'Certificado laboral',
      '재직 증명서',
    ]);
    const jobTitle = work.credential_metadata.claims.find((c: { path: string[] }) => c.path[0] === 'job_title');
    expect(jobTitle.display.find((d: { locale: string }) => d.locale === 'ko').name).toBe('직책');
    // The shared type's metadata lives at the platform, not under an issuer.
    const type = await http(`${t.config.publicUrl}/vct/work-certificate`);
    expect(type.status).toBe(200);
    expect(type.json()).toMatchObject({ vct: `${t.config.publicUrl}/vct/work-certificate` });
    expect((await http(`${issuer}/vct/work-certificate`)).status).toBe(404);
    // The organization's own schema: its issuer-scoped vct, its name as typed in every language.
    const own = Object.entries(metadata.credential_configurations_supported).find(([id]) => id.startsWith('diploma'));
    const [ownId, ownConfiguration] = own as [
      string,
      { vct: string; credential_metadata: { display: { name: string }[] } },
    ];
    expect(ownConfiguration.vct).toBe(`${issuer}/vct/${ownId}`);
    expect(new Set(ownConfiguration.credential_metadata.display.map((d) => d.name))).toEqual(new Set(['Diploma']));
  });
});
