import type { Account, AccountOrganization } from '../accounts/accounts.service.ts';
import { html, type SafeHtml } from './html.ts';
import { LOCALE_NAMES, LOCALES, type Locale, type MessageKey, type Translate, translateCount } from './i18n.ts';

export interface PageContext {
  locale: Locale;
  t: Translate;
  /** Path and query of the current page, used by the language switcher. */
  currentUrl: string;
}

export type FieldErrors = Partial<Record<string, MessageKey>>;

function switchLanguageUrl(currentUrl: string, locale: Locale): string {
  const url = new URL(currentUrl, 'http://x');
  url.searchParams.set('lang', locale);
  return url.pathname + url.search;
}

export function layout(page: PageContext, title: string, body: SafeHtml, options: { script?: string } = {}): string {
  const { t, locale } = page;
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${t('appName')}</title>
<link rel="preload" href="/assets/fonts/inter-latin-400-normal.woff2" as="font" type="font/woff2" crossorigin>
<link rel="stylesheet" href="/assets/id.css">
${options.script ? html`<script src="${options.script}" defer></script>` : ''}
</head>
<body>
<a class="skip-link" href="#main">${t('skipToContent')}</a>
<div class="page">
<header class="brand"><span class="brand-mark" aria-hidden="true"></span><span>${t('appName')}</span></header>
<main class="card" id="main" tabindex="-1">
${body}
</main>
</div>
<footer class="footer">
<nav aria-label="${t('language')}"><ul class="languages">
${LOCALES.map(
  (l) =>
    html`<li><a href="${switchLanguageUrl(page.currentUrl, l)}" lang="${l}" hreflang="${l}" data-lang="${l}"${l === locale ? html` aria-current="true"` : ''}>${LOCALE_NAMES[l]}</a></li>`,
)}
</ul></nav>
</footer>
</body>
</html>
`.value;
}

function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  error?: MessageKey | undefined;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  maxlength?: number;
  /** e.g. 'numeric' for codes (a number pad on phones). */
  inputmode?: string;
}

function field(t: Translate, o: FieldOptions): SafeHtml {
  const id = `field-${o.name}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${o.error ? ' invalid' : ''}">
<label for="${id}">${o.label}</label>
<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.type === 'password' ? '' : html` value="${o.value ?? ''}"`}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.required === false ? '' : ' required'}${o.autofocus ? ' autofocus' : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${o.inputmode ? html` inputmode="${o.inputmode}" spellcheck="false"` : ''}${o.error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="field-error" id="${id}-error">${t(o.error)}</p>` : ''}
</div>`;
}

function alert(kind: 'error' | 'success', text: string | undefined): SafeHtml | string {
  return text
    ? html`<div class="alert alert-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`
    : '';
}

export function signInPage(
  page: PageContext,
  o: {
    action: string;
    csrf: string;
    login?: string;
    error?: MessageKey;
    clientName?: string;
    signUpUrl: string;
    /** "Forgot password?" (only where reset e-mails can be sent). */
    forgotUrl?: string;
  },
): string {
  const { t } = page;
  const body = html`<h1>${t('signInTitle')}</h1>
<p class="subtitle">${o.clientName ? t('signInSubtitleClient', { client: o.clientName }) : t('signInSubtitle')}</p>
${alert('error', o.error ? t(o.error) : undefined)}
<form method="post" action="${o.action}" novalidate id="sign-in-form">
${csrfField(o.csrf)}
${field(t, { name: 'login', label: t('login'), value: o.login, autocomplete: 'username', autofocus: !o.login, maxlength: 254 })}
${field(t, { name: 'password', label: t('password'), type: 'password', autocomplete: 'current-password', autofocus: Boolean(o.login), maxlength: 256 })}
${o.forgotUrl ? html`<p class="field-link"><a href="${o.forgotUrl}" id="forgot-password-link">${t('forgotPasswordLink')}</a></p>` : ''}
<div class="actions"><button class="button" type="submit" id="sign-in-submit">${t('signInButton')}</button></div>
</form>
<p class="switch">${t('noAccount')} <a href="${o.signUpUrl}" id="create-account-link">${t('createAccountLink')}</a></p>`;
  return layout(page, t('signInTitle'), body);
}

export interface SignUpValues {
  firstName?: string;
  lastName?: string;
  username?: string;
  email?: string;
}

export function signUpPage(
  page: PageContext,
  o: { action: string; csrf: string; values: SignUpValues; errors: FieldErrors; signInUrl: string },
): string {
  const { t, locale } = page;
  const first = field(t, {
    name: 'firstName',
    label: t('firstName'),
    value: o.values.firstName,
    error: o.errors.firstName,
    autocomplete: 'given-name',
    maxlength: 100,
  });
  const last = field(t, {
    name: 'lastName',
    label: t('lastName'),
    value: o.values.lastName,
    error: o.errors.lastName,
    autocomplete: 'family-name',
    maxlength: 100,
  });
  // Japanese and Korean write the family name first.
  const names = locale === 'ja' || locale === 'ko' ? [last, first] : [first, last];
  const body = html`<h1>${t('signUpTitle')}</h1>
<p class="subtitle">${t('signUpSubtitle')}</p>
<form method="post" action="${o.action}" novalidate id="sign-up-form">
${csrfField(o.csrf)}
<div class="row">${names}</div>
${field(t, { name: 'username', label: t('username'), value: o.values.username, error: o.errors.username, autocomplete: 'username', maxlength: 32 })}
${field(t, { name: 'email', label: t('email'), type: 'email', value: o.values.email, error: o.errors.email, autocomplete: 'email', maxlength: 254 })}
${field(t, { name: 'password', label: t('password'), type: 'password', error: o.errors.password, hint: t('passwordHint'), autocomplete: 'new-password', maxlength: 256 })}
<div class="actions"><button class="button" type="submit" id="sign-up-submit">${t('signUpButton')}</button></div>
</form>
<p class="switch">${t('haveAccount')} <a href="${o.signInUrl}" id="sign-in-link">${t('signInLink')}</a></p>`;
  return layout(page, t('signUpTitle'), body);
}

export function organizationPage(
  page: PageContext,
  o: {
    action: string;
    csrf: string;
    values: { name?: string; description?: string };
    errors: FieldErrors;
    error?: MessageKey;
    skipUrl?: string;
    cancelUrl?: string;
  },
): string {
  const { t } = page;
  const descriptionError = o.errors.description;
  const body = html`<h1>${t('organizationTitle')}</h1>
<p class="subtitle">${t('organizationSubtitle')}</p>
${alert('error', o.error ? t(o.error) : undefined)}
<form method="post" action="${o.action}" novalidate id="create-organization-form">
${csrfField(o.csrf)}
${field(t, { name: 'name', label: t('organizationName'), value: o.values.name, error: o.errors.name, autocomplete: 'organization', autofocus: true, maxlength: 120 })}
<div class="field${descriptionError ? ' invalid' : ''}">
<label for="field-description">${t('organizationDescription')}</label>
<textarea id="field-description" name="description" maxlength="1000">${o.values.description ?? ''}</textarea>
${descriptionError ? html`<p class="field-error">${t(descriptionError)}</p>` : ''}
</div>
<div class="actions">
<button class="button" type="submit" id="create-organization-submit">${t('organizationButton')}</button>
${o.skipUrl ? html`<a class="button button-secondary" href="${o.skipUrl}" id="skip-organization">${t('skip')}</a>` : ''}
${o.cancelUrl ? html`<a class="button button-secondary" href="${o.cancelUrl}" id="cancel-organization">${t('cancel')}</a>` : ''}
</div>
</form>`;
  return layout(page, t('organizationTitle'), body);
}

function initials(account: Account): string {
  return `${[...account.firstName][0] ?? ''}${[...account.lastName][0] ?? ''}`.toUpperCase();
}

export function accountPage(
  page: PageContext,
  o: {
    account: Account;
    organizations: AccountOrganization[];
    message?: MessageKey;
    /** A result shown above the page, e.g. after asking for a confirmation e-mail. */
    notice?: { kind: 'error' | 'success'; text: string };
    /** Present when confirmation e-mails can be sent: the form that asks for one. */
    emailVerification?: { action: string; csrf: string };
    /** Two-step sign-in: on or off, and the recovery codes left when on. */
    twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  },
): string {
  const { t } = page;
  const { account } = o;
  const q = `?lang=${page.locale}`;
  const body = html`<h1>${t('accountTitle')}</h1>
<p class="subtitle">${t('signedInAs')}</p>
${alert('success', o.message ? t(o.message) : undefined)}
${o.notice ? alert(o.notice.kind, o.notice.text) : ''}
${
  account.emailVerifiedAt === null && o.emailVerification
    ? html`<div class="notice" id="email-not-verified">
<p class="notice-title">${t('emailNotVerified')}</p>
<p class="hint">${t('emailNotVerifiedHint', { email: account.email })}</p>
<form method="post" action="${o.emailVerification.action}" id="send-verification-form">
${csrfField(o.emailVerification.csrf)}
<button class="button button-secondary" type="submit" id="send-verification-submit">${t('sendVerificationButton')}</button>
</form>
</div>`
    : ''
}
<div class="identity" id="account-identity">
<span class="avatar" aria-hidden="true">${initials(account)}</span>
<div><div class="identity-name">${account.firstName} ${account.lastName}</div>
<div class="identity-meta">@${account.username} · ${account.email}</div></div>
</div>
<h2>${t('yourOrganizations')}</h2>
${
  o.organizations.length
    ? html`<ul class="list" id="organization-list">${o.organizations.map(
        (org) =>
          html`<li><div class="org-name">${org.name}</div>${org.description ? html`<div class="org-description">${org.description}</div>` : ''}</li>`,
      )}</ul>`
    : html`<p class="empty">${t('noOrganizations')}</p>`
}
<h2>${t('twoFactorSection')}</h2>
<div class="security" id="two-factor-status" data-enabled="${o.twoFactor.enabled ? 'true' : 'false'}">
<p class="security-state"><span class="badge${o.twoFactor.enabled ? ' badge-on' : ''}" aria-hidden="true"></span>${o.twoFactor.enabled ? t('twoFactorOnText') : t('twoFactorOffText')}</p>
${o.twoFactor.enabled ? html`<p class="hint" id="recovery-codes-left">${translateCount(page, 'recoveryCodesLeft', o.twoFactor.recoveryCodesLeft)}</p>` : ''}
<div class="inline-actions">
${
  o.twoFactor.enabled
    ? html`<a class="button button-secondary button-small" href="/account/two-factor/recovery-codes${q}" id="new-recovery-codes-link">${t('newRecoveryCodesLink')}</a>
<a class="button button-secondary button-small" href="/account/two-factor/disable${q}" id="turn-off-two-factor-link">${t('turnOffTwoFactorLink')}</a>`
    : html`<a class="button button-secondary button-small" href="/account/two-factor/setup${q}" id="turn-on-two-factor-link">${t('turnOnTwoFactorLink')}</a>`
}
</div>
</div>
<div class="links">
<a class="button" href="/organizations/new${q}" id="create-organization-link">${t('createOrganizationLink')}</a>
<a class="button button-secondary" href="/account/password${q}" id="change-password-link">${t('changePasswordLink')}</a>
<a class="button button-secondary" href="/logout${q}" id="sign-out-link">${t('signOutLink')}</a>
</div>`;
  return layout(page, t('accountTitle'), body);
}

export function passwordPage(
  page: PageContext,
  o: { action: string; csrf: string; errors: FieldErrors; success?: boolean; backUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('passwordTitle')}</h1>
<p class="subtitle">${t('passwordSubtitle')}</p>
${alert('success', o.success ? `${t('passwordChanged')}${page.locale === 'ja' ? '' : ' '}${t('otherDevicesSignedOut')}` : undefined)}
<form method="post" action="${o.action}" novalidate id="change-password-form">
${csrfField(o.csrf)}
${field(t, { name: 'currentPassword', label: t('currentPassword'), type: 'password', error: o.errors.currentPassword, autocomplete: 'current-password', maxlength: 256 })}
${field(t, { name: 'newPassword', label: t('newPassword'), type: 'password', error: o.errors.newPassword, hint: t('passwordHint'), autocomplete: 'new-password', maxlength: 256 })}
${field(t, { name: 'confirmPassword', label: t('confirmPassword'), type: 'password', error: o.errors.confirmPassword, autocomplete: 'new-password', maxlength: 256 })}
<div class="actions">
<button class="button" type="submit" id="change-password-submit">${t('passwordButton')}</button>
<a class="button button-secondary" href="${o.backUrl}" id="back-to-account">${t('backToAccount')}</a>
</div>
</form>`;
  return layout(page, t('passwordTitle'), body);
}

/**
 * RP-initiated logout confirmation; `form` is oidc-provider's hidden form (action + xsrf token). With `autoSubmit`
 * (a relying party's own sign-out, see account-center.ts) the page submits itself at once and shows a short
 * "signing you out" line; the button stays for browsers without JavaScript.
 */
export function logoutPage(page: PageContext, form: SafeHtml, options: { autoSubmit?: boolean } = {}): string {
  const { t } = page;
  if (options.autoSubmit) {
    const auto = html`<h1>${t('signingOutTitle')}</h1>
<p class="subtitle">${t('signingOutText')}</p>
${form}
<div class="actions">
<button class="button" type="submit" form="op.logoutForm" name="logout" value="yes" id="sign-out-confirm" data-auto-submit>${t('continueButton')}</button>
</div>`;
    return layout(page, t('signingOutTitle'), auto, { script: '/assets/auto-submit.js' });
  }
  const body = html`<h1>${t('logoutTitle')}</h1>
<p class="subtitle">${t('logoutText')}</p>
${form}
<div class="actions">
<button class="button" type="submit" form="op.logoutForm" name="logout" value="yes" id="sign-out-confirm" autofocus>${t('logoutButton')}</button>
<button class="button button-secondary" type="submit" form="op.logoutForm" id="sign-out-cancel">${t('stayButton')}</button>
</div>`;
  return layout(page, t('logoutTitle'), body);
}

export function messagePage(
  page: PageContext,
  o: { title: MessageKey; text: MessageKey; link?: { href: string; label: MessageKey; id: string } },
): string {
  const { t } = page;
  const body = html`<h1 id="message-title">${t(o.title)}</h1>
<p class="subtitle">${t(o.text)}</p>
${o.link ? html`<div class="actions"><a class="button" href="${o.link.href}" id="${o.link.id}">${t(o.link.label)}</a></div>` : ''}`;
  return layout(page, t(o.title), body);
}

export function forgotPasswordPage(
  page: PageContext,
  o: { action: string; csrf: string; email?: string; errors: FieldErrors; error?: MessageKey; backUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('forgotTitle')}</h1>
<p class="subtitle">${t('forgotSubtitle')}</p>
${alert('error', o.error ? t(o.error) : undefined)}
<form method="post" action="${o.action}" novalidate id="forgot-password-form">
${csrfField(o.csrf)}
${field(t, { name: 'email', label: t('email'), type: 'email', value: o.email, error: o.errors.email, autocomplete: 'email', autofocus: true, maxlength: 254 })}
<div class="actions">
<button class="button" type="submit" id="forgot-password-submit">${t('forgotButton')}</button>
<a class="button button-secondary" href="${o.backUrl}" id="back-to-sign-in">${t('backToSignIn')}</a>
</div>
</form>`;
  return layout(page, t('forgotTitle'), body);
}

/** The same answer whether or not an account uses the address (no account enumeration). */
export function forgotPasswordSentPage(page: PageContext, o: { email: string; backUrl: string }): string {
  const { t } = page;
  const body = html`<h1 id="message-title">${t('forgotSentTitle')}</h1>
<p class="subtitle" id="forgot-password-sent">${t('forgotSentText', { email: o.email })}</p>
<div class="actions"><a class="button" href="${o.backUrl}" id="back-to-sign-in">${t('backToSignIn')}</a></div>`;
  return layout(page, t('forgotSentTitle'), body);
}

export function resetPasswordPage(
  page: PageContext,
  o: { action: string; csrf: string; token: string; errors: FieldErrors },
): string {
  const { t } = page;
  const body = html`<h1>${t('resetTitle')}</h1>
<p class="subtitle">${t('resetSubtitle')}</p>
<form method="post" action="${o.action}" novalidate id="reset-password-form">
${csrfField(o.csrf)}
<input type="hidden" name="token" value="${o.token}">
${field(t, { name: 'newPassword', label: t('newPassword'), type: 'password', error: o.errors.newPassword, hint: t('passwordHint'), autocomplete: 'new-password', autofocus: true, maxlength: 256 })}
${field(t, { name: 'confirmPassword', label: t('confirmPassword'), type: 'password', error: o.errors.confirmPassword, autocomplete: 'new-password', maxlength: 256 })}
<div class="actions"><button class="button" type="submit" id="reset-password-submit">${t('resetButton')}</button></div>
</form>`;
  return layout(page, t('resetTitle'), body);
}

/** The second step of signing in: a code from the authenticator app, or a recovery code. */
export function twoFactorPage(
  page: PageContext,
  o: { action: string; csrf: string; error?: MessageKey; anotherAccountUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('twoFactorTitle')}</h1>
<p class="subtitle">${t('twoFactorSubtitle')}</p>
${alert('error', o.error ? t(o.error) : undefined)}
<form method="post" action="${o.action}" novalidate id="two-factor-form">
${csrfField(o.csrf)}
${field(t, { name: 'code', label: t('twoFactorCode'), hint: t('twoFactorCodeHint'), autocomplete: 'one-time-code', autofocus: true, maxlength: 32, inputmode: 'text' })}
<div class="actions"><button class="button" type="submit" id="two-factor-submit">${t('twoFactorButton')}</button></div>
</form>
<p class="switch"><a href="${o.anotherAccountUrl}" id="sign-in-another-account">${t('signInAnotherAccount')}</a></p>`;
  return layout(page, t('twoFactorTitle'), body);
}

export function twoFactorSetupPage(
  page: PageContext,
  o: { action: string; csrf: string; qrDataUri: string; secret: string; error?: MessageKey; backUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('setupTitle')}</h1>
<p class="subtitle">${t('setupScan')}</p>
${alert('error', o.error ? t(o.error) : undefined)}
<div class="qr"><img src="${o.qrDataUri}" alt="${t('qrAlt')}" width="192" height="192" id="totp-qr"></div>
<p class="hint">${t('setupManual')}</p>
<p class="secret" id="totp-secret">${o.secret}</p>
<form method="post" action="${o.action}" novalidate id="two-factor-setup-form">
${csrfField(o.csrf)}
${field(t, { name: 'code', label: t('twoFactorCode'), hint: t('setupConfirm'), autocomplete: 'one-time-code', maxlength: 10, inputmode: 'numeric' })}
<div class="actions">
<button class="button" type="submit" id="two-factor-setup-submit">${t('setupButton')}</button>
<a class="button button-secondary" href="${o.backUrl}" id="back-to-account">${t('cancel')}</a>
</div>
</form>`;
  return layout(page, t('setupTitle'), body);
}

/** Recovery codes, shown once (after turning two-step on, or after asking for a new set). */
export function recoveryCodesPage(
  page: PageContext,
  o: { codes: string[]; doneUrl: string; notice?: MessageKey },
): string {
  const { t } = page;
  const body = html`<h1>${t('recoveryTitle')}</h1>
${alert('success', o.notice ? t(o.notice) : undefined)}
<p class="subtitle">${t('recoveryText')}</p>
<ol class="codes" id="recovery-codes">${o.codes.map((code) => html`<li><code>${code}</code></li>`)}</ol>
<div class="actions"><a class="button" href="${o.doneUrl}" id="recovery-codes-done">${t('recoveryDone')}</a></div>`;
  return layout(page, t('recoveryTitle'), body);
}

export function regenerateRecoveryCodesPage(
  page: PageContext,
  o: { action: string; csrf: string; errors: FieldErrors; backUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('regenerateTitle')}</h1>
<p class="subtitle">${t('regenerateText')}</p>
<form method="post" action="${o.action}" novalidate id="regenerate-codes-form">
${csrfField(o.csrf)}
${field(t, { name: 'currentPassword', label: t('currentPassword'), type: 'password', error: o.errors.currentPassword, autocomplete: 'current-password', autofocus: true, maxlength: 256 })}
<div class="actions">
<button class="button" type="submit" id="regenerate-codes-submit">${t('regenerateButton')}</button>
<a class="button button-secondary" href="${o.backUrl}" id="back-to-account">${t('cancel')}</a>
</div>
</form>`;
  return layout(page, t('regenerateTitle'), body);
}

export function disableTwoFactorPage(
  page: PageContext,
  o: { action: string; csrf: string; errors: FieldErrors; backUrl: string },
): string {
  const { t } = page;
  const body = html`<h1>${t('disableTitle')}</h1>
<p class="subtitle">${t('disableText')}</p>
<form method="post" action="${o.action}" novalidate id="disable-two-factor-form">
${csrfField(o.csrf)}
${field(t, { name: 'currentPassword', label: t('currentPassword'), type: 'password', error: o.errors.currentPassword, autocomplete: 'current-password', autofocus: true, maxlength: 256 })}
${field(t, { name: 'code', label: t('twoFactorCode'), error: o.errors.code, hint: t('twoFactorCodeHint'), autocomplete: 'one-time-code', maxlength: 32, inputmode: 'text' })}
<div class="actions">
<button class="button button-danger" type="submit" id="disable-two-factor-submit">${t('disableButton')}</button>
<a class="button button-secondary" href="${o.backUrl}" id="back-to-account">${t('cancel')}</a>
</div>
</form>`;
  return layout(page, t('disableTitle'), body);
}
