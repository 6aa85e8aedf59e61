import {
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  signerFromPrivateJwk,
  signJwt,
  signStatusListToken,
} from '@cp/credentials';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkStatus, recheckCredential, refreshStatuses } from './status.ts';
import { certifiedKey, stubFetch, type TestIdentity, text } from './test-support.ts';
import type { StoredCredential } from './types.ts';
import { openVault } from './vault.ts';

const ISSUER = 'https://issuer.example';
const LIST = `${ISSUER}/status-list`;
let identity: TestIdentity;

beforeAll(async () => {
  identity = await certifiedKey({ uris: [ISSUER] });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function credential(idx: number, overrides: Partial<StoredCredential> = {}): Promise<StoredCredential> {
  const holder = await generateEs256KeyPair();
  const raw = await issueSdJwtVc({
    signer: identity.signer,
    header: { x5c: identity.x5c },
    issuer: ISSUER,
    vct: `${ISSUER}/vct/x`,
    holderJwk: holder.publicJwk,
    claims: { name: 'Ada' },
    status: { idx, uri: LIST },
  });
  return {
    id: `c${idx}`,
    format: 'dc+sd-jwt',
    raw,
    vct: `${ISSUER}/vct/x`,
    issuer: { id: ISSUER, name: { en: 'Issuer' } },
    display: { name: { en: 'X' } },
    claimDisplay: [],
    claims: { name: 'Ada' },
    statusReference: { uri: LIST, idx },
    lastStatus: 'UNKNOWN',
    receivedAt: new Date().toISOString(),
    ...overrides,
  };
}

/** A 2-bit list: index 0 valid, 1 revoked, 2 suspended. */
async function listToken(options: { sub?: string; signer?: TestIdentity['signer'] } = {}) {
  const lst = new StatusList([0, 1, 2, 0], 2).compressStatusList();
  return signJwt(
    options.signer ?? identity.signer,
    { typ: 'statuslist+jwt', x5c: identity.x5c },
    { sub: options.sub ?? LIST, iat: Math.floor(Date.now() / 1000), ttl: 60, status_list: { bits: 2, lst } },
  );
}

describe('checkStatus', () => {
  it('reads VALID, REVOKED and SUSPENDED from the issuer-signed status list, asking for statuslist+jwt', async () => {
    const token = await listToken();
    const { calls } = stubFetch({ [LIST]: () => text(token, 'application/statuslist+jwt') });
    expect(await checkStatus(await credential(0))).toBe('VALID');
    expect(await checkStatus(await credential(1))).toBe('REVOKED');
    expect(await checkStatus(await credential(2))).toBe('SUSPENDED');
    expect(calls.find((call) => call.url === LIST)!.headers.get('accept')).toContain('application/statuslist+jwt');
  });

  it('answers EXPIRED by exp without asking, and UNKNOWN for a forged or foreign list or no network', async () => {
    const { calls } = stubFetch({});
    expect(await checkStatus(await credential(0, { expiresAt: new Date(Date.now() - 1000).toISOString() }))).toBe(
      'EXPIRED',
    );
    expect(calls).toHaveLength(0);

    const intruder = await signerFromPrivateJwk((await generateEs256KeyPair()).privateJwk);
    stubFetch({ [LIST]: async () => text(await listToken({ signer: intruder }), 'application/statuslist+jwt') });
    expect(await checkStatus(await credential(1))).toBe('UNKNOWN');
    stubFetch({
      [LIST]: async () => text(await listToken({ sub: `${ISSUER}/another-list` }), 'application/statuslist+jwt'),
    });
    expect(await checkStatus(await credential(1))).toBe('UNKNOWN');
    // A list signed by another issuer's certificate (it does not name this issuer).
    const other = await certifiedKey({ uris: ['https://other.example'] });
    stubFetch({
      [LIST]: async () =>
        text(
          await signStatusListToken({
            signer: other.signer,
            header: { x5c: other.x5c },
            uri: LIST,
            lst: encodeStatusList(4, []),
            ttl: 60,
          }),
          'application/statuslist+jwt',
        ),
    });
    expect(await checkStatus(await credential(1))).toBe('UNKNOWN');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await checkStatus(await credential(1))).toBe('UNKNOWN');
  });
});

describe('refreshStatuses', () => {
  it('saves each credential’s status and check time, and keeps the last known one when offline', async () => {
    const vault = await openVault(`status-test-${Date.now()}`, { kdfIterations: 1_000 });
    await vault.create('passcode');
    await vault.saveCredential(await credential(0));
    await vault.saveCredential(await credential(1));
    const token = await listToken();
    stubFetch({ [LIST]: () => text(token, 'application/statuslist+jwt') });
    await refreshStatuses(vault);
    const updated = await vault.listCredentials();
    expect(Object.fromEntries(updated.map((c) => [c.id, c.lastStatus]))).toEqual({ c0: 'VALID', c1: 'REVOKED' });
    const checkedAt = (await vault.getCredential('c1'))!.lastCheckedAt;
    expect(checkedAt).toEqual(expect.any(String));

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await refreshStatuses(vault);
    expect(await vault.getCredential('c1')).toMatchObject({ lastStatus: 'REVOKED', lastCheckedAt: checkedAt });
  });
});

describe('recheckCredential', () => {
  it('answers the status with its time; when the list cannot be read, keeps the last known one and says so', async () => {
    const token = await listToken();
    stubFetch({ [LIST]: () => text(token, 'application/statuslist+jwt') });
    const now = new Date(Date.now() + 1_000);
    const checked = await recheckCredential(await credential(2), { now });
    expect(checked).toMatchObject({
      answered: true,
      credential: { lastStatus: 'SUSPENDED', lastCheckedAt: now.toISOString() },
    });

    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const offline = await recheckCredential(checked.credential, { now: new Date(Date.now() + 60_000) });
    expect(offline).toMatchObject({
      answered: false,
      credential: { lastStatus: 'SUSPENDED', lastCheckedAt: now.toISOString() },
    });
  });
});
