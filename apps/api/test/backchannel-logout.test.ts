import { randomUUID } from 'node:crypto';
import { getOrCreateSecret, schema } from '@cp/db';
import { createAccount } from '@cp/id/accounts';
import { eq } from 'drizzle-orm';
import { generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto.ts';
import { openSession } from '../src/modules/auth/auth.service.ts';
import * as usersService from '../src/modules/users/users.service.ts';
import { startTestApp, type TestApp } from './harness.ts';
import { type ProviderBrowser, providerBrowser } from './support/provider-browser.ts';

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

const sessionDeps = () => ({
  db: t.runtime.ctx.database.db,
  accessTokens: t.runtime.ctx.accessTokens,
  refreshTtlDays: t.config.tokens.refreshTtlDays,
});

/**
 * A user of the account center's issuer (or another) with two console sessions (two refresh-token
 * families), opened from two provider sessions: two devices, sids `<subject>-laptop` and `<subject>-phone`.
 */
async function userWithTwoSessions(issuer = t.config.oidc.issuer) {
  const subject = randomUUID();
  const user = await usersService.upsertUserFromIdentity(t.runtime.ctx.database.db, {
    issuer,
    subject,
    email: `${subject}@example.com`,
    username: null,
    firstName: null,
    lastName: null,
  });
  const sids = [`${subject}-laptop`, `${subject}-phone`] as const;
  const sessions = [
    await openSession(sessionDeps(), user.id, { providerSid: sids[0] }),
    await openSession(sessionDeps(), user.id, { providerSid: sids[1] }),
  ];
  return { subject, user, sids, sessions };
}

/** The provider session id stored with a refresh token. */
async function providerSidOf(refreshToken: string) {
  const rows = await t.runtime.ctx.database.db
    .select({ providerSid: schema.refreshTokens.providerSid })
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.tokenHash, sha256(refreshToken)));
  expect(rows).toHaveLength(1);
  return rows[0]!.providerSid;
}

const isLive = async (session: { refresh_token: string; access_token: string }) => {
  const me = await t.app.inject({
    method: 'GET',
    url: '/api/users',
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  return me.statusCode === 200;
};

describe('POST /api/auth/backchannel-logout (OpenID Connect Back-Channel Logout 1.0)', () => {
  it('with only a sub, ends every session of the user named by a valid logout token, and only theirs', async () => {
    const alice = await userWithTwoSessions();
    const bob = await userWithTwoSessions();
    const response = await postLogout(await logoutToken({ sub: alice.subject }));
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

  it.each([
    ['sid and sub', (u: { subject: string; sids: readonly string[] }) => ({ sub: u.subject, sid: u.sids[0] })],
    ['only a sid (§2.4)', (u: { sids: readonly string[] }) => ({ sid: u.sids[0] })],
  ])('with %s, ends only the sessions of that provider session: the other device stays', async (_name, claims) => {
    const alice = await userWithTwoSessions();
    const [laptop, phone] = alice.sessions;
    // A rotated laptop token keeps the family's sid: the logout still reaches it once the family's first
    // token is gone (maintenance deletes expired rows).
    const rotated = await refresh(laptop!.refresh_token);
    expect(rotated.statusCode).toBe(200);
    expect(await providerSidOf(rotated.json().refresh_token)).toBe(alice.sids[0]);
    const response = await postLogout(await logoutToken(claims(alice)));
    expect(response.statusCode).toBe(200);

    expect((await refresh(rotated.json().refresh_token)).statusCode).toBe(401);
    expect(await isLive(rotated.json())).toBe(false);
    expect(await isLive(phone!)).toBe(true);
    expect((await refresh(phone!.refresh_token)).statusCode).toBe(200);
  });

  it('ends every console session opened from the same provider session (one sid, two sign-ins)', async () => {
    const carol = await userWithTwoSessions();
    const sameBrowser = await openSession(sessionDeps(), carol.user.id, { providerSid: carol.sids[0] });
    expect((await postLogout(await logoutToken({ sub: carol.subject, sid: carol.sids[0] }))).statusCode).toBe(200);
    expect(await isLive(sameBrowser)).toBe(false);
    expect(await isLive(carol.sessions[0]!)).toBe(false);
    expect(await isLive(carol.sessions[1]!)).toBe(true);
  });

  it('answers 200 for a sid it does not know, and ends nothing (no fallback to every session)', async () => {
    const dave = await userWithTwoSessions();
    const legacy = await openSession(sessionDeps(), dave.user.id); // signed in without a sid
    expect((await postLogout(await logoutToken({ sub: dave.subject, sid: 'never-seen' }))).statusCode).toBe(200);
    for (const session of [...dave.sessions, legacy]) expect(await isLive(session)).toBe(true);
  });

  it.each([
    [
      'a sid of another account (sub mismatch)',
      async () => {
        const victim = await userWithTwoSessions();
        const other = await userWithTwoSessions();
        return { victim, claims: { sub: other.subject, sid: victim.sids[0] } };
      },
    ],
    [
      'a sid recorded for another identity provider',
      async () => {
        const victim = await userWithTwoSessions('https://other-provider.example');
        return { victim, claims: { sid: victim.sids[0] } };
      },
    ],
    [
      'a sid recorded for another identity provider, with the same sub',
      async () => {
        const victim = await userWithTwoSessions('https://other-provider.example');
        return { victim, claims: { sub: victim.subject, sid: victim.sids[0] } };
      },
    ],
  ])('refuses %s: 400 and nothing revoked', async (_name, build) => {
    const { victim, claims } = await build();
    const response = await postLogout(await logoutToken(claims));
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().code).toBe('AUTH_LOGOUT_TOKEN_INVALID');
    for (const session of victim.sessions) expect(await isLive(session)).toBe(true);
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
    ['neither sub nor sid', () => logoutToken({})],
    ['an oversize sid', (sub: string) => logoutToken({ sub, sid: 's'.repeat(256) })],
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
    const later = await openSession(sessionDeps(), target.user.id);
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

/** Signs in to the console in a browser: the API's sign-in flow through the account center's form. */
async function consoleSignIn(device: ProviderBrowser, login: string, password: string) {
  const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
  const page = await device.follow(start.auth_url);
  const form = device.formOf(page.html, 'sign-in-form');
  const done = await device.follow(form.action, { csrf: form.csrf, login, password });
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
    const laptop = providerBrowser(idOrigin);
    const phone = providerBrowser(idOrigin);
    const laptopConsole = await consoleSignIn(laptop, 'lise', 'Fission-1938!');
    const phoneConsole = await consoleSignIn(phone, 'lise', 'Fission-1938!');
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
    // The laptop's console session ends too (the logout token names only the account: all its console
    // sessions end), but its account-center session stays, so signing in to the console again there
    // needs no password.
    expect((await refresh(laptopConsole.refresh_token)).statusCode).toBe(401);
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
    expect((await laptop.follow(start.auth_url)).external?.pathname).toBe('/oauth/socious');
    expect((await phone.follow(start.auth_url)).html).toContain('id="sign-in-form"');
  });
});

describe("signing out of the account center ends only that device's console sessions (end to end)", () => {
  it('signs in on two devices, signs out of the account center on one: the other console session keeps working', async () => {
    await createAccount(t.runtime.ctx.database.db, {
      username: 'emmy',
      email: 'emmy@example.com',
      firstName: 'Emmy',
      lastName: 'Noether',
      password: 'Invariant-1918!',
    });
    const idOrigin = new URL(t.config.accountCenter.publicUrl).origin;
    const laptop = providerBrowser(idOrigin);
    const phone = providerBrowser(idOrigin);
    const laptopConsole = await consoleSignIn(laptop, 'emmy', 'Invariant-1918!');
    const phoneConsole = await consoleSignIn(phone, 'emmy', 'Invariant-1918!');
    // The API recorded each device's provider session (the ID token's sid); a rotation keeps it.
    const laptopSid = await providerSidOf(laptopConsole.refresh_token);
    expect(laptopSid).toEqual(expect.any(String));
    expect(await providerSidOf(phoneConsole.refresh_token)).not.toBe(laptopSid);
    const laptopRotated = await refresh(laptopConsole.refresh_token);
    expect(laptopRotated.statusCode).toBe(200);
    expect(await providerSidOf(laptopRotated.json().refresh_token)).toBe(laptopSid);

    // Sign-out on the laptop, from the account center's own page (its end_session confirmation).
    const confirm = await laptop.follow('/logout');
    expect(confirm.html).toContain('id="sign-out-confirm"');
    const action = (/<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(confirm.html)?.[1] ?? '').replaceAll(
      '&amp;',
      '&',
    );
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.html)?.[1] ?? '';
    const out = await laptop.follow(action, { xsrf, logout: 'yes' });
    expect(out.html).toContain('id="sign-in-again"');

    // The laptop's console session is over (refresh and access token refused)...
    expect((await refresh(laptopRotated.json().refresh_token)).statusCode).toBe(401);
    expect(await isLive(laptopRotated.json())).toBe(false);
    // ...the phone's works on: its access token, a refresh, and its account-center session.
    expect(await isLive(phoneConsole)).toBe(true);
    expect((await refresh(phoneConsole.refresh_token)).statusCode).toBe(200);
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
    expect((await phone.follow(start.auth_url)).external?.pathname).toBe('/oauth/socious');
    expect((await laptop.follow(start.auth_url)).html).toContain('id="sign-in-form"');
  });
});
