import 'fake-indexeddb/auto';
import type { Verification } from '@cp/contracts';
import { mdocNames } from '@cp/credentials/mdoc';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planPresentation, resolvePresentationRequest, submitPresentation } from '../../wallet/src/core/present.ts';
import { acceptOffer, resolveOffer } from '../../wallet/src/core/receive.ts';
import { checkStatus } from '../../wallet/src/core/status.ts';
import type { StoredCredential, WalletVault } from '../../wallet/src/core/types.ts';
import { openVault } from '../../wallet/src/core/vault.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

/**
 * The companion wallet's core with ISO mdocs, against this API over real HTTP: it receives the credential as an
 * mdoc (the offer lists both configurations, the holder chooses `mso_mdoc`), presents it to a verification with
 * `format: mso_mdoc` (DCQL doctype and [namespace, element] paths, direct_post.jwt, DeviceResponse over the
 * session transcript) and the attempt is VERIFIED; after the revocation the status is REVOKED and a new attempt
 * FAILS its STATUS check.
 */

const WALLET_URL = 'http://127.0.0.1:3002';
let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let vault: WalletVault;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
  { name: 'joined_on', type: 'DATETIME' as const },
];

beforeAll(async () => {
  // The wallet page as in development (http): only then does the core follow the API's http URLs.
  vi.stubGlobal('location', { protocol: 'http:' });
  t = await startTestApp({ listen: true });
  issuer = await buildVerifiedOrganization(t, 'Mdoc Wallet Society', { name: 'Membership', attributes });
  vault = await openVault(`wallet-mdoc-${Date.now()}`, { kdfIterations: 1_000 });
  await vault.create('wallet passcode');
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await t?.close();
});

const issuerUrl = () => `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
const names = () => mdocNames({ vct: `${issuerUrl()}/vct/${issuer.schemaRecord.schema.slug}` });

async function offerLink() {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: { full_name: 'Ada Lovelace', age: '36', joined_on: '2020-05-01' },
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().id as string;
  const { connection_url } = (await (await fetch(`${t.baseUrl}/api/credentials/${id}/connect`)).json()) as {
    connection_url: string;
  };
  return { id, link: `${WALLET_URL}/receive?offer=${encodeURIComponent(connection_url)}` };
}

async function createVerification(): Promise<Verification> {
  const age = issuer.schemaRecord.attributes.find((a) => a.name === 'age')!.id;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: {
      name: 'Members over 18 (mdoc)',
      schema_id: issuer.schemaRecord.schema.id,
      format: 'mso_mdoc',
      type: 'MULTI',
      attributes: [{ attribute_id: age, operator: 'BIGGER', value: '18' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

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

let mdoc: StoredCredential;
let mdocApiId: string;
let sdJwt: StoredCredential;

describe('the wallet core with our issuer and verifier, as an mdoc', () => {
  it('receives the credential as an mdoc when the holder chooses it, verified and with its status', async () => {
    const offered = await offerLink();
    mdocApiId = offered.id;
    const resolved = await resolveOffer(offered.link, 'ja');
    expect(resolved.formats).toEqual(['dc+sd-jwt', 'mso_mdoc']);
    mdoc = await acceptOffer(resolved, vault, { format: 'mso_mdoc' });
    const { docType, namespace } = names();
    expect(mdoc).toMatchObject({
      format: 'mso_mdoc',
      vct: docType,
      issuer: { id: issuerUrl(), name: { en: 'Mdoc Wallet Society' }, verifiedOrganization: true, keySource: 'x5c' },
      claims: { full_name: 'Ada Lovelace', age: 36, joined_on: '2020-05-01' },
      mdoc: { docType, namespaces: { [namespace]: { full_name: 'Ada Lovelace', age: 36, joined_on: '2020-05-01' } } },
      statusReference: { uri: expect.stringContaining(`${issuerUrl()}/status-lists/`), idx: expect.any(Number) },
      lastStatus: 'VALID',
    });
    expect(mdoc.claimDisplay.map((c) => c.name)).toEqual(['full_name', 'age', 'joined_on']);
    expect(mdoc.display.name).toMatchObject({ en: 'Membership' });
    expect(await vault.getCredential(mdoc.id)).toEqual(mdoc);

    // The same schema as an SD-JWT VC (the default), held beside it.
    sdJwt = await acceptOffer(await resolveOffer((await offerLink()).link, 'en'), vault);
    expect(sdJwt.format).toBe('dc+sd-jwt');
  });

  it('presents the mdoc to a verification of format mso_mdoc: only the mdoc answers, and the attempt is VERIFIED', async () => {
    const verification = await createVerification();
    const { individualId, link } = await startAttempt(verification.id);
    const request = await resolvePresentationRequest(link);
    expect(request.responseMode).toBe('direct_post.jwt');
    const plan = planPresentation(request, await vault.listCredentials());
    const [requested] = plan.credentials;
    expect(requested!.vctValues).toEqual([names().docType]);
    expect(requested!.candidates.map((c) => c.credential.id)).toEqual([mdoc.id]);
    const candidate = requested!.candidates[0]!;
    expect(candidate.paths?.every((path) => path[0] === names().namespace)).toBe(true);
    await submitPresentation(request, candidate, vault);
    expect(await outcome(individualId)).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
    const rows = (
      await t.app.inject({ url: `/api/verifications/${verification.id}/individuals`, headers: issuer.headers })
    ).json().results;
    expect(rows[0].presented_claims).toMatchObject({ age: 36 });
    expect((await vault.listPresentations())[0]).toMatchObject({
      outcome: 'SENT',
      credentialId: mdoc.id,
      sharedClaims: candidate.disclose,
    });
  });

  it('sees the revocation: REVOKED, and a new attempt FAILS the STATUS check', async () => {
    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [mdocApiId] },
    });
    expect(revoke.json()).toEqual({ revoked: [mdocApiId] });
    expect(await checkStatus(mdoc)).toBe('REVOKED');
    expect(await checkStatus(sdJwt)).toBe('VALID');

    const { individualId, link } = await startAttempt((await createVerification()).id);
    const request = await resolvePresentationRequest(link);
    const candidate = planPresentation(request, [{ ...mdoc, lastStatus: 'REVOKED' }]).credentials[0]!.candidates[0]!;
    await submitPresentation(request, candidate, vault);
    expect(await outcome(individualId)).toMatchObject({ status: 'FAILED', failed_checks: ['STATUS'] });
  });
});
