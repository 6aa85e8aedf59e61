import 'fake-indexeddb/auto';
import type { Verification } from '@cp/contracts';
import { decodeMdoc, mdocNames } from '@cp/credentials/mdoc';
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

/**
 * A batch (OpenID4VCI 1.0 §8.2 `proofs`, HAIP 1.0): the wallet asks for several mdocs of one credential, each bound
 * to a key of its own, keeps them as one card, and presents a fresh one each time.
 */
describe('the wallet core with an mdoc batch from our issuer', () => {
  let batchVault: WalletVault;
  let batch: StoredCredential;

  beforeAll(async () => {
    batchVault = await openVault(`wallet-mdoc-batch-${Date.now()}`, { kdfIterations: 1_000 });
    await batchVault.create('wallet passcode');
  });

  const xOf = (jwk: JsonWebKey | null | undefined) => jwk?.x;

  it('receives a batch of 3 as one card whose instances are each bound to a distinct key, kept with it', async () => {
    const resolved = await resolveOffer((await offerLink()).link, 'en');
    batch = await acceptOffer(resolved, batchVault, { format: 'mso_mdoc', batchSize: 3 });
    expect(batch).toMatchObject({ format: 'mso_mdoc', vct: names().docType, lastStatus: 'VALID' });
    const instances = batch.instances!;
    expect(instances).toHaveLength(3);
    expect(instances[0]).toMatchObject({ raw: batch.raw });
    expect(instances[0]!.key).toBeUndefined();
    expect(xOf(decodeMdoc(instances[0]!.raw).deviceJwk)).toBe(batchVault.holder().publicJwk.x);
    for (const instance of instances.slice(1)) {
      expect(xOf(decodeMdoc(instance.raw).deviceJwk)).toBe(instance.key!.publicJwk.x);
      expect(instance.key!.privateJwk.d).toEqual(expect.any(String));
    }
    expect(new Set(instances.map((i) => xOf(decodeMdoc(i.raw).deviceJwk))).size).toBe(3);
    // Each with a status entry of its own, on the issuer's lists.
    expect(new Set(instances.map((i) => `${i.statusReference!.uri}#${i.statusReference!.idx}`)).size).toBe(3);
    expect(await batchVault.listCredentials()).toEqual([batch]);
  });

  it('presents a fresh instance to each of two verifications, each with its key: both VERIFIED', async () => {
    const verification = await createVerification();
    for (const expected of [0, 1]) {
      const { individualId, link } = await startAttempt(verification.id);
      const request = await resolvePresentationRequest(link);
      const candidate = planPresentation(request, await batchVault.listCredentials()).credentials[0]!.candidates[0]!;
      expect(candidate.credential.id).toBe(batch.id);
      await submitPresentation(request, candidate, batchVault);
      expect(await outcome(individualId)).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
      expect((await batchVault.listPresentations()).find((p) => p.instance?.index === expected)).toMatchObject({
        outcome: 'SENT',
        credentialId: batch.id,
        instance: { index: expected, count: 3, reused: false },
      });
    }
    const [first, second, third] = (await batchVault.getCredential(batch.id))!.instances!;
    expect([first!.usedAt, second!.usedAt, third!.usedAt]).toEqual([expect.any(String), expect.any(String), undefined]);
  });

  it('refuses a batch with an instance whose device key is not the key made for it, and stores nothing', async () => {
    const vault = await openVault(`wallet-mdoc-tampered-${Date.now()}`, { kdfIterations: 1_000 });
    await vault.create('wallet passcode');
    // Genuinely issued by our issuer, but bound to another wallet's key: swapped in for the last instance. The
    // issuer's optional response encryption is left out of its metadata, so that the response can be altered.
    const foreign = batch.instances![1]!.raw;
    let swapped = 0;
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const response = await realFetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.includes('/.well-known/openid-credential-issuer') && response.ok) {
        const { credential_response_encryption: _, ...metadata } = (await response.json()) as Record<string, unknown>;
        return Response.json(metadata);
      }
      if (init?.method !== 'POST' || !url.pathname.endsWith('/credential') || !response.ok) return response;
      const body = (await response.json()) as { credentials: { credential: string }[] };
      body.credentials[2] = { credential: foreign };
      swapped = body.credentials.length;
      return Response.json(body);
    });
    try {
      const resolved = await resolveOffer((await offerLink()).link, 'en');
      await expect(acceptOffer(resolved, vault, { format: 'mso_mdoc', batchSize: 3 })).rejects.toMatchObject({
        code: 'CREDENTIAL_INVALID',
        message: expect.stringMatching(/not bound to a holder key/),
      });
    } finally {
      spy.mockRestore();
    }
    expect(swapped).toBe(3);
    expect(await vault.listCredentials()).toEqual([]);
  });
});
