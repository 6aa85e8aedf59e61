import { html } from './html.ts';
import { type Locale, translator } from './i18n.ts';

export interface VerificationMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The confirmation e-mail in the person's language; every interpolated value in the HTML is escaped. */
export function emailVerificationMail(
  locale: Locale,
  o: { to: string; firstName: string; link: string },
): VerificationMail {
  const t = translator(locale);
  const greeting = t('verificationMailGreeting', { name: o.firstName });
  const text = [
    greeting,
    '',
    t('verificationMailIntro'),
    '',
    o.link,
    '',
    t('verificationMailFooter'),
    '',
    `— ${t('appName')}`,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${t('verificationMailSubject')}</title></head>
<body style="font-family: Inter, Arial, sans-serif; color: #101828; line-height: 1.5;">
<p>${greeting}</p>
<p>${t('verificationMailIntro')}</p>
<p><a href="${o.link}" style="display: inline-block; background: #004a46; color: #ffffff; padding: 10px 18px; border-radius: 8px; text-decoration: none; font-weight: 600;">${t('verificationMailButton')}</a></p>
<p style="word-break: break-all; color: #475467; font-size: 13px;">${o.link}</p>
<p style="color: #475467; font-size: 13px;">${t('verificationMailFooter')}</p>
<p style="color: #475467; font-size: 13px;">— ${t('appName')}</p>
</body></html>`;
  return { to: o.to, subject: t('verificationMailSubject'), text, html: body.value };
}

/** The "forgot password" e-mail in the person's language: a single-use link, valid 30 minutes. */
export function passwordResetMail(
  locale: Locale,
  o: { to: string; firstName: string; link: string },
): VerificationMail {
  const t = translator(locale);
  const greeting = t('verificationMailGreeting', { name: o.firstName });
  const text = [greeting, '', t('resetMailIntro'), '', o.link, '', t('resetMailFooter'), '', `— ${t('appName')}`].join(
    '\n',
  );
  const body = html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${t('resetMailSubject')}</title></head>
<body style="font-family: Inter, Arial, sans-serif; color: #101828; line-height: 1.5;">
<p>${greeting}</p>
<p>${t('resetMailIntro')}</p>
<p><a href="${o.link}" style="display: inline-block; background: #004a46; color: #ffffff; padding: 10px 18px; border-radius: 8px; text-decoration: none; font-weight: 600;">${t('resetMailButton')}</a></p>
<p style="word-break: break-all; color: #475467; font-size: 13px;">${o.link}</p>
<p style="color: #475467; font-size: 13px;">${t('resetMailFooter')}</p>
<p style="color: #475467; font-size: 13px;">— ${t('appName')}</p>
</body></html>`;
  return { to: o.to, subject: t('resetMailSubject'), text, html: body.value };
}
