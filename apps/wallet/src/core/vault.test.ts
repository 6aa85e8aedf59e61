import { decodeJwt, signJwt, verifyJwtSignature } from '@cp/credentials';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PresentationRecord, StoredCredential } from './types.ts';
import { ACTIVITY_WRITE_INTERVAL_MS, openVault } from './vault.ts';

const FAST = { kdfIterations: 1_000 };
let counter = 0;
const dbName = () => `wallet-test-${Date.now()}-${++counter}`;
const opened: IDBDatabase[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function credential(id: string, claims: Record<string, unknown>): StoredCredential {
  return {
    id,
    format: 'dc+sd-jwt',
    raw: `eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lzc3Vlci5leGFtcGxlIn0.sig~${btoa(JSON.stringify(claims))}~`,
    vct: 'https://issuer.example/vct/membership',
    issuer: { id: 'https://issuer.example', name: { en: 'Analytical Society' } },
    display: { name: { en: 'Membership' } },
    claimDisplay: [{ name: 'full_name', label: { en: 'Full name' } }],
    claims,
    lastStatus: 'VALID',
    receivedAt: new Date(Date.now() + counter++).toISOString(),
  };
}

const presentation = (credentialId: string): PresentationRecord => ({
  id: `p-${credentialId}`,
  at: new Date().toISOString(),
  verifier: { name: 'Bookshop Ltd', clientId: 'x509_hash:abc' },
  credentialId,
  credentialName: { en: 'Membership' },
  sharedClaims: ['full_name'],
  outcome: 'SENT',
});

/** Every row of every store, as IndexedDB holds it (what someone with the disk would read). */
function rawRows(name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      opened.push(db);
      const stores = Array.from(db.objectStoreNames);
      const tx = db.transaction(stores, 'readonly');
      const all: unknown[] = [];
      for (const store of stores) {
        const get = tx.objectStore(store).getAll();
        get.onsuccess = () => all.push({ store, rows: get.result });
      }
      tx.oncomplete = () => resolve(JSON.stringify(all));
      tx.onerror = () => reject(tx.error);
    };
  });
}

/** Every record of every store, as IndexedDB gives it back (structured clones: a stored CryptoKey comes back as one). */
function rawRecords(name: string): Promise<{ store: string; rows: unknown[] }[]> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      opened.push(db);
      const stores = Array.from(db.objectStoreNames);
      const tx = db.transaction(stores, 'readonly');
      const all: { store: string; rows: unknown[] }[] = [];
      for (const store of stores) {
        const get = tx.objectStore(store).getAll();
        get.onsuccess = () => all.push({ store, rows: get.result });
      }
      tx.oncomplete = () => resolve(all);
      tx.onerror = () => reject(tx.error);
    };
  });
}

/** Every value reachable from `value` (objects, arrays), itself included. */
function* walk(value: unknown): Generator<unknown> {
  yield value;
  if (value instanceof CryptoKey || value === null || typeof value !== 'object') return;
  for (const child of Object.values(value)) yield* walk(child);
}

const sessionRow = async (name: string) =>
  (await rawRecords(name)).find((s) => s.store === 'meta')?.rows.find((r) => (r as { id: string }).id === 'session') as
    | { key: CryptoKey; lastActivityAt: number }
    | undefined;

describe('the encrypted vault', () => {
  it('is created with a holder key, locks, refuses a wrong passcode and unlocks with the right one', async () => {
    const name = dbName();
    const vault = await openVault(name, FAST);
    expect(await vault.isInitialized()).toBe(false);
    await vault.create('correct horse');
    expect(await vault.isInitialized()).toBe(true);
    expect(vault.isUnlocked()).toBe(true);
    const { signer, publicJwk } = vault.holder();
    expect(publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(publicJwk).not.toHaveProperty('d');
    const jwt = await signJwt(signer, { typ: 'JWT' }, { hello: 'world' });
    expect(await verifyJwtSignature(jwt, publicJwk)).toBe(true);
    expect(decodeJwt(jwt).header.alg).toBe('ES256');

    await vault.lock();
    expect(vault.isUnlocked()).toBe(false);
    expect(() => vault.holder()).toThrow(expect.objectContaining({ code: 'LOCKED' }));
    await expect(vault.listCredentials()).rejects.toMatchObject({ code: 'LOCKED' });

    // Another tab / a reload: a new handle on the same database.
    const again = await openVault(name, FAST);
    expect(await again.isInitialized()).toBe(true);
    expect(await again.unlock('wrong horse')).toBe(false);
    expect(again.isUnlocked()).toBe(false);
    expect(await again.unlock('correct horse')).toBe(true);
    expect(again.holder().publicJwk).toEqual(publicJwk);
    await expect(again.create('another')).rejects.toMatchObject({ code: 'VAULT_STATE' });
  });

  it('keeps credentials, history and the holder key encrypted at rest (no claim text in IndexedDB)', async () => {
    const name = dbName();
    const vault = await openVault(name, FAST);
    await vault.create('1234-5678');
    const stored = credential('c1', { full_name: 'Ada Lovelace', email: 'ada@example.com' });
    await vault.saveCredential(stored);
    await vault.addPresentation(presentation('c1'));

    expect(await vault.getCredential('c1')).toEqual(stored);
    expect(await vault.listCredentials()).toEqual([stored]);
    expect(await vault.listPresentations()).toEqual(
      [presentation('c1')].map((p) => ({ ...p, at: expect.any(String) })),
    );

    const raw = await rawRows(name);
    expect(raw).toContain('"c1"'); // ids are in clear
    for (const secret of [
      'Ada Lovelace',
      'ada@example.com',
      'Analytical Society',
      'Membership',
      'Bookshop Ltd',
      'full_name',
      'issuer.example',
      vault.holder().publicJwk.x!,
      '"d"',
    ]) {
      expect(raw).not.toContain(secret);
    }

    await vault.deleteCredential('c1');
    expect(await vault.getCredential('c1')).toBeUndefined();
    await vault.destroy();
    expect(await vault.isInitialized()).toBe(false);
    expect(vault.isUnlocked()).toBe(false);
  });

  it('exports a passphrase-encrypted backup and imports it into a fresh wallet, keeping that wallet’s passcode', async () => {
    const source = await openVault(dbName(), FAST);
    await source.create('source-passcode');
    const first = credential('c1', { full_name: 'Ada Lovelace' });
    const second = credential('c2', { full_name: 'Grace Hopper' });
    await source.saveCredential(first);
    await source.saveCredential(second);
    await source.addPresentation(presentation('c1'));
    const file = await source.exportBackup('a long backup passphrase');
    const parsed = JSON.parse(file);
    expect(parsed).toMatchObject({
      format: 'cp-wallet-backup',
      version: 1,
      kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1_000, salt: expect.any(String) },
      iv: expect.any(String),
      ciphertext: expect.any(String),
    });
    expect(file).not.toContain('Ada Lovelace');
    expect(file).not.toContain(source.holder().publicJwk.x!);

    const targetName = dbName();
    const target = await openVault(targetName, FAST);
    await target.create('target-passcode');
    await target.saveCredential(credential('old', { full_name: 'Someone else' }));
    expect(await target.importBackup(file, 'the wrong passphrase')).toBe(false);
    expect((await target.listCredentials()).map((c) => c.id)).toEqual(['old']);
    await expect(target.importBackup('{"format":"something"}', 'x')).rejects.toMatchObject({ code: 'BACKUP_INVALID' });
    await expect(target.importBackup('not json', 'x')).rejects.toMatchObject({ code: 'BACKUP_INVALID' });

    expect(await target.importBackup(file, 'a long backup passphrase')).toBe(true);
    expect((await target.listCredentials()).map((c) => c.id).sort()).toEqual(['c1', 'c2']);
    expect(await target.getCredential('c2')).toEqual(second);
    expect((await target.listPresentations()).map((p) => p.id)).toEqual(['p-c1']);
    // The holder key came along: signatures verify with the source's public key.
    expect(target.holder().publicJwk).toEqual(source.holder().publicJwk);
    const jwt = await signJwt(target.holder().signer, {}, { n: 1 });
    expect(await verifyJwtSignature(jwt, source.holder().publicJwk)).toBe(true);

    // The target keeps its own passcode, and the imported holder key survives a lock.
    await target.lock();
    const reopened = await openVault(targetName, FAST);
    expect(await reopened.unlock('source-passcode')).toBe(false);
    expect(await reopened.unlock('target-passcode')).toBe(true);
    expect(reopened.holder().publicJwk).toEqual(source.holder().publicJwk);
    expect((await reopened.listCredentials()).map((c) => c.id).sort()).toEqual(['c1', 'c2']);
  });

  it('uses at least 310,000 PBKDF2 iterations by default', async () => {
    const vault = await openVault(dbName());
    await vault.create('slow but safe');
    expect(JSON.parse(await vault.exportBackup('p')).kdf.iterations).toBeGreaterThanOrEqual(310_000);
  });
});

describe('staying unlocked for the idle time (the session)', () => {
  const MINUTE = 60_000;
  let clock: number;
  const options = { ...FAST, now: () => clock };
  /** Another tab, or the same tab after a reload: a new handle on the same database, the same clock. */
  const anotherTab = (name: string) => openVault(name, options);

  beforeEach(() => {
    clock = Date.UTC(2026, 10, 26, 9, 0, 0);
  });

  it('opens a reload or another tab without the passcode within 5 minutes (the default) of the last activity', async () => {
    const name = dbName();
    const first = await openVault(name, options);
    await first.create('correct horse');
    expect(await first.getLockAfter()).toBe(5);

    clock += 4 * MINUTE + 59_000;
    const second = await anotherTab(name);
    expect(second.isUnlocked()).toBe(false);
    expect(await second.resume()).toBe(true);
    expect(second.isUnlocked()).toBe(true);
    // The same holder key and data: it signs as the holder and reads what the first tab saved.
    await first.saveCredential(credential('c1', { full_name: 'Ada Lovelace' }));
    expect((await second.getCredential('c1'))?.claims).toEqual({ full_name: 'Ada Lovelace' });
    const jwt = await signJwt(second.holder().signer, {}, { n: 1 });
    expect(await verifyJwtSignature(jwt, first.holder().publicJwk)).toBe(true);
  });

  it('asks for the passcode once the idle time has passed, and deletes the expired session', async () => {
    const name = dbName();
    const first = await openVault(name, options);
    await first.create('correct horse');
    clock += 5 * MINUTE;
    const late = await anotherTab(name);
    expect(await late.resume()).toBe(false);
    expect(late.isUnlocked()).toBe(false);
    expect(await sessionRow(name)).toBeUndefined();
    // The tab that was left open locks as well, at its next check.
    expect(await first.checkSession()).toBe(false);
    expect(first.isUnlocked()).toBe(false);
    expect(() => first.holder()).toThrow(expect.objectContaining({ code: 'LOCKED' }));
    // The passcode still opens it, and starts a new session.
    expect(await late.unlock('correct horse')).toBe(true);
    expect(await (await anotherTab(name)).resume()).toBe(true);
  });

  it('counts the idle time from the last activity in any tab, never longer', async () => {
    const name = dbName();
    const first = await openVault(name, options);
    await first.create('correct horse');
    const second = await anotherTab(name);
    expect(await second.resume()).toBe(true);

    clock += 4 * MINUTE;
    expect(await second.recordActivity()).toBe(true);
    // 8 minutes after the unlock, 4 after the activity in the second tab: the first tab is still open.
    clock += 4 * MINUTE;
    expect(await first.checkSession()).toBe(true);
    expect(await (await anotherTab(name)).resume()).toBe(true);
    // Checking is not activity: 5 minutes after the last activity, everything locks.
    clock += 1 * MINUTE;
    expect(await first.checkSession()).toBe(false);
    expect(await second.checkSession()).toBe(false);
    expect(await (await anotherTab(name)).resume()).toBe(false);
  });

  it('writes activity at most every few seconds, so the session ends early rather than late', async () => {
    const name = dbName();
    const vault = await openVault(name, options);
    await vault.create('correct horse');
    const started = (await sessionRow(name))!.lastActivityAt;
    clock += ACTIVITY_WRITE_INTERVAL_MS - 1;
    expect(await vault.recordActivity()).toBe(true);
    expect((await sessionRow(name))!.lastActivityAt).toBe(started);
    clock += 1;
    expect(await vault.recordActivity()).toBe(true);
    expect((await sessionRow(name))!.lastActivityAt).toBe(clock);
  });

  it('locks every tab at once with "Lock now"', async () => {
    const name = dbName();
    const first = await openVault(name, options);
    await first.create('correct horse');
    const second = await anotherTab(name);
    expect(await second.resume()).toBe(true);

    await first.lock();
    expect(first.isUnlocked()).toBe(false);
    expect(await sessionRow(name)).toBeUndefined();
    // Activity in the other tab cannot bring the session back.
    clock += ACTIVITY_WRITE_INTERVAL_MS;
    expect(await second.recordActivity()).toBe(false);
    expect(second.isUnlocked()).toBe(false);
    expect(await sessionRow(name)).toBeUndefined();
    expect(await (await anotherTab(name)).resume()).toBe(false);
  });

  it('keeps nothing when set to lock immediately, and follows 1 and 15 minutes', async () => {
    const name = dbName();
    const vault = await openVault(name, options);
    await vault.create('correct horse');
    expect(await sessionRow(name)).toBeDefined();

    await vault.setLockAfter(0);
    expect(await sessionRow(name)).toBeUndefined();
    expect(vault.isUnlocked()).toBe(true);
    expect(await vault.checkSession()).toBe(true);
    expect(await (await anotherTab(name)).resume()).toBe(false);
    await vault.lock();
    expect(await vault.unlock('correct horse')).toBe(true);
    expect(await sessionRow(name)).toBeUndefined();
    expect(await (await anotherTab(name)).getLockAfter()).toBe(0);

    await vault.setLockAfter(1);
    clock += MINUTE - 1;
    expect(await (await anotherTab(name)).resume()).toBe(true);
    clock += 1;
    expect(await (await anotherTab(name)).resume()).toBe(false);

    await vault.unlock('correct horse');
    await vault.setLockAfter(15);
    clock += 14 * MINUTE;
    expect(await (await anotherTab(name)).resume()).toBe(true);
    await expect(vault.setLockAfter(60 as never)).rejects.toMatchObject({ code: 'VAULT_STATE' });
  });

  it('stores the key only as a non-extractable CryptoKey: no passcode, no key bytes, nothing to export', async () => {
    const name = dbName();
    const vault = await openVault(name, options);
    await vault.create('correct horse battery');
    await vault.saveCredential(credential('c1', { full_name: 'Ada Lovelace' }));

    const records = await rawRecords(name);
    const values = records.flatMap((s) => s.rows).flatMap((row) => [...walk(row)]);
    const keys = values.filter((v): v is CryptoKey => v instanceof CryptoKey);
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key!.extractable).toBe(false);
    expect(key!.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    expect([...key!.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(crypto.subtle.exportKey('raw', key!)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('jwk', key!)).rejects.toThrow();
    // No raw bytes anywhere (the key, the passcode key), no passcode, no private JWK.
    expect(values.filter((v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v))).toEqual([]);
    const text = JSON.stringify(records);
    expect(text).not.toContain('correct horse battery');
    expect(text).not.toContain('"d"');
    // It is the vault's key: it opens the vault, and nothing else is needed.
    const resumed = await anotherTab(name);
    expect(await resumed.resume()).toBe(true);
    expect((await resumed.getCredential('c1'))?.claims).toEqual({ full_name: 'Ada Lovelace' });
  });

  it('treats a session dated in the future (a clock set back, a doctored record) as expired', async () => {
    const name = dbName();
    const vault = await openVault(name, options);
    await vault.create('correct horse');
    clock -= 10 * MINUTE;
    expect(await (await anotherTab(name)).resume()).toBe(false);
    expect(await sessionRow(name)).toBeUndefined();
  });

  it('forgets the session when the wallet is reset', async () => {
    const name = dbName();
    const vault = await openVault(name, options);
    await vault.create('correct horse');
    await vault.destroy();
    expect(await sessionRow(name)).toBeUndefined();
    expect(await (await anotherTab(name)).resume()).toBe(false);
  });
});
