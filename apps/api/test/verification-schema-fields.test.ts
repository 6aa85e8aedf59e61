import { type CredentialSchema, type Verification, zVerification, zVerificationPage } from '@cp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

// A verification names its credential schema with the slug and the platform flag (deleteable) so that
// the console can show a platform schema's name in the user's language, as the schema pages do.

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
