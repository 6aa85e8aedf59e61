import { statusFromToken } from '@cp/credentials';
import { schema } from '@cp/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allocateStatusIndex,
  allocateStatusIndexes,
  STATUS_LISTS_OPEN_MAX,
  type StatusSlot,
} from '../src/modules/credentials/credentials.repository.ts';
import { statusListShuffle } from '../src/modules/credentials/status-list-shuffle.ts';
import { statusListUri } from '../src/modules/organization-keys/identifiers.ts';
import { platformFetcher } from '../src/modules/verifications/platform-fetcher.ts';
import { buildOrganization, buildUser, buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

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
