import { base64url, fromBase64url, generateEs256KeyPair, publicJwk, signerFromPrivateJwk } from '@cp/credentials';
import type { CoseSigner } from '@cp/credentials/mdoc';
import { WalletError } from './errors.ts';
import type { LockAfterMinutes, PresentationRecord, StoredCredential, WalletVault } from './types.ts';

/**
 * The encrypted local store. IndexedDB holds, per store:
 * - `meta`: the vault header (PBKDF2 salt and parameters, the data key wrapped with the passcode key), the
 *   holder key record (private and public JWK, encrypted with the data key), the lock setting, and while the
 *   wallet is open the session (see below);
 * - `credentials`, `presentations`: `{id, at, iv, ciphertext}` rows.
 * Every record is AES-256-GCM under a random data key, with a fresh IV and `<store>:<id>` as additional
 * data (a row cannot be moved to another id or store). Only ids and times are in clear.
 */

export const DEFAULT_KDF_ITERATIONS = 310_000;
const DB_VERSION = 1;
const HEADER_ID = 'vault';
const HOLDER_ID = 'holder';
const SESSION_ID = 'session';
const LOCK_SETTING_ID = 'lock';
const BACKUP_FORMAT = 'cp-wallet-backup';

export interface KdfParams {
  name: 'PBKDF2';
  hash: 'SHA-256';
  iterations: number;
  /** base64url, 16 random bytes. */
  salt: string;
}

interface VaultHeader {
  id: typeof HEADER_ID;
  version: 1;
  kdf: KdfParams;
  /** The data key (raw, 32 bytes) encrypted with the passcode key: AES-GCM, base64url. */
  wrappedKey: { iv: string; ciphertext: string };
  createdAt: string;
}

interface SealedRow {
  id: string;
  /** ISO time (receivedAt / presentation time): the only clear metadata, for ordering. */
  at: string;
  iv: string;
  ciphertext: string;
}

interface HolderSecret {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
}

export interface BackupFile {
  format: typeof BACKUP_FORMAT;
  version: 1;
  kdf: KdfParams;
  iv: string;
  ciphertext: string;
}

interface BackupContent {
  holder: HolderSecret;
  credentials: StoredCredential[];
  presentations: PresentationRecord[];
}

export interface VaultOptions {
  /** PBKDF2 iterations for a new vault and for backups (default 310,000; tests use fewer). */
  kdfIterations?: number;
  /** The clock (ms since the epoch) that times the session; tests move it. */
  now?: () => number;
}

/**
 * How long an opened wallet stays open without activity, in minutes: 0 locks it when the page is left, reloaded
 * or hidden (the passcode on every visit); otherwise the session below lets reloads and other tabs of this
 * browser in until that long after the last activity.
 */
export const LOCK_AFTER_CHOICES: readonly LockAfterMinutes[] = [0, 1, 5, 15];
export const DEFAULT_LOCK_AFTER_MINUTES: LockAfterMinutes = 5;

const isLockAfter = (value: unknown): value is LockAfterMinutes =>
  LOCK_AFTER_CHOICES.includes(value as LockAfterMinutes);

/** Activity is written at most this often (the session then ends up to this much early, never late). */
export const ACTIVITY_WRITE_INTERVAL_MS = 5_000;
/** A last activity further in the future than this (a clock set back, a doctored record) counts as expired. */
const CLOCK_SKEW_MS = 60_000;

interface LockSetting {
  id: typeof LOCK_SETTING_ID;
  afterMinutes: LockAfterMinutes;
}

/**
 * The open wallet, shared by reloads and tabs: the data key as a WebCrypto `CryptoKey` created non-extractable,
 * which IndexedDB keeps by structured clone (HTML § 2.7 "StructuredSerialize": a CryptoKey keeps its
 * [[extractable]] slot) and which no script can ever export, only use to decrypt this vault. Never the passcode,
 * never raw key bytes. Deleted by "Lock now", by a change to "immediately", and by whichever tab next finds it
 * older than the idle time. (The browser writes the key material to its profile on disk: anyone who can read that
 * profile while a session is stored could decrypt the vault, which is why the idle time is short and the
 * record goes as soon as it expires.)
 */
interface SessionRecord {
  id: typeof SESSION_ID;
  key: CryptoKey;
  /** ms since the epoch. */
  lastActivityAt: number;
}

const bytes = (value: string) => fromBase64url(value) as Uint8Array<ArrayBuffer>;
const utf8 = (value: string) => new TextEncoder().encode(value);

async function deriveKey(passcode: string, kdf: KdfParams): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', utf8(passcode.normalize('NFC')), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: bytes(kdf.salt), iterations: kdf.iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

const newKdf = (iterations: number): KdfParams => ({
  name: 'PBKDF2',
  hash: 'SHA-256',
  iterations,
  salt: base64url(crypto.getRandomValues(new Uint8Array(16))),
});

async function seal(key: CryptoKey, plaintext: Uint8Array<ArrayBuffer>, aad: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(aad) }, key, plaintext);
  return { iv: base64url(iv), ciphertext: base64url(new Uint8Array(ciphertext)) };
}

/** Undefined when the key is wrong or the data was changed (GCM authentication). */
async function open(key: CryptoKey, sealed: { iv: string; ciphertext: string }, aad: string) {
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes(sealed.iv), additionalData: utf8(aad) },
        key,
        bytes(sealed.ciphertext),
      ),
    );
  } catch {
    return undefined;
  }
}

// ---- IndexedDB, as promises ----------------------------------------------------------------------

const STORES = ['meta', 'credentials', 'presentations'] as const;
type StoreName = (typeof STORES)[number];

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const store of STORES) {
        if (!db.objectStoreNames.contains(store)) {
          const created = db.createObjectStore(store, { keyPath: 'id' });
          if (store !== 'meta') created.createIndex('at', 'at');
        }
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('The wallet database is open in another tab with an older version'));
  });
}

/** Runs `work` in one transaction and resolves when it commits. */
function transact<T>(
  db: IDBDatabase,
  stores: StoreName[],
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => Promise<T> | T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result: T;
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('Transaction aborted'));
    Promise.resolve(work(tx)).then(
      (value) => {
        result = value;
      },
      (err) => {
        try {
          tx.abort();
        } catch {
          // already finished
        }
        reject(err);
      },
    );
  });
}

// ---- The vault -------------------------------------------------------------------------------------

/** Opens (and creates on first use) the wallet's IndexedDB database; the vault starts locked. */
/**
 * The holder key's two signers: JWS (SD-JWT VC key binding, key proofs) and COSE (an mdoc's device signature, which
 * signs bytes, not a JWS signing input: ISO 18013-5 §9.1.3.6). Both over one non-extractable WebCrypto key.
 */
async function holderKeyOf(secret: HolderSecret): Promise<ReturnType<WalletVault['holder']>> {
  const key = await crypto.subtle.importKey('jwk', secret.privateJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  const cose: CoseSigner = {
    alg: 'ES256',
    async sign(data) {
      return new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data as BufferSource));
    },
  };
  return { signer: await signerFromPrivateJwk(secret.privateJwk), publicJwk: publicJwk(secret.publicJwk), cose };
}

export async function openVault(dbName = 'cp-wallet', options: VaultOptions = {}): Promise<WalletVault> {
  const db = await openDatabase(dbName);
  const iterations = options.kdfIterations ?? DEFAULT_KDF_ITERATIONS;
  const now = options.now ?? Date.now;
  let dataKey: CryptoKey | undefined;
  let holder: ReturnType<WalletVault['holder']> | undefined;
  /** When this tab last wrote its activity into the session. */
  let activityWrittenAt = 0;

  const readHeader = () =>
    transact(db, ['meta'], 'readonly', (tx) =>
      promised(tx.objectStore('meta').get(HEADER_ID) as IDBRequest<VaultHeader | undefined>),
    );
  const unlocked = () => {
    if (!dataKey || !holder) throw new WalletError('LOCKED', 'The wallet is locked');
    return dataKey;
  };

  async function sealRow(store: StoreName, id: string, at: string, value: unknown): Promise<SealedRow> {
    return { id, at, ...(await seal(unlocked(), utf8(JSON.stringify(value)), `${store}:${id}`)) };
  }
  async function openRow<T>(store: StoreName, row: SealedRow): Promise<T> {
    const plaintext = await open(unlocked(), row, `${store}:${row.id}`);
    if (!plaintext) throw new WalletError('VAULT_STATE', `The ${store} record ${row.id} cannot be decrypted`);
    return JSON.parse(new TextDecoder().decode(plaintext)) as T;
  }
  async function readAll<T>(store: 'credentials' | 'presentations'): Promise<T[]> {
    unlocked();
    const rows = await transact(db, [store], 'readonly', (tx) =>
      promised(tx.objectStore(store).index('at').getAll() as IDBRequest<SealedRow[]>),
    );
    return Promise.all(rows.map((row) => openRow<T>(store, row)));
  }
  async function put(store: StoreName, row: SealedRow) {
    await transact(db, [store], 'readwrite', (tx) => promised(tx.objectStore(store).put(row)));
  }
  async function loadHolder(key: CryptoKey): Promise<HolderSecret | undefined> {
    const row = await transact(db, ['meta'], 'readonly', (tx) =>
      promised(tx.objectStore('meta').get(HOLDER_ID) as IDBRequest<SealedRow | undefined>),
    );
    if (!row) return undefined;
    const plaintext = await open(key, row, `meta:${HOLDER_ID}`);
    return plaintext ? (JSON.parse(new TextDecoder().decode(plaintext)) as HolderSecret) : undefined;
  }
  async function adoptHolder(secret: HolderSecret) {
    holder = await holderKeyOf(secret);
  }
  async function sealHolder(key: CryptoKey, secret: HolderSecret): Promise<SealedRow> {
    return {
      id: HOLDER_ID,
      at: new Date().toISOString(),
      ...(await seal(key, utf8(JSON.stringify(secret)), `meta:${HOLDER_ID}`)),
    };
  }

  async function lockAfterMinutes(): Promise<LockAfterMinutes> {
    const setting = await transact(db, ['meta'], 'readonly', (tx) =>
      promised(tx.objectStore('meta').get(LOCK_SETTING_ID) as IDBRequest<LockSetting | undefined>),
    );
    return isLockAfter(setting?.afterMinutes) ? setting.afterMinutes : DEFAULT_LOCK_AFTER_MINUTES;
  }
  const isExpired = (session: SessionRecord, minutes: LockAfterMinutes, at: number) =>
    minutes === 0 ||
    !(session.key instanceof CryptoKey) ||
    session.key.extractable ||
    !Number.isFinite(session.lastActivityAt) ||
    at - session.lastActivityAt >= minutes * 60_000 ||
    session.lastActivityAt - at > CLOCK_SKEW_MS;

  /** Stores the open session (unless the wallet locks immediately). Only a non-extractable key is ever stored. */
  async function startSession(key: CryptoKey) {
    if (key.extractable) throw new WalletError('VAULT_STATE', 'The data key must not be extractable');
    if ((await lockAfterMinutes()) === 0) return;
    const at = now();
    const session: SessionRecord = { id: SESSION_ID, key, lastActivityAt: at };
    await transact(db, ['meta'], 'readwrite', (tx) => promised(tx.objectStore('meta').put(session)));
    activityWrittenAt = at;
  }
  async function endSession() {
    await transact(db, ['meta'], 'readwrite', (tx) => promised(tx.objectStore('meta').delete(SESSION_ID)));
  }
  function forget() {
    dataKey = undefined;
    holder = undefined;
    activityWrittenAt = 0;
  }
  /**
   * The stored session if it is still valid (an expired one is deleted), read and, with `touch`, renewed in one
   * transaction: a "Lock now" in another tab cannot be undone by this tab's activity.
   */
  async function currentSession(touch: boolean): Promise<SessionRecord | undefined> {
    const minutes = await lockAfterMinutes();
    const at = now();
    return transact(db, ['meta'], 'readwrite', async (tx) => {
      const store = tx.objectStore('meta');
      const session = await promised(store.get(SESSION_ID) as IDBRequest<SessionRecord | undefined>);
      if (!session) return undefined;
      if (isExpired(session, minutes, at)) {
        store.delete(SESSION_ID);
        return undefined;
      }
      if (touch) store.put({ ...session, lastActivityAt: at });
      return session;
    });
  }

  const vault: WalletVault = {
    async isInitialized() {
      return (await readHeader()) !== undefined;
    },

    async create(passcode) {
      if (!passcode) throw new WalletError('VAULT_STATE', 'A passcode is required');
      if (await readHeader()) throw new WalletError('VAULT_STATE', 'The wallet already exists');
      const kdf = newKdf(iterations);
      const passcodeKey = await deriveKey(passcode, kdf);
      const raw = crypto.getRandomValues(new Uint8Array(32));
      const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
      const header: VaultHeader = {
        id: HEADER_ID,
        version: 1,
        kdf,
        wrappedKey: await seal(passcodeKey, raw, 'cp-wallet:data-key'),
        createdAt: new Date().toISOString(),
      };
      raw.fill(0);
      const pair = await generateEs256KeyPair();
      const holderRow = await sealHolder(key, pair);
      await transact(db, ['meta'], 'readwrite', (tx) => {
        const store = tx.objectStore('meta');
        store.put(header);
        store.put(holderRow);
      });
      dataKey = key;
      await adoptHolder(pair);
      await startSession(key);
    },

    async unlock(passcode) {
      const header = await readHeader();
      if (!header) throw new WalletError('VAULT_STATE', 'The wallet has not been created yet');
      const passcodeKey = await deriveKey(passcode, header.kdf);
      const raw = await open(passcodeKey, header.wrappedKey, 'cp-wallet:data-key');
      if (!raw) return false;
      const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
      raw.fill(0);
      const secret = await loadHolder(key);
      if (!secret) throw new WalletError('VAULT_STATE', 'The holder key cannot be read');
      dataKey = key;
      await adoptHolder(secret);
      await startSession(key);
      return true;
    },

    async resume() {
      if (vault.isUnlocked()) return true;
      // Opening a page is not activity (a browser restoring its tabs opens them too): only input renews it.
      const session = await currentSession(false);
      if (!session) return false;
      const secret = await loadHolder(session.key);
      if (!secret) {
        // Not this vault's key (the vault was reset and created again meanwhile): useless, and gone.
        await endSession();
        return false;
      }
      dataKey = session.key;
      await adoptHolder(secret);
      activityWrittenAt = 0;
      return true;
    },

    async recordActivity() {
      if (!vault.isUnlocked()) return false;
      // Written at most every few seconds (input events come by the dozen); the periodic check sees a lock.
      if (now() - activityWrittenAt < ACTIVITY_WRITE_INTERVAL_MS) return true;
      if ((await lockAfterMinutes()) === 0) return true;
      if (!(await currentSession(true))) {
        forget();
        return false;
      }
      activityWrittenAt = now();
      return true;
    },

    async checkSession() {
      if (!vault.isUnlocked()) return false;
      if ((await lockAfterMinutes()) === 0) return true;
      if (await currentSession(false)) return true;
      // Expired, or locked in another tab: this tab locks too.
      forget();
      return false;
    },

    async lock(scope = 'everywhere') {
      forget();
      if (scope === 'everywhere') await endSession();
    },

    getLockAfter: lockAfterMinutes,

    async setLockAfter(minutes) {
      if (!isLockAfter(minutes)) throw new WalletError('VAULT_STATE', 'Not a lock setting');
      const setting: LockSetting = { id: LOCK_SETTING_ID, afterMinutes: minutes };
      await transact(db, ['meta'], 'readwrite', (tx) => {
        tx.objectStore('meta').put(setting);
        if (minutes === 0) tx.objectStore('meta').delete(SESSION_ID);
      });
      if (minutes > 0 && dataKey && holder) await startSession(dataKey);
    },

    isUnlocked() {
      return dataKey !== undefined && holder !== undefined;
    },

    holder() {
      unlocked();
      return holder!;
    },

    async listCredentials() {
      const list = await readAll<StoredCredential>('credentials');
      return list.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
    },

    async getCredential(id) {
      unlocked();
      const row = await transact(db, ['credentials'], 'readonly', (tx) =>
        promised(tx.objectStore('credentials').get(id) as IDBRequest<SealedRow | undefined>),
      );
      return row ? openRow<StoredCredential>('credentials', row) : undefined;
    },

    async saveCredential(credential) {
      await put('credentials', await sealRow('credentials', credential.id, credential.receivedAt, credential));
    },

    async deleteCredential(id) {
      unlocked();
      await transact(db, ['credentials'], 'readwrite', (tx) => promised(tx.objectStore('credentials').delete(id)));
    },

    async addPresentation(record) {
      await put('presentations', await sealRow('presentations', record.id, record.at, record));
    },

    async listPresentations() {
      const list = await readAll<PresentationRecord>('presentations');
      return list.sort((a, b) => b.at.localeCompare(a.at));
    },

    async exportBackup(passphrase) {
      const key = unlocked();
      if (!passphrase) throw new WalletError('BACKUP_INVALID', 'A passphrase is required');
      const secret = await loadHolder(key);
      if (!secret) throw new WalletError('VAULT_STATE', 'The holder key cannot be read');
      const content: BackupContent = {
        holder: secret,
        credentials: await vault.listCredentials(),
        presentations: await vault.listPresentations(),
      };
      const kdf = newKdf(iterations);
      const sealed = await seal(await deriveKey(passphrase, kdf), utf8(JSON.stringify(content)), BACKUP_FORMAT);
      const file: BackupFile = { format: BACKUP_FORMAT, version: 1, kdf, ...sealed };
      return JSON.stringify(file);
    },

    async importBackup(file, passphrase) {
      const key = unlocked();
      let parsed: BackupFile;
      try {
        parsed = JSON.parse(file) as BackupFile;
      } catch {
        throw new WalletError('BACKUP_INVALID', 'The file is not JSON');
      }
      if (
        parsed?.format !== BACKUP_FORMAT ||
        parsed.version !== 1 ||
        parsed.kdf?.name !== 'PBKDF2' ||
        parsed.kdf.hash !== 'SHA-256' ||
        !Number.isInteger(parsed.kdf.iterations) ||
        parsed.kdf.iterations < 1 ||
        typeof parsed.kdf.salt !== 'string' ||
        typeof parsed.iv !== 'string' ||
        typeof parsed.ciphertext !== 'string'
      ) {
        throw new WalletError('BACKUP_INVALID', 'The file is not a wallet backup');
      }
      const plaintext = await open(await deriveKey(passphrase, parsed.kdf), parsed, BACKUP_FORMAT);
      if (!plaintext) return false;
      const content = JSON.parse(new TextDecoder().decode(plaintext)) as BackupContent;
      if (!content.holder?.privateJwk || !Array.isArray(content.credentials) || !Array.isArray(content.presentations)) {
        throw new WalletError('BACKUP_INVALID', 'The backup is incomplete');
      }
      // Everything is encrypted before the one transaction that replaces the content.
      const holderRow = await sealHolder(key, content.holder);
      const credentialRows = await Promise.all(
        content.credentials.map((c) => sealRow('credentials', c.id, c.receivedAt, c)),
      );
      const presentationRows = await Promise.all(
        content.presentations.map((p) => sealRow('presentations', p.id, p.at, p)),
      );
      const adopted = await holderKeyOf(content.holder);
      await transact(db, ['meta', 'credentials', 'presentations'], 'readwrite', (tx) => {
        tx.objectStore('meta').put(holderRow);
        const credentials = tx.objectStore('credentials');
        credentials.clear();
        for (const row of credentialRows) credentials.put(row);
        const presentations = tx.objectStore('presentations');
        presentations.clear();
        for (const row of presentationRows) presentations.put(row);
      });
      holder = adopted;
      return true;
    },

    async destroy() {
      forget();
      await transact(db, [...STORES], 'readwrite', (tx) => {
        for (const store of STORES) tx.objectStore(store).clear();
      });
    },
  };
  return vault;
}
