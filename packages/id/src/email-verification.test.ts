import { createHash } from 'node:crypto';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, findAccountById } from './accounts/accounts.service.ts';
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
type Mail = { to: string; subject: string; text: string; html: string };

describe.each(databaseKinds)('e-mail confirmation on %s', (kind) => {
  let database: TestDatabase;
  let running: Running;
  let config: oidc.Configuration;
  const mails: Mail[] = [];
  let counter = 0;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    running = await startAccountCenter(database.handle, {
      sendMail: async (mail) => {
        mails.push(mail);
      },
    });
    config = await oidc.discovery(new URL(running.baseUrl), RP.clientId, RP.clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
  });

  afterAll(async () => {
    await running?.stop();
    await database?.drop();
  });

  /** A self sign-up (not verified), signed in at the account center; answers the /account page. */
  async function signedInPerson(lang = 'en') {
    counter += 1;
    const account = await createAccount(database.handle.db, {
      username: `person${counter}`,
      email: `Person${counter}@Example.com`,
      firstName: 'Grace<b>',
      lastName: 'Hopper',
      password: PASSWORD,
    });
    const browser = new Browser(running.baseUrl);
    const signIn = await browser.navigate(`/account?lang=${lang}`);
    const form = readForm(signIn.html, 'sign-in-form');
    const page = await browser.navigate(form.action, {
      form: { csrf: form.csrf, login: account.username, password: PASSWORD },
    });
    expect(page.url).toMatch(/\/account\?lang=/);
    return { account, browser, page };
  }

  async function sendConfirmation(browser: Browser, html: string) {
    const form = readForm(html, 'send-verification-form');
    return browser.navigate(form.action, { form: { csrf: form.csrf } });
  }

  const linkIn = (mail: Mail | undefined) => {
    const link = /(http:\/\/\S+\/account\/verify-email\?\S+)/.exec(mail?.text ?? '')?.[1];
    if (!link) throw new Error(`no link in mail: ${mail?.text}`);
    return link;
  };

  it('shows the notice, sends one mail with a link, and the link verifies the address once', async () => {
    const { account, browser, page } = await signedInPerson();
    expect(page.html).toContain('Your e-mail address is not verified');
    expect(page.html).toContain('id="send-verification-submit"');
    expect(mails.filter((m) => m.to === account.email)).toHaveLength(0); // nothing sent at sign-up

    const sent = await sendConfirmation(browser, page.html);
    expect(sent.status).toBe(200);
    expect(sent.html).toContain(`We sent a confirmation link to ${account.email}`);
    const mine = mails.filter((m) => m.to === account.email);
    expect(mine).toHaveLength(1);
    const mail = mine[0]!;
    expect(mail.subject).toBe('Confirm your e-mail address');
    expect(mail.text).toContain('Hello Grace<b>,');
    expect(mail.html).toContain('Grace&lt;b&gt;');
    expect(mail.html).not.toContain('Grace<b>');
    const link = linkIn(mail);
    expect(link.startsWith(`${running.baseUrl}/account/verify-email?token=${account.id}.`)).toBe(true);
    expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    // Only the hash is stored.
    const token = new URL(link).searchParams.get('token')!;
    const rows = await database.handle.db
      .select()
      .from(schema.nonces)
      .where(eq(schema.nonces.purpose, `email-verify:${account.id}:${account.email.toLowerCase()}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.nonceHash).toBe(createHash('sha256').update(token).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(token.split('.')[1]);
    const expiresIn = rows[0]!.expiresAt.getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600 * 1000);
    expect(running.logs.join('\n')).not.toContain(token.split('.')[1]);

    // Opened in another browser (not signed in): the token alone is the proof.
    const visited = await new Browser(running.baseUrl).navigate(link);
    expect(visited.status).toBe(200);
    expect(visited.html).toContain('Your e-mail address is verified');
    expect((await findAccountById(database.handle.db, account.id))?.emailVerifiedAt).toBeInstanceOf(Date);

    const again = await browser.navigate(link);
    expect(again.status).toBe(400);
    expect(again.html).toContain('This link is invalid or expired');

    const after = await browser.navigate('/account');
    expect(after.html).toContain('id="account-identity"');
    expect(after.html).not.toContain('id="email-not-verified"');

    // The clients see it: userinfo's email_verified is true.
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorization = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP.redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await browser.navigate(authorization.href);
    expect(callback.external).toMatch(new RegExp(`^${RP.redirectUri}\\?code=`));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.external!), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, account.id);
    expect(userinfo).toMatchObject({ email: account.email, email_verified: true });
  });

  it('refuses a second e-mail within 60 s', async () => {
    const { account, browser, page } = await signedInPerson();
    expect((await sendConfirmation(browser, page.html)).status).toBe(200);
    const second = await sendConfirmation(browser, page.html);
    expect(second.status).toBe(429);
    expect(second.html).toContain('less than a minute ago');
    expect(mails.filter((m) => m.to === account.email)).toHaveLength(1);

    // Once the minute has passed (moved back in the database), a new one may go.
    await database.handle.db
      .update(schema.nonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.nonces.purpose, `email-verify-throttle:${account.id}`));
    expect((await sendConfirmation(browser, page.html)).status).toBe(200);
    expect(mails.filter((m) => m.to === account.email)).toHaveLength(2);
  });

  it('requires the CSRF token and a session to send', async () => {
    const { account, browser, page } = await signedInPerson();
    const form = readForm(page.html, 'send-verification-form');
    expect((await browser.request(form.action, { form: { csrf: 'forged' } })).status).toBe(403);
    expect((await browser.request(form.action, { method: 'POST', form: {} })).status).toBe(403);
    expect((await new Browser(running.baseUrl).request(form.action, { form: { csrf: form.csrf } })).status).toBe(403);
    expect(mails.filter((m) => m.to === account.email)).toHaveLength(0);
  });

  it('refuses expired, forged, tampered and other-account tokens, and links for an old address', async () => {
    const first = await signedInPerson();
    const second = await signedInPerson();
    await sendConfirmation(first.browser, first.page.html);
    await sendConfirmation(second.browser, second.page.html);
    const firstLink = linkIn(mails.findLast((m) => m.to === first.account.email));
    const secondLink = linkIn(mails.findLast((m) => m.to === second.account.email));
    const firstToken = new URL(firstLink).searchParams.get('token')!;
    const secondToken = new URL(secondLink).searchParams.get('token')!;
    const visit = (token: string) =>
      new Browser(running.baseUrl).navigate(`/account/verify-email?token=${encodeURIComponent(token)}`);
    const [, secondSecret] = secondToken.split('.');
    const tampered = `${firstToken.slice(0, -1)}${firstToken.endsWith('A') ? 'B' : 'A'}`;

    for (const token of [
      '',
      'garbage',
      `${first.account.id}.${'A'.repeat(43)}`, // forged
      `${first.account.id}.${secondSecret}`, // another account's secret under this id
      tampered,
      `${'x'.repeat(500)}`,
    ]) {
      const result = await visit(token);
      expect(result.status, token).toBe(400);
      expect(result.html).toContain('This link is invalid or expired');
    }

    // Expired.
    await database.handle.db
      .update(schema.nonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.nonces.purpose, `email-verify:${first.account.id}:${first.account.email.toLowerCase()}`));
    expect((await visit(firstToken)).status).toBe(400);
    expect((await findAccountById(database.handle.db, first.account.id))?.emailVerifiedAt).toBeNull();

    // The address changed after the link was sent: the link does nothing.
    await database.handle.db
      .update(schema.accounts)
      .set({ email: 'new-address@example.com' })
      .where(eq(schema.accounts.id, second.account.id));
    expect((await visit(secondToken)).status).toBe(400);
    expect((await findAccountById(database.handle.db, second.account.id))?.emailVerifiedAt).toBeNull();
  });

  it('speaks the page language in the notice and the e-mail', async () => {
    const { account, browser, page } = await signedInPerson('ja');
    expect(page.html).toContain('メールアドレスが確認されていません');
    expect(page.html).toContain('確認メールを送信');
    await sendConfirmation(browser, page.html);
    const mail = mails.findLast((m) => m.to === account.email);
    expect(mail?.subject).toBe('メールアドレスの確認');
    expect(decodeEntities(linkIn(mail))).toContain('lang=ja');
    const visited = await new Browser(running.baseUrl).navigate(linkIn(mail));
    expect(visited.html).toContain('メールアドレスを確認しました');
  });

  it('offers nothing without sendMail, and nothing to a verified account', async () => {
    // Its own database: a second center on the same one would need the same secret box.
    const other = await openTestDatabase(kind);
    const plain = await startAccountCenter(other.handle);
    try {
      await createAccount(other.handle.db, {
        username: 'nomail',
        email: 'nomail@example.com',
        firstName: 'No',
        lastName: 'Mail',
        password: PASSWORD,
      });
      const browser = new Browser(plain.baseUrl);
      const signIn = await browser.navigate('/account');
      const form = readForm(signIn.html, 'sign-in-form');
      const page = await browser.navigate(form.action, {
        form: { csrf: form.csrf, login: 'nomail', password: PASSWORD },
      });
      expect(page.html).toContain('id="account-identity"');
      expect(page.html).not.toContain('id="send-verification-form"');
    } finally {
      await plain.stop();
      await other.drop();
    }

    await createAccount(database.handle.db, {
      username: 'vouched',
      email: 'vouched@example.com',
      firstName: 'Vouched',
      lastName: 'For',
      password: PASSWORD,
      emailVerified: true,
    });
    const browser = new Browser(running.baseUrl);
    const signIn = await browser.navigate('/account');
    const form = readForm(signIn.html, 'sign-in-form');
    const page = await browser.navigate(form.action, {
      form: { csrf: form.csrf, login: 'vouched', password: PASSWORD },
    });
    expect(page.html).toContain('id="account-identity"');
    expect(page.html).not.toContain('id="email-not-verified"');
  });
});
