import {
  type Credential,
  type CredentialSchema,
  pageOf,
  type Verification,
  zCredential,
  zVerification,
  zVerificationPage,
} from '@cp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

// Credentials and verifications name their credential schema with the slug and the platform flag
// (deleteable) so that the console can show a platform schema's name in the user's language, as the
// schema pages do.

const zCredentialPage = pageOf(zCredential);

let t: TestApp;
let org: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let workCertificate: CredentialSchema;

beforeAll(async () => {
  t = await startTestApp();
  org = await buildVerifiedOrganization(t, 'Analytical Society', {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  const schemas = await t.app.inject({ url: '/api/schemas?limit=100', headers: org.headers });
  expect(schemas.statusCode).toBe(200);
  const found = (schemas.json().results as CredentialSchema[]).find((s) => s.slug === 'work-certificate');
  if (!found) throw new Error('the platform schema work-certificate is not seeded');
  workCertificate = found;
});
afterAll(async () => {
  await t?.close();
});

async function createVerification(schemaId: string): Promise<Verification> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: org.headers,
    payload: { name: 'Employment check', schema_id: schemaId, type: 'MULTI', attributes: [] },
  });
  expect(response.statusCode).toBe(201);
  return zVerification.parse(response.json());
}

describe('verification schema slug and platform flag', () => {
  it('names a platform schema by its slug, not deleteable, in the create, read and list answers', async () => {
    const created = await createVerification(workCertificate.id);
    expect(created.schema).toMatchObject({
      id: workCertificate.id,
      name: 'Work Certificate',
      slug: 'work-certificate',
      deleteable: false,
    });

    const read = await t.app.inject({ url: `/api/verifications/${created.id}`, headers: org.headers });
    expect(read.statusCode).toBe(200);
    expect(zVerification.parse(read.json()).schema).toMatchObject({ slug: 'work-certificate', deleteable: false });

    const list = await t.app.inject({ url: '/api/verifications?page=1&limit=50', headers: org.headers });
    expect(list.statusCode).toBe(200);
    const row = zVerificationPage.parse(list.json()).results.find((v) => v.id === created.id);
    expect(row?.schema).toMatchObject({ slug: 'work-certificate', deleteable: false });
  });

  it("names the organization's own schema by its slug, deleteable", async () => {
    const created = await createVerification(org.schemaRecord.schema.id);
    expect(created.schema).toMatchObject({
      id: org.schemaRecord.schema.id,
      name: 'Membership',
      slug: org.schemaRecord.schema.slug,
      deleteable: true,
    });
  });
});

async function createCredential(schemaId: string, claims: Record<string, string>): Promise<Credential> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: org.headers,
    payload: {
      credential: { name: 'For Ada', schema_id: schemaId, claims },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(response.statusCode).toBe(201);
  return zCredential.parse(response.json());
}

async function readBoth(id: string) {
  const read = await t.app.inject({ url: `/api/credentials/${id}`, headers: org.headers });
  expect(read.statusCode).toBe(200);
  const list = await t.app.inject({ url: '/api/credentials?page=1&limit=100', headers: org.headers });
  expect(list.statusCode).toBe(200);
  return {
    read: zCredential.parse(read.json()),
    listed: zCredentialPage.parse(list.json()).results.find((c) => c.id === id),
  };
}

describe('credential schema slug and platform flag', () => {
  it('names a platform schema by its slug, not deleteable, in the create, read and list answers', async () => {
    const text = workCertificate.attributes.map((a) => [a.name, a.type === 'DATETIME' ? '1843-01-01' : 'Ada']);
    const created = await createCredential(workCertificate.id, Object.fromEntries(text));
    const expected = { id: workCertificate.id, name: 'Work Certificate', slug: 'work-certificate', deleteable: false };
    expect(created.schema).toEqual(expected);
    const { read, listed } = await readBoth(created.id);
    expect(read.schema).toEqual(expected);
    expect(listed?.schema).toEqual(expected);
  });

  it("names the organization's own schema by its slug, deleteable, and still once the schema is deleted", async () => {
    const own = org.schemaRecord.schema;
    const created = await createCredential(own.id, { full_name: 'Ada Lovelace' });
    expect(created.schema).toEqual({ id: own.id, name: 'Membership', slug: own.slug, deleteable: true });

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/schemas/${own.id}`, headers: org.headers });
    expect(deleted.statusCode).toBe(204);
    const { read, listed } = await readBoth(created.id);
    const expected = { id: own.id, name: 'Membership', slug: own.slug, deleteable: true };
    expect(read.schema).toEqual(expected);
    expect(listed?.schema).toEqual(expected);
  });
});
