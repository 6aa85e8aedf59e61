import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';

/**
 * A wallet in a browser on another origin can read a 429 only if it carries CORS headers: the rate
 * limiter answers before the handler that sets them, so the CORS routes add them to its 429s (and to
 * errors thrown past their handlers, such as an unknown organization's 404).
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: {
      RATE_LIMIT_PER_MINUTE: '2',
      RATE_LIMIT_ISSUER_PER_MINUTE: '1',
      RATE_LIMIT_VERIFIER_PER_MINUTE: '1',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: '1',
    },
  });
});
afterAll(async () => {
  await t?.close();
});

let client = 0;
/** Calls an endpoint from a fresh client address until the limiter refuses; returns the 429. */
async function exhaust(request: { method: 'GET' | 'POST'; url: string; payload?: object }) {
  client += 1;
  const remoteAddress = `198.51.100.${client}`;
  for (let i = 0; i < 5; i += 1) {
    const response = await t.app.inject({
      ...request,
      remoteAddress,
      headers: { origin: 'https://wallet.example' },
    });
    if (response.statusCode === 429) return response;
    // Before the limit too, whatever the answer (the organization does not exist: often a 404).
    expect(response.headers['access-control-allow-origin'], `${request.url} (${response.statusCode})`).toBe('*');
  }
  throw new Error(`${request.url} never answered 429`);
}

const org = randomUUID();
/** What a preflight of these endpoints answers (the methods and headers a wallet may use). */
const issuerCors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, dpop, oauth-client-attestation, oauth-client-attestation-pop',
  'access-control-max-age': '600',
};
const verifierCors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

describe('preflights of the CORS endpoints', () => {
  it.each([
    ['issuer token endpoint', `/orgs/${org}/token`, issuerCors],
    ['issuer nonce endpoint', `/orgs/${org}/nonce`, issuerCors],
    ['issuer credential endpoint', `/orgs/${org}/credential`, issuerCors],
    ['OpenID4VP request object (POST)', `/oid4vp/requests/${org}`, verifierCors],
    ['OpenID4VP response endpoint', `/oid4vp/responses/${org}`, verifierCors],
  ] as const)('%s: 204 with the methods and headers a wallet may use', async (_name, url, cors) => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject(cors);
  });
});

describe('429 answers of the CORS endpoints', () => {
  it.each([
    ['issuer token endpoint (its own limit)', { method: 'POST', url: `/orgs/${org}/token`, payload: {} }, issuerCors],
    ['issuer nonce endpoint (its own limit)', { method: 'POST', url: `/orgs/${org}/nonce` }, issuerCors],
    [
      'issuer metadata (the general limit)',
      { method: 'GET', url: `/orgs/${org}/.well-known/openid-credential-issuer` },
      issuerCors,
    ],
    ['status list (the general limit)', { method: 'GET', url: `/orgs/${org}/status-list` }, issuerCors],
    [
      'did:web document (the general limit)',
      { method: 'GET', url: `/orgs/${org}/did.json` },
      { 'access-control-allow-origin': '*' },
    ],
    ['OpenID4VP request object (its own limit)', { method: 'GET', url: `/oid4vp/requests/${org}` }, verifierCors],
    [
      'OpenID4VP response endpoint (its own limit)',
      { method: 'POST', url: `/oid4vp/responses/${org}`, payload: { response: 'x' } },
      verifierCors,
    ],
  ] as const)('%s: the same CORS headers, and Retry-After readable by the page', async (_name, request, cors) => {
    const refused = await exhaust(request);
    expect(refused.headers['access-control-allow-origin']).toBe(cors['access-control-allow-origin']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const exposed = String(refused.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'x-ratelimit-reset']));
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });

  it('adds none to the console API (same origin, no CORS)', async () => {
    client += 1;
    const call = () =>
      t.app.inject({ method: 'POST', url: '/api/auth', payload: {}, remoteAddress: `198.51.100.${client}` });
    await call();
    const refused = await call();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-expose-headers']).toBeUndefined();
  });
});
