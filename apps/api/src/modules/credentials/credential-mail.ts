import { acceptedLanguage, type CredentialMailLocale, credentialMailLocales } from '@cp/contracts';
import QRCode from 'qrcode';

/** What the credential e-mail needs; `locale` is the language of the console user who sent it. */
export interface CredentialMailInput {
  deliveryId: string;
  locale: CredentialMailLocale;
  to: string;
  recipientFirstName: string;
  recipientLastName: string;
  organizationName: string;
  /** Public address of the organization's logo, when it has one. */
  organizationLogoUrl?: string | null;
  credentialName: string;
  message: string | null;
  publicUrl: string;
  credentialId: string;
  /** The `openid-credential-offer://` link encoded in the QR code. */
  connectionUrl: string;
  offerExpiresAt: Date;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A supported language for a stored or requested value; anything else is English. */
export function toCredentialMailLocale(value: string | null | undefined): CredentialMailLocale {
  return credentialMailLocales.find((locale) => locale === value) ?? 'en';
}

/**
 * The best supported language of an Accept-Language header (RFC 9110 §12.5.4: ranges by q-value, then by
 * order), else English. Only BCP 47-shaped tags are considered; `ja-JP` counts as `ja`.
 */
export function credentialMailLocaleFromAcceptLanguage(header: string | undefined): CredentialMailLocale {
  return acceptedLanguage(header, credentialMailLocales) ?? 'en';
}

const HANGUL_SYLLABLE = /^[\uac00-\ud7a3]$/;
const CJK_NAME = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]/;

/**
 * Korean object particle after a word: 을 after a final consonant, 를 after a vowel. The last syllable
 * decides (Hangul, or a digit read in Sino-Korean); for other scripts the pronunciation is unknown, so the
 * conventional 을(를).
 */
function koreanObjectParticle(word: string) {
  const last = word.trim().slice(-1);
  if (HANGUL_SYLLABLE.test(last)) return (last.charCodeAt(0) - 0xac00) % 28 === 0 ? '를' : '을';
  const digit = '0123456789'.indexOf(last);
  // 영 일 이 삼 사 오 육 칠 팔 구
  if (digit >= 0) return [2, 4, 5, 9].includes(digit) ? '를' : '을';
  return '을(를)';
}

/**
 * The recipient's name as each language writes it. Japanese and Korean names written in their own script
 * put the family name first (Korean without a space); names in Latin script keep their own order.
 */
function recipientName(locale: CredentialMailLocale, first: string, last: string) {
  const isCjk = CJK_NAME.test(first) || CJK_NAME.test(last);
  if ((locale === 'ja' || locale === 'ko') && isCjk) {
    return (locale === 'ko' ? `${last}${first}` : `${last} ${first}`).trim();
  }
  return `${first} ${last}`.trim();
}

interface MailText {
  subject: (organization: string, credential: string) => string;
  greeting: (name: string) => string;
  issued: (organization: string, credential: string) => string;
  claimLine: (url: string) => string;
  claimButton: string;
  scan: string;
  qrAlt: string;
  expires: (date: string) => string;
}

/**
 * The e-mail in each language. Organization and credential names and the message are the sender's and are
 * never translated; HTML escaping is applied to them by the caller, so these templates add no markup.
 */
const MAIL_TEXT: Record<CredentialMailLocale, MailText> = {
  en: {
    subject: (organization, credential) => `${organization} sent you a credential: ${credential}`,
    greeting: (name) => `Hello ${name},`,
    issued: (organization, credential) => `${organization} has issued you the credential “${credential}”.`,
    claimLine: (url) => `Claim your credential: ${url}`,
    claimButton: 'Claim your credential',
    scan: 'Or scan this QR code with your wallet:',
    qrAlt: 'QR code of the credential offer',
    expires: (date) => `The offer expires on ${date}.`,
  },
  ja: {
    subject: (organization, credential) => `${organization}から証明書「${credential}」が届きました`,
    greeting: (name) => `${name} 様`,
    issued: (organization, credential) => `${organization}から証明書「${credential}」が発行されました。`,
    claimLine: (url) => `証明書の受け取りはこちら：${url}`,
    claimButton: '証明書を受け取る',
    scan: 'または、ウォレットアプリでこのQRコードを読み取ってください。',
    qrAlt: '証明書を受け取るためのQRコード',
    expires: (date) => `受け取り期限は${date}です。`,
  },
  es: {
    subject: (organization, credential) => `${organization} te ha enviado una credencial: ${credential}`,
    greeting: (name) => `Hola, ${name}:`,
    issued: (organization, credential) => `${organization} te ha emitido la credencial «${credential}».`,
    claimLine: (url) => `Reclama tu credencial: ${url}`,
    claimButton: 'Reclama tu credencial',
    scan: 'O escanea este código QR con tu billetera digital:',
    qrAlt: 'Código QR de la oferta de la credencial',
    expires: (date) => `La oferta caduca el ${date}.`,
  },
  ko: {
    subject: (organization, credential) => `${organization}에서 자격 증명을 보냈습니다: ${credential}`,
    greeting: (name) => `${name}님, 안녕하세요.`,
    issued: (organization, credential) =>
      `${organization}에서 자격 증명 “${credential}”${koreanObjectParticle(credential)} 발급했습니다.`,
    claimLine: (url) => `자격 증명 받기: ${url}`,
    claimButton: '자격 증명 받기',
    scan: '또는 지갑 앱으로 이 QR 코드를 스캔하세요.',
    qrAlt: '자격 증명을 받을 수 있는 QR 코드',
    expires: (date) => `수령 기한은 ${date}입니다.`,
  },
};

/** The expiry as a long date in the mail's language, e.g. "January 8, 2030", "2030年1月8日" (UTC). */
export function formatExpiry(locale: CredentialMailLocale, date: Date) {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export const QR_CID = 'credential-offer-qr';

/** A stable Message-ID per delivery: a resend after a crash is recognizably the same mail. */
export function deliveryMessageId(deliveryId: string, publicUrl: string) {
  let host = 'credential-platform.local';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // keep the default host
  }
  return `<credential-delivery-${deliveryId}@${host}>`;
}

export async function credentialMail(input: CredentialMailInput) {
  const locale = toCredentialMailLocale(input.locale);
  const m = MAIL_TEXT[locale];
  const claimUrl = `${input.publicUrl.replace(/\/$/, '')}/connect/credential/${input.credentialId}`;
  const qr = await QRCode.toBuffer(input.connectionUrl, { type: 'png', width: 240, margin: 1 });
  const name = recipientName(locale, input.recipientFirstName, input.recipientLastName);
  const expires = formatExpiry(locale, input.offerExpiresAt);
  const organization = escapeHtml(input.organizationName);
  const credential = escapeHtml(input.credentialName);
  const subject = m.subject(input.organizationName, input.credentialName);
  const text = [
    m.greeting(name),
    '',
    m.issued(input.organizationName, input.credentialName),
    ...(input.message ? ['', input.message] : []),
    '',
    m.claimLine(claimUrl),
    '',
    m.expires(expires),
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
${input.organizationLogoUrl ? `<img src="${escapeHtml(input.organizationLogoUrl)}" alt="${organization}" width="48" height="48" style="display:block;border-radius:8px;margin:0 0 12px">` : ''}
<p style="font-size:14px;color:#52606d;margin:0 0 8px">${organization}</p>
<h1 style="font-size:20px;margin:0 0 16px">${credential}</h1>
<p style="margin:0 0 16px">${m.greeting(escapeHtml(name))}</p>
<p style="margin:0 0 16px">${m.issued(organization, credential)}</p>
${input.message ? `<p style="margin:0 0 16px;white-space:pre-line">${escapeHtml(input.message)}</p>` : ''}
<p style="margin:24px 0"><a href="${escapeHtml(claimUrl)}" style="display:inline-block;background:#1e5bd8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px">${m.claimButton}</a></p>
<p style="margin:0 0 8px">${m.scan}</p>
<p style="margin:0 0 16px"><img src="cid:${QR_CID}" width="240" height="240" alt="${m.qrAlt}"></p>
<p style="font-size:12px;color:#7b8794;margin:0">${m.expires(expires)}</p>
</td></tr></table></body></html>`;
  return {
    to: input.to,
    subject,
    text,
    html,
    messageId: deliveryMessageId(input.deliveryId, input.publicUrl),
    attachments: [{ filename: 'credential-offer-qr.png', content: qr, contentType: 'image/png', cid: QR_CID }],
  };
}
