import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, openTestDatabase, type TestDatabase } from '../test/helpers.ts';
import {
  authenticate,
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  listAccountOrganizations,
} from './accounts.service.ts';

const input = {
  username: 'ada',
  email: 'Ada@Example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'Correct-Horse1',
};

describe.each(databaseKinds)('account services on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('creates an account with a hashed password and finds it by email, case-insensitively', async () => {
    const account = await createAccount(database.handle.db, input);
    expect(account.passwordHash).toMatch(/^scrypt\$/);
    expect(account.passwordHash).not.toContain(input.password);
    expect((await findAccountByEmail(database.handle.db, 'ada@example.COM'))?.id).toBe(account.id);
    expect((await authenticate(database.handle.db, 'ADA', input.password))?.id).toBe(account.id);
    expect(await authenticate(database.handle.db, 'ada', 'Wrong-password1')).toBeUndefined();
    expect(await authenticate(database.handle.db, 'nobody', input.password)).toBeUndefined();
  });

  it('refuses duplicates and weak passwords with error codes', async () => {
    const db = database.handle.db;
    await expect(createAccount(db, { ...input, username: 'other', email: 'ADA@example.com' })).rejects.toMatchObject({
      code: 'ACCOUNT_EMAIL_TAKEN',
      field: 'email',
    });
    await expect(createAccount(db, { ...input, username: 'Ada', email: 'new@example.com' })).rejects.toMatchObject({
      code: 'ACCOUNT_USERNAME_TAKEN',
    });
    for (const password of ['Short-1', 'alllowercase-1', 'ALLUPPERCASE-1', 'NoSpecial123']) {
      await expect(
        createAccount(db, { ...input, username: 'weak', email: 'weak@example.com', password }),
      ).rejects.toMatchObject({ code: 'ACCOUNT_PASSWORD_WEAK' });
    }
    await expect(createAccount(db, { ...input, username: 'x y', email: 'xy@example.com' })).rejects.toMatchObject({
      code: 'ACCOUNT_INVALID_INPUT',
      field: 'username',
    });
  });

  it('creates organizations with an owner membership and lists only the account’s own', async () => {
    const db = database.handle.db;
    const owner = await createAccount(db, { ...input, username: 'owner', email: 'owner@example.com' });
    const other = await createAccount(db, { ...input, username: 'other2', email: 'other2@example.com' });
    const organization = await createAccountOrganization(db, { accountId: owner.id, name: ' Acme ', description: '' });
    expect(organization).toEqual({ id: expect.any(String), name: 'Acme', description: null });
    expect(await listAccountOrganizations(db, owner.id)).toEqual([organization]);
    expect(await listAccountOrganizations(db, other.id)).toEqual([]);
    expect(await listAccountOrganizations(db, 'not-a-uuid')).toEqual([]);
    await expect(createAccountOrganization(db, { accountId: owner.id, name: '  ' })).rejects.toMatchObject({
      code: 'ORGANIZATION_INVALID_INPUT',
    });
  });
});
