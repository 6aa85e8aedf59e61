import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/env.ts';
import { startTestApp, type TestApp } from './harness.ts';

const LIMIT = 3;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      RATE_LIMIT_SIGN_IN_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_ISSUER_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_VERIFIER_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_HOLDER_PER_MINUTE: String(LIMIT),
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const org = randomUUID();
const attempt = randomUUID();
const groups: Record<string, { method: 'GET' | 'POST'; url: string; payload?: Record<string, string> }[]> = {
  'sign-in and invitation links (RATE_LIMIT_SIGN_IN_PER_MINUTE)': [
    { method: 'POST', url: '/api/auth', payload: {} },
    { method: 'POST', url: '/api/auth/session', payload: { code: 'x', state: 'y' } },
    { method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: 'not-a-token' } },
    // Invitation links: the public lookup and accepting (counted before sign-in is checked).
    { method: 'GET', url: `/api/invitations/${'A'.repeat(43)}` },
    { method: 'POST', url: `/api/invitations/${'A'.repeat(43)}/accept` },
  ],
  'issuer (RATE_LIMIT_ISSUER_PER_MINUTE)': [
    { method: 'POST', url: `/orgs/${org}/token`, payload: { grant_type: 'x' } },
    { method: 'POST', url: `/orgs/${org}/nonce` },
    { method: 'POST', url: `/orgs/${org}/credential`, payload: {} },
  ],
  'verifier (RATE_LIMIT_VERIFIER_PER_MINUTE)': [
    { method: 'GET', url: `/oid4vp/requests/${attempt}` },
    { method: 'POST', url: `/oid4vp/requests/${attempt}` },
    { method: 'POST', url: `/oid4vp/responses/${attempt}`, payload: { response: 'x' } },
    { method: 'GET', url: `/oid4vp/dc-api/requests/${attempt}?origin=x` },
    { method: 'POST', url: `/oid4vp/dc-api/responses/${attempt}`, payload: { response: 'x' } },
  ],
  'holder pages (RATE_LIMIT_HOLDER_PER_MINUTE)': [
    { method: 'POST', url: '/api/verifications/individuals', payload: { verification_id: randomUUID() } },
    { method: 'GET', url: `/api/verifications/${attempt}/connect` },
    { method: 'GET', url: `/api/verifications/${attempt}/verify` },
    { method: 'GET', url: `/api/credentials/${randomUUID()}/connect` },
  ],
};

describe('rate limits of the sensitive endpoints', () => {
  for (const [group, endpoints] of Object.entries(groups)) {
    it(`answers 429 problem+json past the ${group} limit, with the standard headers`, async () => {
      for (const endpoint of endpoints) {
        const call = () =>
          t.app.inject({
            method: endpoint.method,
            url: endpoint.url,
            ...(endpoint.payload ? { payload: endpoint.payload } : {}),
          });
        for (let i = 0; i < LIMIT; i += 1) {
          const allowed = await call();
          expect(allowed.statusCode, `${endpoint.method} ${endpoint.url}: ${allowed.body}`).not.toBe(429);
          expect(allowed.statusCode).toBeLessThan(500);
          expect(allowed.headers['x-ratelimit-limit']).toBe(String(LIMIT));
          expect(allowed.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
        }
        const refused = await call();
        expect(refused.statusCode, `${endpoint.method} ${endpoint.url}`).toBe(429);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(refused.headers['x-ratelimit-limit']).toBe(String(LIMIT));
        expect(refused.headers['x-ratelimit-remaining']).toBe('0');
        expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      }
    });
  }

  it('keeps other endpoints on the general limit', async () => {
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const response = await t.app.inject({ url: `/orgs/${org}/.well-known/openid-credential-issuer` });
      expect(response.statusCode).not.toBe(429);
      expect(response.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimitPerMinute));
    }
  });

  it('reads each limit from its own variable, with defaults the test suite stays under', () => {
    expect(loadConfig({}).rateLimits).toEqual({ signIn: 30, issuer: 120, verifier: 120, holder: 120 });
    expect(
      loadConfig({
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '5',
        RATE_LIMIT_ISSUER_PER_MINUTE: '6',
        RATE_LIMIT_VERIFIER_PER_MINUTE: '7',
        RATE_LIMIT_HOLDER_PER_MINUTE: '8',
      }).rateLimits,
    ).toEqual({ signIn: 5, issuer: 6, verifier: 7, holder: 8 });
    expect(() => loadConfig({ RATE_LIMIT_HOLDER_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_HOLDER_PER_MINUTE/);
  });
});
