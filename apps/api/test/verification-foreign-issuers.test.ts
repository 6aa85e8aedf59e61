import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createCaCertificate,
  didJwkFromJwk,
  didKeyFromJwk,
  didWebFromUrl,
  encodeStatusList,
  generateEs256KeyPair,
  issueLeafCertificate,
  issueSdJwtVc,
  type JwsSigner,
  pemToX5c,
  signerFromPrivateJwk,
  signStatusListToken,
} from '@cp/credentials';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { didWebDocument, startDocumentServer } from './support/document-server.ts';
import { type Holder, makeHolder, presentCredential } from './support/wallet.ts';

/**
 * Credentials from issuers that are not on this platform: the verifier resolves their keys over real HTTP
 * (did:web documents, JWT VC Issuer Metadata, status lists on a loopback server) or from the identifier
 * itself (did:jwk, did:key), and accepts x5c chains only up to a configured trust anchor.
 */

let t: TestApp;
let peer: Awaited<ReturnType<typeof startDocumentServer>>;
let origin: string;
let foreign: { signer: JwsSigner; publicJwk: JsonWebKey; privateJwk: JsonWebKey };
let foreignCa: { certificatePem: string; privateJwk: JsonWebKey };
let holder: Holder;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
const revoked = new Set<number>();
let documents: Awaited<ReturnType<typeof startDocumentServer>>['documents'];

beforeAll(async () => {
  const pair = await generateEs256KeyPair();
  foreign = { ...pair, signer: await signerFromPrivateJwk(pair.privateJwk) };
  const caPair = await generateEs256KeyPair();
  foreignCa = {
    privateJwk: caPair.privateJwk,
    certificatePem: await createCaCertificate({ commonName: 'Foreign CA', ...caPair }),
  };
  peer = await startDocumentServer();
  ({ origin, documents } = peer);
  // The foreign CA is trusted by this installation through VERIFIER_TRUST_ANCHORS_FILE.
  const anchors = path.join(mkdtempSync(path.join(tmpdir(), 'cp-anchors-')), 'anchors.pem');
  writeFileSync(anchors, foreignCa.certificatePem);
  t = await startTestApp({ env: { VERIFIER_TRUST_ANCHORS_FILE: anchors } });
  issuer = await buildVerifiedOrganization(t, 'Verifier Org', {
    name: 'Pass',
    attributes: [
      { name: 'holder_name', type: 'TEXT' },
      { name: 'level', type: 'NUMBER' },
    ],
  });
  holder = await makeHolder();
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});

const vct = () => `${t.config.publicUrl}/orgs/${issuer.organization.id}/vct/${issuer.schemaRecord.schema.slug}`;
let nextIndex = 0;

/** A credential signed by the foreign key, with a status list the loopback server serves. */
async function foreignCredential(input: { iss: string; header: { kid?: string; x5c?: string[] }; statusPath: string }) {
  const idx = nextIndex++;
  const uri = `${origin}${input.statusPath}`;
  documents.set(input.statusPath, async () => ({
    type: 'application/statuslist+jwt',
    body: await signStatusListToken({
      signer: foreign.signer,
      header: input.header,
      uri,
      lst: encodeStatusList(64, revoked),
      ttl: 60,
    }),
  }));
  return {
    idx,
    credential: await issueSdJwtVc({
      signer: foreign.signer,
      header: input.header,
      issuer: input.iss,
      vct: vct(),
      holderJwk: holder.publicJwk,
      claims: { holder_name: 'Grace Hopper', level: 7 },
      status: { idx, uri },
    }),
  };
}

async function verify(credential: string, extra: object = {}) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: { name: 'Foreign', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI', ...extra },
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
  expect(response.status).toBe(200);
  const history = await t.app.inject({
    url: `/api/verifications/${created.json().id}/individuals`,
    headers: issuer.headers,
  });
  return history.json().results[0] as {
    status: string;
    issuer: string;
    checks: { code: string; passed: boolean; detail?: string }[];
  };
}

const failed = (row: { checks: { code: string; passed: boolean }[] }) =>
  row.checks.filter((c) => !c.passed).map((c) => c.code);

describe('verifying credentials of issuers outside the platform', () => {
  it('did:jwk issuer: key from the identifier, status list over HTTP; revocation seen', async () => {
    const did = didJwkFromJwk(foreign.publicJwk);
    const { credential, idx } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#0` },
      statusPath: '/jwk/status',
    });
    const ok = await verify(credential);
    expect(ok).toMatchObject({ status: 'VERIFIED', issuer: did });
    revoked.add(idx);
    expect(failed(await verify(credential))).toEqual(['STATUS']);
    revoked.delete(idx);
  });

  it('did:key issuer', async () => {
    const did = didKeyFromJwk(foreign.publicJwk);
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#${did.slice('did:key:'.length)}` },
      statusPath: '/key/status',
    });
    expect((await verify(credential)).status).toBe('VERIFIED');
  });

  it('did:web issuer: the DID document fetched over HTTP', async () => {
    const did = didWebFromUrl(origin);
    documents.set('/.well-known/did.json', didWebDocument(did, foreign.publicJwk));
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#key-1` },
      statusPath: '/web/status',
    });
    expect((await verify(credential)).status).toBe('VERIFIED');
    // Trusting only the platform organization's DID refuses this issuer.
    const orgDid = (
      await t.app.inject({ url: `/api/organizations/${issuer.organization.id}`, headers: issuer.headers })
    ).json().did;
    expect(failed(await verify(credential, { trusted_issuers: [orgDid] }))).toEqual(['TRUSTED_ISSUER']);
    expect((await verify(credential, { trusted_issuers: [did] })).status).toBe('VERIFIED');
  });

  it('https issuer with JWT VC Issuer Metadata', async () => {
    const iss = `${origin}/issuers/acme`;
    documents.set('/.well-known/jwt-vc-issuer/issuers/acme', async () => ({
      type: 'application/json',
      body: JSON.stringify({ issuer: iss, jwks: { keys: [{ ...foreign.publicJwk, kid: 'k1' }] } }),
    }));
    const { credential } = await foreignCredential({ iss, header: { kid: 'k1' }, statusPath: '/meta/status' });
    expect((await verify(credential)).status).toBe('VERIFIED');
    // Metadata that names another issuer is refused.
    documents.set('/.well-known/jwt-vc-issuer/issuers/acme', async () => ({
      type: 'application/json',
      body: JSON.stringify({
        issuer: `${origin}/issuers/other`,
        jwks: { keys: [{ ...foreign.publicJwk, kid: 'k1' }] },
      }),
    }));
    expect(failed(await verify(credential))).toEqual(['ISSUER_SIGNATURE']);
  });

  it('x5c chain: accepted up to a configured trust anchor, refused from an unknown CA or for another issuer', async () => {
    const iss = `${origin}/issuers/x5c`;
    const leafPem = await issueLeafCertificate({
      subject: { commonName: 'Foreign Issuer', organization: 'Foreign' },
      publicJwk: foreign.publicJwk,
      caCertificatePem: foreignCa.certificatePem,
      caPrivateJwk: foreignCa.privateJwk,
      uris: [iss],
    });
    const x5c = pemToX5c([leafPem, foreignCa.certificatePem]);
    const trusted = await foreignCredential({ iss, header: { x5c }, statusPath: '/x5c/status' });
    expect((await verify(trusted.credential)).status).toBe('VERIFIED');

    const rogueCaPair = await generateEs256KeyPair();
    const rogueCa = await createCaCertificate({ commonName: 'Rogue CA', ...rogueCaPair });
    const rogueLeaf = await issueLeafCertificate({
      subject: { commonName: 'Rogue', organization: 'Rogue' },
      publicJwk: foreign.publicJwk,
      caCertificatePem: rogueCa,
      caPrivateJwk: rogueCaPair.privateJwk,
      uris: [iss],
    });
    const rogue = await foreignCredential({
      iss,
      header: { x5c: pemToX5c([rogueLeaf, rogueCa]) },
      statusPath: '/rogue/status',
    });
    const refused = await verify(rogue.credential);
    expect(failed(refused)).toEqual(['ISSUER_SIGNATURE']);
    expect(refused.checks[0]?.detail).toMatch(/trusted certificate authority/);

    const elsewhere = await foreignCredential({
      iss: `${origin}/issuers/someone-else`,
      header: { x5c },
      statusPath: '/else/status',
    });
    expect(failed(await verify(elsewhere.credential))).toEqual(['ISSUER_SIGNATURE']);
  });

  it('fails STATUS when the status list cannot be fetched', async () => {
    const did = didJwkFromJwk(foreign.publicJwk);
    const { credential } = await foreignCredential({
      iss: did,
      header: { kid: `${did}#0` },
      statusPath: '/gone/status',
    });
    documents.delete('/gone/status');
    const row = await verify(credential);
    expect(failed(row)).toEqual(['STATUS']);
    expect(row.checks.find((c) => c.code === 'STATUS')?.detail).toMatch(/HTTP 404/);
  });
});
