import { decodeJwt, signJwt, verifyJwtSignature } from '@cp/credentials';
import { afterEach, describe, expect, it } from 'vitest';
import type { PresentationRecord, StoredCredential } from './types.ts';
import { openVault } from './vault.ts';

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

    vault.lock();
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
    target.lock();
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
