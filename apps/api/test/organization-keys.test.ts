import {
  bindIssuerKey,
  decodeJwt,
  generateEs256KeyPair,
  issueSdJwtVc,
  pemToX5c,
  resolveDidKeyReference,
  validateCertificationPath,
  verifySdJwtVc,
} from '@cp/credentials';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyCommands } from '../src/cli/commands/keys.ts';
import { getActiveSigner, rotateKey } from '../src/modules/organization-keys/organization-keys.service.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** fetch for the resolvers, answered by the app itself (public documents, no auth). */
const fetchJson = async (url: string) => {
  const { pathname } = new URL(url);
  const response = await t.app.inject({ method: 'GET', url: pathname });
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  return response.json();
};
const allowHttp = () => true;

describe('organization keys and identifiers', () => {
  it('publishes a did:web document and JWT VC Issuer Metadata with the organization key', async () => {
    const { user } = await buildUser(t);
    const organization = await buildOrganization(t, user.id, 'Acme University');
    const host = encodeURIComponent(new URL(t.config.publicUrl).host);
    const did = `did:web:${host}:orgs:${organization.id}`;

    const document = await t.app.inject({ method: 'GET', url: `/orgs/${organization.id}/did.json` });
    expect(document.statusCode).toBe(200);
    expect(document.headers['content-type']).toContain('application/did+json');
    expect(document.json()).toMatchObject({ id: did, assertionMethod: [expect.stringContaining(`${did}#`)] });

    const signer = await getActiveSigner(t.runtime.ctx.keys, organization.id);
    const viaDid = await resolveDidKeyReference(`${did}#${signer.kid}`, fetchJson, { allowHttp });
    const metadata = await t.app.inject({ method: 'GET', url: `/.well-known/jwt-vc-issuer/orgs/${organization.id}` });
    expect(metadata.json()).toMatchObject({
      issuer: `${t.config.publicUrl}/orgs/${organization.id}`,
      organization: { name: 'Acme University', verified: false },
    });
    const viaMetadata = await bindIssuerKey(
      { kid: signer.kid },
      { iss: `${t.config.publicUrl}/orgs/${organization.id}` },
      { fetchJson, trustAnchors: [], allowHttp },
    );
    expect(viaMetadata).toMatchObject({ source: 'metadata', jwk: viaDid });
  });

  it('certifies the key with the platform CA, downloadable from the API', async () => {
    const { user } = await buildUser(t);
    const organization = await buildOrganization(t, user.id, 'Globex');
    const ca = await t.app.inject({ method: 'GET', url: '/api/platform/ca.pem' });
    expect(ca.statusCode).toBe(200);
    expect(ca.body).toContain('BEGIN CERTIFICATE');
    const signer = await getActiveSigner(t.runtime.ctx.keys, organization.id);
    const chain = await validateCertificationPath(signer.x5c, [ca.body]);
    // The certificate names its issuer URL only: not the host, which other organizations share.
    expect(chain.dnsNames).toEqual([]);
    expect(chain.uris).toEqual([`${t.config.publicUrl}/orgs/${organization.id}`]);
    expect(chain.subject).toContain('Globex');
  });

  it('keeps private keys encrypted at rest', async () => {
    const { user } = await buildUser(t);
    const organization = await buildOrganization(t, user.id);
    await getActiveSigner(t.runtime.ctx.keys, organization.id);
    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.organizationKeys)
      .where(eq(schema.organizationKeys.organizationId, organization.id));
    expect(row?.privateJwkCiphertext).not.toContain('"d"');
    expect(row?.publicJwk).not.toHaveProperty('d');
  });

  it('rotates keys: new credentials use the new key, old ones keep verifying', async () => {
    const { user } = await buildUser(t);
    const organization = await buildOrganization(t, user.id);
    const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
    const holder = await generateEs256KeyPair();
    const issueWith = async () => {
      const signer = await getActiveSigner(t.runtime.ctx.keys, organization.id);
      return issueSdJwtVc({
        signer: signer.signer,
        header: { kid: signer.kid, x5c: signer.x5c },
        issuer,
        vct: `${issuer}/vct/test`,
        holderJwk: holder.publicJwk,
        claims: { name: 'Ada' },
      });
    };
    const before = await issueWith();
    const rotated = await keyCommands['keys rotate']!.run(
      {
        db: t.runtime.ctx.database.db,
        config: t.config,
        secretBox: t.runtime.secretBox,
        jobs: t.runtime.ctx.jobs,
      },
      { org: organization.id },
    );
    expect(rotated).toMatch(/^kid: /);
    const after = await issueWith();
    const kidOf = (sdJwt: string) => decodeJwt(sdJwt.split('~')[0]!).header.kid;
    expect(kidOf(after)).not.toBe(kidOf(before));
    const ca = (await t.app.inject({ method: 'GET', url: '/api/platform/ca.pem' })).body;
    const resolve = (header: Record<string, unknown>, payload: Record<string, unknown>) =>
      bindIssuerKey(header, payload, { fetchJson, trustAnchors: [ca], allowHttp: () => true });
    for (const credential of [before, after]) {
      const verified = await verifySdJwtVc(credential, { resolveIssuerKey: resolve });
      expect(verified.claims.name).toBe('Ada');
    }
    await expect(rotateKey(t.runtime.ctx.keys, '00000000-0000-4000-8000-000000000000')).rejects.toThrow();
    // A signature over the old x5c is still anchored in the CA.
    expect((await validateCertificationPath(decodeJwt(before.split('~')[0]!).header.x5c, [ca])).leafJwk).toBeTruthy();
    expect(pemToX5c([ca])).toHaveLength(1);
  });

  it('answers 404 for an unknown organization and 400 for a malformed id', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/orgs/00000000-0000-4000-8000-000000000000/did.json' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/orgs/nope/did.json' })).statusCode).toBe(400);
  });
});

describe('key backfill', () => {
  it('creates a key for every organization that has none', async () => {
    const { user } = await buildUser(t);
    const a = await buildOrganization(t, user.id, 'Backfill A');
    const b = await buildOrganization(t, user.id, 'Backfill B');
    const { backfillKeys } = await import('../src/modules/organization-keys/organization-keys.service.ts');
    expect(await backfillKeys(t.runtime.ctx.keys)).toBeGreaterThanOrEqual(2);
    for (const organization of [a, b]) {
      const rows = await t.runtime.ctx.database.db
        .select()
        .from(schema.organizationKeys)
        .where(eq(schema.organizationKeys.organizationId, organization.id));
      expect(rows).toHaveLength(1);
    }
    expect(await backfillKeys(t.runtime.ctx.keys)).toBe(0);
  });
});
