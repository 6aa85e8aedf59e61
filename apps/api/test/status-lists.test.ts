import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { statusFromToken } from '@cp/credentials';
import { type Database, type DatabaseHandle, migrateDatabase, migrationsFolder, openDatabase, schema } from '@cp/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allocateStatusIndex,
  allocateStatusIndexes,
  findRevokedIndexes,
  STATUS_LISTS_OPEN_MAX,
  type StatusSlot,
} from '../src/modules/credentials/credentials.repository.ts';
import { statusListShuffle, statusListShuffleRange } from '../src/modules/credentials/status-list-shuffle.ts';
import { statusListUri } from '../src/modules/organization-keys/identifiers.ts';
import { platformFetcher } from '../src/modules/verifications/platform-fetcher.ts';
import {
  buildOrganization,
  buildUser,
  buildVerifiedOrganization,
  openTestDatabase,
  startTestApp,
  type TestApp,
} from './harness.ts';

/** Tiny lists, so a handful of credentials fills several. */
const SIZE = 16;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { STATUS_LIST_SIZE: String(SIZE) } });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;

async function newOrganization(name: string) {
  const member = await buildUser(t);
  return buildOrganization(t, member.user.id, name);
}

const listsOf = (organizationId: string) =>
  db()
    .select()
    .from(schema.statusLists)
    .where(eq(schema.statusLists.organizationId, organizationId))
    .orderBy(asc(schema.statusLists.number));

const key = (slot: StatusSlot) => `${slot.statusListId}/${slot.statusIndex}`;

describe('status list shuffle', () => {
  it('is a permutation of the domain, keyed by the seed, not in order', () => {
    for (const domain of [1, 2, 3, 16, 17, 1000, 4096]) {
      const shuffle = statusListShuffle('seed-a', domain);
      const indexes = Array.from({ length: domain }, (_, p) => shuffle(p));
      expect(new Set(indexes).size).toBe(domain);
      expect(Math.min(...indexes)).toBe(0);
      expect(Math.max(...indexes)).toBe(domain - 1);
    }
    const a = statusListShuffle('seed-a', 4096);
    const b = statusListShuffle('seed-b', 4096);
    const first = Array.from({ length: 64 }, (_, p) => a(p));
    expect(first).not.toEqual(Array.from({ length: 64 }, (_, p) => b(p)));
    // Far from sequential: consecutive positions rarely land next to each other.
    const adjacent = first.slice(1).filter((index, i) => Math.abs(index - first[i]!) === 1).length;
    expect(adjacent).toBeLessThan(8);
    expect(() => a(4096)).toThrow(RangeError);
    expect(() => a(-1)).toThrow(RangeError);
  });

  it('computes a range of positions as one by one, and only within the domain', () => {
    for (const [domain, from, to] of [
      [1, 0, 1],
      [17, 3, 17],
      [131_072, 1000, 1700],
      [5_000_000, 4_999_000, 5_000_000],
    ] as const) {
      const one = statusListShuffle('seed-r', domain);
      const range = statusListShuffleRange('seed-r', domain, from, to);
      expect(range).toEqual(Array.from({ length: to - from }, (_, i) => one(from + i)));
      expect(range.every((index) => index >= 0 && index < domain)).toBe(true);
    }
    expect(statusListShuffleRange('seed-r', 16, 5, 5)).toEqual([]);
    expect(() => statusListShuffleRange('seed-r', 16, 10, 17)).toThrow(RangeError);
  });
});

describe('status list allocation', () => {
  it('never hands out the same (list, index) twice under concurrency, and rolls over to new lists', async () => {
    const organization = await newOrganization('Concurrent');
    const singles = Array.from({ length: 120 }, () => allocateStatusIndex(db(), organization.id, SIZE));
    const bulks = Array.from({ length: 6 }, () => allocateStatusIndexes(db(), organization.id, SIZE, 13));
    const slots = [...(await Promise.all(singles)), ...(await Promise.all(bulks)).flat()];
    expect(slots).toHaveLength(120 + 6 * 13);
    expect(new Set(slots.map(key)).size).toBe(slots.length);
    for (const slot of slots) {
      expect(slot.statusIndex).toBeGreaterThanOrEqual(0);
      expect(slot.statusIndex).toBeLessThan(SIZE);
    }
    const lists = await listsOf(organization.id);
    // 198 slots in lists of 16: at least 13 lists, numbered 1…n, every one its organization's.
    expect(lists.length).toBeGreaterThanOrEqual(Math.ceil(slots.length / SIZE));
    expect(lists.map((l) => l.number)).toEqual(lists.map((_, i) => i + 1));
    const listIds = new Set(lists.map((l) => l.id));
    expect(slots.every((s) => listIds.has(s.statusListId))).toBe(true);
    // Each list's counter is exactly what was handed out of it; only a few lists are left open.
    for (const list of lists) {
      expect(slots.filter((s) => s.statusListId === list.id)).toHaveLength(list.nextIndex);
      expect(list.nextIndex).toBeLessThanOrEqual(list.size);
    }
    expect(lists.filter((l) => l.nextIndex < l.size).length).toBeLessThanOrEqual(STATUS_LISTS_OPEN_MAX);
  });

  it('fills a list with random indexes, each once, then opens the next', async () => {
    const organization = await newOrganization('Sequential calls');
    const slots: StatusSlot[] = [];
    for (let i = 0; i < SIZE + 3; i += 1) slots.push(await allocateStatusIndex(db(), organization.id, SIZE));
    const [list1, list2, ...more] = await listsOf(organization.id);
    expect(more).toEqual([]);
    expect(list1).toMatchObject({ number: 1, nextIndex: SIZE, size: SIZE });
    expect(list2).toMatchObject({ number: 2, nextIndex: 3, size: SIZE });
    const inFirst = slots.slice(0, SIZE);
    expect(inFirst.every((s) => s.statusListId === list1!.id)).toBe(true);
    expect(inFirst.map((s) => s.statusIndex).sort((a, b) => a - b)).toEqual([...Array(SIZE).keys()]);
    // Not handed out in order (the chance a keyed shuffle of 16 is the identity is 1 in 16!).
    expect(inFirst.map((s) => s.statusIndex)).not.toEqual([...Array(SIZE).keys()]);
    expect(slots.slice(SIZE).every((s) => s.statusListId === list2!.id)).toBe(true);
  });

  it('bulk allocation spans lists when one has too little room left', async () => {
    const organization = await newOrganization('Bulk');
    await allocateStatusIndexes(db(), organization.id, SIZE, 10);
    const slots = await allocateStatusIndexes(db(), organization.id, SIZE, 40);
    expect(slots).toHaveLength(40);
    expect(new Set(slots.map(key)).size).toBe(40);
    const lists = await listsOf(organization.id);
    expect(lists.map((l) => l.nextIndex)).toEqual([16, 16, 16, 2]);
  });

  it('continues a list migrated from the single counter past the indexes it handed out in order', async () => {
    const organization = await newOrganization('Migrated');
    // The row migration 0013 leaves: 10 indexes given in order (0…9), the rest of the list shuffled.
    await db()
      .insert(schema.statusLists)
      .values({ organizationId: organization.id, number: 1, size: SIZE, nextIndex: 10, randomFrom: 10 });
    const slots = await allocateStatusIndexes(db(), organization.id, SIZE, SIZE - 10);
    expect(slots.map((s) => s.statusIndex).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15]);
    const [next] = await allocateStatusIndexes(db(), organization.id, SIZE, 1);
    const lists = await listsOf(organization.id);
    expect(lists).toHaveLength(2);
    expect(next!.statusListId).toBe(lists[1]!.id);
  });
});

describe('status list tokens', () => {
  const credentialPayload = (schemaId: string, n: number) => ({
    credential: { name: `Badge ${n}`, schema_id: schemaId, claims: [{ name: 'level', value: String(n) }] },
    recipient: { email: `holder${n}@example.com`, first_name: 'Holder', last_name: `Number ${n}` },
  });

  async function issueMany(name: string, n: number) {
    const org = await buildVerifiedOrganization(t, name, {
      name: 'Badge',
      attributes: [{ name: 'level', type: 'NUMBER' }],
    });
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/credentials/with-recipient',
        headers: org.headers,
        payload: credentialPayload(org.schemaRecord.schema.id, i),
      });
      expect(response.statusCode, response.body).toBe(201);
      ids.push(response.json().id);
    }
    const rows = await db()
      .select()
      .from(schema.credentials)
      .where(and(eq(schema.credentials.organizationId, org.organization.id), inArray(schema.credentials.id, ids)));
    return { org, rows, lists: await listsOf(org.organization.id) };
  }

  const get = (uri: string) => t.app.inject({ method: 'GET', url: new URL(uri).pathname });

  it('serves each list at its own URI; a revocation in list 2 changes list 2 only, and a verifier sees it', async () => {
    // No ceiling: 40 credentials in lists of 16.
    const { org, rows, lists } = await issueMany('Many lists', 40);
    expect(lists.length).toBeGreaterThanOrEqual(3);
    const [list1, list2] = lists;
    const uri1 = statusListUri(t.config.publicUrl, org.organization.id, list1!.id);
    const uri2 = statusListUri(t.config.publicUrl, org.organization.id, list2!.id);
    const before1 = await get(uri1);
    const before2 = await get(uri2);
    expect(before1.statusCode).toBe(200);
    expect(before1.headers['content-type']).toContain('application/statuslist+jwt');
    const inList2 = rows.find((r) => r.statusListId === list2!.id)!;
    expect(statusFromToken(before2.body, inList2.statusIndex)).toMatchObject({ status: 0, sub: uri2 });

    const revoke = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: org.headers,
      payload: { credentials: [inList2.id] },
    });
    expect(revoke.json()).toEqual({ revoked: [inList2.id] });

    // At once, in list 2; list 1 is the very token served before (its revision did not move, nothing re-signed).
    const after2 = await get(uri2);
    expect(statusFromToken(after2.body, inList2.statusIndex)).toMatchObject({ status: 1, sub: uri2 });
    for (const other of rows.filter((r) => r.statusListId === list2!.id && r.id !== inList2.id)) {
      expect(statusFromToken(after2.body, other.statusIndex).status).toBe(0);
    }
    expect((await get(uri1)).body).toBe(before1.body);
    const [list1After, list2After] = await listsOf(org.organization.id);
    expect(list1After!.revision).toBe(list1!.revision);
    expect(list2After!.revision).toBe(list2!.revision + 1);

    // The verifier's fetcher reads the same list from the database (no HTTP round trip).
    const fetcher = platformFetcher({
      issuer: t.runtime.ctx.deps.issuer,
      keys: t.runtime.ctx.keys,
      publicUrl: t.config.publicUrl,
      http: {
        text: async (url) => {
          throw new Error(`unexpected fetch of ${url}`);
        },
      },
    });
    const seen = await fetcher.text(uri2, 'application/statuslist+jwt');
    expect(statusFromToken(seen, inList2.statusIndex)).toMatchObject({ status: 1, sub: uri2 });

    // The older URI still answers, with list 1's bits and its own `sub`.
    const legacyUri = statusListUri(t.config.publicUrl, org.organization.id);
    const legacy = await get(legacyUri);
    expect(legacy.statusCode).toBe(200);
    const inList1 = rows.find((r) => r.statusListId === list1!.id)!;
    expect(statusFromToken(legacy.body, inList1.statusIndex)).toMatchObject({ status: 0, sub: legacyUri });
  });

  it("never serves another organization's list, and refuses malformed list ids", async () => {
    const { org: a } = await issueMany('Isolation A', 1);
    const { org: b, lists: listsOfB } = await issueMany('Isolation B', 1);
    const foreign = await get(statusListUri(t.config.publicUrl, a.organization.id, listsOfB[0]!.id));
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).toContain('application/problem+json');
    expect(foreign.json()).toMatchObject({ code: 'CREDENTIAL_STATUS_LIST_NOT_FOUND' });
    expect(foreign.body).not.toContain('ey');
    const unknown = await get(statusListUri(t.config.publicUrl, b.organization.id, crypto.randomUUID()));
    expect(unknown.statusCode).toBe(404);
    for (const bad of ['not-a-uuid', '1', `${listsOfB[0]!.id}x`, "' or 1=1 --"]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/orgs/${b.organization.id}/status-lists/${encodeURIComponent(bad)}`,
      });
      expect(response.statusCode, bad).toBe(400);
    }
  });
});

describe('migration 0013 on a database with one status list per organization', () => {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    await drop?.();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('makes each counter row list 1 of its organization, keeps every index, and goes on shuffled after them', async () => {
    // The migrations before 0013 only, as a database deployed before this change.
    folder = mkdtempSync(path.join(tmpdir(), 'cp-migrations-'));
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const first = journal.entries.findIndex((e) => e.tag.endsWith('_status_lists'));
    expect(first).toBeGreaterThan(0);
    const cut = journal.entries[first]!.tag.slice(0, 4);
    journal.entries = journal.entries.slice(0, first);
    writeFileSync(journalPath, JSON.stringify(journal));
    for (const file of readdirSync(folder)) if (/^\d{4}_/.test(file) && file >= cut) rmSync(path.join(folder, file));
    if (process.env.TEST_DATABASE_URL) {
      const database = await openTestDatabase();
      handle = database.handle;
      drop = database.drop;
    } else {
      handle = await openDatabase({});
      drop = () => handle!.close();
    }
    const run = (text: string, values?: unknown[]) => handle!.executor.executeSql(text, values);
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await (handle.kind === 'postgresql'
      ? migratePg(handle.db as never, { migrationsFolder: folder })
      : migratePglite(handle.db as never, { migrationsFolder: folder }));

    // Old: a counter row that handed out 0…4 (2 revoked). Stray: credentials written with no counter row.
    const [old] = (await run(`insert into organizations (name, description) values ('Old', '') returning id`)).rows;
    const [stray] = (await run(`insert into organizations (name, description) values ('Stray', '') returning id`)).rows;
    await run(`insert into status_lists (organization_id, size, next_index, revision) values ($1, $2, 5, 7)`, [
      old!.id,
      SIZE,
    ]);
    for (const [organizationId, count] of [
      [old!.id, 5],
      [stray!.id, 3],
    ] as const) {
      await run(
        `insert into credentials (organization_id, schema_snapshot, name, recipient_email, recipient_first_name,
           recipient_last_name, claims, status, status_index, revoked_at)
         select $1::uuid, '{}'::jsonb, 'Old ' || g, 'old' || g || '@example.com', 'Old', 'Person', '{}'::jsonb,
           case when g = 2 then 'REVOKED' else 'CLAIMED' end, g, case when g = 2 then now() end
         from generate_series(0, $2::int - 1) g`,
        [organizationId, count],
      );
    }

    await migrateDatabase(handle);
    const migrated = handle.db as unknown as Database;

    const [list] = (await run(`select * from status_lists where organization_id = $1`, [old!.id])).rows;
    expect(list).toMatchObject({ number: 1, size: SIZE, next_index: 5, random_from: 5 });
    expect(Number(list!.revision)).toBe(7);
    const { rows: placed } = await run(
      `select count(*)::int as n from credentials where organization_id = $1 and status_list_id = $2`,
      [old!.id, list!.id],
    );
    expect(placed[0]!.n).toBe(5);
    expect(await findRevokedIndexes(migrated, old!.id as string, list!.id as string)).toEqual([2]);
    // The old list goes on past the indexes it gave (never one of 0…4), shuffled, then list 2 opens.
    const slots = await allocateStatusIndexes(migrated, old!.id as string, SIZE, SIZE - 5 + 1);
    const inList1 = slots.filter((s) => s.statusListId === list!.id).map((s) => s.statusIndex);
    expect([...inList1].sort((a, b) => a - b)).toEqual(Array.from({ length: SIZE - 5 }, (_, i) => i + 5));
    expect(slots.filter((s) => s.statusListId !== list!.id)).toHaveLength(1);

    // The stray rows got a list of their own (full), so the next credential opens list 2.
    const strayLists = (await run(`select * from status_lists where organization_id = $1`, [stray!.id])).rows;
    expect(strayLists).toEqual([expect.objectContaining({ number: 1, size: 3, next_index: 3 })]);
    const [next] = await allocateStatusIndexes(migrated, stray!.id as string, SIZE, 1);
    expect(next!.statusListId).not.toBe(strayLists[0]!.id);
    // (list, index) is unique now, not (organization, index).
    await expect(
      run(
        `insert into credentials (organization_id, schema_snapshot, name, recipient_email, recipient_first_name,
           recipient_last_name, claims, status_list_id, status_index)
         values ($1, '{}', 'Twin', 'twin@example.com', 'Twin', 'Person', '{}', $2, 0)`,
        [old!.id, list!.id],
      ),
    ).rejects.toThrow();
    // A list of another organization cannot hold this organization's credential (composite foreign key).
    await expect(
      run(
        `insert into credentials (organization_id, schema_snapshot, name, recipient_email, recipient_first_name,
           recipient_last_name, claims, status_list_id, status_index)
         values ($1, '{}', 'Foreign', 'foreign@example.com', 'Foreign', 'Person', '{}', $2, 9)`,
        [stray!.id, list!.id],
      ),
    ).rejects.toThrow();
  });
});
