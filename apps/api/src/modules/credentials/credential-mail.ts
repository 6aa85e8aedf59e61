import { acceptedLanguage, type CredentialMailLocale, credentialMailLocales } from '@cp/contracts';
import QRCode from 'qrcode';

/**
 * What the credential e-mail says, for one recipient. The real e-mail (`credentialMail`) and the console's
 * preview (`credentialMailPreview`) both render it with `renderCredentialMail`, so what the sender previews is
 * what the recipient gets. `locale` is the language of the console user who sends it.
 */
export interface CredentialMailContent {
  locale: CredentialMailLocale;
  recipientFirstName: string;
  recipientLastName: string;
  organizationName: string;
  /**
   * The organization's logo: its bytes (inline in the e-mail, a data URI in the preview), or for a logo too
   * large to attach to every e-mail, its public address (in both).
   */
  organizationLogo?: { content: Buffer; contentType: string } | { url: string } | null;
  /** `organizations.brand_color` (`#rrggbb`); anything else (or null) is the product's teal. */
  brandColor?: string | null;
  credentialName: string;
  credentialDescription?: string | null;
  message: string | null;
  /** The holder page (`/connect/credential/{id}`) the button leads to. */
  claimUrl: string;
  /** What the QR code encodes: the `openid-credential-offer://` link. */
  qrContent: string;
  offerExpiresAt: Date;
}

/** What the delivery worker knows about one delivery. */
export interface CredentialMailInput
  extends Omit<CredentialMailContent, 'claimUrl' | 'qrContent' | 'recipientFirstName' | 'recipientLastName'> {
  deliveryId: string;
  to: string;
  recipientFirstName: string;
  recipientLastName: string;
  publicUrl: string;
  credentialId: string;
  /** The `openid-credential-offer://` link encoded in the QR code. */
  connectionUrl: string;
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

/** The name the preview greets when the wizard has no recipient yet. */
const PREVIEW_RECIPIENT: Record<CredentialMailLocale, string> = {
  en: 'Recipient',
  ja: '受取人',
  es: 'destinatario',
  ko: '수신자',
};

export function previewRecipientName(locale: CredentialMailLocale) {
  return { firstName: PREVIEW_RECIPIENT[toCredentialMailLocale(locale)], lastName: '' };
}

/** The expiry as a long date in the mail's language, e.g. "January 8, 2030", "2030年1月8日" (UTC). */
export function formatExpiry(locale: CredentialMailLocale, date: Date) {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export const QR_CID = 'credential-offer-qr';
export const LOGO_CID = 'organization-logo';
/** The product's teal (packages/ui palette, teal 600): the button of an organization without a brand colour. */
export const DEFAULT_BRAND_COLOR = '#004a46';

/** The organization's colour if it is a `#rrggbb` value, else the product's. */
export function brandColorOf(value: string | null | undefined) {
  return value && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : DEFAULT_BRAND_COLOR;
}

/** WCAG 2.2 relative luminance of a `#rrggbb` colour (§ "relative luminance", sRGB). */
function relativeLuminance(hex: string) {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string) {
  const [high, low] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * White or black text on the button, whichever contrasts more with its colour: one of the two always reaches
 * at least 4.58:1, above WCAG 2.2 1.4.3's 4.5:1 for normal text.
 */
export function buttonTextColor(background: string) {
  const dark = '#000000';
  return contrastRatio('#ffffff', background) >= contrastRatio(dark, background) ? '#ffffff' : dark;
}

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

export interface RenderedCredentialMail {
  subject: string;
  html: string;
  text: string;
  /** The inline images the HTML references by `cid:` (none when images are data URIs). */
  attachments: { filename: string; content: Buffer; contentType: string; cid: string }[];
}

const extensionOf: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * The credential e-mail: subject, HTML and text parts, in `content.locale`. `images: 'inline'` references
 * the QR code and the logo as inline attachments (`cid:`, RFC 2392) as an e-mail must; `'data-uri'` embeds
 * them, for the preview shown in the console (an iframe cannot resolve `cid:`).
 */
export async function renderCredentialMail(
  content: CredentialMailContent,
  images: 'inline' | 'data-uri',
): Promise<RenderedCredentialMail> {
  const locale = toCredentialMailLocale(content.locale);
  const m = MAIL_TEXT[locale];
  const qr = await QRCode.toBuffer(content.qrContent, { type: 'png', width: 240, margin: 1 });
  const name = recipientName(locale, content.recipientFirstName, content.recipientLastName);
  const expires = formatExpiry(locale, content.offerExpiresAt);
  const organization = escapeHtml(content.organizationName);
  const credential = escapeHtml(content.credentialName);
  const description = content.credentialDescription?.trim() || null;
  const message = content.message?.trim() || null;
  const subject = m.subject(content.organizationName, content.credentialName);
  const brand = brandColorOf(content.brandColor);
  const brandText = buttonTextColor(brand);
  const logo = content.organizationLogo ?? null;
  const attachments: RenderedCredentialMail['attachments'] = [];
  const source = (cid: string, filename: string, bytes: Buffer, contentType: string) => {
    if (images === 'data-uri') return `data:${contentType};base64,${bytes.toString('base64')}`;
    attachments.push({ filename, content: bytes, contentType, cid });
    return `cid:${cid}`;
  };
  const logoSrc = !logo
    ? null
    : 'url' in logo
      ? /^https?:\/\//.test(logo.url)
        ? logo.url
        : null
      : extensionOf[logo.contentType]
        ? source(LOGO_CID, `logo.${extensionOf[logo.contentType]}`, logo.content, logo.contentType)
        : null;
  const qrSrc = source(QR_CID, 'credential-offer-qr.png', qr, 'image/png');
  const text = [
    m.greeting(name),
    '',
    m.issued(content.organizationName, content.credentialName),
    ...(description ? ['', description] : []),
    ...(message ? ['', message] : []),
    '',
    m.claimLine(content.claimUrl),
    '',
    m.expires(expires),
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px 12px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;border-top:4px solid ${brand}">
<tr><td style="padding:24px">
${logoSrc ? `<img src="${escapeHtml(logoSrc)}" alt="${organization}" width="48" height="48" style="display:block;border-radius:8px;margin:0 0 12px;object-fit:contain" data-role="logo">` : ''}
<p style="font-size:14px;color:#52606d;margin:0 0 8px">${organization}</p>
<h1 style="font-size:20px;margin:0 0 16px">${credential}</h1>
<p style="margin:0 0 16px" data-role="greeting">${escapeHtml(m.greeting(name))}</p>
<p style="margin:0 0 16px">${m.issued(organization, credential)}</p>
${description ? `<p style="margin:0 0 16px;color:#52606d;white-space:pre-line">${escapeHtml(description)}</p>` : ''}
${message ? `<p style="margin:0 0 16px;white-space:pre-line;border-left:3px solid ${brand};padding-left:12px" data-role="message">${escapeHtml(message)}</p>` : ''}
<p style="margin:24px 0"><a href="${escapeHtml(content.claimUrl)}" data-role="claim" style="display:inline-block;background:${brand};color:${brandText};text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:6px">${m.claimButton}</a></p>
<p style="margin:0 0 8px">${m.scan}</p>
<p style="margin:0 0 16px"><img src="${escapeHtml(qrSrc)}" width="240" height="240" alt="${m.qrAlt}" style="display:block;max-width:100%;height:auto"></p>
<p style="font-size:12px;color:#52606d;margin:0" data-role="expiry">${escapeHtml(m.expires(expires))}</p>
</td></tr></table></body></html>`;
  return { subject, html, text, attachments };
}

/** The e-mail of one delivery, ready for the mailer: inline images, a stable Message-ID. */
export async function credentialMail(input: CredentialMailInput) {
  const claimUrl = `${input.publicUrl.replace(/\/$/, '')}/connect/credential/${input.credentialId}`;
  const rendered = await renderCredentialMail({ ...input, claimUrl, qrContent: input.connectionUrl }, 'inline');
  return {
    to: input.to,
    ...rendered,
    messageId: deliveryMessageId(input.deliveryId, input.publicUrl),
  };
}
