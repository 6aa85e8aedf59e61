import { createAccount, createAccountOrganization } from '@cp/id/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';
import { providerBrowser } from './support/provider-browser.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The account center's sign-in form in a browser; answers where it sends the browser back (the console). */
async function signInAtProvider(authUrl: string, login: string, password: string) {
  const device = providerBrowser(new URL(authUrl).origin);
  const page = await device.follow(authUrl);
  const form = device.formOf(page.html, 'sign-in-form');
  const done = await device.follow(form.action, { csrf: form.csrf, login, password });
  if (!done.external) throw new Error(`sign-in did not return to the console:\n${done.html.slice(0, 500)}`);
  return done.external;
}

async function signIn(login: string, password: string) {
  const start = await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} });
  expect(start.statusCode).toBe(200);
  const { auth_url, session } = start.json();
  const authUrl = new URL(auth_url);
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authUrl.searchParams.get('redirect_uri')).toBe(`${t.config.publicUrl}/oauth/socious`);
  const back = await signInAtProvider(auth_url, login, password);
  expect(back.pathname).toBe('/oauth/socious');
  const payload = {
    code: back.searchParams.get('code') ?? '',
    state: back.searchParams.get('state') ?? '',
    session,
    ...(back.searchParams.get('iss') ? { iss: back.searchParams.get('iss')! } : {}),
  };
  const exchange = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload });
  return { exchange, payload };
}

describe('sign-in through the account center (OpenID Connect, code + PKCE)', () => {
  it('signs in, syncs the profile and the organizations from the claims, and refuses a replayed code', async () => {
    const db = t.runtime.ctx.database.db;
    const account = await createAccount(db, {
      username: 'marie',
      email: 'marie@example.com',
      firstName: 'Marie',
      lastName: 'Curie',
      password: 'Radium-1898!',
    });
    const sorbonne = await createAccountOrganization(db, {
      accountId: account.id,
      name: 'Sorbonne',
      description: 'University',
    });

    const { exchange, payload } = await signIn('marie@example.com', 'Radium-1898!');
    expect(exchange.statusCode).toBe(200);
    const tokens = exchange.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const auth = { authorization: `Bearer ${tokens.access_token}` };

    const me = await t.app.inject({ method: 'GET', url: '/api/users', headers: auth });
    expect(me.json()).toMatchObject({ email: 'marie@example.com', username: 'marie', first_name: 'Marie' });
    const orgs = await t.app.inject({ method: 'GET', url: '/api/organizations', headers: auth });
    expect(orgs.json().results).toEqual([expect.objectContaining({ name: 'Sorbonne', description: 'University' })]);
    const apiOrgId = orgs.json().results[0].id;
    expect(apiOrgId).not.toBe(sorbonne.id);

    const replay = await t.app.inject({ method: 'POST', url: '/api/auth/session', payload });
    expect(replay.statusCode).toBe(400);

    // A new organization at the account center arrives with the next sign-in; ids stay stable.
    await createAccountOrganization(db, { accountId: account.id, name: 'Institut du Radium', description: null });
    const again = await signIn('marie', 'Radium-1898!');
    const auth2 = { authorization: `Bearer ${again.exchange.json().access_token}` };
    const orgs2 = (await t.app.inject({ method: 'GET', url: '/api/organizations', headers: auth2 })).json().results;
    expect(orgs2.map((o: { name: string }) => o.name)).toEqual(['Sorbonne', 'Institut du Radium']);
    expect(orgs2[0].id).toBe(apiOrgId);
  });

  it('does not sign in with a wrong password', async () => {
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
    await expect(signInAtProvider(start.auth_url, 'marie@example.com', 'wrong-Password1!')).rejects.toThrow(
      /did not return/,
    );
  });

  it('asks the provider for its sign-up form with prompt=create', async () => {
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: { signup: true } })).json();
    expect(new URL(start.auth_url).searchParams.get('prompt')).toBe('create');
  });

  it('asks for the sign-in form again with prompt=login to change accounts (an invitation to another address)', async () => {
    const start = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: { reauthenticate: true } })).json();
    expect(new URL(start.auth_url).searchParams.get('prompt')).toBe('login');
    const plain = (await t.app.inject({ method: 'POST', url: '/api/auth', payload: {} })).json();
    expect(new URL(plain.auth_url).searchParams.get('prompt')).toBeNull();
  });
});
