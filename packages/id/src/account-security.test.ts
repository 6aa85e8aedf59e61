import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { schema } from '@cp/db';
import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createAccount, findAccountById } from './accounts/accounts.service.ts';
import { totpCode } from './accounts/two-factor.ts';
import { MemoryFailureStore } from './http/rate-limit.ts';
import {
  Browser,
  databaseKinds,
  decodeEntities,
  openTestDatabase,
  RP,
  type Running,
  readForm,
  startAccountCenter,
  type TestDatabase,
} from './test/helpers.ts';

const PASSWORD = 'Correct-Horse1';
const NEW_PASSWORD = 'Brand-New-Pass9';
type Mail = { to: string; subject: string; text: string; html: string };

describe.each(databaseKinds)('account security on %s', (kind) => {
  let database: TestDatabase;
  let running: Running;
  let config: oidc.Configuration;
  let relyingParty: Server;
  const logoutTokens: string[] = [];
  const mails: Mail[] = [];
  let counter = 0;
  // Every test comes from 127.0.0.1: the per-address counters start afresh for each (the limit tests fill them).
  const failures = new MemoryFailureStore();
  beforeEach(async () => {
    for (const limiter of ['ip', 'reset-ip']) await failures.clear(`${limiter}:127.0.0.1`);
  });

  beforeAll(async () => {
    relyingParty = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (token) logoutTokens.push(token);
        res.end();
      });
    });
    await new Promise<void>((resolve) => relyingParty.listen(0, '127.0.0.1', resolve));
    const { port } = relyingParty.address() as AddressInfo;
    database = await openTestDatabase(kind);
    running = await startAccountCenter(database.handle, {
      backchannelLogoutUri: `http://127.0.0.1:${port}/api/auth/backchannel-logout`,
      sendMail: async (mail) => {
        mails.push(mail);
      },
      failureStore: failures,
    });
    config = await oidc.discovery(new URL(running.baseUrl), RP.clientId, RP.clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
  });

  afterAll(async () => {
    await running?.stop();
    await database?.drop();
    await new Promise((resolve) => relyingParty?.close(resolve));
  });

  const db = () => database.handle.db;

  async function newAccount(overrides: { locale?: string } = {}) {
    counter += 1;
    return createAccount(db(), {
      username: `person${counter}`,
      email: `person${counter}@example.com`,
      firstName: `Person${counter}`,
      lastName: 'Example',
      password: PASSWORD,
      ...overrides,
    });
  }

  async function authorizationRequest(extra: Record<string, string> = {}) {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP.redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    return { url: url.href, codeVerifier, state };
  }

  const exchange = (request: { codeVerifier: string; state: string }, callback: string) =>
    oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
    });

  /** The password step of the console's sign-in; answers the page it leads to. */
  async function passwordStep(browser: Browser, login: string, password = PASSWORD) {
    const request = await authorizationRequest();
    const page = await browser.navigate(request.url);
    const form = readForm(page.html, 'sign-in-form');
    const result = await browser.navigate(form.action, { form: { csrf: form.csrf, login, password } });
    return { request, result };
  }

  /** Signs in at the account center's own pages (no client), answering the account page. */
  async function signInToAccountPage(browser: Browser, login: string, code?: () => Promise<string>) {
    const page = await browser.navigate('/account');
    const form = readForm(page.html, 'sign-in-form');
    let result = await browser.navigate(form.action, { form: { csrf: form.csrf, login, password: PASSWORD } });
    if (code) {
      const second = readForm(result.html, 'two-factor-form');
      result = await browser.navigate(second.action, { form: { csrf: second.csrf, code: await code() } });
    }
    expect(result.html).toContain('id="account-identity"');
    return result;
  }

  /** A code of the next time step is as good as waiting 30 s: the step is still inside the ±1 window. */
  const laterCode = (secret: string, steps = 1) => totpCode(secret, Date.now() + steps * 30_000);
  /** Forgets the last accepted step, as if time had passed, so a test can sign in several times. */
  async function letTimePass(account: Account) {
    await db().update(schema.accounts).set({ totpLastStep: null }).where(eq(schema.accounts.id, account.id));
  }

  /** Turns two-step sign-in on from the account page; answers the secret and the recovery codes. */
  async function turnOnTwoFactor(browser: Browser, account: Account) {
    const setup = await browser.navigate('/account/two-factor/setup');
    expect(setup.status).toBe(200);
    const secret = decodeEntities(/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
    const form = readForm(setup.html, 'two-factor-setup-form');
    const done = await browser.navigate(form.action, { form: { csrf: form.csrf, code: totpCode(secret) } });
    expect(done.status).toBe(200);
    const codes = [...done.html.matchAll(/<li><code>([a-z2-9-]+)<\/code><\/li>/g)].map((m) => m[1]!);
    expect((await findAccountById(db(), account.id))?.totpEnabledAt).toBeInstanceOf(Date);
    return { secret, codes, html: done.html };
  }

  const linkIn = (mail: Mail | undefined) =>
    decodeEntities(/https?:\/\/\S+reset-password\?[^\s"<]+/.exec(mail!.text)![0]);

  async function askForReset(browser: Browser, email: string, headers: Record<string, string> = {}) {
    const page = await browser.navigate('/account/forgot-password');
    const form = readForm(page.html, 'forgot-password-form');
    const response = await browser.request(form.action, { form: { csrf: form.csrf, email }, headers });
    const html = await response.text();
    await running.center.whenIdle();
    return { status: response.status, html };
  }

  describe('forgot password', () => {
    it('links from the sign-in page to a form that asks for the e-mail address', async () => {
      const browser = new Browser(running.baseUrl);
      const request = await authorizationRequest();
      const signIn = await browser.navigate(request.url);
      const href = decodeEntities(/href="([^"]+)" id="forgot-password-link"/.exec(signIn.html)?.[1] ?? '');
      expect(href).toMatch(/^\/account\/forgot-password\?lang=en&interaction=/);
      const forgot = await browser.navigate(href);
      expect(forgot.html).toContain('id="forgot-password-form"');
      // "Back to sign in" returns to the same sign-in request.
      const back = decodeEntities(/href="([^"]+)" id="back-to-sign-in"/.exec(forgot.html)?.[1] ?? '');
      expect(back).toBe(`${new URL(signIn.url).pathname}?screen=signin&lang=en`);
    });

    it('answers the same whether or not an account uses the address, and mails only the account', async () => {
      const account = await newAccount();
      const before = mails.length;
      const known = await askForReset(new Browser(running.baseUrl), account.email);
      const unknown = await askForReset(new Browser(running.baseUrl), 'nobody-here@example.com');
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      const strip = (html: string, email: string) => html.replaceAll(email, 'EMAIL').replace(/value="[^"]*"/g, '');
      expect(strip(known.html, account.email)).toBe(strip(unknown.html, 'nobody-here@example.com'));
      expect(known.html).toContain('If an account uses');
      const sent = mails.slice(before);
      expect(sent.map((m) => m.to)).toEqual([account.email]);
      expect(sent[0]!.subject).toBe('Reset your password');
      expect(sent[0]!.text).toContain(`Hello ${account.firstName},`);
      // Neither the address nor the link is logged.
      const logs = running.logs.join('\n');
      expect(logs).not.toContain('nobody-here@example.com');
      expect(logs).not.toContain(new URL(linkIn(sent[0])).searchParams.get('token'));
      // Only the SHA-256 of the token is stored.
      const token = new URL(linkIn(sent[0])).searchParams.get('token')!;
      const rows = await db()
        .select()
        .from(schema.passwordResets)
        .where(eq(schema.passwordResets.accountId, account.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.tokenHash).not.toBe(token);
      expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(30 * 60 * 1000);
    });

    it('writes the e-mail in the language of the account', async () => {
      const account = await newAccount({ locale: 'ja' });
      const before = mails.length;
      await askForReset(new Browser(running.baseUrl), account.email);
      const mail = mails.slice(before)[0];
      expect(mail?.subject).toBe('パスワードの再設定');
      expect(new URL(linkIn(mail)).searchParams.get('lang')).toBe('ja');
    });

    it('sends at most one e-mail a minute per account and limits requests per address and per client address', async () => {
      const account = await newAccount();
      const before = mails.length;
      for (let i = 0; i < 5; i++) {
        expect((await askForReset(new Browser(running.baseUrl), account.email.toUpperCase())).status).toBe(200);
      }
      expect(mails.slice(before).filter((m) => m.to === account.email)).toHaveLength(1);
      const sixth = await askForReset(new Browser(running.baseUrl), account.email);
      expect(sixth.status).toBe(429);
      expect(sixth.html).toContain('Too many requests');
      // The same limit for an address without an account: the limit does not tell which is which.
      for (let i = 0; i < 5; i++) await askForReset(new Browser(running.baseUrl), 'ghost@example.com');
      expect((await askForReset(new Browser(running.baseUrl), 'ghost@example.com')).status).toBe(429);
      // Per client address: 20 an hour across addresses (a proxy header is not trusted here).
      let last = 0;
      for (let i = 0; i < 12; i++) {
        last = (await askForReset(new Browser(running.baseUrl), `spray${i}@example.com`)).status;
      }
      expect(last).toBe(429);
    });

    it('refuses a malformed address and a missing CSRF token', async () => {
      const browser = new Browser(running.baseUrl);
      const page = await browser.navigate('/account/forgot-password?lang=en');
      const form = readForm(page.html, 'forgot-password-form');
      const bad = await browser.navigate(form.action, { form: { csrf: form.csrf, email: 'not-an-address' } });
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('Must be a valid email');
      const forged = await browser.request(form.action, { form: { email: 'a@example.com' } });
      expect(forged.status).toBe(403);
    });
  });

  describe('reset link', () => {
    /** A reset link for the account (the per-minute throttle set aside by dating the previous link back). */
    async function resetLink(account: Account) {
      await db()
        .update(schema.passwordResets)
        .set({ createdAt: sql`created_at - interval '2 minutes'` })
        .where(eq(schema.passwordResets.accountId, account.id));
      const before = mails.length;
      await failures.clear('reset-ip:127.0.0.1');
      const asked = await askForReset(new Browser(running.baseUrl), account.email);
      expect(asked.status).toBe(200);
      const mail = mails.slice(before).find((m) => m.to === account.email);
      return linkIn(mail);
    }

    async function submitReset(browser: Browser, link: string, password = NEW_PASSWORD, confirm = password) {
      const page = await browser.navigate(link);
      if (page.status !== 200) return page;
      const form = readForm(page.html, 'reset-password-form');
      const token = /name="token" value="([^"]+)"/.exec(page.html)![1]!;
      return browser.navigate(form.action, {
        form: { csrf: form.csrf, token, newPassword: password, confirmPassword: confirm },
      });
    }

    it('sets a new password once; the link then shows a clear page with a way to ask for a new one', async () => {
      const account = await newAccount();
      const link = await resetLink(account);
      const browser = new Browser(running.baseUrl);
      const weak = await submitReset(browser, link, 'weakpass');
      expect(weak.status).toBe(400);
      expect(weak.html).toContain('The password must have at least 8 characters');
      const mismatch = await submitReset(browser, link, NEW_PASSWORD, 'Other-Pass9!');
      expect(mismatch.html).toContain('The passwords do not match');
      const done = await submitReset(browser, link);
      expect(done.status).toBe(200);
      expect(done.html).toContain('Your password has been changed');
      // Nobody is signed in by the reset.
      expect((await browser.navigate('/account')).html).toContain('id="sign-in-form"');

      const again = await submitReset(new Browser(running.baseUrl), link, 'Another-Pass9');
      expect(again.status).toBe(400);
      expect(again.html).toContain('This link is invalid or has expired');
      expect(again.html).toMatch(/href="\/account\/forgot-password\?lang=en" id="request-new-link"/);
      expect((await passwordStep(new Browser(running.baseUrl), account.username, PASSWORD)).result.status).toBe(401);
      expect(
        (await passwordStep(new Browser(running.baseUrl), account.username, NEW_PASSWORD)).result.external,
      ).toMatch(/\?code=/);
    });

    it('refuses an expired link, an unknown one, and one replaced by a newer link', async () => {
      const account = await newAccount();
      const first = await resetLink(account);
      const second = await resetLink(account);
      const browser = new Browser(running.baseUrl);
      expect((await browser.navigate(first)).status).toBe(400);
      expect((await browser.navigate(second)).status).toBe(200);
      await db()
        .update(schema.passwordResets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(schema.passwordResets.accountId, account.id));
      const expired = await browser.navigate(second);
      expect(expired.status).toBe(400);
      expect(expired.html).toContain('id="request-new-link"');
      // A form posted after the link expired changes nothing.
      const stillOld = await passwordStep(new Browser(running.baseUrl), account.username, PASSWORD);
      expect(stillOld.result.external).toMatch(/\?code=/);
      const unknown = await browser.navigate(`/account/reset-password?token=${'A'.repeat(43)}`);
      expect(unknown.status).toBe(400);
      expect((await browser.navigate('/account/reset-password?token=%3Cscript%3E')).html).not.toContain('<script>');
    });

    it('ends every session of the account, here and at the console (back-channel logout, sub only)', async () => {
      const account = await newAccount();
      const device = new Browser(running.baseUrl);
      const signedIn = await passwordStep(device, account.username);
      const tokens = await exchange(signedIn.request, signedIn.result.external!);
      const sessions = async () =>
        (
          await db()
            .select({ id: schema.oidcPayloads.id })
            .from(schema.oidcPayloads)
            .where(
              and(
                eq(schema.oidcPayloads.type, 'Session'),
                sql`${schema.oidcPayloads.payload}->>'accountId' = ${account.id}`,
              ),
            )
        ).length;
      expect(await sessions()).toBe(1);
      const before = logoutTokens.length;
      const link = await resetLink(account);
      const done = await submitReset(new Browser(running.baseUrl), link);
      expect(done.status).toBe(200);
      expect(await sessions()).toBe(0);
      expect((await device.navigate('/account')).html).toContain('id="sign-in-form"');
      await expect(oidc.fetchUserInfo(config, tokens.access_token, account.id)).rejects.toThrow();
      const sent = logoutTokens.slice(before).map((token) => decodeJwt(token));
      expect(sent).toEqual([expect.objectContaining({ sub: account.id, aud: RP.clientId })]);
      expect(sent[0]).not.toHaveProperty('sid');
    });

    it('never skips two-step sign-in: after a reset the code is still asked for', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      await signInToAccountPage(browser, account.username);
      const { secret } = await turnOnTwoFactor(browser, account);
      await submitReset(new Browser(running.baseUrl), await resetLink(account));
      const after = await passwordStep(new Browser(running.baseUrl), account.username, NEW_PASSWORD);
      expect(after.result.external).toBeUndefined();
      expect(after.result.html).toContain('id="two-factor-form"');
      const form = readForm(after.result.html, 'two-factor-form');
      const done = await new Browser(running.baseUrl).navigate(form.action, {
        form: { csrf: form.csrf, code: laterCode(secret) },
      });
      // Another browser cannot finish the second step of this one's sign-in (the interaction cookie is missing).
      expect(done.external).toBeUndefined();
    });
  });

  describe('two-step sign-in', () => {
    it('sets up from the account page with a QR code and the key, and shows ten recovery codes once', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      const accountPage = await signInToAccountPage(browser, account.username);
      expect(accountPage.html).toContain('id="turn-on-two-factor-link"');
      const setup = await browser.navigate('/account/two-factor/setup');
      expect(setup.html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="[^"]+" width="192"/);
      expect(setup.html).toMatch(/id="totp-secret">([A-Z2-7]{4} ){7}[A-Z2-7]{4}</);
      // A wrong code does not turn it on.
      const form = readForm(setup.html, 'two-factor-setup-form');
      const wrong = await browser.navigate(form.action, { form: { csrf: form.csrf, code: '123456' } });
      expect(wrong.status).toBe(400);
      expect(wrong.html).toContain('This code is not valid');
      expect((await findAccountById(db(), account.id))?.totpEnabledAt).toBeNull();
      const { codes, html } = await turnOnTwoFactor(browser, account);
      expect(codes).toHaveLength(10);
      expect(html).toContain('Two-step sign-in is on.');
      // Shown once: the account page says how many are left, never the codes.
      const after = await browser.navigate('/account');
      expect(after.html).toContain('10 unused recovery codes left.');
      expect(after.html).not.toContain(codes[0]!);
      expect((await browser.navigate('/account/two-factor/setup')).url).toMatch(/\/account\?lang=en$/);
    });

    it('asks for the code after the password and puts amr pwd+otp in the ID token and userinfo', async () => {
      const account = await newAccount();
      const setupBrowser = new Browser(running.baseUrl);
      await signInToAccountPage(setupBrowser, account.username);
      const { secret } = await turnOnTwoFactor(setupBrowser, account);

      const browser = new Browser(running.baseUrl);
      const { request, result } = await passwordStep(browser, account.username);
      expect(result.external).toBeUndefined();
      expect(result.url).toMatch(/\/interaction\/[^/]+\/two-factor\?lang=en$/);
      // The half-signed-in state is not a cookie of its own: only oidc-provider's (signed) cookies and the language.
      expect([...browser.cookies.keys()].filter((name) => name !== 'lang' && !name.startsWith('_'))).toEqual([]);
      const form = readForm(result.html, 'two-factor-form');
      const code = laterCode(secret);
      const done = await browser.navigate(form.action, { form: { csrf: form.csrf, code } });
      expect(done.external).toMatch(/\?code=/);
      const tokens = await exchange(request, done.external!);
      expect(tokens.claims()?.amr).toEqual(['pwd', 'otp']);
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, account.id);
      expect(userinfo.amr).toEqual(['pwd', 'otp']);

      // The same code again (another sign-in in the same 30 s) is refused: each step works once.
      const replay = await passwordStep(new Browser(running.baseUrl), account.username);
      const replayForm = readForm(replay.result.html, 'two-factor-form');
      const replayed = await new Browser(running.baseUrl).navigate(replayForm.action, {
        form: { csrf: replayForm.csrf, code },
      });
      expect(replayed.external).toBeUndefined();
    });

    it('refuses a replayed code in the same browser and accepts each recovery code once', async () => {
      const account = await newAccount();
      const setupBrowser = new Browser(running.baseUrl);
      await signInToAccountPage(setupBrowser, account.username);
      const { secret, codes } = await turnOnTwoFactor(setupBrowser, account);
      const first = new Browser(running.baseUrl);
      const one = await passwordStep(first, account.username);
      const form = readForm(one.result.html, 'two-factor-form');
      const code = laterCode(secret);
      expect((await first.navigate(form.action, { form: { csrf: form.csrf, code } })).external).toMatch(/\?code=/);

      const second = new Browser(running.baseUrl);
      const two = await passwordStep(second, account.username);
      const form2 = readForm(two.result.html, 'two-factor-form');
      const replayed = await second.navigate(form2.action, { form: { csrf: form2.csrf, code } });
      expect(replayed.status).toBe(401);
      expect(replayed.html).toContain('This code is not valid or was already used');
      const recovered = await second.navigate(form2.action, { form: { csrf: form2.csrf, code: codes[0]! } });
      expect(recovered.external).toMatch(/\?code=/);
      expect((await exchange(two.request, recovered.external!)).claims()?.amr).toEqual(['pwd', 'otp']);

      const third = new Browser(running.baseUrl);
      const three = await passwordStep(third, account.username);
      const form3 = readForm(three.result.html, 'two-factor-form');
      const reused = await third.navigate(form3.action, { form: { csrf: form3.csrf, code: codes[0]! } });
      expect(reused.status).toBe(401);
      expect((await setupBrowser.navigate('/account')).html).toContain('9 unused recovery codes left.');
    });

    it('limits wrong codes like wrong passwords', async () => {
      const account = await newAccount();
      const setupBrowser = new Browser(running.baseUrl);
      await signInToAccountPage(setupBrowser, account.username);
      const { secret } = await turnOnTwoFactor(setupBrowser, account);
      const browser = new Browser(running.baseUrl);
      const { result } = await passwordStep(browser, account.username);
      const form = readForm(result.html, 'two-factor-form');
      for (let i = 0; i < 10; i++) {
        const wrong = await browser.navigate(form.action, { form: { csrf: form.csrf, code: `00000${i % 10}` } });
        expect(wrong.status).toBe(401);
      }
      const blocked = await browser.navigate(form.action, { form: { csrf: form.csrf, code: laterCode(secret) } });
      expect(blocked.status).toBe(429);
      expect(blocked.html).toContain('Too many failed attempts');
      expect(blocked.external).toBeUndefined();
    });

    it('signs nobody in when the interaction is resumed without the code', async () => {
      const account = await newAccount();
      const setupBrowser = new Browser(running.baseUrl);
      await signInToAccountPage(setupBrowser, account.username);
      await turnOnTwoFactor(setupBrowser, account);
      const attacker = new Browser(running.baseUrl);
      const { result } = await passwordStep(attacker, account.username);
      const uid = /\/interaction\/([^/]+)\/two-factor/.exec(result.url)![1]!;
      // oidc-provider's resume endpoint: the stored result has no `login`, so the sign-in starts over.
      const resumed = await attacker.navigate(`/auth/${uid}`);
      expect(resumed.external).toBeUndefined();
      expect(resumed.html).toContain('id="sign-in-form"');
    });

    it('asks a session opened with the password alone to sign in again once two-step is on', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      const first = await passwordStep(browser, account.username);
      expect((await exchange(first.request, first.result.external!)).claims()?.amr).toEqual(['pwd']);
      await turnOnTwoFactor(browser, account);
      const again = await authorizationRequest();
      const page = await browser.navigate(again.url);
      expect(page.external).toBeUndefined();
      expect(page.html).toContain('id="sign-in-form"');
    });

    it('turns off only with the current password and a code', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      await signInToAccountPage(browser, account.username);
      const { secret, codes } = await turnOnTwoFactor(browser, account);
      const page = await browser.navigate('/account/two-factor/disable');
      const form = readForm(page.html, 'disable-two-factor-form');
      const noCode = await browser.navigate(form.action, { form: { csrf: form.csrf, currentPassword: PASSWORD } });
      expect(noCode.status).toBe(400);
      const wrongPassword = await browser.navigate(form.action, {
        form: { csrf: form.csrf, currentPassword: 'Wrong-pass1!', code: laterCode(secret) },
      });
      expect(wrongPassword.html).toContain('The current password is incorrect');
      const wrongCode = await browser.navigate(form.action, {
        form: { csrf: form.csrf, currentPassword: PASSWORD, code: '000000' },
      });
      expect(wrongCode.html).toContain('This code is not valid');
      expect((await findAccountById(db(), account.id))?.totpEnabledAt).toBeInstanceOf(Date);
      const noCsrf = await browser.request(form.action, { form: { currentPassword: PASSWORD, code: codes[0]! } });
      expect(noCsrf.status).toBe(403);
      const off = await browser.navigate(form.action, {
        form: { csrf: form.csrf, currentPassword: PASSWORD, code: codes[0]! },
      });
      expect(off.html).toContain('Two-step sign-in is off.');
      expect(await findAccountById(db(), account.id)).toMatchObject({
        totpSecretCiphertext: null,
        totpEnabledAt: null,
      });
      await letTimePass(account);
      const signIn = await passwordStep(new Browser(running.baseUrl), account.username);
      expect(signIn.result.external).toMatch(/\?code=/);
    });

    it('creates a new set of recovery codes with the password; the old ones stop working', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      await signInToAccountPage(browser, account.username);
      const { codes } = await turnOnTwoFactor(browser, account);
      const page = await browser.navigate('/account/two-factor/recovery-codes');
      const form = readForm(page.html, 'regenerate-codes-form');
      const wrong = await browser.navigate(form.action, { form: { csrf: form.csrf, currentPassword: 'Nope-nope1!' } });
      expect(wrong.status).toBe(400);
      const fresh = await browser.navigate(form.action, { form: { csrf: form.csrf, currentPassword: PASSWORD } });
      const newCodes = [...fresh.html.matchAll(/<li><code>([a-z2-9-]+)<\/code><\/li>/g)].map((m) => m[1]!);
      expect(newCodes).toHaveLength(10);
      expect(newCodes).not.toContain(codes[0]);
      const other = new Browser(running.baseUrl);
      const step = await passwordStep(other, account.username);
      const second = readForm(step.result.html, 'two-factor-form');
      expect((await other.navigate(second.action, { form: { csrf: second.csrf, code: codes[0]! } })).status).toBe(401);
      expect(
        (await other.navigate(second.action, { form: { csrf: second.csrf, code: newCodes[0]! } })).external,
      ).toMatch(/\?code=/);
    });
  });

  describe('sign-out from the console (RP-Initiated Logout 1.0)', () => {
    const endSessionUrl = (state: string) => {
      const url = new URL(config.serverMetadata().end_session_endpoint!);
      url.search = new URLSearchParams({
        client_id: RP.clientId,
        post_logout_redirect_uri: RP.postLogoutRedirectUri,
        state,
      }).toString();
      return url.href;
    };

    it('submits itself when the console on the same site asks, ends the session and returns with the state', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      await passwordStep(browser, account.username);
      const response = await browser.request(endSessionUrl('st-1'), { headers: { 'sec-fetch-site': 'same-site' } });
      const html = await response.text();
      expect(html).toContain('data-auto-submit');
      expect(html).toContain('<script src="/assets/auto-submit.js" defer></script>');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const script = await browser.request('/assets/auto-submit.js');
      expect(await script.text()).toContain('[data-auto-submit]');
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)![1]!;
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const out = await browser.request(action, { form: { xsrf, logout: 'yes' } });
      expect(out.status).toBe(303);
      expect(out.headers.get('location')).toBe(`${RP.postLogoutRedirectUri}?state=st-1`);
      // Signed out: the next sign-in asks for the password again.
      const again = await browser.navigate((await authorizationRequest()).url);
      expect(again.html).toContain('id="sign-in-form"');
    });

    it('asks first when another site sends the browser to the logout endpoint', async () => {
      const account = await newAccount();
      const browser = new Browser(running.baseUrl);
      await passwordStep(browser, account.username);
      const response = await browser.request(endSessionUrl('st-2'), { headers: { 'sec-fetch-site': 'cross-site' } });
      const html = await response.text();
      expect(html).not.toContain('data-auto-submit');
      expect(html).not.toContain('<script');
      expect(html).toContain('id="sign-out-cancel"');
      expect(response.headers.get('content-security-policy')).not.toContain('script-src');
    });
  });
});
