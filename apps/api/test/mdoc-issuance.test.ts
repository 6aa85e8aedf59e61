import { statusFromToken, validateCertificationPath } from '@cp/credentials';
import { decodeMdoc, isMdocDocTypeOf, mdocNames, verifyMdocPresentation } from '@cp/credentials/mdoc';
import { requestIssuedCredential, resolveCredentialOffer } from '@cp/holder';
import { buildMdocDeviceResponse } from '@cp/holder/mdoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, claimMdoc, fetchOf, type MdocHolder, makeHolder, makeMdocHolder } from './support/wallet.ts';

/**
 * ISO mdoc issuance through the real OpenID4VCI endpoints (OpenID4VCI 1.0 Appendix A.2): every schema has a
 * second configuration `<slug>_mdoc`, offers list both, and the credential endpoint answers an IssuerSigned
 * signed by the organization's key, chained to the platform CA, bound to the proof's key, with the
 * credential's status list entry.
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'member', type: 'BOOLEAN' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
];

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'Mdoc Society', { name: 'Membership', attributes });
});
afterAll(async () => {
  await t?.close();
});

const issuerUrl = () => `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
const slug = () => issuer.schemaRecord.schema.slug;
const vct = () => `${issuerUrl()}/vct/${slug()}`;

async function createCredential() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: [
          { name: 'full_name', value: 'Ada Lovelace' },
          { name: 'age', value: '36' },
          { name: 'member', value: 'true' },
          { name: 'joined_on', value: '2020-05-01' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  return { id: created.json().id as string, connectionUrl: connect.connection_url as string };
}

describe('mdoc issuer metadata', () => {
  it('lists, for every schema, the SD-JWT VC configuration and an mso_mdoc one (Appendix A.2.2)', async () => {
    const metadata = (
      await t.app.inject({ url: `/orgs/${issuer.organization.id}/.well-known/openid-credential-issuer` })
    ).json();
    const configurations = metadata.credential_configurations_supported;
    const ids = Object.keys(configurations);
    // The organization's schema and the platform's shared ones, each twice.
    expect(ids).toEqual(expect.arrayContaining([slug(), `${slug()}_mdoc`]));
    const sdJwt = ids.filter((id) => configurations[id].format === 'dc+sd-jwt');
    expect(ids.filter((id) => configurations[id].format === 'mso_mdoc').sort()).toEqual(
      sdJwt.map((id) => `${id}_mdoc`).sort(),
    );
    expect(configurations[slug()].format).toBe('dc+sd-jwt');
    const { docType, namespace } = mdocNames({ vct: vct() });
    expect(docType).toBe(namespace);
    expect(isMdocDocTypeOf(docType, issuerUrl())).toBe(true);
    expect(configurations[`${slug()}_mdoc`]).toMatchObject({
      format: 'mso_mdoc',
      doctype: docType,
      cryptographic_binding_methods_supported: ['cose_key'],
      credential_signing_alg_values_supported: [-7],
      proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
    });
    const claims = configurations[`${slug()}_mdoc`].credential_metadata.claims;
    expect(claims.map((c: { path: string[] }) => c.path)).toEqual(attributes.map((a) => [namespace, a.name]));
    expect(claims[0].display).toContainEqual({ name: expect.any(String), locale: 'ja' });
    expect(configurations[`${slug()}_mdoc`].credential_metadata.display.length).toBe(4);
  });

  it('offers list both configurations', async () => {
    const { connectionUrl } = await createCredential();
    const offerUri = new URL(connectionUrl).searchParams.get('credential_offer_uri')!;
    const offer = await (await fetchOf(t)(offerUri)).json();
    expect(offer.credential_configuration_ids).toEqual([slug(), `${slug()}_mdoc`]);
  });
});

describe('claiming the mdoc', () => {
  let holder: MdocHolder;
  let issuerSigned: string;
  let credentialId: string;

  beforeAll(async () => {
    holder = await makeMdocHolder();
    const created = await createCredential();
    credentialId = created.id;
    issuerSigned = await claimMdoc(t, created.connectionUrl, holder);
  });

  it('is an IssuerSigned of the schema doctype, with typed elements, bound to the proof key', () => {
    const decoded = decodeMdoc(issuerSigned);
    const { docType, namespace } = mdocNames({ vct: vct() });
    expect(decoded.docType).toBe(docType);
    expect(decoded.namespaces).toEqual({
      [namespace]: { full_name: 'Ada Lovelace', age: 36, member: true, joined_on: '2020-05-01' },
    });
    expect(decoded.deviceJwk).toMatchObject({ x: holder.key.publicJwk.x, y: holder.key.publicJwk.y });
    expect(decoded.validUntil.getTime()).toBeGreaterThan(decoded.validFrom.getTime());
  });

  it('has an x5chain of the organization certificate that leads to the platform CA', async () => {
    const decoded = decodeMdoc(issuerSigned);
    // The anchor itself (the platform CA as IACA) is not sent.
    expect(decoded.x5chain).toHaveLength(1);
    const path = await validateCertificationPath(decoded.x5chain, [t.runtime.ctx.keys.ca.certificatePem]);
    expect(path.uris).toContain(issuerUrl());
    await expect(validateCertificationPath(decoded.x5chain, [])).rejects.toThrow();
  });

  it("carries the credential's status list entry: revoking the credential revokes the mdoc", async () => {
    const { status } = decodeMdoc(issuerSigned);
    expect(status?.uri).toMatch(new RegExp(`^${issuerUrl()}/status-lists/`));
    const read = async () => {
      const token = await (await fetchOf(t)(status!.uri)).text();
      return statusFromToken(token, status!.idx).status;
    };
    expect(await read()).toBe(0);
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [credentialId] },
    });
    expect(revoke.statusCode).toBe(200);
    expect(await read()).toBe(1);
  });

  it('verifies as a presentation with the library verifier (signature, digests, device key)', async () => {
    const { docType, namespace } = mdocNames({ vct: vct() });
    const transcript = { clientId: 'x509_hash:abc', nonce: 'n-1', responseUri: 'https://verifier.example/r' };
    const deviceResponse = await buildMdocDeviceResponse({
      ...transcript,
      issuerSigned,
      paths: [[namespace, 'age']],
      signer: holder.cose,
    });
    const result = await verifyMdocPresentation(
      deviceResponse,
      { ...transcript, docType, requestedClaims: [{ name: 'age', path: [namespace, 'age'] }] },
      {
        trustAnchors: [t.runtime.ctx.keys.ca.certificatePem],
        admitIssuer: async () => ({
          issuer: { admitted: true, reason: 'ANY_ISSUER', detail: 'test' },
          type: { passed: true },
        }),
        fetchStatusListToken: async (uri) => (await fetchOf(t)(uri)).text(),
      },
    );
    expect(result.checks.filter((c) => !c.passed).map((c) => c.code)).toEqual(['STATUS']);
    expect(result.claims).toEqual({ age: 36 });
  });

  it('the offer delivers one credential: the SD-JWT VC cannot be claimed after the mdoc', async () => {
    const created = await createCredential();
    await claimMdoc(t, created.connectionUrl, await makeMdocHolder());
    await expect(claimCredential(t, created.connectionUrl, await makeHolder())).rejects.toThrow();
  });
});

describe('the credential endpoint', () => {
  it('refuses a configuration id of another schema', async () => {
    const created = await createCredential();
    const holder = await makeMdocHolder();
    const issuance = await resolveCredentialOffer(created.connectionUrl, { fetch: fetchOf(t) }, { format: 'mso_mdoc' });
    const forged = { ...issuance, configurationId: 'other-schema-12345678_mdoc' };
    forged.issuerMetadata.credentialIssuer.credential_configurations_supported[forged.configurationId] =
      issuance.configuration as never;
    await expect(requestIssuedCredential(forged, { key: holder.key }, { fetch: fetchOf(t) })).rejects.toMatchObject({
      detail: expect.stringMatching(/another credential configuration/),
    });
  });
});
