import { createHmac } from 'node:crypto';
import { schema } from '@cp/db';
import { createAccount } from '@cp/id/accounts';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authService from '../src/modules/auth/auth.service.ts';
import { openSession } from '../src/modules/auth/auth.service.ts';
import type { OidcClient } from '../src/modules/auth/oidc-client.ts';
import { buildOrganization, buildUser, startTestApp, type TestApp } from './harness.ts';
import { providerBrowser } from './support/provider-browser.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'Two-Steps-2fa!';

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) written out here, independently of the account center's library. */
function totp(secretBase32: string, timestampMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timestampMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const idOrigin = () => t.config.accountCenter.publicUrl;

/** An account with two-step sign-in turned on from its account page; answers the TOTP secret. */
async function accountWithTwoFactor(username: string) {
  await createAccount(t.runtime.ctx.database.db, {
    username,
    email: `${username}@example.com`,
    firstName: 'Two',
    lastName: 'Steps',
    password: PASSWORD,
  });
  const device = providerBrowser(idOrigin());
  const signIn = await device.follow(`${idOrigin()}/account`);
  const form = device.formOf(signIn.html, 'sign-in-form');
  await device.follow(form.action, { csrf: form.csrf, login: username, password: PASSWORD });
  const setup = await device.follow(`${idOrigin()}/account/two-factor/setup`);
  const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
  const confirm = device.formOf(setup.html, 'two-factor-setup-form');
  const done = await device.follow(confirm.action, { csrf: confirm.csrf, code: totp(secret, Date.now()) });
  expect(done.html).toContain('id="recovery-codes"');
  return { secret };
}

/** The console's sign-in: POST /api/auth, the account center's pages, POST /api/auth/session. */
async function consoleSignIn(login: string, secret?: string) {
  const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
  const device = providerBrowser(idOrigin());
  const page = await device.follow(start.auth_url);
  const form = device.formOf(page.html, 'sign-in-form');
  let done = await device.follow(form.action, { csrf: form.csrf, login, password: PASSWORD });
  if (secret) {
    const second = device.formOf(done.html, 'two-factor-form');
    // The next time step's code: the set-up used this one, and each step is accepted once.
    done = await device.follow(second.action, { csrf: second.csrf, code: totp(secret, Date.now() + 30_000) });
  }
  if (!done.external) throw new Error(`sign-in did not return to the console:\n${done.html.slice(0, 500)}`);
  const exchange = await t.app.inject({
    method: 'POST',
    url: '/api/auth/session',
    payload: {
      code: done.external.searchParams.get('code') ?? '',
      state: done.external.searchParams.get('state') ?? '',
      session: start.session,
      iss: done.external.searchParams.get('iss') ?? undefined,
    },
  });
  expect(exchange.statusCode).toBe(200);
  return exchange.json() as { access_token: string; refresh_token: string };
}

async function familyOf(accessToken: string) {
  const familyId = decodeJwt(accessToken).sid as string;
  return t.runtime.ctx.database.db
    .select({ twoFactor: schema.refreshTokens.twoFactor, rotatedAt: schema.refreshTokens.rotatedAt })
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.familyId, familyId));
}

describe('two-step sign-in recorded on the session', () => {
  it('records two_factor from the ID token amr and keeps it through refresh', async () => {
    const { secret } = await accountWithTwoFactor('tessa');
    const tokens = await consoleSignIn('tessa', secret);
    expect(decodeJwt(tokens.access_token).two_factor).toBe(true);
    expect(await familyOf(tokens.access_token)).toEqual([{ twoFactor: true, rotatedAt: null }]);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json();
    expect(decodeJwt(next.access_token).two_factor).toBe(true);
    expect(decodeJwt(next.access_token).sid).toBe(decodeJwt(tokens.access_token).sid);
    const family = await familyOf(next.access_token);
    expect(family).toHaveLength(2);
    expect(family.every((row) => row.twoFactor)).toBe(true);
  });

  it('records a one-step sign-in as such', async () => {
    await createAccount(t.runtime.ctx.database.db, {
      username: 'olga',
      email: 'olga@example.com',
      firstName: 'Olga',
      lastName: 'One',
      password: PASSWORD,
    });
    const tokens = await consoleSignIn('olga');
    expect(decodeJwt(tokens.access_token)).not.toHaveProperty('two_factor');
    expect(await familyOf(tokens.access_token)).toEqual([{ twoFactor: false, rotatedAt: null }]);
  });

  it('reads only second-factor methods in amr as two-step (RFC 8176)', () => {
    expect(authService.isTwoFactorAmr(['pwd', 'otp'])).toBe(true);
    expect(authService.isTwoFactorAmr(['mfa'])).toBe(true);
    expect(authService.isTwoFactorAmr(['hwk', 'user'])).toBe(true);
    expect(authService.isTwoFactorAmr(['pwd', 'TOTP'])).toBe(true);
    expect(authService.isTwoFactorAmr(['pwd'])).toBe(false);
    expect(authService.isTwoFactorAmr('otp')).toBe(false);
    expect(authService.isTwoFactorAmr(undefined)).toBe(false);
    expect(authService.isTwoFactorAmr([1, null, { otp: true }])).toBe(false);
  });
});

describe('an organization that requires two-step sign-in', () => {
  /** A member with a one-step session and a two-step session of the same person. */
  async function memberWithBothSessions(name: string) {
    const member = await buildUser(t);
    const organization = await buildOrganization(t, member.user.id, name);
    const twoStep = await openSession(
      {
        db: t.runtime.ctx.database.db,
        accessTokens: t.runtime.ctx.accessTokens,
        refreshTtlDays: t.config.tokens.refreshTtlDays,
      },
      member.user.id,
      { twoFactor: true },
    );
    return {
      member,
      organization,
      oneStep: { ...member.auth, currentidentity: organization.id },
      twoStep: { authorization: `Bearer ${twoStep.access_token}`, currentidentity: organization.id },
    };
  }

  const requireTwoFactor = (headers: Record<string, string>, organizationId: string, value: boolean) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${organizationId}`,
      headers,
      payload: { require_two_factor: value },
    });

  it('is refused from a one-step session (409), so an admin cannot lock the organization out', async () => {
    const { organization, oneStep } = await memberWithBothSessions('Lockout Inc');
    const refused = await requireTwoFactor(oneStep, organization.id, true);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED' });
    expect(refused.json().detail).toMatch(/two-step sign-in/);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/organizations/${organization.id}`,
      headers: oneStep,
    });
    expect(profile.json().require_two_factor).toBe(false);
    // Sending false (or leaving it out) from a one-step session is fine.
    expect((await requireTwoFactor(oneStep, organization.id, false)).statusCode).toBe(200);
  });

  it('is turned on from a two-step session and listed with the organization', async () => {
    const { organization, twoStep, oneStep } = await memberWithBothSessions('Careful Co');
    const on = await requireTwoFactor(twoStep, organization.id, true);
    expect(on.statusCode).toBe(200);
    expect(on.json().require_two_factor).toBe(true);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/organizations',
      headers: { authorization: oneStep.authorization },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([expect.objectContaining({ id: organization.id, require_two_factor: true })]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/organizations/${organization.id}`, headers: twoStep })).json(),
    ).toMatchObject({ require_two_factor: true });
  });

  it('answers 403 ORGANIZATION_TWO_FACTOR_REQUIRED to every organization call of a one-step session', async () => {
    const { organization, twoStep, oneStep } = await memberWithBothSessions('Strict Ltd');
    expect((await requireTwoFactor(twoStep, organization.id, true)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['GET', '/api/schemas?page=1&limit=10', undefined],
      ['GET', '/api/credentials?page=1&limit=10', undefined],
      ['GET', '/api/integrations/keys?page=1&limit=10', undefined],
      ['POST', '/api/integrations/keys', { name: 'Sneaky' }],
      ['GET', `/api/organizations/${organization.id}`, undefined],
      ['PUT', `/api/organizations/${organization.id}`, { require_two_factor: false }],
      ['PUT', `/api/organizations/${organization.id}`, { name: 'Renamed' }],
      ['GET', `/api/kyb/${organization.id}`, undefined],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: oneStep, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json(), `${method} ${url}`).toMatchObject({ code: 'ORGANIZATION_TWO_FACTOR_REQUIRED' });
    }
    // Nothing changed through the refused calls.
    const profile = (
      await t.app.inject({ method: 'GET', url: `/api/organizations/${organization.id}`, headers: twoStep })
    ).json();
    expect(profile).toMatchObject({ name: 'Strict Ltd', require_two_factor: true });
    // Calls about the person are not organization calls, even with CurrentIdentity (the console always sends it):
    // the profile and the organization list still answer, so the console can say what to do.
    const me = await t.app.inject({ method: 'GET', url: '/api/users', headers: oneStep });
    expect(me.statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/organizations', headers: oneStep });
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([expect.objectContaining({ id: organization.id, require_two_factor: true })]);
  });

  it('lets a two-step session work, and API keys of the organization too', async () => {
    const { organization, twoStep } = await memberWithBothSessions('Keyed Corp');
    const key = (
      await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: twoStep, payload: { name: 'ERP' } })
    ).json();
    expect((await requireTwoFactor(twoStep, organization.id, true)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/schemas?page=1&limit=10', headers: twoStep })).statusCode,
    ).toBe(200);
    const basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
    const withKey = await t.app.inject({
      method: 'GET',
      url: '/api/schemas?page=1&limit=10',
      headers: { authorization: basic },
    });
    expect(withKey.statusCode).toBe(200);
  });

  it('applies to that organization only, and ends when a two-step session turns it off', async () => {
    const { member, organization, twoStep, oneStep } = await memberWithBothSessions('Only Here');
    const other = await buildOrganization(t, member.user.id, 'Relaxed');
    expect((await requireTwoFactor(twoStep, organization.id, true)).statusCode).toBe(200);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/schemas?page=1&limit=10',
      headers: { ...oneStep, currentidentity: other.id },
    });
    expect(elsewhere.statusCode).toBe(200);
    expect((await requireTwoFactor(twoStep, organization.id, false)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/schemas?page=1&limit=10', headers: oneStep })).statusCode,
    ).toBe(200);
  });

  it('cannot be changed for another organization (404), two-step session or not', async () => {
    const mine = await memberWithBothSessions('Mine');
    const theirs = await memberWithBothSessions('Theirs');
    const response = await requireTwoFactor(mine.twoStep, theirs.organization.id, true);
    expect(response.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${mine.organization.id}`,
      headers: mine.twoStep,
      payload: { require_two_factor: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('sign-out', () => {
  it('revokes the session and answers the provider end-session address back to /intro', async () => {
    const { tokens, auth } = await buildUser(t);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: auth,
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(out.statusCode).toBe(200);
    const url = new URL(out.json().logout_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${idOrigin()}/session/end`);
    expect(url.searchParams.get('client_id')).toBe(t.config.oidc.clientId);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${t.config.publicUrl}/intro`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: auth })).statusCode).toBe(401);
  });

  it('answers no address when the provider has no end-session endpoint or cannot be reached', async () => {
    const { tokens } = await buildUser(t);
    const unreachable = {
      clientId: 'console',
      configuration: async () => {
        throw new Error('unreachable');
      },
    } as unknown as OidcClient;
    const answer = await authService.logout(
      {
        db: t.runtime.ctx.database.db,
        oidc: unreachable,
        logger: t.runtime.ctx.logger,
        postLogoutRedirectUrl: `${t.config.publicUrl}/intro`,
      },
      { refreshToken: tokens.refresh_token },
    );
    expect(answer).toEqual({ logout_url: null });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(refreshed.statusCode).toBe(401);
  });
});
