import { randomUUID } from 'node:crypto';
import { getOrCreateSecret } from '@cp/db';
import { createAccount } from '@cp/id/accounts';
import { generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../src/modules/auth/auth.service.ts';
import * as usersService from '../src/modules/users/users.service.ts';
import { startTestApp, type TestApp } from './harness.ts';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

// Listening: the bundled account center POSTs its logout tokens to the API over HTTP.
let t: TestApp;
let providerKey: { key: CryptoKey | Uint8Array; kid: string };
beforeAll(async () => {
  t = await startTestApp({ listen: true });
  // The account center's own signing key (stored encrypted): tokens signed here are the provider's.
  const stored = await getOrCreateSecret(t.runtime.ctx.database.db, t.runtime.secretBox, 'id.oidc.jwks', () => {
    throw new Error('the account center has no keys yet');
  });
  const jwk = (JSON.parse(stored) as { keys: JWK[] }).keys.find((k) => k.alg === 'RS256');
  if (!jwk?.kid) throw new Error('no RS256 key');
  providerKey = { key: await importJWK(jwk, 'RS256'), kid: jwk.kid };
});
afterAll(async () => {
  await t?.close();
});

function logoutToken(
  claims: JWTPayload,
  options: { key?: CryptoKey | Uint8Array; kid?: string; omit?: string[] } = {},
): Promise<string> {
  const base: JWTPayload = {
    iss: t.config.oidc.issuer,
    aud: t.config.oidc.clientId,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 120,
    jti: randomUUID(),
    events: { [EVENT]: {} },
    ...claims,
  };
  for (const name of options.omit ?? []) delete base[name];
  return new SignJWT(base)
    .setProtectedHeader({ alg: 'RS256', typ: 'logout+jwt', kid: options.kid ?? providerKey.kid })
    .sign(options.key ?? providerKey.key);
}

const postLogout = (token: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/backchannel-logout',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: token === undefined ? '' : new URLSearchParams({ logout_token: token }).toString(),
  });
const refresh = (refresh_token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token } });

/** A user of the account center's issuer with two console sessions (two refresh-token families). */
async function userWithTwoSessions() {
  const subject = randomUUID();
  const db = t.runtime.ctx.database.db;
  const user = await usersService.upsertUserFromIdentity(db, {
    issuer: t.config.oidc.issuer,
    subject,
    email: `${subject}@example.com`,
    username: null,
    firstName: null,
    lastName: null,
  });
  const deps = { db, accessTokens: t.runtime.ctx.accessTokens, refreshTtlDays: t.config.tokens.refreshTtlDays };
  return { subject, user, sessions: [await openSession(deps, user.id), await openSession(deps, user.id)] };
}

describe('POST /api/auth/backchannel-logout (OpenID Connect Back-Channel Logout 1.0)', () => {
  it('ends every session of the user named by a valid logout token, and only theirs', async () => {
    const alice = await userWithTwoSessions();
    const bob = await userWithTwoSessions();
    const response = await postLogout(await logoutToken({ sub: alice.subject, sid: 'some-provider-session' }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');

    for (const session of alice.sessions) {
      expect((await refresh(session.refresh_token)).statusCode).toBe(401);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/users',
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(me.statusCode).toBe(401);
    }
    // Another user's sessions live on.
    expect((await refresh(bob.sessions[0]!.refresh_token)).statusCode).toBe(200);
  });

  it('answers 200 for a subject it does not know (nothing to end)', async () => {
    expect((await postLogout(await logoutToken({ sub: 'nobody-here' }))).statusCode).toBe(200);
  });

  it.each([
    [
      'a bad signature',
      async (sub: string) => logoutToken({ sub }, { key: (await generateKeyPair('RS256')).privateKey }),
    ],
    ['another audience', (sub: string) => logoutToken({ sub, aud: 'another-client' })],
    ['another issuer', (sub: string) => logoutToken({ sub, iss: 'https://evil.test' })],
    ['no events claim', (sub: string) => logoutToken({ sub }, { omit: ['events'] })],
    ['another event', (sub: string) => logoutToken({ sub, events: { 'https://example.test/other': {} } })],
    ['a nonce (an ID token)', (sub: string) => logoutToken({ sub, nonce: 'n-0S6_WzA2Mj' })],
    ['no jti', (sub: string) => logoutToken({ sub }, { omit: ['jti'] })],
    ['no iat', (sub: string) => logoutToken({ sub }, { omit: ['iat'] })],
    ['an old iat', (sub: string) => logoutToken({ sub, iat: Math.floor(Date.now() / 1000) - 3600 })],
    ['an expired exp', (sub: string) => logoutToken({ sub, exp: Math.floor(Date.now() / 1000) - 600 })],
    ['only a sid', () => logoutToken({ sid: 'some-provider-session' })],
    [
      'a symmetric algorithm',
      (sub: string) =>
        new SignJWT({
          iss: t.config.oidc.issuer,
          aud: t.config.oidc.clientId,
          sub,
          jti: randomUUID(),
          events: { [EVENT]: {} },
        })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .sign(new TextEncoder().encode('x'.repeat(32))),
    ],
  ])('refuses a logout token with %s: 400 and nothing revoked', async (_name, build) => {
    const target = await userWithTwoSessions();
    const response = await postLogout(await build(target.subject));
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().code).toBe('AUTH_LOGOUT_TOKEN_INVALID');
    expect((await refresh(target.sessions[0]!.refresh_token)).statusCode).toBe(200);
  });

  it('refuses a replayed logout token (same jti)', async () => {
    const target = await userWithTwoSessions();
    const token = await logoutToken({ sub: target.subject });
    expect((await postLogout(token)).statusCode).toBe(200);
    // A new session after the logout: the replay must not end it.
    const deps = {
      db: t.runtime.ctx.database.db,
      accessTokens: t.runtime.ctx.accessTokens,
      refreshTtlDays: t.config.tokens.refreshTtlDays,
    };
    const later = await openSession(deps, target.user.id);
    const replay = await postLogout(token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('AUTH_LOGOUT_TOKEN_INVALID');
    expect((await refresh(later.refresh_token)).statusCode).toBe(200);
  });

  it('answers problem+json, never a 500, for a missing, empty, oversize or garbage token', async () => {
    for (const token of [undefined, '', 'x'.repeat(10_000), 'not.a.jwt', 'a.b']) {
      const response = await postLogout(token);
      expect(response.statusCode, String(token).slice(0, 20)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});

/** Drives the account center's HTML like a browser: one cookie jar, manual redirects. */
function browser(origin: string) {
  const cookies = new Map<string, string>();
  const request = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
    }
    return response;
  };
  /** Follows redirects inside the account center; answers the page, or the first address outside it. */
  const follow = async (url: string, form?: Record<string, string>) => {
    let current = new URL(url, origin).href;
    let response = await request(current, form);
    while (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', current);
      if (next.origin !== origin) return { url: current, html: '', external: next };
      current = next.href;
      response = await request(current);
    }
    return { url: current, html: await response.text(), external: undefined };
  };
  const formOf = (html: string, id: string) => {
    const tag = new RegExp(`<form[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
    const action = (/action="([^"]*)"/.exec(tag)?.[1] ?? '').replaceAll('&amp;', '&');
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
    if (!action) throw new Error(`form #${id} not found:\n${html.slice(0, 500)}`);
    return { action, csrf };
  };
  return { follow, formOf };
}

describe('password change at the account center ends the console sessions elsewhere (end to end)', () => {
  it('signs in on two devices, changes the password on one: the other console session can no longer refresh', async () => {
    await createAccount(t.runtime.ctx.database.db, {
      username: 'lise',
      email: 'lise@example.com',
      firstName: 'Lise',
      lastName: 'Meitner',
      password: 'Fission-1938!',
    });
    const idOrigin = new URL(t.config.accountCenter.publicUrl).origin;

    async function consoleSignIn(device: ReturnType<typeof browser>) {
      const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
      const page = await device.follow(start.auth_url);
      const form = device.formOf(page.html, 'sign-in-form');
      const done = await device.follow(form.action, { csrf: form.csrf, login: 'lise', password: 'Fission-1938!' });
      const back = done.external;
      if (!back) throw new Error(`sign-in did not return to the console:\n${done.html.slice(0, 500)}`);
      const exchange = await t.app.inject({
        method: 'POST',
        url: '/api/auth/session',
        payload: {
          code: back.searchParams.get('code') ?? '',
          state: back.searchParams.get('state') ?? '',
          session: start.session,
          ...(back.searchParams.get('iss') ? { iss: back.searchParams.get('iss') } : {}),
        },
      });
      expect(exchange.statusCode).toBe(200);
      return exchange.json() as { access_token: string; refresh_token: string };
    }

    const laptop = browser(idOrigin);
    const phone = browser(idOrigin);
    const laptopConsole = await consoleSignIn(laptop);
    const phoneConsole = await consoleSignIn(phone);
    const phoneRotated = await refresh(phoneConsole.refresh_token);
    expect(phoneRotated.statusCode).toBe(200);

    // The password change on the laptop, in its account-center session.
    const page = await laptop.follow('/account/password');
    const form = laptop.formOf(page.html, 'change-password-form');
    const changed = await laptop.follow(form.action, {
      csrf: form.csrf,
      currentPassword: 'Fission-1938!',
      newPassword: 'Nuclear-Fission2',
      confirmPassword: 'Nuclear-Fission2',
    });
    expect(changed.html).toContain('You have been signed out on your other devices');

    // The phone's console session is over: refresh refused, access token refused.
    expect((await refresh(phoneRotated.json().refresh_token)).statusCode).toBe(401);
    const phoneCall = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { authorization: `Bearer ${phoneRotated.json().access_token}` },
    });
    expect(phoneCall.statusCode).toBe(401);
    // The laptop's console session ends too (the API ends all the user's sessions), but its account-center
    // session stays, so signing in to the console again there needs no password.
    expect((await refresh(laptopConsole.refresh_token)).statusCode).toBe(401);
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
    expect((await laptop.follow(start.auth_url)).external?.pathname).toBe('/oauth/socious');
    expect((await phone.follow(start.auth_url)).html).toContain('id="sign-in-form"');
  });
});
