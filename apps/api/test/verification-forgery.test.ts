import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CredentialSchema } from '@cp/contracts';
import {
  didJwkFromJwk,
  didWebFromUrl,
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  type JwsSigner,
  signerFromPrivateJwk,
  signJwt,
  signStatusListToken,
} from '@cp/credentials';
import { makeCertificate, type TestCertificate } from '@cp/credentials/testing';
import * as x509 from '@peculiar/x509';
import { CompactEncrypt, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getActiveSigner } from '../src/modules/organization-keys/organization-keys.service.ts';
import { buildOrganization, buildUser, buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { startDocumentServer } from './support/document-server.ts';
import {
  claimCredential,
  type Holder,
  makeHolder,
  presentCredential,
  resolveRequest,
  walletHttp,
} from './support/wallet.ts';

/**
 * The verifier as an attacker sees it, one negative case per test in the style of the OpenID Foundation
 * conformance suite's verifier tests: forged issuer keys in every variant, certificate paths that abuse a
 * leaf or break CA rules, status lists of another issuer, types of another issuer, downgrades, unreadable
 * responses, and results written for someone else's customer. Each ends FAILED (with the check that caught
 * it, and no claims kept) or refused; never VERIFIED.
 */

let t: TestApp;
let peer: Awaited<ReturnType<typeof startDocumentServer>>;
let victim: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let other: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let attacker: { signer: JwsSigner; publicJwk: JsonWebKey; privateJwk: JsonWebKey };
let holder: Holder;
let listCa: TestCertificate;
let strictListCa: TestCertificate;
let victimIss: string;
let victimVct: string;
let genuine: { credential: string; holder: Holder };

beforeAll(async () => {
  const pair = await generateEs256KeyPair();
  attacker = { ...pair, signer: await signerFromPrivateJwk(pair.privateJwk) };
  // Two CAs every organization may rely on (VERIFIER_TRUST_ANCHORS_FILE); one allows no intermediate CA.
  listCa = await makeCertificate({ subject: 'CN=Listed CA', ca: { pathLength: 1 } });
  strictListCa = await makeCertificate({ subject: 'CN=Strict Listed CA', ca: { pathLength: 0 } });
  const anchors = path.join(mkdtempSync(path.join(tmpdir(), 'cp-anchors-')), 'anchors.pem');
  writeFileSync(anchors, `${listCa.pem}\n${strictListCa.pem}`);
  peer = await startDocumentServer();
  t = await startTestApp({ env: { VERIFIER_TRUST_ANCHORS_FILE: anchors } });
  victim = await buildVerifiedOrganization(t, 'Victim University', {
    name: 'Diploma',
    attributes: [{ name: 'degree', type: 'TEXT' }],
  });
  other = await buildVerifiedOrganization(t, 'Other College', {
    name: 'Other',
    attributes: [{ name: 'degree', type: 'TEXT' }],
  });
  victimIss = `${t.config.publicUrl}/orgs/${victim.organization.id}`;
  victimVct = `${victimIss}/vct/${victim.schemaRecord.schema.slug}`;
  holder = await makeHolder();
  genuine = await issueAndClaim('BSc');
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});

/** A genuine credential of the victim's schema, issued by the victim through its API and claimed. */
async function issueAndClaim(degree: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: victim.headers,
    payload: {
      credential: { name: 'Diploma', schema_id: victim.schemaRecord.schema.id, claims: { degree } },
      recipient: { email: 'grad@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  const owner = await makeHolder();
  return { holder: owner, credential: await claimCredential(t, connect.connection_url, owner) };
}

/** A credential claiming to be the victim's, signed by whoever `signer` is. */
function forge(input: { iss?: string; header: { kid?: string; x5c?: string[] }; signer?: JwsSigner; vct?: string }) {
  return issueSdJwtVc({
    signer: input.signer ?? attacker.signer,
    header: input.header,
    issuer: input.iss ?? victimIss,
    vct: input.vct ?? victimVct,
    holderJwk: holder.publicJwk,
    claims: { degree: 'PhD (forged)' },
  });
}

async function createVerification(body: object = {}, headers = victim.headers) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers,
    payload: { name: 'Diploma check', schema_id: victim.schemaRecord.schema.id, type: 'MULTI', ...body },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string };
}

async function startAttempt(verificationId: string, extra: object = {}) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId, ...extra },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  return { individual, connect };
}

interface Row {
  id: string;
  status: string;
  customer_id: string;
  customer_verified: boolean;
  issuer: string | null;
  presented_claims: Record<string, unknown>;
  issuer_trust: { reason: string; detail: string } | null;
  checks: { code: string; passed: boolean; detail?: string }[];
}

const attemptRow = async (verificationId: string, attemptId: string, headers = victim.headers): Promise<Row> =>
  (await t.app.inject({ url: `/api/verifications/${verificationId}/attempts/${attemptId}`, headers })).json();

/** Presents `credential` to a fresh attempt of a verification made with `body`; answers the recorded row. */
async function present(credential: string, body: object = {}, who = holder, headers = victim.headers): Promise<Row> {
  const verification = await createVerification(body, headers);
  const { individual, connect } = await startAttempt(verification.id);
  const response = await presentCredential(t, connect.connection_url, credential, who);
  expect(response.status, response.body).toBe(200);
  return attemptRow(verification.id, individual.id, headers);
}

const failed = (row: Row) => row.checks.filter((c) => !c.passed).map((c) => c.code);
const detailOf = (row: Row, code: string) => row.checks.find((c) => c.code === code)?.detail ?? '';

/** The outcome of a forgery: FAILED at ISSUER_SIGNATURE (the first check, which ends the checks), nothing kept. */
function expectForgeryRefused(row: Row, detail: RegExp) {
  expect(row.status).toBe('FAILED');
  expect(failed(row)).toEqual(['ISSUER_SIGNATURE']);
  expect(detailOf(row, 'ISSUER_SIGNATURE')).toMatch(detail);
  // Neither the claims nor the issuer it names are recorded as anyone's.
  expect(row.presented_claims).toEqual({});
  expect(row.issuer).toBeNull();
  expect(row.issuer_trust).toBeNull();
}

describe('the genuine credential', () => {
  it('is VERIFIED (so every refusal below is the forgery, not the setup)', async () => {
    const row = await present(genuine.credential, {}, genuine.holder);
    expect(row.status).toBe('VERIFIED');
    expect(row.presented_claims).toEqual({ degree: 'BSc' });
  });
});

describe('stolen and replayed presentations', () => {
  it("a genuine credential presented with another holder's key (a stolen credential)", async () => {
    const row = await present(genuine.credential, {}, holder);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['KEY_BINDING']);
    expect(row.presented_claims).toEqual({});
  });

  it('a presentation made for another verifier, or for another request', async () => {
    const verification = await createVerification();
    for (const options of [{ audience: 'x509_hash:another-verifier' }, { nonce: 'another-request' }]) {
      const { individual, connect } = await startAttempt(verification.id);
      const response = await presentCredential(t, connect.connection_url, genuine.credential, genuine.holder, options);
      expect(response.status).toBe(200);
      const row = await attemptRow(verification.id, individual.id);
      expect(row.status).toBe('FAILED');
      expect(failed(row)).toEqual([options.audience ? 'AUDIENCE' : 'NONCE']);
      expect(row.presented_claims).toEqual({});
    }
  });

  it('the same response posted again: refused, the outcome recorded once', async () => {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    const { payload } = await resolveRequest(t, connect.connection_url);
    const first = await presentCredential(t, connect.connection_url, genuine.credential, genuine.holder).catch(
      () => undefined,
    );
    expect(first?.status ?? 200).toBe(200);
    const replay = await walletHttp(t)(payload.response_uri, {
      form: { error: 'access_denied', state: payload.state },
    });
    expect(replay.status).toBe(400);
    expect((await attemptRow(verification.id, individual.id)).status).toBe('VERIFIED');
  });
});

describe('forged issuer keys: a did:jwk of the attacker’s key speaking for a real organization', () => {
  const did = () => didJwkFromJwk(attacker.publicJwk);

  it('iss = the organization’s issuer URL, default policy', async () => {
    const row = await present(await forge({ header: { kid: `${did()}#0` } }));
    expectForgeryRefused(row, /not the issuer/);
  });

  it('iss = the organization’s issuer URL, the trusted-issuer list naming that URL', async () => {
    const row = await present(await forge({ header: { kid: `${did()}#0` } }), { trusted_issuers: [victimIss] });
    expectForgeryRefused(row, /not the issuer/);
  });

  it('iss = the organization’s issuer URL, the list naming its did:web', async () => {
    const row = await present(await forge({ header: { kid: `${did()}#0` } }), {
      trusted_issuers: [didWebFromUrl(victimIss)],
    });
    expectForgeryRefused(row, /not the issuer/);
  });

  it('iss = the organization’s issuer URL, under "any issuer"', async () => {
    const row = await present(await forge({ header: { kid: `${did()}#0` } }), { trust_policy: 'ANY_ISSUER' });
    expectForgeryRefused(row, /not the issuer/);
  });

  it('iss = the organization’s did:web, kid a did:jwk', async () => {
    const row = await present(await forge({ iss: didWebFromUrl(victimIss), header: { kid: `${did()}#0` } }), {
      trust_policy: 'ANY_ISSUER',
    });
    expectForgeryRefused(row, /not the issuer/);
  });

  it('kid naming a key the organization’s DID document does not list', async () => {
    const row = await present(await forge({ header: { kid: `${didWebFromUrl(victimIss)}#attacker` } }), {
      trust_policy: 'ANY_ISSUER',
    });
    expectForgeryRefused(row, /no key/);
  });

  it('a plain kid the organization’s metadata does not publish', async () => {
    const row = await present(await forge({ header: { kid: 'attacker-key' } }), { trust_policy: 'ANY_ISSUER' });
    expectForgeryRefused(row, /publishes no key attacker-key/);
  });

  it('the organization’s own key id, signed with the attacker’s key', async () => {
    const { kid } = await getActiveSigner(t.runtime.ctx.keys, victim.organization.id);
    const row = await present(await forge({ header: { kid } }), { trust_policy: 'ANY_ISSUER' });
    expectForgeryRefused(row, /signature does not verify/);
  });
});

describe('forged certificate paths', () => {
  it('a self-signed certificate naming the organization', async () => {
    const self = await makeCertificate({ subject: 'CN=Victim University', uris: [victimIss], key: attacker });
    const row = await present(await forge({ header: { x5c: [self.b64] } }), { trust_policy: 'ANY_ISSUER' });
    // The certificate counts for nothing; the organization's own metadata key does not verify the forgery.
    expectForgeryRefused(row, /signature does not verify/);
    const elsewhere = await makeCertificate({
      subject: 'CN=Nobody',
      uris: ['https://nobody.example/issuer'],
      key: attacker,
    });
    const unknown = await present(
      await forge({ iss: 'https://nobody.example/issuer', header: { x5c: [elsewhere.b64] } }),
      {
        trust_policy: 'ANY_ISSUER',
      },
    );
    expectForgeryRefused(unknown, /trusted certificate authority/);
  });

  it('a leaf used as a CA: a certificate under a listed CA signs one naming another issuer', async () => {
    const issuerLeafKey = await generateEs256KeyPair();
    const leaf = await makeCertificate({
      subject: 'CN=Listed Issuer',
      issuer: listCa,
      uris: ['https://listed.example'],
      key: issuerLeafKey,
    });
    const forged = await makeCertificate({
      subject: 'CN=Forged',
      issuer: leaf,
      uris: ['https://victim.example/issuer'],
      key: attacker,
    });
    const row = await present(
      await forge({ iss: 'https://victim.example/issuer', header: { x5c: [forged.b64, leaf.b64] } }),
      { trust_policy: 'TRUST_ANCHORS' },
    );
    expectForgeryRefused(row, /not a CA/);
  });

  it("a path longer than the anchor's pathLenConstraint", async () => {
    const sub = await makeCertificate({ subject: 'CN=Sub CA', issuer: strictListCa, ca: true });
    const leaf = await makeCertificate({
      subject: 'CN=Deep',
      issuer: sub,
      uris: ['https://deep.example/issuer'],
      key: attacker,
    });
    const row = await present(
      await forge({ iss: 'https://deep.example/issuer', header: { x5c: [leaf.b64, sub.b64] } }),
      {
        trust_policy: 'TRUST_ANCHORS',
      },
    );
    expectForgeryRefused(row, /intermediate certificate/);
  });

  it('an intermediate CA without keyCertSign', async () => {
    const sub = await makeCertificate({
      subject: 'CN=Signing-only CA',
      issuer: listCa,
      ca: true,
      keyUsage: x509.KeyUsageFlags.digitalSignature,
    });
    const leaf = await makeCertificate({
      subject: 'CN=Leaf',
      issuer: sub,
      uris: ['https://usage.example/issuer'],
      key: attacker,
    });
    const row = await present(
      await forge({ iss: 'https://usage.example/issuer', header: { x5c: [leaf.b64, sub.b64] } }),
      {
        trust_policy: 'TRUST_ANCHORS',
      },
    );
    expectForgeryRefused(row, /keyCertSign/);
  });

  it('a certificate whose SAN names another issuer', async () => {
    const leaf = await makeCertificate({
      subject: 'CN=Elsewhere',
      issuer: listCa,
      uris: ['https://elsewhere.example'],
      key: attacker,
    });
    const row = await present(await forge({ iss: 'https://mismatch.example/issuer', header: { x5c: [leaf.b64] } }), {
      trust_policy: 'TRUST_ANCHORS',
    });
    expectForgeryRefused(row, /does not name the issuer/);
  });

  it("a listed CA's certificate for this platform's organization: only the platform vouches for its issuers", async () => {
    const leaf = await makeCertificate({
      subject: 'CN=Victim University',
      issuer: listCa,
      uris: [victimIss],
      key: attacker,
    });
    for (const policy of ['TRUST_ANCHORS', 'PLATFORM_VERIFIED', 'ANY_ISSUER']) {
      const row = await present(await forge({ header: { x5c: [leaf.b64] } }), { trust_policy: policy });
      expect(row.status).toBe('FAILED');
      expect(failed(row)).toContain('TRUSTED_ISSUER');
      expect(row.issuer_trust?.reason).toBe('PLATFORM_ISSUER_NOT_CERTIFIED_BY_PLATFORM');
    }
  });
});

describe('a type belongs to its issuer', () => {
  it("another verified organization of the platform issuing the victim's type", async () => {
    const signer = await getActiveSigner(t.runtime.ctx.keys, other.organization.id);
    const credential = await forge({
      iss: `${t.config.publicUrl}/orgs/${other.organization.id}`,
      header: { kid: signer.kid, x5c: signer.x5c },
      signer: signer.signer,
    });
    const row = await present(credential);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['CREDENTIAL_TYPE']);
    expect(detailOf(row, 'CREDENTIAL_TYPE')).toMatch(/belongs to another organization/);
  });

  it("an organization that has not passed KYB issuing the platform's shared type", async () => {
    const { user } = await buildUser(t);
    const unverified = await buildOrganization(t, user.id, 'Unverified Ltd');
    const schemas = (await t.app.inject({ url: '/api/schemas?limit=100', headers: victim.headers })).json()
      .results as CredentialSchema[];
    const kyc = schemas.find((s) => s.slug === 'kyc')!;
    const signer = await getActiveSigner(t.runtime.ctx.keys, unverified.id);
    const credential = await issueSdJwtVc({
      signer: signer.signer,
      header: { kid: signer.kid, x5c: signer.x5c },
      issuer: `${t.config.publicUrl}/orgs/${unverified.id}`,
      vct: `${t.config.publicUrl}/vct/kyc`,
      holderJwk: holder.publicJwk,
      claims: Object.fromEntries(kyc.attributes.map((a) => [a.name, a.type === 'NUMBER' ? 1 : 'x'])),
    });
    const byDefault = await present(credential, { schema_id: kyc.id });
    expect(failed(byDefault)).toEqual(['TRUSTED_ISSUER', 'CREDENTIAL_TYPE']);
    expect(byDefault.issuer_trust?.reason).toBe('ORGANIZATION_NOT_VERIFIED');
    const anyIssuer = await present(credential, { schema_id: kyc.id, trust_policy: 'ANY_ISSUER' });
    expect(failed(anyIssuer)).toEqual(['CREDENTIAL_TYPE']);
    expect(detailOf(anyIssuer, 'CREDENTIAL_TYPE')).toMatch(/only organizations that passed KYB/);
  });
});

describe('status lists', () => {
  it('a status list token signed by another issuer does not vouch for the credential', async () => {
    const pair = await generateEs256KeyPair();
    const issuer = { ...pair, signer: await signerFromPrivateJwk(pair.privateJwk) };
    const issuerDid = didJwkFromJwk(issuer.publicJwk);
    const attackerDid = didJwkFromJwk(attacker.publicJwk);
    const uri = `${peer.origin}/status/forged`;
    // The issuer revoked index 3; the attacker serves a list saying "valid", signed with their own DID.
    peer.documents.set('/status/forged', async () => ({
      type: 'application/statuslist+jwt',
      body: await signStatusListToken({
        signer: attacker.signer,
        header: { kid: `${attackerDid}#0` },
        uri,
        lst: encodeStatusList(8, []),
        ttl: 60,
      }),
    }));
    const credential = await issueSdJwtVc({
      signer: issuer.signer,
      header: { kid: `${issuerDid}#0` },
      issuer: issuerDid,
      vct: 'https://partner.example/vct/pass',
      holderJwk: holder.publicJwk,
      claims: { degree: 'MSc' },
      status: { idx: 3, uri },
    });
    const row = await present(credential, {
      schema_id: undefined,
      credential: {
        format: 'dc+sd-jwt',
        vct_values: ['https://partner.example/vct/pass'],
        claims: [{ name: 'degree', path: ['degree'], type: 'TEXT' }],
      },
      trusted_issuers: [issuerDid],
    });
    expect(failed(row)).toEqual(['STATUS']);
    expect(detailOf(row, 'STATUS')).toMatch(/not signed by the issuer/);
  });
});

describe('the response endpoint', () => {
  async function openAttempt() {
    const verification = await createVerification();
    const { individual, connect } = await startAttempt(verification.id);
    const { payload } = await resolveRequest(t, connect.connection_url);
    const post = (form: Record<string, string>) => walletHttp(t)(payload.response_uri, { form });
    return { verification, individual, connect, payload, post };
  }

  it('refuses a plain vp_token when direct_post.jwt was asked for (downgrade), recording nothing', async () => {
    const { individual, connect } = await openAttempt();
    const response = await presentCredential(t, connect.connection_url, genuine.credential, genuine.holder, {
      mode: 'direct_post',
    });
    expect(response.status).toBe(400);
    expect(response.json().error).toBe('invalid_request');
    expect((await t.app.inject({ url: `/api/verifications/${individual.id}/verify` })).json().status).toBe('REQUESTED');
  });

  it('refuses a body that cannot be decrypted, a signed-only JWT, garbage, and a JWE without this state', async () => {
    const { payload, post, verification, individual } = await openAttempt();
    const other = await generateEs256KeyPair();
    const encryptTo = async (jwk: JsonWebKey, body: object) =>
      new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
        .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM' })
        .encrypt(await importJWK({ ...jwk, alg: undefined } as never, 'ECDH-ES'));
    const answer = { vp_token: { credential: ['x~'] }, state: payload.state };
    const cases: Record<string, string>[] = [
      { response: await encryptTo(other.publicJwk, answer) },
      { response: await signJwt(attacker.signer, { typ: 'JWT' }, answer) },
      { response: 'not-a-jwe' },
      {
        response: await encryptTo(payload.client_metadata.jwks.keys[0] as JsonWebKey, {
          vp_token: { credential: ['x~'] },
        }),
      },
      {
        response: await encryptTo(payload.client_metadata.jwks.keys[0] as JsonWebKey, {
          vp_token: { credential: ['x~'] },
          state: 'other',
        }),
      },
      {
        response: await encryptTo(payload.client_metadata.jwks.keys[0] as JsonWebKey, {
          vp_token: { other: ['x~'] },
          state: payload.state,
        }),
      },
      {
        response: await encryptTo(payload.client_metadata.jwks.keys[0] as JsonWebKey, {
          vp_token: { credential: ['a~', 'b~'] },
          state: payload.state,
        }),
      },
    ];
    for (const form of cases) {
      const response = await post(form);
      expect(response.status, JSON.stringify(form).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    }
    const row = await attemptRow(verification.id, individual.id);
    expect(row.status).toBe('REQUESTED');
    expect(row.checks).toEqual([]);
  });
});

describe("results for someone else's customer", () => {
  const lookup = (verificationId: string, customer: string) =>
    t.app.inject({ url: `/api/verifications/${verificationId}/individuals/${customer}`, headers: victim.headers });

  it('an unsigned ?customer= from the public is a label: it never answers the integrator’s lookup', async () => {
    const verification = await createVerification();
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/verifications/${verification.id}/individuals`,
      headers: victim.headers,
      payload: { customer_id: 'customer-7' },
    });
    expect(started.statusCode).toBe(201);
    const connect = (await t.app.inject({ url: `/api/verifications/${started.json().id}/connect` })).json();
    const failedGenuine = await issueAndClaim('Diploma of customer 7');
    // The real customer has not presented yet: the integrator's attempt is still open.
    expect((await lookup(verification.id, 'customer-7')).json()).toMatchObject({
      id: started.json().id,
      status: 'CREATED',
    });

    // The attacker opens the public link as "customer-7" and presents their own, valid credential.
    const hijack = await startAttempt(verification.id, { customer_id: 'customer-7' });
    expect(hijack.individual).toMatchObject({ customer_id: 'customer-7' });
    const response = await presentCredential(t, hijack.connect.connection_url, genuine.credential, genuine.holder);
    expect(response.status).toBe(200);
    const hijackRow = await attemptRow(verification.id, hijack.individual.id);
    expect(hijackRow).toMatchObject({ status: 'VERIFIED', customer_verified: false });
    expect((await lookup(verification.id, 'customer-7')).json()).toMatchObject({
      id: started.json().id,
      status: 'CREATED',
    });

    // The real customer presents through the integrator's attempt: that is the answer.
    expect(
      (await presentCredential(t, connect.connection_url, failedGenuine.credential, failedGenuine.holder)).status,
    ).toBe(200);
    const answer = await lookup(verification.id, 'customer-7');
    expect(answer.json()).toMatchObject({ id: started.json().id, status: 'VERIFIED', customer_verified: true });

    // A later decline through the public link does not turn it into FAILED.
    const decline = await startAttempt(verification.id, { customer_id: 'customer-7' });
    const { payload } = await resolveRequest(t, decline.connect.connection_url);
    expect(
      (await walletHttp(t)(payload.response_uri, { form: { error: 'access_denied', state: payload.state } })).status,
    ).toBe(200);
    expect((await lookup(verification.id, 'customer-7')).json()).toMatchObject({
      id: started.json().id,
      status: 'VERIFIED',
    });
  });

  it('a link signed with the verification’s secret vouches for its customer; tampered, expired or old-secret links are refused', async () => {
    const verification = await createVerification();
    const secret = (
      await t.app.inject({ url: `/api/verifications/${verification.id}/link-secret`, headers: victim.headers })
    ).json().secret as string;
    expect(secret).toMatch(/^[\w-]{40,}$/);
    const sign = (key: string, customer: string, expires: number) =>
      createHmac('sha256', key).update(`${verification.id}.${customer}.${expires}`).digest('base64url');
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const signed = await startAttempt(verification.id, {
      customer_id: 'customer-9',
      expires,
      signature: sign(secret, 'customer-9', expires),
    });
    expect(signed.individual.customer_id).toBe('customer-9');
    expect((await presentCredential(t, signed.connect.connection_url, genuine.credential, genuine.holder)).status).toBe(
      200,
    );
    expect((await lookup(verification.id, 'customer-9')).json()).toMatchObject({
      id: signed.individual.id,
      customer_verified: true,
    });

    const attempt = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/verifications/individuals',
        payload: { verification_id: verification.id, ...body },
      });
    const tampered = await attempt({
      customer_id: 'customer-10',
      expires,
      signature: sign(secret, 'customer-9', expires),
    });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json().code).toBe('VERIFICATION_LINK_SIGNATURE_INVALID');
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await attempt({
      customer_id: 'customer-9',
      expires: past,
      signature: sign(secret, 'customer-9', past),
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().code).toBe('VERIFICATION_LINK_EXPIRED');
    const rotated = (
      await t.app.inject({
        method: 'POST',
        url: `/api/verifications/${verification.id}/link-secret`,
        headers: victim.headers,
      })
    ).json().secret as string;
    expect(rotated).not.toBe(secret);
    const old = await attempt({ customer_id: 'customer-9', expires, signature: sign(secret, 'customer-9', expires) });
    expect(old.statusCode).toBe(403);
    // Another organization cannot read this verification's secret.
    const foreign = await t.app.inject({
      url: `/api/verifications/${verification.id}/link-secret`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('an API-created attempt belongs to the organization of the key that created it', async () => {
    const verification = await createVerification();
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/verifications/${verification.id}/individuals`,
      headers: other.headers,
      payload: { customer_id: 'customer-1' },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
