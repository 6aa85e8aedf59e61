import { decodeJwt, validateCertificationPath } from '@cp/credentials';
import { resolvePresentationRequest } from '@cp/holder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, fetchOf, type Holder, makeHolder, presentCredential, walletHttp } from './support/wallet.ts';

/**
 * `x509_san_dns` client ids (issue 17, HAIP 1.0; OpenID4VP 1.0 §5.9.3): a verification may name its verifier by
 * the platform's host instead of the hash of the organization's certificate. The request object is then signed
 * with a certificate (platform CA) naming that host (dNSName) and the organization (URI); the response goes to
 * that host.
 */

const HOST = 'platform.localhost';
let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;

beforeAll(async () => {
  // Requests are answered in process (the host is never resolved): a DNS name, as a certificate can name.
  t = await startTestApp({ env: { PUBLIC_URL: `http://${HOST}` } });
  issuer = await buildVerifiedOrganization(t, 'San Dns Society', {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: { name: 'Membership', schema_id: issuer.schemaRecord.schema.id, claims: { full_name: 'Ada' } },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  holder = await makeHolder();
  credential = await claimCredential(t, connect.connection_url, holder);
});
afterAll(async () => {
  await t?.close();
});

async function createVerification(extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: { name: 'Members', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI', attributes: [], ...extra },
  });
}

async function startAttempt(verificationId: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  return { individual, link: connect.connection_url as string };
}

const platformCa = async () => (await walletHttp(t)(`${t.config.publicUrl}/api/platform/ca.pem`)).body;

describe('x509_san_dns client ids', () => {
  it('is an option of the verification: x509_hash by default, anything else refused', async () => {
    const plain = await createVerification();
    expect(plain.json().client_id_scheme).toBe('x509_hash');
    const dns = await createVerification({ client_id_scheme: 'x509_san_dns' });
    expect(dns.statusCode, dns.body).toBe(201);
    expect(dns.json().client_id_scheme).toBe('x509_san_dns');
    const read = await t.app.inject({ url: `/api/verifications/${dns.json().id}`, headers: issuer.headers });
    expect(read.json().client_id_scheme).toBe('x509_san_dns');
    for (const bad of ['redirect_uri', 'x509_san_uri', '', 42]) {
      expect((await createVerification({ client_id_scheme: bad })).statusCode).toBe(400);
    }
  });

  it('signs the request with a certificate naming the host (dNSName) and the organization (URI), checked by @cp/holder', async () => {
    const verification = (await createVerification({ client_id_scheme: 'x509_san_dns' })).json();
    const { link } = await startAttempt(verification.id);
    const clientId = `x509_san_dns:${HOST}`;
    expect(new URL(link.replace('openid4vp://', 'https://wallet/')).searchParams.get('client_id')).toBe(clientId);

    const request = await resolvePresentationRequest(link, { fetch: fetchOf(t) });
    expect(request.clientIdPrefix).toBe('x509_san_dns');
    expect(request.clientId).toBe(clientId);
    // §5.9.3: the response goes to the host the client id names.
    expect(new URL(request.responseUri).hostname).toBe(HOST);
    expect(request.certificate?.dnsNames).toEqual([HOST]);
    const issuerUrl = `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
    expect(request.certificate?.uris).toEqual([issuerUrl]);

    // The x5c chain is a certification path to the platform CA, for the organization's own key.
    const jwt = (
      await walletHttp(t)(new URL(link.replace('openid4vp://', 'https://wallet/')).searchParams.get('request_uri')!)
    ).body;
    const { header, payload } = decodeJwt(jwt);
    expect(payload.client_id).toBe(clientId);
    const path = await validateCertificationPath(header.x5c, [await platformCa()]);
    expect(path.dnsNames).toEqual([HOST]);
    const credentialX5c = decodeJwt(credential.split('~')[0]!).header.x5c as string[];
    const credentialPath = await validateCertificationPath(credentialX5c, [await platformCa()]);
    // The same key as the credentials', whose own certificate still names the organization only (no host).
    expect(credentialPath.dnsNames).toEqual([]);
    expect(credentialPath.uris).toEqual([issuerUrl]);
    expect([path.leafJwk.x, path.leafJwk.y]).toEqual([credentialPath.leafJwk.x, credentialPath.leafJwk.y]);
  });

  it('verifies a presentation answering an x509_san_dns request (key binding to that client id)', async () => {
    const verification = (await createVerification({ client_id_scheme: 'x509_san_dns' })).json();
    const { individual, link } = await startAttempt(verification.id);
    const response = await presentCredential(t, link, credential, holder);
    expect(response.status, response.body).toBe(200);
    const result = (await t.app.inject({ url: `/api/verifications/${individual.id}/verify` })).json();
    expect(result).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
  });

  it('refuses a presentation bound to the x509_hash client id of the same organization (audience)', async () => {
    const verification = (await createVerification({ client_id_scheme: 'x509_san_dns' })).json();
    const hashed = (await createVerification()).json();
    const { link: hashLink } = await startAttempt(hashed.id);
    const hashClientId = (await resolvePresentationRequest(hashLink, { fetch: fetchOf(t) })).clientId;
    expect(hashClientId.startsWith('x509_hash:')).toBe(true);
    const { individual, link } = await startAttempt(verification.id);
    await presentCredential(t, link, credential, holder, { audience: hashClientId });
    const result = (await t.app.inject({ url: `/api/verifications/${individual.id}/verify` })).json();
    expect(result.status).toBe('FAILED');
  });
});
