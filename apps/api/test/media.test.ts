import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/storage/s3-storage.ts';
import { buildOrganization, buildUser, freePort, startTestApp, type TestApp } from './harness.ts';

/** Real file signatures (the first bytes are what the API checks), padded with arbitrary content. */
const fixtures = {
  png: Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]),
  jpeg: Buffer.concat([Buffer.from('ffd8ffe000104a46494600', 'hex'), Buffer.alloc(64, 2)]),
  webp: Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x40, 0, 0, 0]),
    Buffer.from('WEBPVP8 '),
    Buffer.alloc(56, 3),
  ]),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
};

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const headers = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.filename ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(headers),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  t: TestApp,
  headers: Record<string, string>,
  file: { bytes: Buffer; filename: string; type?: string },
  purpose = 'logo',
) {
  const body = multipart([
    { name: 'purpose', value: purpose },
    { name: 'file', value: file.bytes, filename: file.filename, type: file.type ?? 'image/png' },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/media/upload',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: { ADMIN_EMAILS: 'admin@example.com', UPLOAD_MAX_BYTES: '4096', RATE_LIMIT_PER_MINUTE: '100000' },
  });
});
afterAll(async () => {
  await t?.close();
});

async function member(name = 'Acme') {
  const user = await buildUser(t);
  const organization = await buildOrganization(t, user.user.id, name);
  return { ...user, organization, headers: { ...user.auth, currentidentity: organization.id } };
}

describe('media upload', () => {
  it.each([
    ['png', 'image/png', 'logo.png'],
    ['jpeg', 'image/jpeg', 'photo.jpg'],
    ['webp', 'image/webp', 'logo.webp'],
  ] as const)(
    'accepts a %s image and serves it publicly with its content type',
    async (kind, contentType, filename) => {
      const alice = await member();
      const response = await upload(t, alice.headers, { bytes: fixtures[kind], filename });
      expect(response.statusCode).toBe(201);
      const media = response.json();
      expect(media).toMatchObject({ filename, content_type: contentType, size: fixtures[kind].length });
      expect(media.url).toBe(`${t.config.publicUrl}/api/media/${media.id}`);
      expect(Date.parse(media.created_at)).not.toBeNaN();

      const read = await t.app.inject({ method: 'GET', url: `/api/media/${media.id}` });
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe(contentType);
      expect(read.headers['x-content-type-options']).toBe('nosniff');
      expect(read.headers['cache-control']).toContain('public');
      expect(read.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(read.rawPayload.equals(fixtures[kind])).toBe(true);
    },
  );

  it('accepts a PDF as a KYB document and keeps it private', async () => {
    const alice = await member();
    const response = await upload(t, alice.headers, { bytes: fixtures.pdf, filename: 'registry.pdf' }, 'kyb_document');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ content_type: 'application/pdf', filename: 'registry.pdf' });
  });

  it('judges the type by content: a .png that is really text is refused with 415', async () => {
    const alice = await member();
    const response = await upload(t, alice.headers, {
      bytes: Buffer.from('<svg onload="alert(1)">not an image</svg>'),
      filename: 'logo.png',
      type: 'image/png',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'MEDIA_TYPE_NOT_ALLOWED' });
  });

  it('refuses a PDF as a logo (logos are images)', async () => {
    const alice = await member();
    const response = await upload(t, alice.headers, { bytes: fixtures.pdf, filename: 'logo.pdf' }, 'logo');
    expect(response.statusCode).toBe(415);
  });

  it('refuses a file over the size limit with 413 MEDIA_TOO_LARGE', async () => {
    const alice = await member();
    const big = Buffer.concat([fixtures.png, Buffer.alloc(5000, 7)]);
    const response = await upload(t, alice.headers, { bytes: big, filename: 'big.png' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'MEDIA_TOO_LARGE' });
  });

  it('answers 400 without a file, for an unknown purpose, and for a non-multipart body', async () => {
    const alice = await member();
    const noFile = multipart([{ name: 'purpose', value: 'logo' }]);
    const r1 = await t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      headers: { ...alice.headers, 'content-type': noFile.contentType },
      payload: noFile.payload,
    });
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toMatchObject({ code: 'MEDIA_FILE_REQUIRED' });

    const r2 = await upload(t, alice.headers, { bytes: fixtures.png, filename: 'a.png' }, 'banner');
    expect(r2.statusCode).toBe(400);
    expect(r2.json()).toMatchObject({ code: 'REQUEST_INVALID' });

    const r3 = await t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      headers: alice.headers,
      payload: { file: 'x' },
    });
    expect(r3.statusCode).toBe(400);
  });

  it('refuses more than one file per request', async () => {
    const alice = await member();
    const body = multipart([
      { name: 'file', value: fixtures.png, filename: 'a.png' },
      { name: 'file', value: fixtures.png, filename: 'b.png' },
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/media/upload',
      headers: { ...alice.headers, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'MEDIA_TOO_MANY_FILES' });
  });

  it('needs a signed-in user, and CurrentIdentity for organization files', async () => {
    const anonymous = await upload(t, {}, { bytes: fixtures.png, filename: 'a.png' });
    expect(anonymous.statusCode).toBe(401);
    const alice = await member();
    const withoutIdentity = await upload(t, alice.auth, { bytes: fixtures.png, filename: 'a.png' });
    expect(withoutIdentity.statusCode).toBe(400);
    expect(withoutIdentity.json()).toMatchObject({ code: 'ORGANIZATION_IDENTITY_REQUIRED' });
    const bob = await member('Globex');
    const foreignIdentity = await upload(
      t,
      { ...alice.auth, currentidentity: bob.organization.id },
      { bytes: fixtures.png, filename: 'a.png' },
    );
    expect(foreignIdentity.statusCode).toBe(403);
  });

  it('keeps a KYB document readable by its members and platform administrators only', async () => {
    const alice = await member('Acme');
    const bob = await member('Globex');
    const admin = await buildUser(t, { email: 'admin@example.com' });
    const uploaded = await upload(t, alice.headers, { bytes: fixtures.pdf, filename: 'kbis.pdf' }, 'kyb_document');
    const url = `/api/media/${uploaded.json().id}`;

    const byMember = await t.app.inject({ method: 'GET', url, headers: alice.auth });
    expect(byMember.statusCode).toBe(200);
    expect(byMember.headers['content-type']).toBe('application/pdf');
    expect(byMember.headers['cache-control']).toBe('private, no-store');

    const byAdmin = await t.app.inject({ method: 'GET', url, headers: admin.auth });
    expect(byAdmin.statusCode).toBe(200);

    for (const headers of [{}, bob.auth, { authorization: 'Bearer not-a-token' }]) {
      const denied = await t.app.inject({ method: 'GET', url, headers });
      expect(denied.statusCode).toBe(404);
      expect(denied.body).not.toContain('kbis');
    }
  });

  it('answers 404 for an unknown media id and 400 for a malformed one', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/media/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/media/not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('organization logo', () => {
  it('sets an uploaded logo in PUT organizations and shows it in GET', async () => {
    const alice = await member();
    const logo = (await upload(t, alice.headers, { bytes: fixtures.png, filename: 'acme.png' })).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.headers,
      payload: { logo: logo.id },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().logo).toEqual({ id: logo.id, url: logo.url, filename: 'acme.png', created_at: logo.created_at });
    expect(put.json().did).toMatch(/^did:web:[^:]+:orgs:[0-9a-f-]{36}$/);

    const get = await t.app.inject({
      method: 'GET',
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.auth,
    });
    expect(get.json().logo).toMatchObject({ id: logo.id, filename: 'acme.png' });
    const list = await t.app.inject({ method: 'GET', url: '/api/organizations', headers: alice.auth });
    expect(list.json().results[0].logo).toMatchObject({ id: logo.id });
  });

  it("refuses another organization's media and a KYB document as logo", async () => {
    const alice = await member('Acme');
    const bob = await member('Globex');
    const bobsLogo = (await upload(t, bob.headers, { bytes: fixtures.png, filename: 'globex.png' })).json();
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.headers,
      payload: { logo: bobsLogo.id },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'MEDIA_NOT_FOUND' });

    const document = (
      await upload(t, alice.headers, { bytes: fixtures.pdf, filename: 'doc.pdf' }, 'kyb_document')
    ).json();
    const notImage = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.headers,
      payload: { logo: document.id },
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toMatchObject({ code: 'MEDIA_NOT_AN_IMAGE' });

    const unchanged = await t.app.inject({
      method: 'GET',
      url: `/api/organizations/${alice.organization.id}`,
      headers: alice.auth,
    });
    expect(unchanged.json().logo).toBeNull();
  });
});

describe('user profile', () => {
  it('tells platform administrators apart and accepts an uploaded avatar', async () => {
    const admin = await buildUser(t, { email: 'Admin@Example.com' });
    const user = await buildUser(t);
    expect((await t.app.inject({ url: '/api/users', headers: admin.auth })).json().is_platform_admin).toBe(true);
    expect((await t.app.inject({ url: '/api/users', headers: user.auth })).json().is_platform_admin).toBe(false);

    const avatar = (await upload(t, user.auth, { bytes: fixtures.jpeg, filename: 'me.jpg' }, 'avatar')).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: user.auth,
      payload: { avatar: avatar.id },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().avatar).toEqual({ id: avatar.id, url: avatar.url });
    // Saving the profile form sends the avatar address back: the upload stays the avatar.
    const resaved = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: user.auth,
      payload: { first_name: 'Grace', avatar_url: avatar.url },
    });
    expect(resaved.json().avatar).toEqual({ id: avatar.id, url: avatar.url });
    const replaced = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: user.auth,
      payload: { avatar_url: 'https://images.example.com/me.png' },
    });
    expect(replaced.json().avatar).toEqual({ id: null, url: 'https://images.example.com/me.png' });

    const other = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: admin.auth,
      payload: { avatar: avatar.id },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('S3 storage driver', () => {
  let server: S3rver;
  let directory: string;
  let storage: S3Storage;
  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'cp-s3rver-'));
    const port = await freePort();
    server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'media-test', configs: [] }],
    });
    await server.run();
    storage = new S3Storage({
      bucket: 'media-test',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    storage?.close();
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('puts, gets and deletes by key', async () => {
    const key = 'logo/7f1c1a52-8f3e-4f51-9a3e-2b8f2a3c9d10';
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, fixtures.png, 'image/png');
    expect((await storage.get(key))?.equals(fixtures.png)).toBe(true);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await expect(storage.put('../escape', fixtures.png, 'image/png')).rejects.toThrow(/Invalid storage key/);
  });

  it('streams a large object in and out (multipart upload), and keeps nothing of a stream that fails', async () => {
    const key = 'credential-imports/5b0f1b4e-7d3a-4c1e-9a55-0c6f0b7e2a11';
    expect(await storage.getStream(key)).toBeNull();
    // 20 MiB in 1 MiB chunks: more than two 8 MiB parts, so it goes up as a multipart upload.
    const chunk = (i: number) => Buffer.alloc(1024 * 1024, i % 251);
    async function* body(count: number, failAt?: number) {
      for (let i = 0; i < count; i++) {
        if (i === failAt) throw new Error('upload cut');
        yield chunk(i);
      }
    }
    await storage.putStream(key, Readable.from(body(20)), 'text/csv');
    const stream = await storage.getStream(key);
    let bytes = 0;
    let index = 0;
    let matches = true;
    for await (const piece of stream! as AsyncIterable<Buffer>) {
      for (let at = 0; at < piece.length; at++, bytes++) {
        if (bytes % (1024 * 1024) === 0) index = bytes / (1024 * 1024);
        if (piece[at] !== index % 251) matches = false;
      }
    }
    expect(bytes).toBe(20 * 1024 * 1024);
    expect(matches).toBe(true);
    await storage.delete(key);

    const cut = 'credential-imports/5b0f1b4e-7d3a-4c1e-9a55-0c6f0b7e2a12';
    await expect(storage.putStream(cut, Readable.from(body(20, 12)), 'text/csv')).rejects.toThrow('upload cut');
    expect(await storage.getStream(cut)).toBeNull();
  }, 120_000);
});
