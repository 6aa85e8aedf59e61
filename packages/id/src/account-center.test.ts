import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schema } from '@cp/db';
import { and, eq, sql } from 'drizzle-orm';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  listAccountOrganizations,
  markEmailVerified,
} from './accounts/accounts.service.ts';
import {
  Browser,
  databaseKinds,
  inputValue,
  openTestDatabase,
  RP,
  type Running,
  readForm,
  type TestDatabase,
} from './test/helpers.ts';

const PASSWORD = 'Correct-Horse1';

describe.each(databaseKinds)('account center on %s', (kind) => {
  let database: TestDatabase;
  let running: Running;
  let config: oidc.Configuration;
  // The console's back-channel logout endpoint, played by a local server that records the logout tokens.
  let relyingParty: Server;
  const logoutTokens: string[] = [];

  beforeAll(async () => {
    relyingParty = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (req.method === 'POST' && req.url === '/api/auth/backchannel-logout' && token) logoutTokens.push(token);
        res.statusCode = 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => relyingParty.listen(0, '127.0.0.1', resolve));
    database = await openTestDatabase(kind);
    running = await startWithAccount();
    config = await oidc.discovery(new URL(running.baseUrl), RP.clientId, RP.clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
  });

  afterAll(async () => {
    await running?.stop();
    await database?.drop();
    await new Promise((resolve) => relyingParty?.close(resolve));
  });

  async function startWithAccount() {
    const { startAccountCenter } = await import('./test/helpers.ts');
    const { port } = relyingParty.address() as AddressInfo;
    const started = await startAccountCenter(database.handle, {
      backchannelLogoutUri: `http://127.0.0.1:${port}/api/auth/backchannel-logout`,
    });
    const account = await createAccount(database.handle.db, {
      username: 'ada',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: PASSWORD,
    });
    await createAccountOrganization(database.handle.db, {
      accountId: account.id,
      name: 'Analytical Engines',
      description: 'Computing since 1843',
    });
    return started;
  }

  async function authorizationRequest(extra: Record<string, string> = {}) {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP.redirectUri,
      scope: 'openid profile email organizations',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    return { url: url.href, codeVerifier, state };
  }

  async function signIn(browser: Browser, login: string, password: string) {
    const request = await authorizationRequest();
    const page = await browser.navigate(request.url);
    expect(page.url).toMatch(/\/interaction\//);
    const form = readForm(page.html, 'sign-in-form');
    const result = await browser.navigate(form.action, { form: { csrf: form.csrf, login, password } });
    return { request, result };
  }

  async function exchange(request: { codeVerifier: string; state: string }, callback: string) {
    return oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
    });
  }

  it('runs the authorization code flow with PKCE and returns the claims', async () => {
    const browser = new Browser(running.baseUrl);
    const { request, result } = await signIn(browser, 'ada@example.com', PASSWORD);
    expect(result.external).toMatch(new RegExp(`^${RP.redirectUri}\\?code=`));
    const tokens = await exchange(request, result.external!);
    const idClaims = tokens.claims()!;
    expect(idClaims.preferred_username).toBe('ada');
    expect(idClaims.organizations).toEqual([
      expect.objectContaining({ name: 'Analytical Engines', description: 'Computing since 1843' }),
    ]);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    expect(userinfo).toMatchObject({
      given_name: 'Ada',
      family_name: 'Lovelace',
      preferred_username: 'ada',
      email: 'ada@example.com',
      email_verified: false,
    });
    expect(userinfo.organizations).toEqual([
      { id: expect.any(String), name: 'Analytical Engines', description: 'Computing since 1843' },
    ]);
    // A self sign-up is unverified; once an operator vouches for the address, clients are told so.
    await markEmailVerified(database.handle.db, 'ADA@example.com');
    expect(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)).toMatchObject({
      email_verified: true,
    });
    await database.handle.db
      .update(schema.accounts)
      .set({ emailVerifiedAt: null })
      .where(eq(schema.accounts.email, 'ada@example.com'));
    // The code is single-use: the adapter marks it consumed and a replay fails.
    await expect(exchange(request, result.external!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('signs in with the username too, and a second authorization reuses the session', async () => {
    const browser = new Browser(running.baseUrl);
    const { result } = await signIn(browser, 'ADA', PASSWORD);
    expect(result.external).toMatch(/\?code=/);
    const again = await authorizationRequest();
    const second = await browser.navigate(again.url);
    expect(second.external).toMatch(/\?code=/);
  });

  it('refuses a wrong password with the generic message', async () => {
    const browser = new Browser(running.baseUrl);
    const { result } = await signIn(browser, 'ada@example.com', 'Wrong-password1');
    expect(result.status).toBe(401);
    expect(result.html).toContain('Incorrect email/username or password');
    expect(inputValue(result.html, 'login')).toBe('ada@example.com');
    expect(running.logs.join('\n')).not.toContain('Wrong-password1');
  });

  it('answers 403 when the CSRF token is missing', async () => {
    const browser = new Browser(running.baseUrl);
    const request = await authorizationRequest();
    const page = await browser.navigate(request.url);
    const form = readForm(page.html, 'sign-in-form');
    const result = await browser.navigate(form.action, { form: { login: 'ada', password: PASSWORD } });
    expect(result.status).toBe(403);
    const forged = await browser.navigate(form.action, { form: { csrf: 'forged', login: 'ada', password: PASSWORD } });
    expect(forged.status).toBe(403);
  });

  it('signs up through prompt=create, creates the organization and returns it in the claims', async () => {
    expect(config.serverMetadata().prompt_values_supported).toContain('create');
    const browser = new Browser(running.baseUrl);
    const request = await authorizationRequest({ prompt: 'create' });
    const page = await browser.navigate(request.url);
    expect(page.html).toContain('id="sign-up-form"');
    expect(page.html).toContain('At least 8 characters with lowercase, uppercase and a special character');
    const form = readForm(page.html, 'sign-up-form');
    const fields = { firstName: 'Grace', lastName: 'Hopper', username: 'grace', email: 'grace@example.com' };

    const weak = await browser.navigate(form.action, { form: { csrf: form.csrf, ...fields, password: 'weakpass' } });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('The password must have at least 8 characters');
    expect(inputValue(weak.html, 'email')).toBe('grace@example.com');
    expect(inputValue(weak.html, 'firstName')).toBe('Grace');

    const duplicate = await browser.navigate(form.action, {
      form: { csrf: form.csrf, ...fields, email: 'ADA@example.com', password: PASSWORD },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.html).toContain('An account with this email already exists');
    expect(inputValue(duplicate.html, 'username')).toBe('grace');

    const takenName = await browser.navigate(form.action, {
      form: { csrf: form.csrf, ...fields, username: 'Ada', password: PASSWORD },
    });
    expect(takenName.status).toBe(400);
    expect(takenName.html).toContain('This username is already taken');

    const created = await browser.navigate(form.action, { form: { csrf: form.csrf, ...fields, password: PASSWORD } });
    expect(created.url).toMatch(/\/organization/);
    expect(created.html).toContain('id="skip-organization"');
    const orgForm = readForm(created.html, 'create-organization-form');
    const done = await browser.navigate(orgForm.action, {
      form: { csrf: orgForm.csrf, name: 'Navy Labs <script>', description: 'COBOL & compilers' },
    });
    expect(done.external).toMatch(/\?code=/);
    const tokens = await exchange(request, done.external!);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(userinfo.preferred_username).toBe('grace');
    expect(userinfo.organizations).toEqual([
      { id: expect.any(String), name: 'Navy Labs <script>', description: 'COBOL & compilers' },
    ]);
  });

  it('lets a new account skip the organization step', async () => {
    const browser = new Browser(running.baseUrl);
    const request = await authorizationRequest({ prompt: 'create' });
    const page = await browser.navigate(request.url);
    const form = readForm(page.html, 'sign-up-form');
    const created = await browser.navigate(form.action, {
      form: {
        csrf: form.csrf,
        firstName: 'Alan',
        lastName: 'Turing',
        username: 'alan',
        email: 'alan@example.com',
        password: PASSWORD,
      },
    });
    const skip = /href="([^"]*)" id="skip-organization"/.exec(created.html)?.[1];
    const done = await browser.navigate(skip!);
    expect(done.external).toMatch(/\?code=/);
    const tokens = await exchange(request, done.external!);
    expect(tokens.claims()!.organizations).toEqual([]);
  });

  it('changes the password; the old one no longer works', async () => {
    const db = database.handle.db;
    await createAccount(db, {
      username: 'katherine',
      email: 'katherine@example.com',
      firstName: 'Katherine',
      lastName: 'Johnson',
      password: PASSWORD,
    });
    const browser = new Browser(running.baseUrl);
    // Outside an authorization request: /account/password sends the visitor through sign-in and back.
    const login = await browser.navigate('/account/password?return_to=http://evil.test/x');
    const form = readForm(login.html, 'sign-in-form');
    const back = await browser.navigate(form.action, {
      form: { csrf: form.csrf, login: 'katherine', password: PASSWORD },
    });
    expect(back.url).toMatch(/\/account\/password/);
    const pw = readForm(back.html, 'change-password-form');
    const mismatch = await browser.navigate(pw.action, {
      form: { csrf: pw.csrf, currentPassword: PASSWORD, newPassword: 'New-Secret9', confirmPassword: 'Other-1!' },
    });
    expect(mismatch.status).toBe(400);
    const wrongCurrent = await browser.navigate(pw.action, {
      form: {
        csrf: pw.csrf,
        currentPassword: 'Nope-nope1',
        newPassword: 'New-Secret9',
        confirmPassword: 'New-Secret9',
      },
    });
    expect(wrongCurrent.html).toContain('The current password is incorrect');
    const changed = await browser.navigate(pw.action, {
      form: { csrf: pw.csrf, currentPassword: PASSWORD, newPassword: 'New-Secret9', confirmPassword: 'New-Secret9' },
    });
    expect(changed.status).toBe(200);
    expect(changed.html).toContain('Your password has been changed.');

    const old = await signIn(new Browser(running.baseUrl), 'katherine', PASSWORD);
    expect(old.result.status).toBe(401);
    const fresh = await signIn(new Browser(running.baseUrl), 'katherine', 'New-Secret9');
    expect(fresh.result.external).toMatch(/\?code=/);
  });

  it('ends the other sessions on a password change, keeps this one, revokes grants and tells the clients', async () => {
    const db = database.handle.db;
    const account = await createAccount(db, {
      username: 'hedy',
      email: 'hedy@example.com',
      firstName: 'Hedy',
      lastName: 'Lamarr',
      password: PASSWORD,
    });
    const countSessions = async () =>
      (
        await db
          .select({ id: schema.oidcPayloads.id })
          .from(schema.oidcPayloads)
          .where(
            and(
              eq(schema.oidcPayloads.type, 'Session'),
              sql`${schema.oidcPayloads.payload}->>'accountId' = ${account.id}`,
            ),
          )
      ).length;
    const grantsOfAccount = async () =>
      db
        .select({ id: schema.oidcPayloads.id })
        .from(schema.oidcPayloads)
        .where(
          and(eq(schema.oidcPayloads.type, 'Grant'), sql`${schema.oidcPayloads.payload}->>'accountId' = ${account.id}`),
        );

    // Another device: signed in to the console client, with tokens (a refresh token too: offline_access).
    const other = new Browser(running.baseUrl);
    const otherRequest = await authorizationRequest({ scope: 'openid offline_access', prompt: 'consent' });
    const otherPage = await other.navigate(otherRequest.url);
    const otherForm = readForm(otherPage.html, 'sign-in-form');
    const otherSignedIn = await other.navigate(otherForm.action, {
      form: { csrf: otherForm.csrf, login: 'hedy', password: PASSWORD },
    });
    const otherTokens = await exchange(otherRequest, otherSignedIn.external!);
    expect(otherTokens.refresh_token).toEqual(expect.any(String));
    // An authorization code issued to the other device and not yet redeemed.
    const pending = await authorizationRequest();
    const pendingCode = await other.navigate(pending.url);
    expect(pendingCode.external).toMatch(/\?code=/);
    expect((await other.navigate('/account')).html).toContain('id="account-identity"');

    // This device: signs in at the account center and uses the console too.
    const current = new Browser(running.baseUrl);
    const login = await current.navigate('/account/password');
    const form = readForm(login.html, 'sign-in-form');
    const back = await current.navigate(form.action, { form: { csrf: form.csrf, login: 'hedy', password: PASSWORD } });
    expect((await current.navigate((await authorizationRequest()).url)).external).toMatch(/\?code=/);
    expect(await countSessions()).toBe(2);
    expect((await grantsOfAccount()).length).toBeGreaterThanOrEqual(2);
    const tokensBefore = logoutTokens.length;

    const pw = readForm(back.html, 'change-password-form');
    const changed = await current.navigate(pw.action, {
      form: { csrf: pw.csrf, currentPassword: PASSWORD, newPassword: 'New-Secret9', confirmPassword: 'New-Secret9' },
    });
    expect(changed.status).toBe(200);
    expect(changed.html).toContain('You have been signed out on your other devices');

    // The other device's account-center session is gone; this one stays.
    expect(await countSessions()).toBe(1);
    expect((await other.navigate('/account')).html).toContain('id="sign-in-form"');
    expect((await current.navigate('/account')).html).toContain('id="account-identity"');
    // Grants revoked: no grant left, the tokens and the pending code issued under them no longer work.
    expect(await grantsOfAccount()).toEqual([]);
    await expect(oidc.fetchUserInfo(config, otherTokens.access_token, account.id)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, otherTokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(exchange(pending, pendingCode.external!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // OpenID Connect Back-Channel Logout 1.0: the console client got one valid logout token for the account.
    const sent = logoutTokens.slice(tokensBefore);
    expect(sent).toHaveLength(1);
    const keys = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(sent[0]!, keys, { issuer: running.baseUrl, audience: RP.clientId });
    expect(decodeProtectedHeader(sent[0]!).typ).toBe('logout+jwt');
    expect(payload).toMatchObject({
      sub: account.id,
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      jti: expect.any(String),
    });
    expect(payload).not.toHaveProperty('nonce');
    // Sub only: the console ends every session of the account, not only those of one provider session.
    expect(payload).not.toHaveProperty('sid');
  });

  it('creates an organization from /organizations/new and follows only allowed return_to origins', async () => {
    const browser = new Browser(running.baseUrl);
    await signIn(browser, 'ada', PASSWORD);
    const foreign = await browser.navigate('/organizations/new?return_to=https://evil.test/steal');
    const form = readForm(foreign.html, 'create-organization-form');
    const result = await browser.request(form.action, {
      form: { csrf: form.csrf, name: 'Second Org', description: '' },
    });
    expect(result.status).toBe(303);
    expect(result.headers.get('location')).toBe('/account');

    const allowed = await browser.navigate(
      `/organizations/new?return_to=${encodeURIComponent(`${RP.origin}/credentials`)}`,
    );
    const form2 = readForm(allowed.html, 'create-organization-form');
    const result2 = await browser.request(form2.action, { form: { csrf: form2.csrf, name: 'Third Org' } });
    expect(result2.headers.get('location')).toBe(`${RP.origin}/credentials`);

    const account = await findAccountByEmail(database.handle.db, 'ada@example.com');
    const names = (await listAccountOrganizations(database.handle.db, account!.id)).map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(['Analytical Engines', 'Second Org', 'Third Org']));

    const accountPage = await browser.navigate('/account');
    expect(accountPage.html).toContain('Second Org');
    const noCsrf = await browser.request(form.action, { form: { name: 'Nope' } });
    expect(noCsrf.status).toBe(403);
  });

  it('signs out through the provider end_session, telling the console which provider session ended (sid)', async () => {
    const browser = new Browser(running.baseUrl);
    const { request, result } = await signIn(browser, 'ada', PASSWORD);
    // features.backchannelLogout + backchannel_logout_session_required: the console's ID token carries
    // the provider session's sid, which the console's API records on its session.
    const { sid } = (await exchange(request, result.external!)).claims()!;
    expect(sid).toEqual(expect.any(String));
    // Another sign-in through the same provider session gets the same sid; another device gets another.
    const again = await authorizationRequest();
    const againCode = await browser.navigate(again.url);
    expect((await exchange(again, againCode.external!)).claims()!.sid).toBe(sid);
    const elsewhere = await signIn(new Browser(running.baseUrl), 'ada', PASSWORD);
    expect((await exchange(elsewhere.request, elsewhere.result.external!)).claims()!.sid).not.toBe(sid);
    expect((await browser.navigate('/account')).html).toContain('id="account-identity"');
    const confirm = await browser.navigate('/logout');
    expect(confirm.html).toContain('id="sign-out-confirm"');
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(confirm.html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.html)?.[1];
    const tokensBefore = logoutTokens.length;
    const out = await browser.navigate(action!, { form: { xsrf: xsrf!, logout: 'yes' } });
    // The console signed in through this session: it gets a back-channel logout token naming the account
    // and this provider session only (Back-Channel Logout 1.0 §2.4), not the other device's.
    const ada = await findAccountByEmail(database.handle.db, 'ada@example.com');
    const sent = logoutTokens.slice(tokensBefore).map((token) => decodeJwt(token));
    expect(sent).toEqual([expect.objectContaining({ sub: ada!.id, sid, aud: RP.clientId })]);
    expect(out.html).toContain('id="sign-in-again"');
    const after = await browser.navigate('/account');
    expect(after.html).toContain('id="sign-in-form"');
  });

  it('renders the language from ?lang, the cookie and Accept-Language, and ignores injected values', async () => {
    const browser = new Browser(running.baseUrl);
    const request = await authorizationRequest();
    const ja = await browser.navigate(`${request.url}&ui_locales=ja`);
    expect(ja.html).toContain('<html lang="ja">');
    expect(ja.html).toContain('ログイン');
    const es = await browser.navigate(`${ja.url}?lang=es`);
    expect(es.html).toContain('<html lang="es">');
    const injected = await new Browser(running.baseUrl).request('/signed-out?lang=%3Cscript%3Ealert(1)%3C/script%3E', {
      headers: { 'accept-language': 'ko-KR,ko;q=0.9' },
    });
    const html = await injected.text();
    expect(html).toContain('<html lang="ko">');
    expect(html).not.toContain('<script>');
    expect(injected.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('limits failed sign-in attempts and refuses oversize bodies', async () => {
    await createAccount(database.handle.db, {
      username: 'target',
      email: 'target@example.com',
      firstName: 'T',
      lastName: 'Arget',
      password: PASSWORD,
    });
    const browser = new Browser(running.baseUrl);
    const request = await authorizationRequest();
    const page = await browser.navigate(request.url);
    const form = readForm(page.html, 'sign-in-form');
    for (let i = 0; i < 10; i++) {
      const failed = await browser.navigate(form.action, {
        form: { csrf: form.csrf, login: 'target', password: `Wrong-${i}!a` },
      });
      expect(failed.status).toBe(401);
    }
    const blocked = await browser.navigate(form.action, {
      form: { csrf: form.csrf, login: 'target', password: PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.html).toContain('Too many failed attempts');

    const huge = await browser.request(form.action, {
      form: { csrf: form.csrf, login: 'x'.repeat(20_000), password: 'y' },
    });
    expect(huge.status).toBe(413);
  });

  it('stores, finds and consumes payloads through the adapter', async () => {
    const { DatabaseAdapter } = await import('./oidc/adapter.ts');
    const adapter = new DatabaseAdapter(database.handle.db, 'AuthorizationCode');
    await adapter.upsert('code-1', { grantId: 'g-1', uid: 'u-1', accountId: 'a' }, 60);
    expect(await adapter.find('code-1')).toMatchObject({ accountId: 'a' });
    expect(await adapter.findByUid('u-1')).toMatchObject({ grantId: 'g-1' });
    await adapter.consume('code-1');
    expect((await adapter.find('code-1'))?.consumed).toEqual(expect.any(Number));
    await adapter.upsert('code-2', { grantId: 'g-1' }, 60);
    await adapter.revokeByGrantId('g-1');
    expect(await adapter.find('code-2')).toBeUndefined();
    await adapter.upsert('old', { accountId: 'a' }, 60);
    await database.handle.db
      .update(schema.oidcPayloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(schema.oidcPayloads.id, 'old'), eq(schema.oidcPayloads.type, 'AuthorizationCode')));
    expect(await adapter.find('old')).toBeUndefined();
    await adapter.destroy('code-1');
    expect(await adapter.find('code-1')).toBeUndefined();
  });
});
