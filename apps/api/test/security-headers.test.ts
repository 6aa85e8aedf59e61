import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.ts';
import { startStaticSite } from '../src/static-site.ts';
import { freePort, startTestApp, type TestApp } from './harness.ts';

const html = '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>';
let dist: string;
let plain: TestApp;
let secure: TestApp;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'cp-security-dist-'));
  writeFileSync(path.join(dist, 'index.html'), html);
  plain = await startTestApp({ env: { CONSOLE_DIST: dist } });
  secure = await startTestApp({ env: { CONSOLE_DIST: dist, PUBLIC_URL: 'https://platform.example' } });
});
afterAll(async () => {
  await plain?.close();
  await secure?.close();
  rmSync(dist, { recursive: true, force: true });
});

const directives = (csp: unknown) =>
  Object.fromEntries(
    String(csp)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );

describe('security headers of the API and the console', () => {
  it('sends a CSP that forbids framing on the console and on API answers', async () => {
    for (const url of ['/', '/api/health', '/api/does-not-exist']) {
      const response = await plain.app.inject({ url });
      const csp = directives(response.headers['content-security-policy']);
      expect(csp['frame-ancestors'], url).toEqual(["'none'"]);
      expect(csp['default-src'], url).toEqual(["'self'"]);
      expect(csp['script-src'], url).toEqual(["'self'"]);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('sends no referrer from the holder pages (/connect/*)', async () => {
    for (const url of ['/connect/credential/6c9f5d8e-3c1f-4ad9-9d3f-5f8b9d0e1a2b', '/connect/redirect/abc?t=1']) {
      const response = await plain.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
    }
  });

  it('sends HSTS only when the platform is served over https', async () => {
    for (const url of ['/', '/api/health']) {
      expect((await plain.app.inject({ url })).headers['strict-transport-security'], url).toBeUndefined();
      expect((await secure.app.inject({ url })).headers['strict-transport-security'], url).toMatch(
        /^max-age=31536000; includeSubDomains/,
      );
    }
  });
});

describe('security headers of the wallet site', () => {
  const started: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of started) await app.close();
  });

  async function wallet(hsts: boolean) {
    const port = await freePort();
    started.push(await startStaticSite(dist, port, '127.0.0.1', createLogger({ level: 'silent' }), { hsts }));
    return `http://127.0.0.1:${port}`;
  }

  it('lets the wallet talk to any issuer or verifier, but never be framed or leak a referrer', async () => {
    const base = await wallet(false);
    for (const url of [`${base}/`, `${base}/offer?credential_offer_uri=x`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['connect-src']).toEqual(["'self'", 'https:', 'http:']);
      expect(csp['worker-src']).toEqual(["'self'"]);
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds HSTS when the wallet is served over https', async () => {
    const response = await fetch(`${await wallet(true)}/`);
    expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
  });
});
