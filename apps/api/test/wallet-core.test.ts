import 'fake-indexeddb/auto';
import type { Verification } from '@cp/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WalletError } from '../../wallet/src/core/errors.ts';
import {
  declinePresentation,
  findCandidates,
  resolvePresentationRequest,
  submitPresentation,
} from '../../wallet/src/core/present.ts';
import { acceptOffer, resolveOffer } from '../../wallet/src/core/receive.ts';
import { checkStatus, refreshStatuses } from '../../wallet/src/core/status.ts';
import type { StoredCredential, WalletVault } from '../../wallet/src/core/types.ts';
import { openVault } from '../../wallet/src/core/vault.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

/**
 * The companion wallet's core (apps/wallet/src/core) against this API over real HTTP: it receives
 * credentials from our issuer (OpenID4VCI, with and without a PIN), checks their status, presents them
 * to our verifier (OpenID4VP, direct_post.jwt), and sees a revocation.
 */

const WALLET_URL = 'http://127.0.0.1:3002';
let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let vault: WalletVault;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'member', type: 'BOOLEAN' as const },
];

beforeAll(async () => {
  // The wallet page as in development, served over http: only then does the core follow http URLs (the API's).
  // No href: no wallet server here to say where its platform is (the core reads no /config.json, as before).
  vi.stubGlobal('location', { protocol: 'http:' });
  t = await startTestApp({ listen: true });
  issuer = await buildVerifiedOrganization(t, 'Analytical Society', { name: 'Membership', attributes });
  vault = await openVault(`wallet-core-${Date.now()}`, { kdfIterations: 1_000 });
  await vault.create('wallet passcode');
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await t?.close();
});

async function createCredential(extra: object = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: { full_name: 'Ada Lovelace', age: '36', member: 'true' },
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; tx_code?: string };
}

/** The console's "Open in wallet" link for a credential: the claim page's offer, wrapped for the wallet. */
async function walletReceiveLink(credentialId: string) {
  const connect = await fetch(`${t.baseUrl}/api/credentials/${credentialId}/connect`);
  expect(connect.status).toBe(200);
  const { connection_url } = (await connect.json()) as { connection_url: string };
  expect(connection_url).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
  return `${WALLET_URL}/receive?offer=${encodeURIComponent(connection_url)}`;
}

async function createVerification(rules: [string, string, string][] = []): Promise<Verification> {
  const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: {
      name: 'Members over 18',
      schema_id: issuer.schemaRecord.schema.id,
      type: 'MULTI',
      attributes: rules.map(([name, operator, value]) => ({ attribute_id: attributeId(name), operator, value })),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The holder page's attempt, and the wallet link the "Open in wallet" button makes of it. */
async function startAttempt(verificationId: string) {
  const created = await fetch(`${t.baseUrl}/api/verifications/individuals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ verification_id: verificationId }),
  });
  expect(created.status).toBe(201);
  const individual = (await created.json()) as { id: string };
  const connect = (await (await fetch(`${t.baseUrl}/api/verifications/${individual.id}/connect`)).json()) as {
    connection_url: string;
  };
  return {
    individualId: individual.id,
    link: `${WALLET_URL}/present?request=${encodeURIComponent(connect.connection_url)}`,
  };
}

const outcome = async (individualId: string) =>
  (await (await fetch(`${t.baseUrl}/api/verifications/${individualId}/verify`)).json()) as {
    status: string;
    failed_checks: string[];
  };

let received: StoredCredential;
let receivedApiId: string;
let receivedWithPin: StoredCredential;

describe('the wallet core with our issuer and verifier', () => {
  it('receives a credential from our issuer through the offer link, verified through its x5c chain', async () => {
    const created = await createCredential();
    receivedApiId = created.id;
    const link = await walletReceiveLink(created.id);
    const resolved = await resolveOffer(link, 'ja');
    const issuerUrl = `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
    expect(resolved).toMatchObject({
      credentialIssuer: issuerUrl,
      issuer: {
        id: issuerUrl,
        name: { en: 'Analytical Society', ja: 'Analytical Society' },
        verifiedOrganization: true,
      },
      display: { name: { en: 'Membership' } },
      configurationId: expect.any(String),
    });
    expect(resolved.txCode).toBeUndefined();
    expect(resolved.claimDisplay.map((c) => c.name)).toEqual(['full_name', 'age', 'member']);

    received = await acceptOffer(resolved, vault);
    expect(received).toMatchObject({
      format: 'dc+sd-jwt',
      vct: `${issuerUrl}/vct/${resolved.configurationId}`,
      issuer: { id: issuerUrl, verifiedOrganization: true, keySource: 'x5c' },
      claims: { full_name: 'Ada Lovelace', age: 36, member: true },
      statusReference: { uri: expect.stringContaining(issuerUrl), idx: expect.any(Number) },
      lastStatus: 'VALID',
      issuedAt: expect.any(String),
    });
    expect(received.claims).not.toHaveProperty('cnf');
    expect(await vault.getCredential(received.id)).toEqual(received);
    expect(await checkStatus(received)).toBe('VALID');

    // The offer is used: following the same link again says so.
    const again = resolveOffer(link, 'en');
    await expect(again).rejects.toBeInstanceOf(WalletError);
    await expect(again).rejects.toMatchObject({ code: 'OFFER_EXPIRED' });
  });

  it('asks for the PIN when the offer has a tx_code: none, a wrong one, then the right one', async () => {
    const created = await createCredential({ tx_code: true });
    expect(created.tx_code).toMatch(/^\d{6}$/);
    const resolved = await resolveOffer(await walletReceiveLink(created.id), 'en');
    expect(resolved.txCode).toMatchObject({ length: 6, inputMode: 'numeric' });
    await expect(acceptOffer(resolved, vault)).rejects.toMatchObject({ code: 'PIN_REQUIRED' });
    const wrong = created.tx_code === '000000' ? '111111' : '000000';
    await expect(acceptOffer(resolved, vault, { txCode: wrong })).rejects.toMatchObject({ code: 'PIN_WRONG' });
    receivedWithPin = await acceptOffer(resolved, vault, { txCode: created.tx_code! });
    expect(receivedWithPin).toMatchObject({ lastStatus: 'VALID', issuer: { verifiedOrganization: true } });
    expect((await vault.listCredentials()).map((c) => c.id).sort()).toEqual([received.id, receivedWithPin.id].sort());
  });

  it('presents to our verifier with direct_post.jwt, disclosing only what was asked, and the attempt is VERIFIED', async () => {
    const verification = await createVerification([['age', 'BIGGER', '18']]);
    const { individualId, link } = await startAttempt(verification.id);
    const request = await resolvePresentationRequest(link);
    expect(request).toMatchObject({
      clientIdScheme: 'x509_hash',
      clientId: expect.stringMatching(/^x509_hash:/),
      verifier: { name: 'Analytical Society' },
      responseMode: 'direct_post.jwt',
      responseUri: `${t.config.publicUrl}/oid4vp/responses/${individualId}`,
    });
    expect((await outcome(individualId)).status).toBe('REQUESTED');

    const candidates = findCandidates(request, await vault.listCredentials());
    expect(candidates.map((c) => c.credential.id).sort()).toEqual([received.id, receivedWithPin.id].sort());
    const candidate = candidates.find((c) => c.credential.id === received.id)!;
    expect(candidate.disclose).toEqual(['age']);
    const { redirectUri } = await submitPresentation(request, candidate, vault);
    expect(redirectUri).toBe(`${t.config.publicUrl}/connect/verification/${individualId}`);
    expect(await outcome(individualId)).toMatchObject({ status: 'VERIFIED', failed_checks: [] });

    const rows = (
      await t.app.inject({ url: `/api/verifications/${verification.id}/individuals`, headers: issuer.headers })
    ).json().results;
    expect(rows[0].presented_claims).toEqual({ age: 36 });
    expect((await vault.listPresentations())[0]).toMatchObject({
      outcome: 'SENT',
      verifier: { name: 'Analytical Society', clientId: request.clientId },
      credentialId: received.id,
      sharedClaims: ['age'],
    });
  });

  it('sees the revocation: the status turns REVOKED and a new presentation FAILS the STATUS check', async () => {
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [receivedApiId] },
    });
    expect(revoke.json()).toEqual({ revoked: [receivedApiId] });
    expect(await checkStatus(received)).toBe('REVOKED');
    await refreshStatuses(vault);
    const refreshed = await vault.listCredentials();
    expect(Object.fromEntries(refreshed.map((c) => [c.id, c.lastStatus]))).toEqual({
      [received.id]: 'REVOKED',
      [receivedWithPin.id]: 'VALID',
    });
    expect((await vault.getCredential(received.id))?.lastStatus).toBe('REVOKED');

    const verification = await createVerification();
    const { individualId, link } = await startAttempt(verification.id);
    const request = await resolvePresentationRequest(link);
    // The wallet offers the valid credential first and the revoked one after it (the screen warns)…
    const candidates = findCandidates(request, await vault.listCredentials());
    expect(candidates.map((c) => c.credential.id)).toEqual([receivedWithPin.id, received.id]);
    // …and a verifier shown the revoked one refuses it on its status.
    const query = request.dcql.credentials[0]!;
    const asked = (query.claims ?? []).map((c) => String(c.path[0]));
    expect(asked).toEqual(['full_name', 'age', 'member']);
    expect(candidates[1]!.disclose).toEqual(asked);
    await submitPresentation(request, candidates[1]!, vault);
    expect(await outcome(individualId)).toMatchObject({ status: 'FAILED', failed_checks: ['STATUS'] });
  });

  it('declines a request: the verifier hears access_denied and the history says DECLINED', async () => {
    const verification = await createVerification();
    const { individualId, link } = await startAttempt(verification.id);
    const request = await resolvePresentationRequest(link);
    await declinePresentation(request, vault);
    expect(await outcome(individualId)).toMatchObject({ status: 'FAILED', failed_checks: ['WALLET_ERROR'] });
    expect((await vault.listPresentations()).map((p) => p.outcome)).toContain('DECLINED');
  });
});
