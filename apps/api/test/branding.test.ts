import { createHash, randomBytes } from 'node:crypto';
import { type CredentialSchema, zCredentialConnect, zHolderOrganization, zVerificationConnect } from '@cp/contracts';
import { decodeJwt } from '@cp/credentials';
import { schema } from '@cp/db';
import { clientAuthenticationNone, setGlobalConfig } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildOrganization,
  buildUser,
  buildVerifiedOrganization,
  startTestApp,
  type TestApp,
  WORK_CERTIFICATE_CLAIMS,
} from './harness.ts';
import { multipart, pdf } from './security-fixtures.ts';

/**
 * The organization's brand on what holders and wallets see: `brand_color` on the profile, the holder pages'
 * data (name, logo, colour, KYB, claim labels) and the issuer's display metadata.
 */

const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);

let t: TestApp;
let org: Awaited<ReturnType<typeof buildVerifiedOrganization>>;

beforeAll(async () => {
  // Listening: the logo URL and the issuer metadata are fetched over real HTTP, as a browser or a wallet would.
  setGlobalConfig({ allowInsecureUrls: true });
  t = await startTestApp({ listen: true, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  org = await buildVerifiedOrganization(t, 'Acme Clearance Office', {
    name: 'Security clearance',
    attributes: [
      { name: 'clearance_level', type: 'NUMBER' },
      { name: 'holderName', type: 'TEXT' },
    ],
  });
});
afterAll(async () => {
  setGlobalConfig({ allowInsecureUrls: false });
  await t?.close();
});

const put = (id: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/organizations/${id}`, headers, payload: payload as string });
const read = async (id: string, headers = org.headers) =>
  (await t.app.inject({ url: `/api/organizations/${id}`, headers })).json();

async function upload(headers: Record<string, string>, purpose: 'logo' | 'kyb_document') {
  const body = multipart([
    { name: 'purpose', value: purpose },
    purpose === 'logo'
      ? { name: 'file', value: png, filename: 'logo.png', type: 'image/png' }
      : { name: 'file', value: pdf, filename: 'registry.pdf', type: 'application/pdf' },
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; url: string };
}

async function issueCredential(schemaId: string, claims: Record<string, string>, headers = org.headers) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: { name: 'Clearance card', schema_id: schemaId, claims },
      recipient: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

const credentialConnect = async (id: string) => {
  const response = await t.app.inject({ url: `/api/credentials/${id}/connect` });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, json: zCredentialConnect.parse(response.json()) };
};

async function startAttempt(verificationId: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const response = await t.app.inject({ url: `/api/verifications/${created.json().id}/connect` });
  expect(response.statusCode, response.body).toBe(200);
  return zVerificationConnect.parse(response.json());
}

/** The `client_metadata` of the signed request object a wallet fetches for the attempt (its `request_uri`). */
async function requestClientMetadata(connect: { connection_url: string | null }) {
  const requestUri = new URL(new URL(connect.connection_url!).searchParams.get('request_uri')!);
  const response = await t.app.inject({ url: requestUri.pathname });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, metadata: decodeJwt(response.body).payload.client_metadata as Record<string, unknown> };
}

async function createVerification(payload: Record<string, unknown>, headers = org.headers) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers,
    payload: { name: 'Clearance check', type: 'MULTI', attributes: [], ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

const issuerMetadata = async (organizationId: string) => {
  const response = await fetch(`${t.baseUrl}/.well-known/openid-credential-issuer/orgs/${organizationId}`);
  expect(response.status).toBe(200);
  return response.json();
};

describe('brand_color on the organization profile', () => {
  it('is null until set, then answered in lowercase by PUT, GET and the list; null resets it', async () => {
    const alice = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const headers = { ...alice.auth, currentidentity: acme.id };
    expect((await read(acme.id, headers)).brand_color).toBeNull();

    const set = await put(acme.id, headers, { brand_color: '#1A73E8' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().brand_color).toBe('#1a73e8');
    expect((await read(acme.id, headers)).brand_color).toBe('#1a73e8');
    const list = await t.app.inject({ url: '/api/organizations', headers: alice.auth });
    expect(list.json().results[0].brand_color).toBe('#1a73e8');
    const [row] = await t.runtime.ctx.database.db
      .select({ brandColor: schema.organizations.brandColor })
      .from(schema.organizations)
      .where(eq(schema.organizations.id, acme.id));
    expect(row?.brandColor).toBe('#1a73e8');

    // Other fields leave the colour as it is.
    expect((await put(acme.id, headers, { name: 'Acme Corp' })).json().brand_color).toBe('#1a73e8');

    const reset = await put(acme.id, headers, { brand_color: null });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().brand_color).toBeNull();
    expect((await read(acme.id, headers)).brand_color).toBeNull();
  });

  it.each([
    ['a colour name', 'red'],
    ['three digits', '#fff'],
    ['a non-hex digit', '#12345g'],
    ['seven digits', '#1234567'],
    ['no #', '1a73e8'],
    ['CSS injection', '#1a73e8;background:url(https://evil.test)'],
    ['an empty string', ''],
    ['a number', 0x1a73e8],
    ['an object', { r: 1 }],
  ])('refuses %s with a field error and changes nothing', async (_, value) => {
    const alice = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const headers = { ...alice.auth, currentidentity: acme.id };
    await put(acme.id, headers, { brand_color: '#00aa55' });
    const response = await put(acme.id, headers, { brand_color: value, name: 'Renamed' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'REQUEST_INVALID', errors: [{ path: 'body.brand_color' }] });
    const after = await read(acme.id, headers);
    expect(after).toMatchObject({ brand_color: '#00aa55', name: 'Acme' });
  });

  it("cannot be set on another organization's profile, whatever the CurrentIdentity", async () => {
    const alice = await buildUser(t);
    const mallory = await buildUser(t);
    const acme = await buildOrganization(t, alice.user.id, 'Acme');
    const evil = await buildOrganization(t, mallory.user.id, 'Evil');
    await put(acme.id, { ...alice.auth, currentidentity: acme.id }, { brand_color: '#004a46' });

    for (const currentidentity of [evil.id, acme.id]) {
      const response = await put(acme.id, { ...mallory.auth, currentidentity }, { brand_color: '#ff0000' });
      expect([403, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain('#004a46');
    }
    // Her own organization's colour is hers alone.
    await put(evil.id, { ...mallory.auth, currentidentity: evil.id }, { brand_color: '#ff0000' });
    expect((await read(acme.id, { ...alice.auth, currentidentity: acme.id })).brand_color).toBe('#004a46');
  });
});

describe('the holder pages: who issues and who asks', () => {
  let logo: { id: string; url: string };
  let kybDocument: { id: string };
  let credentialId: string;

  beforeAll(async () => {
    logo = await upload(org.headers, 'logo');
    kybDocument = await upload(org.headers, 'kyb_document');
    const response = await put(org.organization.id, org.headers, { logo: logo.id, brand_color: '#FFCC00' });
    expect(response.statusCode, response.body).toBe(200);
    credentialId = await issueCredential(org.schemaRecord.schema.id, {
      clearance_level: '3',
      holderName: 'Grace Brewster Murray',
    });
  });

  it("answers the issuer's name, logo, colour and KYB on the claim page, and the claims' labels", async () => {
    const { json, body } = await credentialConnect(credentialId);
    expect(json.issuer).toEqual({
      name: 'Acme Clearance Office',
      logo_url: `${t.config.publicUrl}/api/media/${logo.id}`,
      verified: true,
      brand_color: '#ffcc00',
    });
    // Labels as the wallet shows them; never the values (the link may be forwarded).
    expect(json.claim_labels).toEqual([
      {
        name: 'clearance_level',
        label: { en: 'Clearance level', ja: 'Clearance level', es: 'Clearance level', ko: 'Clearance level' },
      },
      { name: 'holderName', label: { en: 'Holder name', ja: 'Holder name', es: 'Holder name', ko: 'Holder name' } },
    ]);
    expect(body).not.toContain('Brewster');
    expect(body).not.toContain(kybDocument.id);
  });

  it('gives a logo URL anyone can load without signing in, and no way to other files', async () => {
    const { json } = await credentialConnect(credentialId);
    expect(json.issuer.logo_url).toMatch(/^https?:\/\//);
    const image = await fetch(json.issuer.logo_url!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    // The same path with a private file's id answers nothing to a holder.
    const privateFile = await fetch(json.issuer.logo_url!.replace(logo.id, kybDocument.id));
    expect(privateFile.status).toBe(404);
  });

  it('never answers a private file as the logo, even if the logo column points at one', async () => {
    const db = t.runtime.ctx.database.db;
    await db
      .update(schema.organizations)
      .set({ logoMediaId: kybDocument.id })
      .where(eq(schema.organizations.id, org.organization.id));
    try {
      const { json, body } = await credentialConnect(credentialId);
      expect(json.issuer.logo_url).toBeNull();
      expect(body).not.toContain(kybDocument.id);
      const metadata = await issuerMetadata(org.organization.id);
      expect(JSON.stringify(metadata)).not.toContain(kybDocument.id);
      // Nor as the verifier's: on its holder page and in the request object wallets show.
      const connect = await startAttempt((await createVerification({ schema_id: org.schemaRecord.schema.id })).id);
      expect(connect.verifier.logo_url).toBeNull();
      const request = await requestClientMetadata(connect);
      expect(request.metadata.client_name).toBe('Acme Clearance Office');
      expect(request.metadata).not.toHaveProperty('logo_uri');
      expect(Buffer.from(request.body.split('.')[1]!, 'base64url').toString()).not.toContain(kybDocument.id);
    } finally {
      await db
        .update(schema.organizations)
        .set({ logoMediaId: logo.id })
        .where(eq(schema.organizations.id, org.organization.id));
    }
  });

  it('answers null logo and colour for an organization without them, and verified false before KYB', async () => {
    const plain = await buildVerifiedOrganization(t, 'Plain Org', {
      name: 'Badge',
      attributes: [{ name: 'level', type: 'NUMBER' }],
    });
    const id = await issueCredential(plain.schemaRecord.schema.id, { level: '1' }, plain.headers);
    expect((await credentialConnect(id)).json.issuer).toEqual({
      name: 'Plain Org',
      logo_url: null,
      verified: true,
      brand_color: null,
    });
    await t.runtime.ctx.database.db
      .update(schema.organizations)
      .set({ verificationStatus: 'UNDEFINED', verifiedAt: null })
      .where(eq(schema.organizations.id, plain.organization.id));
    expect((await credentialConnect(id)).json.issuer.verified).toBe(false);
  });

  it("labels a platform schema's claims in every language on the claim page", async () => {
    const schemas = await t.app.inject({ url: '/api/schemas?limit=100', headers: org.headers });
    const work = (schemas.json().results as CredentialSchema[]).find((s) => s.slug === 'work-certificate')!;
    const id = await issueCredential(work.id, WORK_CERTIFICATE_CLAIMS);
    const labels = (await credentialConnect(id)).json.claim_labels;
    expect(labels.find((l) => l.name === 'job_title')?.label).toEqual({
      en: 'Job title',
      ja: '職位',
      es: 'Cargo',
      ko: '직책',
    });
    expect(labels.map((l) => l.name)).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'job_title',
      'location',
      'employment_type',
      'start_date',
      'end_date',
      'description',
    ]);
  });

  it("answers the verifier's name, logo, colour and KYB with the requested claims' labels", async () => {
    const verification = await createVerification({ schema_id: org.schemaRecord.schema.id });
    const connect = await startAttempt(verification.id);
    expect(connect.verifier).toEqual({
      name: 'Acme Clearance Office',
      logo_url: `${t.config.publicUrl}/api/media/${logo.id}`,
      verified: true,
      brand_color: '#ffcc00',
    });
    expect((await requestClientMetadata(connect)).metadata).toMatchObject({
      client_name: 'Acme Clearance Office',
      logo_uri: `${t.config.publicUrl}/api/media/${logo.id}`,
    });
    expect(connect.requested_claims).toEqual(['clearance_level', 'holderName']);
    expect(connect.requested_claim_labels.map((c) => [c.name, c.label.en])).toEqual([
      ['clearance_level', 'Clearance level'],
      ['holderName', 'Holder name'],
    ]);
  });

  it('translates the labels of a platform schema and humanizes the claims of another issuer type', async () => {
    const schemas = await t.app.inject({ url: '/api/schemas?limit=100', headers: org.headers });
    const kyc = (schemas.json().results as CredentialSchema[]).find((s) => s.slug === 'kyc')!;
    const onKyc = await startAttempt((await createVerification({ schema_id: kyc.id })).id);
    expect(onKyc.requested_claim_labels.find((c) => c.name === 'date_of_birth')?.label).toEqual({
      en: 'Date of birth',
      ja: '生年月日',
      es: 'Fecha de nacimiento',
      ko: '생년월일',
    });
    const external = await createVerification({
      credential: {
        format: 'dc+sd-jwt',
        vct_values: ['https://issuer.example/vct/pid'],
        claims: [
          { name: 'given_name', path: ['given_name'], type: 'TEXT' },
          { name: 'birthdateISO', path: ['birthdate'], type: 'DATETIME' },
        ],
      },
      trust_policy: 'ANY_ISSUER',
    });
    const onExternal = await startAttempt(external.id);
    expect(onExternal.requested_claim_labels.map((c) => c.label.ja)).toEqual(['Given name', 'Birthdate ISO']);
  });

  it("answers who asks for the shareable link's page, by verification id, and 404 once it is gone", async () => {
    const verification = await createVerification({ schema_id: org.schemaRecord.schema.id });
    const response = await t.app.inject({ url: `/api/verifications/${verification.id}/requester` });
    expect(response.statusCode, response.body).toBe(200);
    expect(zHolderOrganization.parse(response.json())).toEqual({
      name: 'Acme Clearance Office',
      logo_url: `${t.config.publicUrl}/api/media/${logo.id}`,
      verified: true,
      brand_color: '#ffcc00',
    });
    const unknown = await t.app.inject({ url: `/api/verifications/${crypto.randomUUID()}/requester` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('VERIFICATION_NOT_FOUND');
    const malformed = await t.app.inject({ url: '/api/verifications/not-an-id/requester' });
    expect(malformed.statusCode).toBe(400);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/verifications/${verification.id}`,
      headers: org.headers,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    const gone = await t.app.inject({ url: `/api/verifications/${verification.id}/requester` });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('Acme');
  });
});

describe('the display wallets read', () => {
  let dark: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
  let logoUrl: string;

  beforeAll(async () => {
    dark = await buildVerifiedOrganization(t, 'Navy Institute', {
      name: 'Diploma',
      attributes: [{ name: 'field_of_study', type: 'TEXT' }],
    });
    const logo = await upload(dark.headers, 'logo');
    logoUrl = `${t.config.publicUrl}/api/media/${logo.id}`;
    const response = await put(dark.organization.id, dark.headers, { logo: logo.id, brand_color: '#003366' });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('names the issuer with its logo and alternative text in every language (OpenID4VCI §12.2.4)', async () => {
    const metadata = await issuerMetadata(dark.organization.id);
    expect(metadata.display).toEqual([
      { name: 'Navy Institute', locale: 'en', logo: { uri: logoUrl, alt_text: 'Navy Institute logo' } },
      { name: 'Navy Institute', locale: 'ja', logo: { uri: logoUrl, alt_text: 'Navy Instituteのロゴ' } },
      { name: 'Navy Institute', locale: 'es', logo: { uri: logoUrl, alt_text: 'Logotipo de Navy Institute' } },
      { name: 'Navy Institute', locale: 'ko', logo: { uri: logoUrl, alt_text: 'Navy Institute 로고' } },
    ]);
  });

  it('draws every credential configuration in the brand colour, with the text colour that reads on it', async () => {
    const darkConfigurations = Object.values(
      (await issuerMetadata(dark.organization.id)).credential_configurations_supported,
    );
    expect(darkConfigurations.length).toBeGreaterThan(1);
    for (const configuration of darkConfigurations as { credential_metadata: { display: unknown[] } }[]) {
      for (const display of configuration.credential_metadata.display) {
        expect(display).toMatchObject({
          background_color: '#003366',
          text_color: '#ffffff',
          logo: { uri: logoUrl, alt_text: expect.stringContaining('Navy Institute') },
        });
      }
    }
    // A light colour gets near-black text.
    const light = Object.values((await issuerMetadata(org.organization.id)).credential_configurations_supported)[0] as {
      credential_metadata: { display: Record<string, unknown>[] };
    };
    expect(light.credential_metadata.display[0]).toMatchObject({ background_color: '#ffcc00', text_color: '#111111' });
  });

  it('leaves the colours to the wallet when the organization has none', async () => {
    const plain = await buildVerifiedOrganization(t, 'Colourless', {
      name: 'Pass',
      attributes: [{ name: 'level', type: 'NUMBER' }],
    });
    const metadata = await issuerMetadata(plain.organization.id);
    expect(metadata.display[0]).toEqual({ name: 'Colourless', locale: 'en' });
    for (const configuration of Object.values(metadata.credential_configurations_supported) as {
      credential_metadata: { display: Record<string, unknown>[] };
    }[]) {
      for (const display of configuration.credential_metadata.display) {
        expect(Object.keys(display).sort()).toEqual(['locale', 'name']);
      }
    }
    const slug = Object.keys(metadata.credential_configurations_supported).find((id) => id.startsWith('pass'))!;
    const type = await (await fetch(`${t.baseUrl}/orgs/${plain.organization.id}/vct/${slug}`)).json();
    expect(type.display.every((d: Record<string, unknown>) => d.rendering === undefined)).toBe(true);
  });

  it("renders the organization's own type with the simple rendering method (SD-JWT VC Type Metadata)", async () => {
    const metadata = await issuerMetadata(dark.organization.id);
    const slug = Object.keys(metadata.credential_configurations_supported).find((id) => id.startsWith('diploma'))!;
    const response = await fetch(`${t.baseUrl}/orgs/${dark.organization.id}/vct/${slug}`);
    expect(response.status).toBe(200);
    const type = await response.json();
    expect(type.display.find((d: { locale: string }) => d.locale === 'ja')).toEqual({
      locale: 'ja',
      name: 'Diploma',
      rendering: {
        simple: {
          logo: { uri: logoUrl, alt_text: 'Navy Instituteのロゴ' },
          background_color: '#003366',
          text_color: '#ffffff',
        },
      },
    });
    // The platform's shared types belong to no organization: no one's colours on them.
    const shared = await (await fetch(`${t.baseUrl}/vct/work-certificate`)).json();
    expect(JSON.stringify(shared)).not.toContain('rendering');
    expect(JSON.stringify(shared)).not.toContain('#003366');
  });

  it('is read by a third-party OpenID4VCI client (@openid4vc/openid4vci) with the branding in it', async () => {
    const client = new Openid4vciClient({
      callbacks: {
        fetch,
        clientAuthentication: clientAuthenticationNone({ clientId: 'branding-test-wallet' }),
        hash: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
        generateRandom: (length) => new Uint8Array(randomBytes(length)),
        signJwt: async () => {
          throw new Error('not needed to read metadata');
        },
      },
    });
    const resolved = await client.resolveIssuerMetadata(`${t.config.publicUrl}/orgs/${dark.organization.id}`);
    const issuer = resolved.credentialIssuer as { display?: { logo?: { uri?: string } }[] };
    expect(issuer.display?.[0]?.logo?.uri).toBe(logoUrl);
    const configurations = Object.values(resolved.credentialIssuer.credential_configurations_supported) as {
      credential_metadata?: { display?: { background_color?: string; text_color?: string }[] };
    }[];
    expect(configurations[0]?.credential_metadata?.display?.[0]).toMatchObject({
      background_color: '#003366',
      text_color: '#ffffff',
    });
  });
});
