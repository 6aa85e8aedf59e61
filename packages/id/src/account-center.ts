import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStrongPassword } from '@cp/contracts';
import type { Database, SecretBox } from '@cp/db';
import type { KoaContextWithOIDC } from 'oidc-provider';
import QRCode from 'qrcode';
import { AccountError } from './accounts/account-error.ts';
import {
  type Account,
  authenticate,
  changePassword,
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  findAccountById,
  listAccountOrganizations,
  zEmail,
  zUsername,
} from './accounts/accounts.service.ts';
import { confirmEmailVerification, issueEmailVerification } from './accounts/email-verification.ts';
import { completePasswordReset, findPasswordReset, issuePasswordReset } from './accounts/password-reset.ts';
import { verifyPassword } from './accounts/passwords.ts';
import {
  beginTotpSetup,
  confirmTotpSetup,
  countUnusedRecoveryCodes,
  disableTwoFactor,
  groupSecret,
  isTwoFactorEnabled,
  replaceRecoveryCodes,
  totpUri,
  verifySecondFactor,
} from './accounts/two-factor.ts';
import {
  appendSetCookie,
  clientIp,
  contentSecurityPolicy,
  formValue,
  HttpError,
  parseCookies,
  readForm,
  redirect,
  sendHtml,
  serializeCookie,
  setSecurityHeaders,
} from './http/http.ts';
import { FailureLimiter, type FailureStore, MemoryFailureStore } from './http/rate-limit.ts';
import { loadAccountCenterSecrets } from './oidc/keys.ts';
import { createProvider, INTERNAL_CLIENT_ID, type RelyingPartyClient, SCOPES } from './oidc/provider.ts';
import { endOtherSessions } from './oidc/sessions.ts';
import { emailVerificationMail, passwordResetMail } from './views/emails.ts';
import { raw } from './views/html.ts';
import { type Locale, localeFromAcceptLanguage, parseLocale, translator } from './views/i18n.ts';
import {
  accountPage,
  disableTwoFactorPage,
  type FieldErrors,
  forgotPasswordPage,
  forgotPasswordSentPage,
  logoutPage,
  messagePage,
  organizationPage,
  type PageContext,
  passwordPage,
  recoveryCodesPage,
  regenerateRecoveryCodesPage,
  resetPasswordPage,
  type SignUpValues,
  signInPage,
  signUpPage,
  twoFactorPage,
  twoFactorSetupPage,
} from './views/pages.ts';

type LogFn = (obj: object | string, msg?: string) => void;
export interface AccountCenterLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface AccountCenterOptions {
  db: Database;
  secretBox: SecretBox;
  /** e.g. 'http://localhost:3001' (no trailing slash); the provider is mounted at its root. */
  issuer: string;
  clients: RelyingPartyClient[];
  /** Origins a `return_to` may point at (the console's origin). */
  allowedReturnOrigins: string[];
  logger: AccountCenterLogger;
  /** true behind https: cookies get Secure and X-Forwarded-* headers are trusted. */
  cookieSecure?: boolean;
  /**
   * Where failed sign-in and current-password attempts are counted; a store shared by every process (the
   * API's Redis store when REDIS_URL is set) keeps the limits whole behind a load balancer. Default: memory.
   */
  failureStore?: FailureStore;
  /**
   * Sends an e-mail (the API passes its Mailer). With it, a person whose address is not verified can ask for a
   * confirmation link from the account page, and "Forgot password?" sends reset links; without it neither is
   * offered.
   */
  sendMail?: (mail: { to: string; subject: string; text: string; html: string }) => Promise<void>;
}

export interface AccountCenter {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  listen(port: number, host?: string): Promise<Server>;
  /** Resolves once the work started after an answer (reset e-mails) has finished; close() waits for it too. */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const FONT_FILES = new Set([
  'inter-latin-400-normal.woff2',
  'inter-latin-500-normal.woff2',
  'inter-latin-600-normal.woff2',
]);
const FAILED_SIGN_IN_LIMIT = 10;
const FAILED_SIGN_IN_IP_LIMIT = 50;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const STATE_TTL_MS = 60 * 60 * 1000;
const LANG_COOKIE = 'lang';
/** "Forgot password?" requests: per address and per client address, an hour (OWASP: limit the reset endpoint). */
const RESET_REQUEST_ADDRESS_LIMIT = 5;
const RESET_REQUEST_IP_LIMIT = 20;
const RESET_REQUEST_WINDOW_MS = 60 * 60 * 1000;
/** How long the password step of a two-step sign-in stays good while the code is asked for. */
const SECOND_STEP_TTL_MS = 10 * 60 * 1000;
/** RFC 8176 authentication method references: a password, and a one-time code (the app's or a recovery code). */
const AMR_PASSWORD = ['pwd'];
const AMR_TWO_STEP = ['pwd', 'otp'];
/** Sec-Fetch-Site values of a navigation started by a page of this site (the console on the same site). */
const SAME_SITE = new Set(['same-origin', 'same-site']);

export async function createAccountCenter(options: AccountCenterOptions): Promise<AccountCenter> {
  const { db, logger, sendMail } = options;
  const issuer = options.issuer.replace(/\/+$/, '');
  const cookieSecure = options.cookieSecure ?? false;
  const secrets = await loadAccountCenterSecrets(db, options.secretBox);
  const allowedOrigins = new Set(options.allowedReturnOrigins.map((o) => new URL(o).origin));
  const formTargets = new Set<string>(allowedOrigins);
  for (const client of options.clients) {
    for (const uri of [...client.redirect_uris, ...(client.post_logout_redirect_uris ?? [])]) {
      formTargets.add(new URL(uri).origin);
    }
  }
  formTargets.delete(new URL(issuer).origin);
  const csp = contentSecurityPolicy([...formTargets]);
  const failureStore = options.failureStore ?? new MemoryFailureStore();
  const accountLimiter = new FailureLimiter(FAILED_SIGN_IN_LIMIT, FAILURE_WINDOW_MS, 'account', failureStore);
  const ipLimiter = new FailureLimiter(FAILED_SIGN_IN_IP_LIMIT, FAILURE_WINDOW_MS, 'ip', failureStore);
  // Reset requests are counted whether or not the address has an account (the limit must not tell either).
  const resetAddressLimiter = new FailureLimiter(
    RESET_REQUEST_ADDRESS_LIMIT,
    RESET_REQUEST_WINDOW_MS,
    'reset-address',
    failureStore,
  );
  const resetIpLimiter = new FailureLimiter(RESET_REQUEST_IP_LIMIT, RESET_REQUEST_WINDOW_MS, 'reset-ip', failureStore);
  const scriptCsp = `${csp}; script-src 'self'`;

  // Work that must not be part of an answer's timing (whether a reset e-mail goes out says whether the address
  // has an account): started after the answer, tracked so that close() and tests can wait for it.
  const background = new Set<Promise<void>>();
  const inBackground = (what: string, task: () => Promise<void>) => {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => logger.error({ err: errorInfo(error) }, `${what} failed`))
      .finally(() => background.delete(run));
    background.add(run);
  };
  const whenIdle = async () => {
    while (background.size) await Promise.all([...background]);
  };

  const stylesheet = await readFile(path.join(here, 'views/styles.css'));
  const autoSubmitScript = await readFile(path.join(here, 'views/auto-submit.js'));
  const fontDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');

  // ---- signing helpers (CSRF tokens, state values) ------------------------------------------
  const mac = (value: string) => createHmac('sha256', secrets.formKey).update(value).digest('base64url');
  const sameMac = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };
  /** CSRF token bound to the interaction (uid) or to the provider session (uid) it is rendered for. */
  const csrfToken = (binding: string) => mac(`csrf:${binding}`);
  const csrfValid = (form: URLSearchParams, binding: string) =>
    sameMac(formValue(form, 'csrf', 200), csrfToken(binding));
  const signState = (data: Record<string, string>) => {
    const body = Buffer.from(JSON.stringify({ ...data, exp: Date.now() + STATE_TTL_MS })).toString('base64url');
    return `${body}.${mac(`state:${body}`)}`;
  };
  const readState = (value: string | null): Record<string, string> | undefined => {
    const [body, signature] = (value ?? '').split('.');
    if (!body || !signature || !sameMac(signature, mac(`state:${body}`))) return undefined;
    try {
      const data = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, string> & {
        exp?: number;
      };
      return typeof data.exp === 'number' && data.exp > Date.now() ? data : undefined;
    } catch {
      return undefined;
    }
  };
  const allowedReturnTo = (value: string | null | undefined): string | undefined => {
    if (!value) return undefined;
    try {
      const url = new URL(value);
      return allowedOrigins.has(url.origin) ? url.href : undefined;
    } catch {
      return undefined;
    }
  };

  // ---- language: ?lang → lang cookie → ui_locales → Accept-Language → en ------------------
  const pageFor = (req: IncomingMessage, res: ServerResponse | undefined, currentUrl: string, uiLocales?: unknown) => {
    const url = new URL(currentUrl, issuer);
    let locale: Locale | undefined = parseLocale(url.searchParams.get('lang'));
    if (locale && res) {
      appendSetCookie(res, serializeCookie(LANG_COOKIE, locale, { maxAge: 365 * 24 * 3600, secure: cookieSecure }));
    }
    locale ??= parseLocale(parseCookies(req.headers.cookie).get(LANG_COOKIE));
    if (!locale && typeof uiLocales === 'string') {
      locale = uiLocales.split(' ').map(parseLocale).find(Boolean);
    }
    locale ??= localeFromAcceptLanguage(req.headers['accept-language']) ?? 'en';
    const page: PageContext = { locale, t: translator(locale), currentUrl: url.pathname + url.search };
    return page;
  };

  // ---- oidc-provider ---------------------------------------------------------------------------
  const providerPage = (ctx: KoaContextWithOIDC) =>
    pageFor(ctx.req, undefined, ctx.originalUrl, (ctx.oidc?.params as Record<string, unknown> | undefined)?.ui_locales);
  const provider = createProvider({
    db,
    issuer,
    clients: options.clients,
    secrets,
    cookieSecure,
    renderers: {
      logoutSource(ctx, form) {
        // RP-Initiated Logout 1.0 §2: the OP should confirm a logout that comes without an id_token_hint (§6:
        // otherwise any site could sign people out). A relying party's sign-out button, on a page of this same site
        // (Sec-Fetch-Site), or with a valid id_token_hint, has already asked: the page submits itself.
        const clientId = ctx.oidc.client?.clientId;
        const autoSubmit =
          clientId !== undefined &&
          clientId !== INTERNAL_CLIENT_ID &&
          (ctx.oidc.entities.IdTokenHint !== undefined || SAME_SITE.has(ctx.get('sec-fetch-site')));
        ctx.type = 'html';
        ctx.set('Content-Security-Policy', autoSubmit ? scriptCsp : csp);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = logoutPage(providerPage(ctx), raw(form), { autoSubmit });
      },
      postLogoutSuccessSource(ctx) {
        ctx.type = 'html';
        ctx.set('Content-Security-Policy', csp);
        ctx.body = messagePage(providerPage(ctx), {
          title: 'signedOutTitle',
          text: 'signedOutText',
          link: { href: '/account', label: 'signInAgain', id: 'sign-in-again' },
        });
      },
      renderError(ctx, out) {
        logger.warn({ error: out.error, description: out.error_description }, 'oidc request rejected');
        ctx.type = 'html';
        ctx.set('Content-Security-Policy', csp);
        ctx.body = messagePage(providerPage(ctx), { title: 'errorTitle', text: 'errorText' });
      },
    },
  });
  provider.on('server_error', (_ctx, error) => logger.error({ err: errorInfo(error) }, 'oidc-provider server error'));
  // Sign-out at the account center tells the clients of that session through back-channel logout too.
  provider.on('backchannel.error', (_ctx, error, client) =>
    logger.warn({ clientId: client.clientId, error: error.message }, 'back-channel logout failed'),
  );
  const providerCallback = provider.callback();

  async function interactionFor(req: IncomingMessage, res: ServerResponse, uid: string) {
    try {
      const details = await provider.interactionDetails(req, res);
      return details.uid === uid ? details : undefined;
    } catch {
      return undefined;
    }
  }

  async function signedInAccount(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ account: Account; sessionUid: string } | undefined> {
    const ctx = provider.createContext(req, res);
    const session = await provider.Session.get(ctx);
    if (!session.accountId) return undefined;
    const account = await findAccountById(db, session.accountId);
    return account ? { account, sessionUid: session.uid } : undefined;
  }

  /** Sends the browser through the provider's own sign-in (internal client, response_type=none). */
  function toSignIn(res: ServerResponse, page: PageContext, returnPath: string) {
    const params = new URLSearchParams({
      client_id: INTERNAL_CLIENT_ID,
      response_type: 'none',
      scope: 'openid',
      redirect_uri: `${issuer}/account/callback`,
      state: signState({ r: returnPath }),
      ui_locales: page.locale,
    });
    redirect(res, `/auth?${params}`);
  }

  const expired = (res: ServerResponse, page: PageContext) =>
    sendHtml(res, 400, messagePage(page, { title: 'expiredTitle', text: 'expiredText' }), csp);
  const forbidden = (res: ServerResponse, page: PageContext) =>
    sendHtml(res, 403, messagePage(page, { title: 'forbiddenTitle', text: 'forbiddenText' }), csp);

  // ---- interaction pages -------------------------------------------------------------------------
  type Details = NonNullable<Awaited<ReturnType<typeof interactionFor>>>;
  const wantsCreate = (details: Details) =>
    String(details.params.prompt ?? '')
      .split(' ')
      .includes('create');
  const pendingAccountId = (details: Details) =>
    (details.result?.login as { accountId?: string } | undefined)?.accountId;
  /**
   * The half-signed-in state of a two-step sign-in: the password was right, the code is still to come. It lives in
   * the interaction (server-side, found through oidc-provider's signed interaction cookie), never in a cookie of its
   * own, and is not a `login` result: resuming the interaction without the code signs nobody in.
   */
  const pendingSecondStep = (details: Details) => {
    const pending = details.result?.secondStep as { accountId?: string; at?: number; create?: boolean } | undefined;
    if (!pending?.accountId || typeof pending.at !== 'number' || Date.now() - pending.at > SECOND_STEP_TTL_MS) {
      return undefined;
    }
    return { accountId: pending.accountId, create: pending.create === true };
  };

  function renderSecondStep(
    res: ServerResponse,
    page: PageContext,
    details: Details,
    status: number,
    error?: 'errTwoFactorCode' | 'errTooManyAttempts' | 'errRequired',
  ) {
    const lang = `lang=${page.locale}`;
    sendHtml(
      res,
      status,
      twoFactorPage(page, {
        action: `/interaction/${details.uid}/two-factor?${lang}`,
        csrf: csrfToken(details.uid),
        anotherAccountUrl: `/interaction/${details.uid}?screen=signin&${lang}`,
        ...(error ? { error } : {}),
      }),
      csp,
    );
  }

  async function renderSignIn(
    res: ServerResponse,
    page: PageContext,
    details: Details,
    status: number,
    extra: { login?: string; error?: 'errInvalidCredentials' | 'errTooManyAttempts' } = {},
  ) {
    const client = await provider.Client.find(String(details.params.client_id));
    const lang = `lang=${page.locale}`;
    sendHtml(
      res,
      status,
      signInPage(page, {
        action: `/interaction/${details.uid}/login?${lang}`,
        csrf: csrfToken(details.uid),
        signUpUrl: `/interaction/${details.uid}?screen=signup&${lang}`,
        ...(sendMail ? { forgotUrl: `/account/forgot-password?${lang}&interaction=${details.uid}` } : {}),
        ...(client?.clientName && client.clientId !== INTERNAL_CLIENT_ID ? { clientName: client.clientName } : {}),
        ...extra,
      }),
      csp,
    );
  }

  function renderSignUp(
    res: ServerResponse,
    page: PageContext,
    details: Details,
    status: number,
    values: SignUpValues = {},
    errors: FieldErrors = {},
  ) {
    const lang = `lang=${page.locale}`;
    sendHtml(
      res,
      status,
      signUpPage(page, {
        action: `/interaction/${details.uid}/signup?${lang}`,
        csrf: csrfToken(details.uid),
        signInUrl: `/interaction/${details.uid}?screen=signin&${lang}`,
        values,
        errors,
      }),
      csp,
    );
  }

  function renderInteractionOrganization(
    res: ServerResponse,
    page: PageContext,
    details: Details,
    status: number,
    values: { name?: string; description?: string } = {},
    errors: FieldErrors = {},
  ) {
    const lang = `lang=${page.locale}`;
    sendHtml(
      res,
      status,
      organizationPage(page, {
        action: `/interaction/${details.uid}/organization?${lang}`,
        csrf: csrfToken(details.uid),
        skipUrl: `/interaction/${details.uid}/skip?${lang}`,
        values,
        errors,
      }),
      csp,
    );
  }

  async function grantConsent(req: IncomingMessage, res: ServerResponse, details: Details) {
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error('Consent prompt without a signed-in account');
    const clientId = String(details.params.client_id);
    let grant = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    grant ??= new provider.Grant({ accountId, clientId });
    const scopes = String(details.params.scope ?? '')
      .split(' ')
      .filter((s) => SCOPES.includes(s));
    grant.addOIDCScope(scopes.join(' '));
    const missingClaims = (details.prompt.details as { missingOIDCClaims?: string[] }).missingOIDCClaims;
    if (missingClaims?.length) grant.addOIDCClaims(missingClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  async function interactionRoute(req: IncomingMessage, res: ServerResponse, url: URL, uid: string, action: string) {
    const details = await interactionFor(req, res, uid);
    const page = pageFor(req, res, url.pathname + url.search, details?.params.ui_locales);
    if (!details) return expired(res, page);
    const isInternal = details.params.client_id === INTERNAL_CLIENT_ID;

    if (req.method === 'GET' && action === '') {
      if (pendingAccountId(details)) return renderInteractionOrganization(res, page, details, 200);
      if (details.prompt.name === 'consent') return grantConsent(req, res, details);
      if (!url.searchParams.get('screen') && pendingSecondStep(details)) {
        return redirect(res, `/interaction/${uid}/two-factor?lang=${page.locale}`);
      }
      const screen = url.searchParams.get('screen') ?? (details.prompt.name === 'create' ? 'signup' : 'signin');
      if (screen === 'signup') return renderSignUp(res, page, details, 200);
      return renderSignIn(res, page, details, 200);
    }

    if (req.method === 'GET' && action === 'two-factor') {
      if (!pendingSecondStep(details)) return redirect(res, `/interaction/${uid}?screen=signin&lang=${page.locale}`);
      return renderSecondStep(res, page, details, 200);
    }

    if (req.method === 'GET' && (action === 'organization' || action === 'skip')) {
      const accountId = pendingAccountId(details);
      if (!accountId) return redirect(res, `/interaction/${uid}`);
      if (action === 'organization') return renderInteractionOrganization(res, page, details, 200);
      logger.info({ accountId }, 'organization step skipped');
      return provider.interactionFinished(req, res, details.result ?? {}, { mergeWithLastSubmission: false });
    }

    if (req.method !== 'POST') return notFound(res, page);
    const form = await readForm(req);
    if (!csrfValid(form, uid)) return forbidden(res, page);

    if (action === 'login') {
      const login = formValue(form, 'login', 254).trim();
      const password = formValue(form, 'password', 256);
      const ip = clientIp(req, cookieSecure);
      const key = `${login.toLowerCase()}|${ip}`;
      if ((await accountLimiter.isBlocked(key)) || (await ipLimiter.isBlocked(ip))) {
        logger.warn({ ip }, 'sign-in refused: too many failed attempts');
        return renderSignIn(res, page, details, 429, { login, error: 'errTooManyAttempts' });
      }
      const account = login && password ? await authenticate(db, login, password) : undefined;
      if (!account) {
        await Promise.all([accountLimiter.recordFailure(key), ipLimiter.recordFailure(ip)]);
        logger.info({ ip }, 'sign-in failed');
        return renderSignIn(res, page, details, 401, { login, error: 'errInvalidCredentials' });
      }
      await accountLimiter.reset(key);
      if (isTwoFactorEnabled(account)) {
        // The password is right; the code comes next (a password reset never skips this step either).
        const secondStep = { accountId: account.id, at: Date.now(), create: wantsCreate(details) };
        await provider.interactionResult(req, res, { secondStep }, { mergeWithLastSubmission: false });
        logger.info({ accountId: account.id }, 'password accepted; asking for the second step');
        return redirect(res, `/interaction/${uid}/two-factor?lang=${page.locale}`);
      }
      logger.info({ accountId: account.id }, 'signed in');
      const result = {
        login: { accountId: account.id, amr: AMR_PASSWORD },
        ...(wantsCreate(details) ? { create: {} } : {}),
      };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }

    if (action === 'two-factor') {
      const pending = pendingSecondStep(details);
      if (!pending) return redirect(res, `/interaction/${uid}?screen=signin&lang=${page.locale}`);
      const account = await findAccountById(db, pending.accountId);
      if (!account || !isTwoFactorEnabled(account)) return redirect(res, `/interaction/${uid}?screen=signin`);
      const code = formValue(form, 'code', 64).trim();
      if (!code) return renderSecondStep(res, page, details, 400, 'errRequired');
      const ip = clientIp(req, cookieSecure);
      // Wrong codes count like wrong passwords: per account and per client address.
      const key = `second-step|${account.id}`;
      if ((await accountLimiter.isBlocked(key)) || (await ipLimiter.isBlocked(ip))) {
        logger.warn({ accountId: account.id, ip }, 'second step refused: too many failed attempts');
        return renderSecondStep(res, page, details, 429, 'errTooManyAttempts');
      }
      const method = await verifySecondFactor(db, options.secretBox, account, code);
      if (!method) {
        await Promise.all([accountLimiter.recordFailure(key), ipLimiter.recordFailure(ip)]);
        logger.info({ accountId: account.id, ip }, 'second step failed');
        return renderSecondStep(res, page, details, 401, 'errTwoFactorCode');
      }
      await accountLimiter.reset(key);
      logger.info({ accountId: account.id, method }, 'signed in with two steps');
      const result = {
        login: { accountId: account.id, amr: AMR_TWO_STEP },
        ...(pending.create ? { create: {} } : {}),
      };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }

    if (action === 'signup') {
      const values: SignUpValues = {
        firstName: formValue(form, 'firstName', 200),
        lastName: formValue(form, 'lastName', 200),
        username: formValue(form, 'username', 200),
        email: formValue(form, 'email', 300),
      };
      const password = formValue(form, 'password', 1024);
      const errors = validateSignUp(values, password);
      if (Object.keys(errors).length) return renderSignUp(res, page, details, 400, values, errors);
      let account: Account;
      try {
        account = await createAccount(db, {
          firstName: values.firstName ?? '',
          lastName: values.lastName ?? '',
          username: values.username ?? '',
          email: values.email ?? '',
          password,
          locale: page.locale,
        });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        return renderSignUp(res, page, details, 400, values, { [error.field ?? 'email']: accountErrorMessage(error) });
      }
      logger.info({ accountId: account.id }, 'account created');
      const result = { login: { accountId: account.id, amr: AMR_PASSWORD }, create: {} };
      if (isInternal) return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      // Keep the result on the interaction and ask for the organization before going back to the client.
      await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
      return redirect(res, `/interaction/${uid}/organization?lang=${page.locale}`);
    }

    if (action === 'organization') {
      const accountId = pendingAccountId(details);
      if (!accountId) return redirect(res, `/interaction/${uid}`);
      const values = { name: formValue(form, 'name', 300), description: formValue(form, 'description', 2000) };
      const errors = validateOrganization(values);
      if (Object.keys(errors).length) return renderInteractionOrganization(res, page, details, 400, values, errors);
      const organization = await createAccountOrganization(db, { accountId, ...values });
      logger.info({ accountId, organizationId: organization.id }, 'organization created');
      return provider.interactionFinished(req, res, details.result ?? {}, { mergeWithLastSubmission: false });
    }

    return notFound(res, page);
  }

  // ---- account pages (outside an authorization request) -----------------------------------------
  async function accountRoute(req: IncomingMessage, res: ServerResponse, url: URL) {
    const page = pageFor(req, res, url.pathname + url.search);
    const pathname = url.pathname.replace(/\/+$/, '') || '/';

    if (pathname === '/account/callback' && req.method === 'GET') {
      const state = readState(url.searchParams.get('state'));
      const target = state?.r;
      if (url.searchParams.get('error') || !target || !target.startsWith('/') || target.startsWith('//')) {
        return sendHtml(res, 400, messagePage(page, { title: 'expiredTitle', text: 'expiredText' }), csp);
      }
      return redirect(res, target);
    }

    if (pathname === '/signed-out' && req.method === 'GET') {
      const returnTo = allowedReturnTo(readState(url.searchParams.get('state'))?.returnTo);
      if (returnTo) return redirect(res, returnTo);
      return sendHtml(
        res,
        200,
        messagePage(page, {
          title: 'signedOutTitle',
          text: 'signedOutText',
          link: { href: `/account?lang=${page.locale}`, label: 'signInAgain', id: 'sign-in-again' },
        }),
        csp,
      );
    }

    if (pathname === '/logout' && req.method === 'GET') {
      const returnTo = allowedReturnTo(url.searchParams.get('return_to'));
      const params = new URLSearchParams({
        client_id: INTERNAL_CLIENT_ID,
        post_logout_redirect_uri: `${issuer}/signed-out`,
        ui_locales: page.locale,
        ...(returnTo ? { state: signState({ returnTo }) } : {}),
      });
      return redirect(res, `/session/end?${params}`);
    }

    // The confirmation link works signed in or not: the single-use token is the proof.
    if (pathname === '/account/verify-email' && req.method === 'GET') {
      const token = (url.searchParams.get('token') ?? '').slice(0, 200);
      const verified = token ? await confirmEmailVerification(db, token) : undefined;
      const link = { href: `/account?lang=${page.locale}`, label: 'goToAccount' as const, id: 'go-to-account' };
      if (!verified) {
        logger.info('e-mail confirmation link refused');
        return sendHtml(
          res,
          400,
          messagePage(page, { title: 'verifyLinkInvalidTitle', text: 'verifyLinkInvalidText', link }),
          csp,
        );
      }
      logger.info({ accountId: verified.id }, 'e-mail address verified');
      return sendHtml(
        res,
        200,
        messagePage(page, { title: 'emailVerifiedTitle', text: 'emailVerifiedText', link }),
        csp,
      );
    }

    if (pathname === '/account/forgot-password' && sendMail) return forgotPasswordRoute(req, res, url, page);
    if (pathname === '/account/reset-password' && sendMail) return resetPasswordRoute(req, res, page);

    const signedIn = await signedInAccount(req, res);
    if (!signedIn) {
      if (req.method === 'GET' || req.method === 'HEAD') return toSignIn(res, page, url.pathname + url.search);
      return forbidden(res, page);
    }
    const { account, sessionUid } = signedIn;
    const returnTo = allowedReturnTo(url.searchParams.get('return_to'));
    const actionUrl = url.pathname + url.search;

    const renderAccount = async (status: number, notice?: { kind: 'error' | 'success'; text: string }) => {
      const organizations = await listAccountOrganizations(db, account.id);
      const emailVerification = sendMail
        ? { action: `/account/verify-email?lang=${page.locale}`, csrf: csrfToken(sessionUid) }
        : undefined;
      const enabled = isTwoFactorEnabled(account);
      const twoFactor = { enabled, recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(db, account.id) : 0 };
      sendHtml(
        res,
        status,
        accountPage(page, {
          account,
          organizations,
          twoFactor,
          ...(notice ? { notice } : {}),
          ...(emailVerification ? { emailVerification } : {}),
        }),
        csp,
      );
    };

    if (pathname === '/account' && req.method === 'GET') {
      const done = url.searchParams.get('done');
      if (done === 'two-factor-off')
        return renderAccount(200, { kind: 'success', text: page.t('twoFactorDisabledNotice') });
      return renderAccount(200);
    }

    if (pathname.startsWith('/account/two-factor/')) {
      return twoFactorRoute(req, res, page, pathname.slice('/account/two-factor/'.length), account, sessionUid);
    }

    if (pathname === '/account/verify-email' && req.method === 'POST' && sendMail) {
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      if (account.emailVerifiedAt !== null) return redirect(res, `/account?lang=${page.locale}`);
      const token = await issueEmailVerification(db, account);
      if (!token) return renderAccount(429, { kind: 'error', text: page.t('verificationTooSoon') });
      const link = `${issuer}/account/verify-email?${new URLSearchParams({ token, lang: page.locale })}`;
      await sendMail(emailVerificationMail(page.locale, { to: account.email, firstName: account.firstName, link }));
      logger.info({ accountId: account.id }, 'e-mail confirmation sent');
      return renderAccount(200, {
        kind: 'success',
        text: page.t('verificationSent', { email: account.email }),
      });
    }

    if (pathname === '/organizations/new') {
      const render = (status: number, values = {}, errors: FieldErrors = {}) =>
        sendHtml(
          res,
          status,
          organizationPage(page, {
            action: actionUrl,
            csrf: csrfToken(sessionUid),
            cancelUrl: returnTo ?? `/account?lang=${page.locale}`,
            values,
            errors,
          }),
          csp,
        );
      if (req.method === 'GET') return render(200);
      if (req.method !== 'POST') return notFound(res, page);
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      const values = { name: formValue(form, 'name', 300), description: formValue(form, 'description', 2000) };
      const errors = validateOrganization(values);
      if (Object.keys(errors).length) return render(400, values, errors);
      const organization = await createAccountOrganization(db, { accountId: account.id, ...values });
      logger.info({ accountId: account.id, organizationId: organization.id }, 'organization created');
      return redirect(res, returnTo ?? '/account');
    }

    if (pathname === '/account/password') {
      const render = (status: number, errors: FieldErrors = {}, success = false) =>
        sendHtml(
          res,
          status,
          passwordPage(page, {
            action: actionUrl,
            csrf: csrfToken(sessionUid),
            errors,
            success,
            backUrl: returnTo ?? `/account?lang=${page.locale}`,
          }),
          csp,
        );
      if (req.method === 'GET') return render(200);
      if (req.method !== 'POST') return notFound(res, page);
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      const currentPassword = formValue(form, 'currentPassword', 1024);
      const newPassword = formValue(form, 'newPassword', 1024);
      const confirmPassword = formValue(form, 'confirmPassword', 1024);
      const errors: FieldErrors = {};
      if (!currentPassword) errors.currentPassword = 'errRequired';
      if (!isStrongPassword(newPassword)) errors.newPassword = 'errPasswordWeak';
      if (newPassword !== confirmPassword) errors.confirmPassword = 'errPasswordMismatch';
      if (Object.keys(errors).length) return render(400, errors);
      const key = `password|${account.id}`;
      if (await accountLimiter.isBlocked(key)) return render(429, { currentPassword: 'errTooManyAttempts' });
      try {
        await changePassword(db, account.id, { currentPassword, newPassword });
      } catch (error) {
        if (error instanceof AccountError && error.code === 'ACCOUNT_PASSWORD_INCORRECT') {
          await accountLimiter.recordFailure(key);
          return render(400, { currentPassword: 'errCurrentPassword' });
        }
        throw error;
      }
      await accountLimiter.reset(key);
      // OWASP ASVS 3.3: a new password ends the account's other sessions, here and at the clients.
      const ended = await endOtherSessions(provider, db, {
        accountId: account.id,
        keepSessionUid: sessionUid,
        clientIds: options.clients.map((c) => c.client_id),
        log: (obj, msg) => logger.warn(obj, msg),
      });
      logger.info({ accountId: account.id, ...ended }, 'password changed; other sessions ended');
      if (returnTo) return redirect(res, returnTo);
      return render(200, {}, true);
    }

    return notFound(res, page);
  }

  // ---- forgot password (outside any session) -----------------------------------------------------
  const backToSignInUrl = (url: URL, page: PageContext) => {
    const uid = url.searchParams.get('interaction');
    return uid && /^[A-Za-z0-9_-]{1,64}$/.test(uid)
      ? `/interaction/${uid}?screen=signin&lang=${page.locale}`
      : `/account?lang=${page.locale}`;
  };

  async function forgotPasswordRoute(req: IncomingMessage, res: ServerResponse, url: URL, page: PageContext) {
    const backUrl = backToSignInUrl(url, page);
    // Nothing here is tied to a session; the token only proves the form came from this page.
    const csrf = csrfToken('forgot-password');
    const render = (status: number, email = '', errors: FieldErrors = {}, error?: 'errTooManyRequests') =>
      sendHtml(
        res,
        status,
        forgotPasswordPage(page, {
          action: url.pathname + url.search,
          csrf,
          email,
          errors,
          backUrl,
          ...(error ? { error } : {}),
        }),
        csp,
      );
    if (req.method === 'GET') return render(200);
    if (req.method !== 'POST') return notFound(res, page);
    const form = await readForm(req);
    if (!csrfValid(form, 'forgot-password')) return forbidden(res, page);
    const email = formValue(form, 'email', 300).trim();
    if (!email) return render(400, email, { email: 'errRequired' });
    if (!zEmail.safeParse(email).success) return render(400, email, { email: 'errEmail' });
    const ip = clientIp(req, cookieSecure);
    const addressKey = email.toLowerCase();
    if ((await resetAddressLimiter.isBlocked(addressKey)) || (await resetIpLimiter.isBlocked(ip))) {
      logger.warn({ ip }, 'password reset refused: too many requests');
      return render(429, email, {}, 'errTooManyRequests');
    }
    await Promise.all([resetAddressLimiter.recordFailure(addressKey), resetIpLimiter.recordFailure(ip)]);
    // The answer is the same, and as fast, whether or not an account uses the address: looking the account up,
    // issuing the link and sending the mail happen after it (OWASP Forgot Password Cheat Sheet: no enumeration).
    inBackground('password reset e-mail', () => sendPasswordReset(email, page.locale));
    return sendHtml(res, 200, forgotPasswordSentPage(page, { email, backUrl }), csp);
  }

  async function sendPasswordReset(email: string, requestLocale: Locale) {
    if (!sendMail) return;
    const account = await findAccountByEmail(db, email);
    // The address itself is never logged.
    if (!account) return void logger.info('password reset asked for an address without an account');
    const token = await issuePasswordReset(db, account);
    if (!token)
      return void logger.info({ accountId: account.id }, 'password reset not sent: one went out a minute ago');
    const locale = parseLocale(account.locale) ?? requestLocale;
    const link = `${issuer}/account/reset-password?${new URLSearchParams({ token, lang: locale })}`;
    await sendMail(passwordResetMail(locale, { to: account.email, firstName: account.firstName, link }));
    logger.info({ accountId: account.id }, 'password reset link sent');
  }

  async function resetPasswordRoute(req: IncomingMessage, res: ServerResponse, page: PageContext) {
    const invalid = () =>
      sendHtml(
        res,
        400,
        messagePage(page, {
          title: 'resetLinkInvalidTitle',
          text: 'resetLinkInvalidText',
          link: {
            href: `/account/forgot-password?lang=${page.locale}`,
            label: 'requestNewLink',
            id: 'request-new-link',
          },
        }),
        csp,
      );
    const render = (status: number, token: string, errors: FieldErrors = {}) =>
      sendHtml(
        res,
        status,
        resetPasswordPage(page, {
          action: `/account/reset-password?lang=${page.locale}`,
          csrf: csrfToken(`reset:${token}`),
          token,
          errors,
        }),
        csp,
      );
    if (req.method === 'GET') {
      const token = (new URL(req.url ?? '/', issuer).searchParams.get('token') ?? '').slice(0, 100);
      if (!(await findPasswordReset(db, token))) {
        logger.info('password reset link refused');
        return invalid();
      }
      return render(200, token);
    }
    if (req.method !== 'POST') return notFound(res, page);
    const form = await readForm(req);
    const token = formValue(form, 'token', 100);
    if (!csrfValid(form, `reset:${token}`)) return forbidden(res, page);
    const newPassword = formValue(form, 'newPassword', 1024);
    const confirmPassword = formValue(form, 'confirmPassword', 1024);
    const errors: FieldErrors = {};
    if (!isStrongPassword(newPassword)) errors.newPassword = 'errPasswordWeak';
    if (newPassword !== confirmPassword) errors.confirmPassword = 'errPasswordMismatch';
    if (Object.keys(errors).length) {
      return (await findPasswordReset(db, token)) ? render(400, token, errors) : invalid();
    }
    const account = await completePasswordReset(db, token, newPassword);
    if (!account) {
      logger.info('password reset link refused');
      return invalid();
    }
    // OWASP ASVS 3.3 as for a password change, and more: a reset happens outside any session, so every session
    // of the account ends here and at the clients. Nobody is signed in; two-step sign-in still applies after.
    const ended = await endOtherSessions(provider, db, {
      accountId: account.id,
      keepSessionUid: null,
      clientIds: options.clients.map((c) => c.client_id),
      log: (obj, msg) => logger.warn(obj, msg),
    });
    logger.info({ accountId: account.id, ...ended }, 'password reset; every session ended');
    return sendHtml(
      res,
      200,
      messagePage(page, {
        title: 'resetDoneTitle',
        text: 'resetDoneText',
        link: { href: `/account?lang=${page.locale}`, label: 'signInLink', id: 'sign-in-after-reset' },
      }),
      csp,
    );
  }

  // ---- two-step sign-in settings (signed in) -----------------------------------------------------
  async function twoFactorRoute(
    req: IncomingMessage,
    res: ServerResponse,
    page: PageContext,
    action: string,
    account: Account,
    sessionUid: string,
  ) {
    const lang = `lang=${page.locale}`;
    const accountUrl = `/account?${lang}`;
    const csrf = csrfToken(sessionUid);
    const enabled = isTwoFactorEnabled(account);
    const showCodes = (codes: string[], notice?: 'twoFactorEnabledNotice') =>
      sendHtml(res, 200, recoveryCodesPage(page, { codes, doneUrl: accountUrl, ...(notice ? { notice } : {}) }), csp);
    /** The current password, counted like the password page's attempts. */
    const passwordAccepted = async (password: string): Promise<'ok' | 'wrong' | 'blocked'> => {
      const key = `password|${account.id}`;
      if (await accountLimiter.isBlocked(key)) return 'blocked';
      if (!(await verifyPassword(account.passwordHash, password))) {
        await accountLimiter.recordFailure(key);
        return 'wrong';
      }
      await accountLimiter.reset(key);
      return 'ok';
    };

    if (action === 'setup') {
      if (enabled) return redirect(res, accountUrl);
      const secret = await beginTotpSetup(db, options.secretBox, account);
      if (!secret) return redirect(res, accountUrl);
      const render = async (status: number, error?: 'errTwoFactorCode' | 'errTooManyAttempts' | 'errRequired') => {
        const uri = totpUri(secret, { issuer: page.t('appName'), accountName: account.email });
        const qrDataUri = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, scale: 6 });
        sendHtml(
          res,
          status,
          twoFactorSetupPage(page, {
            action: `/account/two-factor/setup?${lang}`,
            csrf,
            qrDataUri,
            secret: groupSecret(secret),
            backUrl: accountUrl,
            ...(error ? { error } : {}),
          }),
          csp,
        );
      };
      if (req.method === 'GET') return render(200);
      if (req.method !== 'POST') return notFound(res, page);
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      const code = formValue(form, 'code', 32).trim();
      if (!code) return render(400, 'errRequired');
      const key = `second-step|${account.id}`;
      if (await accountLimiter.isBlocked(key)) return render(429, 'errTooManyAttempts');
      const codes = await confirmTotpSetup(db, options.secretBox, account.id, code);
      if (!codes) {
        await accountLimiter.recordFailure(key);
        return render(400, 'errTwoFactorCode');
      }
      await accountLimiter.reset(key);
      logger.info({ accountId: account.id }, 'two-step sign-in turned on');
      return showCodes(codes, 'twoFactorEnabledNotice');
    }

    if (action === 'recovery-codes') {
      if (!enabled) return redirect(res, accountUrl);
      const render = (status: number, errors: FieldErrors = {}) =>
        sendHtml(
          res,
          status,
          regenerateRecoveryCodesPage(page, {
            action: `/account/two-factor/recovery-codes?${lang}`,
            csrf,
            errors,
            backUrl: accountUrl,
          }),
          csp,
        );
      if (req.method === 'GET') return render(200);
      if (req.method !== 'POST') return notFound(res, page);
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      const password = formValue(form, 'currentPassword', 1024);
      if (!password) return render(400, { currentPassword: 'errRequired' });
      const checked = await passwordAccepted(password);
      if (checked === 'blocked') return render(429, { currentPassword: 'errTooManyAttempts' });
      if (checked === 'wrong') return render(400, { currentPassword: 'errCurrentPassword' });
      const codes = await replaceRecoveryCodes(db, account.id);
      logger.info({ accountId: account.id }, 'new recovery codes created');
      return showCodes(codes);
    }

    if (action === 'disable') {
      if (!enabled) return redirect(res, accountUrl);
      const render = (status: number, errors: FieldErrors = {}) =>
        sendHtml(
          res,
          status,
          disableTwoFactorPage(page, {
            action: `/account/two-factor/disable?${lang}`,
            csrf,
            errors,
            backUrl: accountUrl,
          }),
          csp,
        );
      if (req.method === 'GET') return render(200);
      if (req.method !== 'POST') return notFound(res, page);
      const form = await readForm(req);
      if (!csrfValid(form, sessionUid)) return forbidden(res, page);
      const password = formValue(form, 'currentPassword', 1024);
      const code = formValue(form, 'code', 64).trim();
      const errors: FieldErrors = {};
      if (!password) errors.currentPassword = 'errRequired';
      if (!code) errors.code = 'errRequired';
      if (Object.keys(errors).length) return render(400, errors);
      const codeKey = `second-step|${account.id}`;
      if (await accountLimiter.isBlocked(codeKey)) return render(429, { code: 'errTooManyAttempts' });
      const checked = await passwordAccepted(password);
      if (checked === 'blocked') return render(429, { currentPassword: 'errTooManyAttempts' });
      if (checked === 'wrong') return render(400, { currentPassword: 'errCurrentPassword' });
      if (!(await verifySecondFactor(db, options.secretBox, account, code))) {
        await accountLimiter.recordFailure(codeKey);
        return render(400, { code: 'errTwoFactorCode' });
      }
      await accountLimiter.reset(codeKey);
      await disableTwoFactor(db, account.id);
      logger.info({ accountId: account.id }, 'two-step sign-in turned off');
      return redirect(res, `/account?${lang}&done=two-factor-off`);
    }

    return notFound(res, page);
  }

  function notFound(res: ServerResponse, page: PageContext) {
    sendHtml(
      res,
      404,
      messagePage(page, {
        title: 'notFoundTitle',
        text: 'notFoundText',
        link: { href: `/account?lang=${page.locale}`, label: 'goToAccount', id: 'go-to-account' },
      }),
      csp,
    );
  }

  async function serveAsset(res: ServerResponse, pathname: string) {
    if (pathname === '/assets/id.css') {
      res.setHeader('Content-Type', 'text/css; charset=utf-8');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.end(stylesheet);
      return;
    }
    if (pathname === '/assets/auto-submit.js') {
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.end(autoSubmitScript);
      return;
    }
    const file = pathname.slice('/assets/fonts/'.length);
    if (pathname.startsWith('/assets/fonts/') && FONT_FILES.has(file)) {
      const data = await readFile(path.join(fontDir, file));
      res.setHeader('Content-Type', 'font/woff2');
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.end(data);
      return;
    }
    res.statusCode = 404;
    res.end();
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    setSecurityHeaders(res);
    const url = new URL(req.url ?? '/', issuer);
    const { pathname } = url;
    if (pathname.startsWith('/assets/')) return serveAsset(res, pathname);
    const interaction =
      /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(login|signup|organization|skip|two-factor))?\/?$/.exec(pathname);
    if (interaction) return interactionRoute(req, res, url, interaction[1] ?? '', interaction[2] ?? '');
    if (pathname === '/' && req.method === 'GET') return redirect(res, '/account', 302);
    if (
      pathname === '/account' ||
      pathname.startsWith('/account/') ||
      pathname === '/organizations/new' ||
      pathname === '/logout' ||
      pathname === '/signed-out'
    ) {
      return accountRoute(req, res, url);
    }
    return providerCallback(req, res);
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        if (!res.headersSent) {
          res.statusCode = error.status;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.setHeader('Connection', 'close');
        }
        res.end(error.message);
        return;
      }
      logger.error({ err: errorInfo(error), path: req.url?.split('?')[0] }, 'account center request failed');
      if (res.headersSent) return void res.end();
      const page = pageFor(req, undefined, req.url ?? '/');
      sendHtml(res, 500, messagePage(page, { title: 'errorTitle', text: 'errorText' }), csp);
    });
  };

  const servers = new Set<Server>();
  return {
    handler,
    listen(port, host) {
      const server = createServer(handler);
      servers.add(server);
      return new Promise<Server>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server);
        });
      });
    },
    whenIdle,
    async close() {
      await whenIdle();
      await Promise.all(
        [...servers].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      servers.clear();
    },
  };
}

function validateSignUp(values: SignUpValues, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.firstName?.trim()) errors.firstName = 'errRequired';
  else if (values.firstName.trim().length > 100) errors.firstName = 'errTooLong';
  if (!values.lastName?.trim()) errors.lastName = 'errRequired';
  else if (values.lastName.trim().length > 100) errors.lastName = 'errTooLong';
  if (!values.username?.trim()) errors.username = 'errRequired';
  else if (!zUsername.safeParse(values.username).success) errors.username = 'errUsername';
  if (!values.email?.trim()) errors.email = 'errRequired';
  else if (!zEmail.safeParse(values.email).success) errors.email = 'errEmail';
  if (!password) errors.password = 'errRequired';
  else if (!isStrongPassword(password)) errors.password = 'errPasswordWeak';
  return errors;
}

function validateOrganization(values: { name: string; description: string }): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.name.trim()) errors.name = 'errRequired';
  else if (values.name.trim().length > 120) errors.name = 'errTooLong';
  if (values.description.trim().length > 1000) errors.description = 'errTooLong';
  return errors;
}

function accountErrorMessage(error: AccountError) {
  switch (error.code) {
    case 'ACCOUNT_USERNAME_TAKEN':
      return 'errUsernameTaken' as const;
    case 'ACCOUNT_EMAIL_TAKEN':
      return 'errEmailTaken' as const;
    case 'ACCOUNT_PASSWORD_WEAK':
      return 'errPasswordWeak' as const;
    default:
      return 'errRequired' as const;
  }
}

/** Error details safe to log: message and stack, never request bodies. */
function errorInfo(error: unknown) {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { error };
}
