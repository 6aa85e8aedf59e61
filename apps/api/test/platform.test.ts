import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
const webhookBodies: string[] = [];
let webhook: ReturnType<typeof createServer>;

beforeAll(async () => {
  // A chat webhook on loopback that records what it receives.
  webhook = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      webhookBodies.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', () => resolve()));
  const address = webhook.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  t = await startTestApp({ env: { ERROR_WEBHOOK_URL: `http://127.0.0.1:${port}/hook` }, adminToken: 'a'.repeat(43) });
});
afterAll(async () => {
  await t?.close();
  webhook?.close();
});

describe('platform', () => {
  it('answers health with the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const expected = process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite';
    expect(response.json()).toEqual({ status: 'ok', database: expected });
  });

  it('publishes the runtime configuration for the web apps without secrets', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config' });
    const body = response.json();
    expect(body.organization_create_url).toBe(`${t.config.accountCenter.publicUrl}/organizations/new`);
    expect(body.languages).toEqual(['en', 'ja', 'es', 'ko']);
    expect(response.body).not.toContain('hook');
  });

  it('serves the OpenAPI document and its UI', async () => {
    const spec = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(Object.keys(spec.json().paths)).toEqual(
      expect.arrayContaining(['/api/auth', '/api/auth/session', '/api/auth/refresh', '/api/organizations/{id}']),
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('answers unknown API paths with problem+json 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
  });

  it('forwards a console crash report to the chat webhook as a job', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/errors',
      payload: { message: 'TypeError: boom', url: 'http://localhost/credentials' },
    });
    expect(response.statusCode).toBe(202);
    await expect.poll(() => webhookBodies.length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    expect(JSON.parse(webhookBodies[0]!).text).toContain('TypeError: boom');
  });

  it('keeps every mail sent over SMTP in the development mailbox', async () => {
    await t.runtime.mailer.send({
      to: 'holder@example.com',
      subject: 'Your credential',
      text: 'Hello',
      html: '<p>Hello</p>',
    });
    const list = await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages' });
    const message = list.json().results.find((m: { subject: string }) => m.subject === 'Your credential');
    expect(message).toMatchObject({ to: ['holder@example.com'], text: expect.stringContaining('Hello') });
    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.body).toContain('Your credential');
  });

  it('hides the admin endpoints without the token', async () => {
    const run = { command: 'org list', args: {} };
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      remoteAddress: '127.0.0.1',
      payload: run,
    });
    expect(noToken.statusCode).toBe(404);
    const remote = await t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      payload: run,
      remoteAddress: '10.1.2.3',
      headers: { 'x-admin-token': 'a'.repeat(43) },
    });
    expect(remote.statusCode).toBe(404);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/admin/run',
      payload: run,
      remoteAddress: '127.0.0.1',
      headers: { 'x-admin-token': 'a'.repeat(43) },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('production mode', () => {
  it('has no development mailbox', async () => {
    const prod = await startTestApp({
      env: { NODE_ENV: 'production', MASTER_KEY: Buffer.alloc(32, 7).toString('base64'), DEMO_SEED: 'false' },
    });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
      expect((await prod.app.inject({ method: 'GET', url: '/dev/mailbox/messages' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

describe('the per-address rate limit', () => {
  it('counts API calls, not the console’s static files (a page load fetches dozens of chunks)', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 10; i++) {
        const asset = await limited.app.inject({ url: `/assets/chunk-${i}.js` });
        expect(asset.statusCode).not.toBe(429);
      }
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.app.inject({ url: '/api/config' })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const protocol = await limited.app.inject({ url: '/.well-known/openid-credential-issuer/orgs/x' });
      expect(protocol.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('the console’s files', () => {
  it('are sent precompressed (brotli or gzip) when the browser accepts it, plain otherwise', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { brotliCompressSync, brotliDecompressSync, gzipSync } = await import('node:zlib');
    const dist = mkdtempSync(path.join(tmpdir(), 'cp-console-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Console</title>');
    writeFileSync(path.join(dist, 'assets', 'app.js'), script);
    writeFileSync(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'app.js.gz'), gzipSync(script));
    const app = await startTestApp({ env: { CONSOLE_DIST: dist } });
    try {
      const br = await app.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const gz = await app.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await app.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
    } finally {
      await app.close();
    }
  });
});
