import 'fake-indexeddb/auto';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WalletError } from '../../wallet/src/core/errors.ts';
import { resolveOffer } from '../../wallet/src/core/receive.ts';
import {
  completeAuthorizedReceive,
  PENDING_AUTHORIZATION_KEY,
  PENDING_TTL_MS,
  type PendingStorage,
  resolveIssuer,
  resolveIssuerConfiguration,
  startAuthorizedReceive,
} from '../../wallet/src/core/receive-authorization.ts';
import type { WalletVault } from '../../wallet/src/core/types.ts';
import { openVault } from '../../wallet/src/core/vault.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { mailsTo, waitForMails } from './support/mailbox.ts';

/**
 * The wallet's authorization code flow (apps/wallet/src/core/receive-authorization.ts) against this API over real
 * HTTP: PAR with PKCE and DPoP from the wallet, the browser step (here followed by hand, as the tab would), the
 * callback with code and state, the credential verified and stored. And what the callback refuses: another
 * request's state, an expired or missing pending request, the holder's refusal at the issuer.
 */

const WALLET_URL = 'http://127.0.0.1:3002';
const CALLBACK = `${WALLET_URL}/receive/callback`;
let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let issuerUrl: string;
let vault: WalletVault;

/** sessionStorage as one tab has it. */
function tabStorage(): PendingStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

beforeAll(async () => {
  vi.stubGlobal('location', { protocol: 'http:' });
  t = await startTestApp({ listen: true });
  issuer = await buildVerifiedOrganization(t, 'Authorization Society', {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' as const }],
  });
  issuerUrl = `${t.config.publicUrl}/orgs/${issuer.organization.id}`;
  vault = await openVault(`wallet-authorization-${Date.now()}`, { kdfIterations: 1_000 });
  await vault.create('wallet passcode');
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await t?.close();
});

async function issueTo(email: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: { full_name: email },
      },
      recipient: { email, first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const { id } = response.json() as { id: string };
  const connect = (await (await fetch(`${t.baseUrl}/api/credentials/${id}/connect`)).json()) as {
    connection_url: string;
  };
  return { id, link: `${WALLET_URL}/receive?offer=${encodeURIComponent(connect.connection_url)}` };
}

/** The tab at the issuer's authorization endpoint of an issuer-initiated request: redirected back at once. */
async function followAuthorization(authorizationUrl: string) {
  const { pathname, search } = new URL(authorizationUrl);
  const answer = await t.app.inject({ url: `${pathname}${search}` });
  expect(answer.statusCode, answer.body).toBe(302);
  const location = String(answer.headers.location);
  expect(location.startsWith(`${CALLBACK}?`)).toBe(true);
  return location;
}

const credentialRow = async (id: string) =>
  (await t.runtime.ctx.database.db.select().from(schema.credentials).where(eq(schema.credentials.id, id)))[0];

/** An offer resolved and its authorization request pushed; the tab is at the issuer. */
async function started(email: string, storage = tabStorage(), now?: number) {
  const { id, link } = await issueTo(email);
  const resolved = await resolveOffer(link, 'en');
  expect(resolved.authorizationCode).toBe('possible');
  const authorizationUrl = await startAuthorizedReceive(resolved, {
    redirectUri: CALLBACK,
    storage,
    ...(now !== undefined ? { now } : {}),
  });
  expect(authorizationUrl.startsWith(`${issuerUrl}/authorize?`)).toBe(true);
  return { id, storage, authorizationUrl };
}

const codeOf = (error: unknown) => (error instanceof WalletError ? error.code : String(error));

describe('the wallet through the authorization code flow', () => {
  it('keeps the PKCE verifier out of the URL and in the tab only', async () => {
    const { storage, authorizationUrl } = await started('pkce@example.com');
    const pending = JSON.parse(storage.items.get(PENDING_AUTHORIZATION_KEY)!);
    expect(pending.authorization.codeVerifier).toMatch(/^[\w.~-]{43,128}$/);
    expect(authorizationUrl).not.toContain(pending.authorization.codeVerifier);
    // The issuer announces DPoP: the PAR was made with a key kept for the token request.
    expect(pending.dpopKey?.publicJwk).toBeTruthy();
  });

  it('receives an offered credential at the callback: verified, stored, and the pending request spent', async () => {
    const { id, storage, authorizationUrl } = await started('callback@example.com');
    const callback = await followAuthorization(authorizationUrl);
    const stored = await completeAuthorizedReceive(callback, vault, { storage });
    expect(stored.claims).toMatchObject({ full_name: 'callback@example.com' });
    expect(stored.lastStatus).toBe('VALID');
    expect((await vault.listCredentials()).some((c) => c.id === stored.id)).toBe(true);
    expect((await credentialRow(id))?.status).toBe('CLAIMED');
    expect(storage.items.has(PENDING_AUTHORIZATION_KEY)).toBe(false);
    // Single use: the same callback again finds nothing pending.
    await expect(completeAuthorizedReceive(callback, vault, { storage })).rejects.toMatchObject({
      code: 'AUTHORIZATION_EXPIRED',
    });
  });

  it('refuses a callback whose state is not the pending request’s, and stores nothing', async () => {
    const { id, storage, authorizationUrl } = await started('state@example.com');
    const callback = new URL(await followAuthorization(authorizationUrl));
    callback.searchParams.set('state', 'someone-elses-state');
    const before = (await vault.listCredentials()).length;
    const error = await completeAuthorizedReceive(callback.href, vault, { storage }).catch((e: unknown) => e);
    expect(codeOf(error)).toBe('AUTHORIZATION_STATE_MISMATCH');
    expect((await vault.listCredentials()).length).toBe(before);
    expect((await credentialRow(id))?.status).not.toBe('CLAIMED');
    expect(storage.items.has(PENDING_AUTHORIZATION_KEY)).toBe(false);
  });

  it('refuses a callback after the pending request expired, and stores nothing', async () => {
    const { id, storage, authorizationUrl } = await started(
      'expired@example.com',
      tabStorage(),
      Date.now() - PENDING_TTL_MS - 1_000,
    );
    const callback = await followAuthorization(authorizationUrl);
    const before = (await vault.listCredentials()).length;
    const error = await completeAuthorizedReceive(callback, vault, { storage }).catch((e: unknown) => e);
    expect(codeOf(error)).toBe('AUTHORIZATION_EXPIRED');
    expect((await vault.listCredentials()).length).toBe(before);
    expect((await credentialRow(id))?.status).not.toBe('CLAIMED');
  });

  it('receives the offer as an mdoc when that format is chosen: a batch on keys of its own, verified, stored', async () => {
    const { id, link } = await issueTo('mdoc-code@example.com');
    const resolved = await resolveOffer(link, 'en');
    expect(resolved.formats).toEqual(['dc+sd-jwt', 'mso_mdoc']);
    const storage = tabStorage();
    const authorizationUrl = await startAuthorizedReceive(resolved, {
      format: 'mso_mdoc',
      redirectUri: CALLBACK,
      storage,
    });
    expect(JSON.parse(storage.items.get(PENDING_AUTHORIZATION_KEY)!).format).toBe('mso_mdoc');
    const callback = await followAuthorization(authorizationUrl);
    const stored = await completeAuthorizedReceive(callback, vault, { storage });
    expect(stored).toMatchObject({
      format: 'mso_mdoc',
      claims: { full_name: 'mdoc-code@example.com' },
      lastStatus: 'VALID',
    });
    expect(stored.instances?.length).toBeGreaterThan(1);
    expect((await credentialRow(id))?.status).toBe('CLAIMED');
  });

  it('says the holder declined when the issuer answers access_denied', async () => {
    const { storage } = await started('denied@example.com');
    const error = await completeAuthorizedReceive(`${CALLBACK}?error=access_denied&state=x`, vault, {
      storage,
    }).catch((e: unknown) => e);
    expect(codeOf(error)).toBe('AUTHORIZATION_DENIED');
  });

  it('starts from the issuer alone (wallet-initiated): chooses a credential, proves the address, receives it', async () => {
    const email = 'wallet-initiated@example.com';
    const { id } = await issueTo(email);
    const resolvedIssuer = await resolveIssuer(issuerUrl, 'en');
    expect(resolvedIssuer.issuer.name).toBeTruthy();
    const [configuration] = resolvedIssuer.configurations;
    expect(configuration?.id).toBe(issuer.schemaRecord.schema.slug);
    // Both of the schema's formats can be asked for from the wallet.
    expect(resolvedIssuer.configurations.map((c) => [c.id, c.format])).toEqual(
      expect.arrayContaining([
        [issuer.schemaRecord.schema.slug, 'dc+sd-jwt'],
        [`${issuer.schemaRecord.schema.slug}_mdoc`, 'mso_mdoc'],
      ]),
    );
    // The mdoc configuration goes to the issuer asking for the mdoc.
    const mdocStorage = tabStorage();
    const mdocConfiguration = await resolveIssuerConfiguration(resolvedIssuer, `${configuration!.id}_mdoc`);
    await startAuthorizedReceive(mdocConfiguration, { redirectUri: CALLBACK, storage: mdocStorage });
    const mdocPending = JSON.parse(mdocStorage.items.get(PENDING_AUTHORIZATION_KEY)!);
    expect(mdocPending).toMatchObject({
      format: 'mso_mdoc',
      issuance: { configurationId: `${configuration!.id}_mdoc` },
    });
    const resolved = await resolveIssuerConfiguration(resolvedIssuer, configuration!.id);
    const storage = tabStorage();
    const authorizationUrl = await startAuthorizedReceive(resolved, { redirectUri: CALLBACK, storage });
    // The issuer's page: the address, then the code it e-mails.
    const { pathname, search } = new URL(authorizationUrl);
    const page = await t.app.inject({ url: `${pathname}${search}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain(`<strong data-recipient-origin>${WALLET_URL}</strong>`);
    const flow = /name="flow" value="([^"]+)"/.exec(page.body)![1]!;
    const cookie = /cp_issuer_flow=([^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
    const post = (step: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `${pathname}/${step}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `cp_issuer_flow=${cookie}` },
        payload: new URLSearchParams({ flow, ...fields }).toString(),
      });
    const before = (await mailsTo(t, email)).length;
    expect((await post('email', { email })).statusCode).toBe(200);
    const mails = await waitForMails(t, email, { count: before + 1, queue: 'issuer.email-code' });
    const code = /\b(\d{6})\b/.exec(mails[mails.length - 1]!.text!)![1]!;
    const redirect = await post('code', { code });
    expect(redirect.statusCode, redirect.body).toBe(303);
    const stored = await completeAuthorizedReceive(String(redirect.headers.location), vault, { storage });
    expect(stored.claims).toMatchObject({ full_name: email });
    expect((await credentialRow(id))?.status).toBe('CLAIMED');
  });
});
