import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const refresh = (refresh_token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token } });

describe('sessions', () => {
  it('requires a valid access token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('AUTH_TOKEN_INVALID');
  });

  it('never accepts a refresh token as an access token', async () => {
    const { tokens } = await buildUser(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { authorization: `Bearer ${tokens.refresh_token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('rotates refresh tokens and revokes the family when a rotated one is reused', async () => {
    const { tokens } = await buildUser(t);
    const first = await refresh(tokens.refresh_token);
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.token_type).toBe('Bearer');
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

    // The old token again: a theft signal. It fails, and so does the newest token of the family.
    const reuse = await refresh(tokens.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
    const withAccess = await t.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { authorization: `Bearer ${rotated.access_token}` },
    });
    expect(withAccess.statusCode).toBe(401);
  });

  it('stores refresh tokens hashed', async () => {
    const { tokens } = await buildUser(t);
    const { rows } = await t.runtime.ctx.database.executor.executeSql(
      'select token_hash from refresh_tokens where token_hash = $1',
      [tokens.refresh_token],
    );
    expect(rows).toHaveLength(0);
  });

  it('logout ends the session: access and refresh tokens stop working', async () => {
    const { tokens, auth } = await buildUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: auth })).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: auth,
      payload: { refresh_token: tokens.refresh_token },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ logout_url: expect.stringContaining('/session/end?') });
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: auth })).statusCode).toBe(401);
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
  });

  it('rejects sign-in completion for an unknown attempt and a foreign redirect', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      payload: { code: 'abc', session: '00000000-0000-4000-8000-000000000000', state: 'x' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('AUTH_SESSION_INVALID');
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { redirect_url: 'https://evil.example/oauth/socious' },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('AUTH_REDIRECT_NOT_ALLOWED');
  });
});

describe('profile', () => {
  it('reads and updates the own profile', async () => {
    const { auth } = await buildUser(t, { firstName: 'Grace' });
    const me = await t.app.inject({ method: 'GET', url: `/api/users?t=${Date.now()}`, headers: auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ first_name: 'Grace', last_name: 'Lovelace', job_title: null });
    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: auth,
      payload: { first_name: 'Grace', last_name: 'Hopper', job_title: 'Rear Admiral' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ last_name: 'Hopper', job_title: 'Rear Admiral' });
    const empty = await t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload: { first_name: '' } });
    expect(empty.statusCode).toBe(400);
  });
});
