import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { schema } from '@cp/db';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as importsService from '../src/modules/credentials/credential-imports.service.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
const defaults = { ...importsService.importLimits };
afterEach(() => {
  Object.assign(importsService.importLimits, defaults);
});

const HEADER = 'recipient_first_name,recipient_last_name,recipient_email,full_name,score,graduated,graduated_on';

const verifiedOrganization = (name: string) =>
  buildVerifiedOrganization(t, name, {
    name: 'Diploma',
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'score', type: 'NUMBER' },
      { name: 'graduated', type: 'BOOLEAN' },
      { name: 'graduated_on', type: 'DATETIME' },
    ],
  });

function multipart(fields: Record<string, string>, file?: { content: string | Buffer; filename?: string }) {
  const boundary = '----cp-test-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename ?? 'recipients.csv'}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(headers: Record<string, string>, fields: Record<string, string>, content?: string | Buffer) {
  const body = multipart(fields, content === undefined ? undefined : { content });
  return t.app.inject({
    method: 'POST',
    url: '/api/credentials/import',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

async function waitForImport(headers: Record<string, string>, id: string) {
  for (let i = 0; i < 100; i++) {
    const response = await t.app.inject({ url: `/api/credentials/import/${id}`, headers });
    const body = response.json();
    if (body.status === 'COMPLETED' || body.status === 'FAILED') return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('import did not finish');
}

/** Heap and array buffers after a full collection (as credential-export.test.ts measures a stream). */
function used() {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  const memory = process.memoryUsage();
  return { heap: memory.heapUsed, all: memory.heapUsed + memory.arrayBuffers };
}

const credentialsOfImport = (importId: string) =>
  t.runtime.ctx.database.db.select().from(schema.credentials).where(eq(schema.credentials.importId, importId));
/**
 * The status slots of some credentials, each once: a slot is a (list, index) pair. An organization issues from a
 * few open lists at once, each with indexes drawn at random, so the same index in two lists is no collision.
 */
const distinctSlots = (rows: { statusListId: string; statusIndex: number }[]) =>
  new Set(rows.map((r) => `${r.statusListId}:${r.statusIndex}`)).size;

describe('CSV import', () => {
  it('imports every valid row and reports the invalid ones with their row and column', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Import University');
    const csv = [
      HEADER,
      'Ada,Lovelace,ada@example.com,Ada Lovelace,97.5,true,1835-06-01',
      ',Babbage,charles@example.com,Charles Babbage,80,yes,1810-01-01',
      'Grace,Hopper,not-an-email,Grace Hopper,abc,maybe,someday',
      '"Alan, M.",Turing,alan@example.com,"Alan ""the"" Turing",100,no,1934-05-01',
    ].join('\n');
    const response = await upload(headers, { schema_id: schemaRecord.schema.id, name: 'Diploma 2025' }, csv);
    expect(response.statusCode).toBe(202);
    const started = response.json();
    expect(started).toMatchObject({ total_count: 4, status: 'PENDING' });

    const result = await waitForImport(headers, started.id);
    expect(result).toMatchObject({
      status: 'COMPLETED',
      total_count: 4,
      processed_count: 4,
      succeeded_count: 2,
      failed_count: 2,
      failure_reason: null,
      schema_id: schemaRecord.schema.id,
    });
    expect(result.errors).toEqual([
      { row: 3, column: 'recipient_first_name', message: 'This field is required' },
      { row: 4, column: 'recipient_email', message: 'Must be a valid e-mail' },
      { row: 4, column: 'score', message: 'Must be a number' },
      { row: 4, column: 'graduated', message: 'Must be true or false' },
      { row: 4, column: 'graduated_on', message: 'Must be a valid date' },
    ]);
    const rows = await credentialsOfImport(started.id);
    expect(rows.map((r) => r.importRow).sort()).toEqual([2, 5]);
    const alan = rows.find((r) => r.importRow === 5)!;
    expect(alan).toMatchObject({
      name: 'Diploma 2025',
      recipientFirstName: 'Alan, M.',
      recipientEmail: 'alan@example.com',
      status: 'CREATED',
    });
    expect(alan.claims).toMatchObject({ full_name: 'Alan "the" Turing', score: 100, graduated: false });
    expect(distinctSlots(rows)).toBe(2);

    // The imported credentials are listed like any other.
    const list = await t.app.inject({ url: '/api/credentials?page=1&limit=10', headers });
    expect(list.json().total).toBe(2);
  });

  it('downloads the template of a schema: header and one valid sample row', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Template University');
    const response = await t.app.inject({
      url: `/api/credentials/import/template?schema_id=${schemaRecord.schema.id}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".*\.csv"$/);
    const lines = response.body.trim().split(/\r\n/);
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(2);

    // The template itself imports cleanly.
    const imported = await upload(headers, { schema_id: schemaRecord.schema.id }, response.body);
    expect(imported.statusCode).toBe(202);
    const result = await waitForImport(headers, imported.json().id);
    expect(result).toMatchObject({ status: 'COMPLETED', succeeded_count: 1, failed_count: 0 });
  });

  it('refuses files that are not a CSV, a wrong header, an empty file, too many rows or too many bytes', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Strict University');
    const schemaId = schemaRecord.schema.id;

    const binary = await upload(headers, { schema_id: schemaId }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0]));
    expect(binary.statusCode).toBe(400);
    expect(binary.json()).toMatchObject({
      code: 'CREDENTIAL_IMPORT_INVALID_FILE',
      detail: expect.stringMatching(/valid CSV/),
    });

    const unclosed = await upload(
      headers,
      { schema_id: schemaId },
      `${HEADER}\n"Ada,Lovelace,ada@example.com,x,1,true,2020-01-01`,
    );
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().code).toBe('CREDENTIAL_IMPORT_INVALID_FILE');

    const header = await upload(
      headers,
      { schema_id: schemaId },
      'recipient_first_name,recipient_last_name,recipient_email,full_name,score,colour\nA,B,a@example.com,x,1,red',
    );
    expect(header.statusCode).toBe(400);
    expect(header.json()).toMatchObject({ code: 'CREDENTIAL_IMPORT_HEADER_INVALID' });
    expect(header.json().detail).toContain('missing columns: graduated, graduated_on');
    expect(header.json().detail).toContain('unknown columns: colour');

    for (const content of ['', `${HEADER}\n`, '\n\n']) {
      const empty = await upload(headers, { schema_id: schemaId }, content);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().code).toBe('CREDENTIAL_IMPORT_EMPTY');
    }

    const noFile = await upload(headers, { schema_id: schemaId });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().code).toBe('CREDENTIAL_IMPORT_FILE_REQUIRED');

    const badFields = await upload(headers, { schema_id: 'nope' }, `${HEADER}\nA,B,a@example.com,x,1,true,2020-01-01`);
    expect(badFields.statusCode).toBe(400);
    expect(badFields.json().code).toBe('REQUEST_INVALID');

    importsService.importLimits.maxRows = 2;
    const rows = Array.from({ length: 3 }, (_, i) => `A,B,a${i}@example.com,x,1,true,2020-01-01`);
    const tooMany = await upload(headers, { schema_id: schemaId }, [HEADER, ...rows].join('\n'));
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().code).toBe('CREDENTIAL_IMPORT_TOO_MANY_ROWS');

    importsService.importLimits.maxBytes = 100;
    const tooLarge = await upload(headers, { schema_id: schemaId }, [HEADER, rows[0]].join('\n'));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().code).toBe('CREDENTIAL_IMPORT_TOO_LARGE');

    // Nothing was imported.
    const imports = await t.runtime.ctx.database.db
      .select()
      .from(schema.credentialImports)
      .where(eq(schema.credentialImports.schemaId, schemaId));
    expect(imports).toHaveLength(0);
  });

  it('refuses an unverified organization and a verification-only schema', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Pending University');
    await t.runtime.ctx.database.db
      .update(schema.credentialSchemas)
      .set({ issueDisabled: true })
      .where(eq(schema.credentialSchemas.id, schemaRecord.schema.id));
    const disabled = await upload(
      headers,
      { schema_id: schemaRecord.schema.id },
      `${HEADER}\nA,B,a@example.com,x,1,true,2020-01-01`,
    );
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().code).toBe('CREDENTIAL_SCHEMA_ISSUE_DISABLED');

    await t.runtime.ctx.database.db
      .update(schema.organizations)
      .set({ verificationStatus: 'PENDING', verifiedAt: null })
      .where(eq(schema.organizations.id, organization.id));
    const unverified = await upload(
      headers,
      { schema_id: schemaRecord.schema.id },
      `${HEADER}\nA,B,a@example.com,x,1,true,2020-01-01`,
    );
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().code).toBe('ORGANIZATION_NOT_VERIFIED');
  });

  it('keeps organizations apart: another organization cannot read an import or import into its schema', async () => {
    const a = await verifiedOrganization('Alpha Import');
    const b = await verifiedOrganization('Beta Import');
    const csv = `${HEADER}\nA,B,a@example.com,x,1,true,2020-01-01`;
    const started = (await upload(a.headers, { schema_id: a.schemaRecord.schema.id }, csv)).json();
    await waitForImport(a.headers, started.id);

    const read = await t.app.inject({ url: `/api/credentials/import/${started.id}`, headers: b.headers });
    expect(read.statusCode).toBe(404);
    expect(read.json().code).toBe('CREDENTIAL_IMPORT_NOT_FOUND');

    const into = await upload(b.headers, { schema_id: a.schemaRecord.schema.id }, csv);
    expect(into.statusCode).toBe(404);
    const template = await t.app.inject({
      url: `/api/credentials/import/template?schema_id=${a.schemaRecord.schema.id}`,
      headers: b.headers,
    });
    expect(template.statusCode).toBe(404);
    const list = await t.app.inject({ url: '/api/credentials?page=1&limit=10', headers: b.headers });
    expect(list.json().total).toBe(0);

    const anonymous = await t.app.inject({ url: `/api/credentials/import/${started.id}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the import job', () => {
  async function pendingImport(rowCount: number, invalidEvery = 0) {
    const org = await verifiedOrganization(`Job University ${rowCount}-${Math.random()}`);
    const rows = Array.from({ length: rowCount }, (_, i) =>
      invalidEvery && i % invalidEvery === 0
        ? `R${i},S,bad-email,x,1,true,2020-01-01`
        : `R${i},S,r${i}@example.com,Name ${i},${i},true,2020-01-01`,
    );
    const deps = { ...t.runtime.ctx.deps.imports, enqueue: async () => {} }; // the test runs the job itself
    const row = await importsService.startImport(
      deps,
      {
        organizationId: org.organization.id,
        userId: org.member.user.id,
        actor: { kind: 'user', userId: org.member.user.id },
      },
      { schema_id: org.schemaRecord.schema.id },
      Buffer.from([HEADER, ...rows].join('\n')),
    );
    return { org, deps, row };
  }
  const importRow = async (id: string) =>
    (
      await t.runtime.ctx.database.db.select().from(schema.credentialImports).where(eq(schema.credentialImports.id, id))
    )[0]!;

  it('resumes after a crash mid-import without losing or duplicating rows', async () => {
    const { deps, row, org } = await pendingImport(23, 5);
    await expect(
      importsService.runImport(deps, row.id, {
        batchSize: 4,
        afterBatch: (n) => {
          if (n === 2) throw new Error('worker died');
        },
      }),
    ).rejects.toThrow('worker died');
    const partial = await importRow(row.id);
    expect(partial.status).toBe('PROCESSING');
    const before = (await credentialsOfImport(row.id)).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(18);

    await importsService.runImport(deps, row.id, { batchSize: 4 });
    const done = await importRow(row.id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      processedCount: 23,
      succeededCount: 18,
      failedCount: 5,
    });
    expect(done.errors).toHaveLength(5);
    const stored = await credentialsOfImport(row.id);
    expect(stored).toHaveLength(18);
    expect(new Set(stored.map((r) => r.importRow)).size).toBe(18);
    expect(distinctSlots(stored)).toBe(18);

    // A second run of a finished import changes nothing.
    await importsService.runImport(deps, row.id, { batchSize: 4 });
    expect(await credentialsOfImport(row.id)).toHaveLength(18);
    const all = await t.runtime.ctx.database.db
      .select()
      .from(schema.credentials)
      .where(and(eq(schema.credentials.organizationId, org.organization.id)));
    expect(all).toHaveLength(18);
  });

  it('with several batches in the database at once, a batch that fails takes the later ones with it: the checkpoint is exact', async () => {
    const { deps, row } = await pendingImport(40, 6);
    const parallel = { ...deps, parallelBatches: 3 };
    await expect(
      importsService.runImport(parallel, row.id, {
        batchSize: 4,
        afterBatch: (n) => {
          if (n === 2) throw new Error('worker died');
        },
      }),
    ).rejects.toThrow('worker died');
    const partial = await importRow(row.id);
    const stored = await credentialsOfImport(row.id);
    // Exactly the rows up to the checkpoint, although later batches had reached the database.
    expect(stored).toHaveLength(partial.succeededCount);
    expect(stored.every((r) => r.importRow! <= partial.processedCount + 1)).toBe(true);
    expect(partial.succeededCount).toBe(8);

    await importsService.runImport(parallel, row.id, { batchSize: 4 });
    const done = await importRow(row.id);
    expect(done).toMatchObject({ status: 'COMPLETED', processedCount: 40, succeededCount: 33, failedCount: 7 });
    const all = await credentialsOfImport(row.id);
    expect(new Set(all.map((r) => r.importRow)).size).toBe(33);
    expect(distinctSlots(all)).toBe(33);
  });

  it('does not duplicate rows when the same import runs twice at once', async () => {
    const { deps, row } = await pendingImport(30);
    await Promise.all([
      importsService.runImport(deps, row.id, { batchSize: 7 }),
      importsService.runImport(deps, row.id, { batchSize: 7 }),
    ]);
    const stored = await credentialsOfImport(row.id);
    expect(stored).toHaveLength(30);
    expect((await importRow(row.id)).status).toBe('COMPLETED');
  });

  it('resumes from the last committed batch when the stored file breaks off mid-batch: one credential per row', async () => {
    const { deps, row, org } = await pendingImport(101, 7);
    // The first read of the file fails a little past its middle, inside a batch that is then never
    // committed (a storage outage, or the worker dying there); the job's retry reads it whole.
    let reads = 0;
    let firstBatch!: () => void;
    const committed = new Promise<void>((resolve) => {
      firstBatch = resolve;
    });
    const storage = deps.storage;
    const flaky = {
      ...deps,
      storage: {
        put: storage.put.bind(storage),
        putStream: storage.putStream.bind(storage),
        get: storage.get.bind(storage),
        delete: storage.delete.bind(storage),
        getStream: async (key: string) => {
          const source = await storage.getStream(key);
          if (!source || reads++ > 0) return source;
          // Small pieces; after ~2,500 of the file's ~5,300 bytes (and once a first batch is committed),
          // the read fails: rows past the first batch have been read but not stored.
          async function* cut(from: Readable) {
            let bytes = 0;
            for await (const chunk of from as AsyncIterable<Buffer>) {
              for (let i = 0; i < chunk.length; i += 256) {
                if (bytes > 2500) {
                  await committed;
                  throw new Error('connection reset');
                }
                const piece = chunk.subarray(i, i + 256);
                bytes += piece.length;
                yield piece;
              }
            }
          }
          return Readable.from(cut(source), { objectMode: false, highWaterMark: 1 });
        },
      },
    };
    await expect(
      importsService.runImport(flaky, row.id, { batchSize: 10, afterBatch: () => firstBatch() }),
    ).rejects.toThrow('connection reset');
    const partial = await importRow(row.id);
    expect(partial.status).toBe('PROCESSING');
    expect(partial.processedCount).toBeGreaterThan(0);
    expect(partial.processedCount).toBeLessThan(101);
    // The checkpoint and the stored credentials agree: every valid row up to it, none after.
    const before = await credentialsOfImport(row.id);
    expect(Math.max(...before.map((c) => c.importRow!))).toBeLessThanOrEqual(partial.processedCount + 1);

    await importsService.runImport(flaky, row.id, { batchSize: 10 });
    const done = await importRow(row.id);
    const invalid = Array.from({ length: 101 }, (_, i) => i).filter((i) => i % 7 === 0).length;
    expect(done).toMatchObject({
      status: 'COMPLETED',
      processedCount: 101,
      succeededCount: 101 - invalid,
      failedCount: invalid,
    });
    // Each invalid row reported once, in order, although part of the file was read twice.
    expect(done.errors.map((e) => e.row)).toEqual(
      Array.from({ length: 101 }, (_, i) => i)
        .filter((i) => i % 7 === 0)
        .map((i) => i + 2),
    );
    const stored = await credentialsOfImport(row.id);
    expect(stored).toHaveLength(101 - invalid);
    expect(new Set(stored.map((c) => c.importRow)).size).toBe(101 - invalid);
    expect(distinctSlots(stored)).toBe(101 - invalid);
    const all = await t.runtime.ctx.database.db
      .select()
      .from(schema.credentials)
      .where(eq(schema.credentials.organizationId, org.organization.id));
    expect(all).toHaveLength(101 - invalid);
  });

  it('keeps memory flat while a large file is imported (heap sampled after every batch)', async () => {
    const org = await verifiedOrganization(`Flat University ${Math.random()}`);
    const filler = 'y'.repeat(1900);
    const rows = 12_000; // ~23 MB: holding the file, its rows or the set of stored rows would show
    async function* csv() {
      yield `${HEADER}\n`;
      for (let i = 0; i < rows; i += 1000) {
        let chunk = '';
        for (let j = i; j < i + 1000; j++) chunk += `F${j},L,f${j}@example.com,${filler},${j},true,2020-01-01\n`;
        yield chunk;
      }
    }
    const deps = { ...t.runtime.ctx.deps.imports, enqueue: async () => {} };
    const row = await importsService.startImport(
      deps,
      {
        organizationId: org.organization.id,
        userId: org.member.user.id,
        actor: { kind: 'user', userId: org.member.user.id },
      },
      { schema_id: org.schemaRecord.schema.id },
      Readable.from(csv()),
    );
    expect(row.totalCount).toBe(rows);
    const baseline = used();
    let peakHeap = 0;
    let peak = 0;
    await importsService.runImport(deps, row.id, {
      afterBatch: (n) => {
        if (n % 4 !== 0) return;
        const now = used();
        peakHeap = Math.max(peakHeap, now.heap - baseline.heap);
        peak = Math.max(peak, now.all - baseline.all);
      },
    });
    expect((await importRow(row.id)).status).toBe('COMPLETED');
    const [stored] = await t.runtime.ctx.database.db
      .select({ value: count() })
      .from(schema.credentials)
      .where(eq(schema.credentials.importId, row.id));
    expect(stored?.value).toBe(rows);
    // A batch (500 rows, ~1 MB of text, a few copies on its way to the database) at a time.
    expect(peakHeap).toBeLessThan(12_000_000);
    // Array buffers (the file's chunks) too, on PostgreSQL: in-memory PGlite keeps its data files in this
    // process's array buffers, which grow with the 23 MB stored.
    if (t.runtime.ctx.database.kind === 'postgresql') expect(peak).toBeLessThan(32_000_000);
  }, 240_000);

  it('fails clearly when the stored file is gone', async () => {
    const { deps, row } = await pendingImport(2);
    await t.runtime.ctx.storage.delete(row.storageKey);
    await importsService.runImport(deps, row.id);
    expect(await importRow(row.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'The uploaded file cannot be read.',
    });
  });
});

describe('streaming imports', () => {
  const OLD_CAP = 50 * 1024 * 1024;

  it('accepts a file larger than the old 50 MB cap, streamed to storage: memory stays flat during the upload', async () => {
    const { headers, schemaRecord } = await verifiedOrganization('Streaming University');
    // ~2 KB a row, all but three with an invalid e-mail: the job only validates them (cheap), the upload
    // still carries every byte. The body is generated as it is sent, so the test holds none of it.
    const filler = 'x'.repeat(1900);
    const rows = 28_000;
    const boundary = '----cp-stream-boundary';
    const baseline = used();
    let peak = 0;
    let peakHeap = 0;
    let sent = 0;
    async function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="schema_id"\r\n\r\n${schemaRecord.schema.id}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n${HEADER}\n`,
      );
      for (let i = 0; i < rows; i += 500) {
        let chunk = '';
        for (let j = i; j < Math.min(rows, i + 500); j++) {
          const email = j < 3 ? `big${j}@example.com` : `not-an-email-${j}`;
          chunk += `Big${j},Row,${email},${filler},${j},true,2020-01-01\n`;
        }
        sent += chunk.length;
        yield Buffer.from(chunk);
        if (i % 5000 === 0) {
          const now = used();
          peak = Math.max(peak, now.all - baseline.all);
          peakHeap = Math.max(peakHeap, now.heap - baseline.heap);
        }
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    // Injected as a stream (light-my-request reads it as the server consumes it). Not fetch: undici keeps
    // the chunks of a streamed request body in this process, which would hide the server's own usage.
    const injected = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/import',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Readable.from(body()),
    });
    const response = { status: injected.statusCode, json: async () => injected.json() };
    expect(sent).toBeGreaterThan(OLD_CAP);
    expect(response.status).toBe(202);
    const started = (await response.json()) as { id: string; total_count: number };
    expect(started.total_count).toBe(rows);
    // Flat: a few chunks in flight, far below the 53 MB that went through (array buffers include PGlite's,
    // which runs in this process and moves by several MB on its own).
    expect(peakHeap).toBeLessThan(12_000_000);
    expect(peak).toBeLessThan(32_000_000);

    const result = await waitForImport(headers, started.id);
    // Row errors as before: exact counts, the first 1,000 kept with their row and column.
    expect(result).toMatchObject({
      status: 'COMPLETED',
      total_count: rows,
      processed_count: rows,
      succeeded_count: 3,
      failed_count: rows - 3,
    });
    expect(result.errors).toHaveLength(importsService.MAX_STORED_ERRORS);
    expect(result.errors[0]).toEqual({ row: 5, column: 'recipient_email', message: 'Must be a valid e-mail' });
    expect(result.errors.at(-1)).toEqual({ row: 1004, column: 'recipient_email', message: 'Must be a valid e-mail' });
    expect(await credentialsOfImport(started.id)).toHaveLength(3);
  }, 240_000);

  it('refuses a file over the configured limit while it streams, and keeps nothing of a refused upload', async () => {
    const { headers, schemaRecord, organization } = await verifiedOrganization('Oversize University');
    importsService.importLimits.maxBytes = 64 * 1024;
    const rows = Array.from({ length: 2000 }, (_, i) => `A${i},B,a${i}@example.com,x,1,true,2020-01-01`);
    const response = await upload(headers, { schema_id: schemaRecord.schema.id }, [HEADER, ...rows].join('\n'));
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('CREDENTIAL_IMPORT_TOO_LARGE');
    // A file that arrived whole but whose form or header is refused is removed as well.
    importsService.importLimits.maxBytes = defaults.maxBytes;
    const small = [HEADER, rows[0]].join('\n');
    expect((await upload(headers, { schema_id: 'nope' }, small)).statusCode).toBe(400);
    expect((await upload(headers, { schema_id: crypto.randomUUID() }, small)).statusCode).toBe(404);
    expect((await upload(headers, { schema_id: schemaRecord.schema.id }, `a,b\n1,2`)).statusCode).toBe(400);
    // Neither the file nor a partial one stays in storage.
    const dir = path.join(t.runtime.ctx.config.storage.localDir, 'credential-imports', organization.id);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });
});
