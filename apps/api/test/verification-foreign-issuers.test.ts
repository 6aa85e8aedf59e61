import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  didJwkFromJwk,
  didKeyFromJwk,
  didWebFromUrl,
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  type JwsSigner,
  signerFromPrivateJwk,
  signStatusListToken,
} from '@cp/credentials';
import { makeCertificate, makeIssuerPki, type TestCertificate } from '@cp/credentials/testing';
import { addTrustedEntity, createLoTE, service, signLoTE, trustedEntity } from '@owf/eudi-lote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { didWebDocument, startDocumentServer } from './support/document-server.ts';
import { type Holder, makeHolder, presentCredential } from './support/wallet.ts';

/**
 * Credentials from issuers outside the platform, with a credential type of their own (`vct`): the
 * verifier binds their keys over real HTTP (did:web documents, JWT VC Issuer Metadata, status lists on a
 * loopback server), from the identifier itself (did:jwk, did:key) or through an x5c path to a trust
 * anchor; the verification's trust policy then decides, and the history says why.
 */

let t: TestApp;
let peer: Awaited<ReturnType<typeof startDocumentServer>>;
let origin: string;
let foreign: { signer: JwsSigner; publicJwk: JsonWebKey; privateJwk: JsonWebKey };
let platformListCa: TestCertificate;
let holder: Holder;
let verifier: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
const revoked = new Set<number>();
let documents: Awaited<ReturnType<typeof startDocumentServer>>['documents'];

const FOREIGN_VCT = 'https://foreign.example/vct/pass';
const externalType = {
  format: 'dc+sd-jwt' as const,
  vct_values: [FOREIGN_VCT],
  claims: [
    { name: 'holder_name', path: ['holder_name'], type: 'TEXT' as const },
    { name: 'level', path: ['level'], type: 'NUMBER' as const },
  ],
};

beforeAll(async () => {
  const pair = await generateEs256KeyPair();
  foreign = { ...pair, signer: await signerFromPrivateJwk(pair.privateJwk) };
  platformListCa = await makeCertificate({ subject: 'CN=Platform-wide Foreign CA', ca: { pathLength: 1 } });
  peer = await startDocumentServer();
  ({ origin, documents } = peer);
  // A CA every organization of this installation may rely on: VERIFIER_TRUST_ANCHORS_FILE.
  const anchors = path.join(mkdtempSync(path.join(tmpdir(), 'cp-anchors-')), 'anchors.pem');
  writeFileSync(anchors, platformListCa.pem);
  t = await startTestApp({ env: { VERIFIER_TRUST_ANCHORS_FILE: anchors } });
  verifier = await buildVerifiedOrganization(t, 'Verifier Org', {
    name: 'Pass',
    attributes: [{ name: 'holder_name', type: 'TEXT' }],
  });
  holder = await makeHolder();
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});

let nextIndex = 0;

/** A credential of FOREIGN_VCT signed by `signer`, with a status list the loopback server serves. */
async function foreignCredential(input: {
  iss: string;
  header: { kid?: string; x5c?: string[] };
  statusPath: string;
  signer?: JwsSigner;
  vct?: string;
}) {
  const idx = nextIndex++;
  const uri = `${origin}${input.statusPath}`;
  const signer = input.signer ?? foreign.signer;
  documents.set(input.statusPath, async () => ({
    type: 'application/statuslist+jwt',
    body: await signStatusListToken({ signer, header: input.header, uri, lst: encodeStatusList(64, revoked), ttl: 60 }),
  }));
  return {
    idx,
    credential: await issueSdJwtVc({
      signer,
      header: input.header,
      issuer: input.iss,
      vct: input.vct ?? FOREIGN_VCT,
      holderJwk: holder.publicJwk,
      claims: { holder_name: 'Grace Hopper', level: 7 },
      status: { idx, uri },
    }),
  };
}

interface HistoryRow {
  status: string;
  issuer: string;
  presented_claims: Record<string, unknown>;
  issuer_trust: { admitted: boolean; reason: string; detail: string; key_source: string } | null;
  checks: { code: string; passed: boolean; detail?: string }[];
}

/** Creates a verification of the external type (with `extra`: trust policy…), presents, answers the history row. */
async function verify(credential: string, extra: object = {}): Promise<HistoryRow> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: verifier.headers,
    payload: { name: 'Foreign', credential: externalType, type: 'MULTI', ...extra },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = (
    await t.app.inject({
      method: 'POST',
      url: '/api/verifications/individuals',
      payload: { verification_id: created.json().id },
    })
  ).json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  const response = await presentCredential(t, connect.connection_url, credential, holder);
  expect(response.status, response.body).toBe(200);
  const history = await t.app.inject({
    url: `/api/verifications/${created.json().id}/individuals`,
    headers: verifier.headers,
  });
  return history.json().results[0];
}

const failed = (row: { checks: { code: string; passed: boolean }[] }) =>
  row.checks.filter((c) => !c.passed).map((c) => c.code);

describe('an external credential type', () => {
  it('is asked for by vct and claim paths, with rules on its claims', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: verifier.headers,
      payload: {
        name: 'Level check',
        credential: externalType,
        type: 'MULTI',
        trust_policy: 'ANY_ISSUER',
        attributes: [{ claim: 'level', operator: 'BIGGER', value: '5' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      schema: null,
      credential: externalType,
      trust_policy: 'ANY_ISSUER',
      requested_claims: ['level'],
      attributes: [{ attribute_id: null, name: 'level', operator: 'BIGGER', value: '5', type: 'NUMBER' }],
    });
    const individual = (
      await t.app.inject({
        method: 'POST',
        url: '/api/verifications/individuals',
        payload: { verification_id: created.json().id },
      })
    ).json();
    const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
    const request = await t.app.inject({
      url: new URL(new URL(connect.connection_url).searchParams.get('request_uri')!).pathname,
    });
    const payload = JSON.parse(Buffer.from(request.body.split('.')[1]!, 'base64url').toString());
    expect(payload.dcql_query.credentials[0]).toMatchObject({
      meta: { vct_values: [FOREIGN_VCT] },
      claims: [{ path: ['level'] }],
    });
  });

  it('refuses rules on claims the type does not have, and a body naming both a schema and a type', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: verifier.headers,
      payload: {
        name: 'x',
        credential: externalType,
        type: 'MULTI',
        attributes: [
          { claim: 'unknown', operator: 'EQUAL', value: '1' },
          { claim: 'level', operator: 'BIGGER', value: 'five' },
        ],
      },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([
      { path: 'attributes.0.claim', message: 'Not a claim of this credential type' },
      { path: 'attributes.1.value', message: 'Must be a numeric value' },
    ]);
    const both = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: verifier.headers,
      payload: { name: 'x', credential: externalType, schema_id: verifier.schemaRecord.schema.id, type: 'MULTI' },
    });
    expect(both.statusCode).toBe(400);
    const namedWithoutIssuers = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: verifier.headers,
      payload: { name: 'x', credential: externalType, type: 'MULTI', trust_policy: 'NAMED_ISSUERS' },
    });
    expect(namedWithoutIssuers.statusCode).toBe(400);
  });
});

describe('issuers outside the platform, by trust policy', () => {
  it('did:jwk issuer: refused by default (not an organization of this platform), admitted when named; revocation seen', async () => {
    const did = didJwkFromJwk(foreign.publicJwk);
    const { credential, idx } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#0` },
      statusPath: '/jwk/status',
    });
    const byDefault = await verify(credential);
    expect(failed(byDefault)).toEqual(['TRUSTED_ISSUER']);
    expect(byDefault.issuer_trust).toMatchObject({
      admitted: false,
      reason: 'NOT_A_PLATFORM_ORGANIZATION',
      key_source: 'did',
    });
    const named = await verify(credential, { trusted_issuers: [did] });
    expect(named).toMatchObject({
      status: 'VERIFIED',
      issuer: did,
      presented_claims: { holder_name: 'Grace Hopper', level: 7 },
    });
    expect(named.issuer_trust).toMatchObject({ admitted: true, reason: 'NAMED_ISSUER' });
    revoked.add(idx);
    expect(failed(await verify(credential, { trusted_issuers: [did] }))).toEqual(['STATUS']);
    revoked.delete(idx);
  });

  it('did:key issuer, named', async () => {
    const did = didKeyFromJwk(foreign.publicJwk);
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#${did.slice('did:key:'.length)}` },
      statusPath: '/key/status',
    });
    expect((await verify(credential, { trusted_issuers: [did] })).status).toBe('VERIFIED');
  });

  it('did:web issuer: the DID document fetched over HTTP; named by its DID or by its URL', async () => {
    const did = didWebFromUrl(origin);
    documents.set('/.well-known/did.json', didWebDocument(did, foreign.publicJwk));
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#key-1` },
      statusPath: '/web/status',
    });
    expect((await verify(credential, { trusted_issuers: [did] })).status).toBe('VERIFIED');
    const orgDid = (
      await t.app.inject({ url: `/api/organizations/${verifier.organization.id}`, headers: verifier.headers })
    ).json().did;
    expect(failed(await verify(credential, { trusted_issuers: [orgDid] }))).toEqual(['TRUSTED_ISSUER']);
  });

  it('https issuer with JWT VC Issuer Metadata; metadata naming another issuer is refused', async () => {
    const iss = `${origin}/issuers/acme`;
    documents.set('/.well-known/jwt-vc-issuer/issuers/acme', async () => ({
      type: 'application/json',
      body: JSON.stringify({ issuer: iss, jwks: { keys: [{ ...foreign.publicJwk, kid: 'k1' }] } }),
    }));
    const { credential } = await foreignCredential({ iss, header: { kid: 'k1' }, statusPath: '/meta/status' });
    const named = await verify(credential, { trusted_issuers: [iss] });
    expect(named.status).toBe('VERIFIED');
    expect(named.issuer_trust?.key_source).toBe('metadata');
    documents.set('/.well-known/jwt-vc-issuer/issuers/acme', async () => ({
      type: 'application/json',
      body: JSON.stringify({
        issuer: `${origin}/issuers/other`,
        jwks: { keys: [{ ...foreign.publicJwk, kid: 'k1' }] },
      }),
    }));
    const refused = await verify(credential, { trusted_issuers: [iss] });
    expect(failed(refused)).toEqual(['ISSUER_SIGNATURE']);
    expect(refused.presented_claims).toEqual({});
  });

  it('any issuer, by explicit choice: admitted with the reason, still bound to its key', async () => {
    const did = didJwkFromJwk(foreign.publicJwk);
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#0` },
      statusPath: '/any/status',
    });
    const row = await verify(credential, { trust_policy: 'ANY_ISSUER' });
    expect(row.status).toBe('VERIFIED');
    expect(row.issuer_trust).toMatchObject({ admitted: true, reason: 'ANY_ISSUER' });
  });

  it('x5c path to the platform-wide list: admitted under TRUST_ANCHORS, not under the default policy', async () => {
    const iss = `${origin}/issuers/x5c`;
    const leaf = await makeCertificate({
      subject: 'CN=Foreign Issuer',
      issuer: platformListCa,
      uris: [iss],
      key: foreign,
    });
    const { credential } = await foreignCredential({ iss, header: { x5c: [leaf.b64] }, statusPath: '/x5c/status' });
    const anchored = await verify(credential, { trust_policy: 'TRUST_ANCHORS' });
    expect(anchored.status).toBe('VERIFIED');
    expect(anchored.issuer_trust).toMatchObject({
      reason: 'TRUST_ANCHOR',
      key_source: 'x5c',
      certificate: { anchor: { origin: 'PLATFORM_LIST', subject: 'CN=Platform-wide Foreign CA' } },
    });
    expect(failed(await verify(credential))).toEqual(['TRUSTED_ISSUER']);
  });

  it('fails STATUS when the status list cannot be fetched', async () => {
    const did = didJwkFromJwk(foreign.publicJwk);
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#0` },
      statusPath: '/gone/status',
    });
    documents.delete('/gone/status');
    const row = await verify(credential, { trusted_issuers: [did] });
    expect(failed(row)).toEqual(['STATUS']);
    expect(row.checks.find((c) => c.code === 'STATUS')?.detail).toMatch(/HTTP 404/);
  });
});

describe("the organization's own trust anchors", () => {
  it('a foreign issuer with its own CA: FAILED until the CA is added through the API, VERIFIED after, FAILED once removed', async () => {
    const iss = `${origin}/issuers/own-ca`;
    const pki = await makeIssuerPki(iss, { root: 'Partner Root CA' });
    const signer = await signerFromPrivateJwk(pki.leaf.key.privateJwk);
    const { credential } = await foreignCredential({
      iss,
      header: { x5c: pki.x5c },
      signer,
      statusPath: '/own-ca/status',
    });
    const before = await verify(credential, { trust_policy: 'TRUST_ANCHORS' });
    expect(failed(before)).toEqual(['ISSUER_SIGNATURE']);
    expect(before.checks[0]?.detail).toMatch(/trusted certificate authority/);

    const added = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'CERTIFICATE', name: 'Partner Root', certificate_pem: pki.root.pem },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ kind: 'CERTIFICATE', name: 'Partner Root', subject: 'CN=Partner Root CA' });
    const after = await verify(credential, { trust_policy: 'TRUST_ANCHORS' });
    expect(after.status).toBe('VERIFIED');
    expect(after.issuer_trust).toMatchObject({
      reason: 'TRUST_ANCHOR',
      detail: 'Admitted: certified by Partner Root',
      certificate: { anchor: { origin: 'ORGANIZATION', name: 'Partner Root' } },
    });
    // Trusting a CA does not make its issuers "organizations of this platform".
    expect(failed(await verify(credential))).toEqual(['TRUSTED_ISSUER']);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/trust-anchors/${added.json().id}`,
      headers: verifier.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(failed(await verify(credential, { trust_policy: 'TRUST_ANCHORS' }))).toEqual(['ISSUER_SIGNATURE']);
  });

  it("another organization's anchors are not this organization's", async () => {
    const iss = `${origin}/issuers/theirs`;
    const pki = await makeIssuerPki(iss, { root: 'Their Root CA' });
    const other = await buildVerifiedOrganization(t, 'Other Verifier', {
      name: 'X',
      attributes: [{ name: 'a', type: 'TEXT' }],
    });
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: other.headers,
      payload: { kind: 'CERTIFICATE', name: 'Their Root', certificate_pem: pki.root.pem },
    });
    expect(added.statusCode).toBe(201);
    const signer = await signerFromPrivateJwk(pki.leaf.key.privateJwk);
    const { credential } = await foreignCredential({
      iss,
      header: { x5c: pki.x5c },
      signer,
      statusPath: '/theirs/status',
    });
    expect(failed(await verify(credential, { trust_policy: 'TRUST_ANCHORS' }))).toEqual(['ISSUER_SIGNATURE']);
    const list = await t.app.inject({ url: '/api/trust-anchors', headers: verifier.headers });
    expect(list.json().results.map((a: { name: string }) => a.name)).not.toContain('Their Root');
    const foreignDelete = await t.app.inject({
      method: 'DELETE',
      url: `/api/trust-anchors/${added.json().id}`,
      headers: verifier.headers,
    });
    expect(foreignDelete.statusCode).toBe(404);
  });
});

describe('an ETSI TS 119 602 trusted list as a trust anchor', () => {
  /** A List of Trusted Entities with one CA per entity, signed (JWS) by `operator`'s key. */
  async function publishList(
    pathname: string,
    operator: TestCertificate,
    entities: { ca: TestCertificate; status: string }[],
  ) {
    let lote = createLoTE({ SchemeOperatorName: [{ lang: 'en', value: 'Partner Scheme Operator' }] });
    for (const [index, entity] of entities.entries()) {
      lote = addTrustedEntity(
        lote,
        trustedEntity()
          .name(`Partner ${index}`)
          .postalAddress({ StreetAddress: 'Main Street 1', Locality: 'Berlin', PostalCode: '10115', Country: 'DE' })
          .email(`partner${index}@partner.example`)
          .addService(
            service()
              .name('Credential issuance CA')
              .type('https://partner.example/service-type/issuer-ca')
              .status(entity.status)
              .addCertificate(entity.ca.b64)
              .build(),
          )
          .build(),
      );
    }
    const operatorSigner = await signerFromPrivateJwk(operator.key.privateJwk);
    const signed = await signLoTE({
      lote,
      keyId: 'operator',
      signer: async (input) => operatorSigner.sign(typeof input === 'string' ? input : new TextDecoder().decode(input)),
    });
    documents.set(pathname, async () => ({ type: 'application/jwt', body: signed.jws }));
    return `${origin}${pathname}`;
  }

  it('admits issuers under a listed CA in force; a withdrawn service or another signer does not count', async () => {
    const operator = await makeCertificate({ subject: 'CN=List Operator' });
    const iss = `${origin}/issuers/listed`;
    const listed = await makeIssuerPki(iss, { root: 'Listed Root CA' });
    const withdrawnIss = `${origin}/issuers/withdrawn`;
    const withdrawn = await makeIssuerPki(withdrawnIss, { root: 'Withdrawn Root CA' });
    const url = await publishList('/lists/partners.jwt', operator, [
      { ca: listed.root, status: 'https://partner.example/status/granted' },
      { ca: withdrawn.root, status: 'https://partner.example/status/withdrawn' },
    ]);

    const impostor = await makeCertificate({ subject: 'CN=Impostor Operator' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'TRUSTED_LIST', name: 'Partners', list_url: url, signer_certificate_pem: impostor.pem },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'TRUST_ANCHOR_INVALID',
      detail: expect.stringMatching(/not signed by the pinned/),
    });

    const added = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'TRUSTED_LIST', name: 'Partners', list_url: url, signer_certificate_pem: operator.pem },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      kind: 'TRUSTED_LIST',
      list_url: url,
      list_certificate_count: 1,
      list_error: null,
    });

    const good = await foreignCredential({
      iss,
      header: { x5c: listed.x5c },
      signer: await signerFromPrivateJwk(listed.leaf.key.privateJwk),
      statusPath: '/listed/status',
    });
    const admitted = await verify(good.credential, { trust_policy: 'TRUST_ANCHORS' });
    expect(admitted.status).toBe('VERIFIED');
    expect(admitted.issuer_trust?.detail).toBe('Admitted: certified by Partners');
    const gone = await foreignCredential({
      iss: withdrawnIss,
      header: { x5c: withdrawn.x5c },
      signer: await signerFromPrivateJwk(withdrawn.leaf.key.privateJwk),
      statusPath: '/withdrawn/status',
    });
    expect(failed(await verify(gone.credential, { trust_policy: 'TRUST_ANCHORS' }))).toEqual(['ISSUER_SIGNATURE']);

    // The list changes: read again (on demand here; every hour by the job), the listed CA is no longer trusted.
    await publishList('/lists/partners.jwt', operator, [
      { ca: withdrawn.root, status: 'https://partner.example/status/withdrawn' },
    ]);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: `/api/trust-anchors/${added.json().id}/refresh`,
      headers: verifier.headers,
    });
    expect(refreshed.json()).toMatchObject({ list_certificate_count: 0, list_error: null });
    expect(failed(await verify(good.credential, { trust_policy: 'TRUST_ANCHORS' }))).toEqual(['ISSUER_SIGNATURE']);

    // An unreachable list keeps the certificates last read, and says why it could not be read.
    documents.delete('/lists/partners.jwt');
    const unreachable = await t.app.inject({
      method: 'POST',
      url: `/api/trust-anchors/${added.json().id}/refresh`,
      headers: verifier.headers,
    });
    expect(unreachable.json().list_error).toMatch(/HTTP 404/);
  });

  it('refuses anchors that cannot anchor anything, with the reason', async () => {
    const leaf = await makeCertificate({ subject: 'CN=Not a CA', issuer: platformListCa });
    const cases: [object, RegExp][] = [
      [{ kind: 'CERTIFICATE', name: 'Leaf', certificate_pem: leaf.pem }, /not a CA certificate/],
      [
        {
          kind: 'CERTIFICATE',
          name: 'Expired',
          certificate_pem: (
            await makeCertificate({
              subject: 'CN=Old',
              ca: true,
              notBefore: new Date(Date.now() - 3e9),
              notAfter: new Date(Date.now() - 1e9),
            })
          ).pem,
        },
        /expired/,
      ],
      [
        {
          kind: 'CERTIFICATE',
          name: 'Junk',
          certificate_pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        },
        /not a readable/,
      ],
    ];
    for (const [payload, detail] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/trust-anchors',
        headers: verifier.headers,
        payload,
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().detail).toMatch(detail);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'CA' },
    });
    expect(bad.statusCode).toBe(400);
    const ca = await makeCertificate({ subject: 'CN=Twice', ca: true });
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'CERTIFICATE', name: 'A', certificate_pem: ca.pem },
    });
    expect(first.statusCode).toBe(201);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/trust-anchors',
      headers: verifier.headers,
      payload: { kind: 'CERTIFICATE', name: 'B', certificate_pem: ca.pem },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('TRUST_ANCHOR_DUPLICATE');
  });
});
