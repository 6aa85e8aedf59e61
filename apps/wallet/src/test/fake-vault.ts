import type { LockAfterMinutes, PresentationRecord, StoredCredential, WalletVault } from '../core/types.ts';

/** An in-memory WalletVault with a passcode, for screen tests (the real one is tested in src/core). */
export class FakeVault implements WalletVault {
  credentials = new Map<string, StoredCredential>();
  presentations: PresentationRecord[] = [];
  passcode: string | null = null;
  unlocked = false;
  backups: { passphrase: string; file: string }[] = [];
  destroyed = false;
  lockAfter: LockAfterMinutes = 5;
  /** A session a reload or another tab could resume (the real one: a non-extractable key in IndexedDB). */
  session = false;
  activity = 0;

  constructor(
    init: { passcode?: string; unlocked?: boolean; session?: boolean; credentials?: StoredCredential[] } = {},
  ) {
    this.passcode = init.passcode ?? null;
    this.unlocked = init.unlocked ?? false;
    this.session = init.session ?? this.unlocked;
    for (const credential of init.credentials ?? []) this.credentials.set(credential.id, credential);
  }

  async isInitialized() {
    return this.passcode !== null;
  }
  async create(passcode: string) {
    this.passcode = passcode;
    this.unlocked = true;
    this.session = this.lockAfter > 0;
  }
  async unlock(passcode: string) {
    this.unlocked = passcode === this.passcode;
    if (this.unlocked) this.session = this.lockAfter > 0;
    return this.unlocked;
  }
  async resume() {
    if (this.session && this.passcode !== null) this.unlocked = true;
    return this.unlocked;
  }
  async recordActivity() {
    this.activity += 1;
    return this.checkSession();
  }
  async checkSession() {
    if (this.unlocked && this.lockAfter > 0 && !this.session) this.unlocked = false;
    return this.unlocked;
  }
  async lock(scope: 'everywhere' | 'here' = 'everywhere') {
    this.unlocked = false;
    if (scope === 'everywhere') this.session = false;
  }
  async getLockAfter() {
    return this.lockAfter;
  }
  async setLockAfter(minutes: LockAfterMinutes) {
    this.lockAfter = minutes;
    this.session = minutes > 0 && this.unlocked;
  }
  isUnlocked() {
    return this.unlocked;
  }
  holder(): ReturnType<WalletVault['holder']> {
    throw new Error('not used by the screens');
  }
  async listCredentials() {
    return [...this.credentials.values()];
  }
  async getCredential(id: string) {
    return this.credentials.get(id);
  }
  async saveCredential(credential: StoredCredential) {
    this.credentials.set(credential.id, credential);
  }
  async deleteCredential(id: string) {
    this.credentials.delete(id);
  }
  async addPresentation(record: PresentationRecord) {
    this.presentations.push(record);
  }
  async listPresentations() {
    return [...this.presentations];
  }
  async exportBackup(passphrase: string) {
    const file = JSON.stringify({ backup: true, count: this.credentials.size });
    this.backups.push({ passphrase, file });
    return file;
  }
  async importBackup(_file: string, passphrase: string) {
    return passphrase === 'correct horse';
  }
  async destroy() {
    this.destroyed = true;
    this.passcode = null;
    this.credentials.clear();
  }
}

export function buildCredential(overrides: Partial<StoredCredential> = {}): StoredCredential {
  return {
    id: 'cred-1',
    format: 'dc+sd-jwt',
    raw: 'eyJ.eyJ.sig~',
    vct: 'https://issuer.example/vct/employee',
    issuer: {
      id: 'https://issuer.example/orgs/1',
      name: { en: 'Acme Corp', ja: 'アクメ社' },
      verifiedOrganization: true,
    },
    display: { name: { en: 'Employee badge', ja: '社員証' }, backgroundColor: '#123456', textColor: '#ffffff' },
    claimDisplay: [
      { name: 'given_name', label: { en: 'Given name', ja: '名' } },
      { name: 'family_name', label: { en: 'Family name', ja: '姓' } },
      { name: 'birthdate', label: { en: 'Date of birth' } },
    ],
    claims: { given_name: 'Ada', family_name: 'Lovelace', birthdate: '1815-12-10' },
    issuedAt: '2026-01-05T10:00:00Z',
    lastStatus: 'VALID',
    receivedAt: '2026-01-05T10:00:01Z',
    ...overrides,
  };
}

/** The doctype (and namespace) of the test mdoc: the platform's naming for `https://issuer.example/orgs/1/vct/employee`. */
export const MDOC_DOC_TYPE = 'example.issuer.orgs.1.vct.employee';

/** A stored ISO mdoc (`mso_mdoc`) of the same employee badge: elements typed as the core decodes them. */
export function buildMdocCredential(overrides: Partial<StoredCredential> = {}): StoredCredential {
  const elements = { given_name: 'Ada', family_name: 'Lovelace', birthdate: '1815-12-10', employee_number: 42 };
  return buildCredential({
    id: 'mdoc-1',
    format: 'mso_mdoc',
    raw: 'omppc3N1ZXJBdXRo',
    vct: MDOC_DOC_TYPE,
    claims: elements,
    mdoc: { docType: MDOC_DOC_TYPE, namespaces: { [MDOC_DOC_TYPE]: elements }, x5chain: ['MIIB'] },
    expiresAt: '2027-01-05T10:00:00Z',
    statusReference: { uri: 'https://issuer.example/orgs/1/status-lists/1', idx: 7 },
    ...overrides,
  });
}
