import type { Language } from '@cp/contracts';

/**
 * The authorization endpoint's own small pages (wallet-initiated issuance): the recipient's e-mail address, the
 * one-time code, and the outcomes that end the flow. Server-rendered, no script, in the platform's languages.
 */

export type AuthorizeMessage =
  | 'invalid_request'
  | 'session'
  | 'code_sent'
  | 'wrong_code'
  | 'start_again'
  | 'too_many_codes'
  | 'nothing_claimable';

interface Texts {
  title: string;
  emailIntro: string;
  emailLabel: string;
  sendCode: string;
  codeLabel: string;
  confirm: string;
  /** `{app}`: the redirect URI's origin. */
  recipient: string;
  /** `{provider}`: the wallet provider whose attestation was checked. */
  attestedBy: string;
  notYou: string;
  messages: Record<AuthorizeMessage, string>;
}

const TEXTS: Record<Language, Texts> = {
  en: {
    title: 'Receive your credentials',
    emailIntro:
      'Enter the e-mail address your credentials were issued to. We will send a 6-digit code to that address.',
    emailLabel: 'E-mail address',
    sendCode: 'Send code',
    codeLabel: '6-digit code',
    confirm: 'Confirm',
    recipient: 'Your credentials will be sent to the app at {app}.',
    attestedBy: 'That wallet app is vouched for by {provider}.',
    notYou:
      'If you did not start this from that app yourself, close this page: someone else may be trying to receive your credentials.',
    messages: {
      invalid_request: 'This sign-in link is not valid, has expired or was already used. Start again from your wallet.',
      session: 'This page has expired or was opened in another browser. Start again from your wallet.',
      code_sent: 'If the address is right, a 6-digit code is on its way to it. It is valid for 10 minutes.',
      wrong_code: 'That code is not right. Attempts left: {n}.',
      start_again: 'Too many wrong codes, or the code expired. Start again from your wallet.',
      too_many_codes: 'Too many codes were sent. Wait a while, then start again from your wallet.',
      nothing_claimable:
        'No credentials from this issuer are waiting for this address. Credentials already received, revoked or expired cannot be received again: ask the issuer for a new one.',
    },
  },
  ja: {
    title: '証明書を受け取る',
    emailIntro: '証明書が発行されたメールアドレスを入力してください。そのアドレスに6桁のコードを送信します。',
    emailLabel: 'メールアドレス',
    sendCode: 'コードを送信',
    codeLabel: '6桁のコード',
    confirm: '確認',
    recipient: '証明書は {app} のアプリに送られます。',
    attestedBy: 'このウォレットアプリは {provider} によって保証されています。',
    notYou:
      'ご自身でそのアプリから始めたのでなければ、このページを閉じてください。他の人があなたの証明書を受け取ろうとしている可能性があります。',
    messages: {
      invalid_request: 'このリンクは無効か、期限切れか、すでに使用されています。ウォレットからやり直してください。',
      session: 'このページは期限切れか、別のブラウザで開かれました。ウォレットからやり直してください。',
      code_sent: 'アドレスが正しければ、6桁のコードが送信されます。有効期間は10分です。',
      wrong_code: 'コードが正しくありません。残りの試行回数: {n}。',
      start_again: '誤ったコードが多すぎるか、コードの有効期限が切れました。ウォレットからやり直してください。',
      too_many_codes: '送信されたコードが多すぎます。しばらく待ってから、ウォレットからやり直してください。',
      nothing_claimable:
        'このアドレス宛てに受け取り待ちの証明書はありません。受け取り済み・失効・期限切れの証明書は再度受け取れません。発行者に新しい証明書を依頼してください。',
    },
  },
  es: {
    title: 'Recibir sus credenciales',
    emailIntro:
      'Introduzca la dirección de correo a la que se emitieron sus credenciales. Le enviaremos un código de 6 dígitos.',
    emailLabel: 'Correo electrónico',
    sendCode: 'Enviar código',
    codeLabel: 'Código de 6 dígitos',
    confirm: 'Confirmar',
    recipient: 'Sus credenciales se enviarán a la aplicación en {app}.',
    attestedBy: 'Esa cartera está avalada por {provider}.',
    notYou:
      'Si no empezó usted mismo desde esa aplicación, cierre esta página: otra persona podría estar intentando recibir sus credenciales.',
    messages: {
      invalid_request: 'Este enlace no es válido, ha caducado o ya se usó. Vuelva a empezar desde su cartera.',
      session: 'Esta página ha caducado o se abrió en otro navegador. Vuelva a empezar desde su cartera.',
      code_sent: 'Si la dirección es correcta, recibirá un código de 6 dígitos. Es válido durante 10 minutos.',
      wrong_code: 'El código no es correcto. Intentos restantes: {n}.',
      start_again: 'Demasiados códigos erróneos, o el código caducó. Vuelva a empezar desde su cartera.',
      too_many_codes: 'Se enviaron demasiados códigos. Espere un rato y vuelva a empezar desde su cartera.',
      nothing_claimable:
        'No hay credenciales de este emisor pendientes para esta dirección. Las credenciales ya recibidas, revocadas o caducadas no se pueden recibir de nuevo: pida una nueva al emisor.',
    },
  },
  ko: {
    title: '자격 증명 받기',
    emailIntro: '자격 증명이 발급된 이메일 주소를 입력하세요. 해당 주소로 6자리 코드를 보내 드립니다.',
    emailLabel: '이메일 주소',
    sendCode: '코드 보내기',
    codeLabel: '6자리 코드',
    confirm: '확인',
    recipient: '자격 증명은 {app}의 앱으로 전송됩니다.',
    attestedBy: '이 지갑 앱은 {provider}이(가) 보증합니다.',
    notYou:
      '직접 그 앱에서 시작하지 않았다면 이 페이지를 닫으세요. 다른 사람이 회원님의 자격 증명을 받으려 하는 것일 수 있습니다.',
    messages: {
      invalid_request: '이 링크는 유효하지 않거나 만료되었거나 이미 사용되었습니다. 지갑에서 다시 시작하세요.',
      session: '이 페이지가 만료되었거나 다른 브라우저에서 열렸습니다. 지갑에서 다시 시작하세요.',
      code_sent: '주소가 올바르면 6자리 코드가 전송됩니다. 10분 동안 유효합니다.',
      wrong_code: '코드가 올바르지 않습니다. 남은 시도 횟수: {n}.',
      start_again: '잘못된 코드가 너무 많거나 코드가 만료되었습니다. 지갑에서 다시 시작하세요.',
      too_many_codes: '코드가 너무 많이 전송되었습니다. 잠시 후 지갑에서 다시 시작하세요.',
      nothing_claimable:
        '이 주소로 받을 수 있는 이 발급자의 자격 증명이 없습니다. 이미 받았거나 취소되었거나 만료된 자격 증명은 다시 받을 수 없습니다. 발급자에게 새 자격 증명을 요청하세요.',
    },
  },
};

/** The one-time code e-mail, in the language of the page it was asked from. */
export const EMAIL_CODE_MAIL: Record<
  Language,
  { subject: (issuer: string) => string; text: (code: string, issuer: string) => string }
> = {
  en: {
    subject: (issuer) => `Your code to receive credentials from ${issuer}`,
    text: (code, issuer) =>
      `Your code is ${code}\n\nEnter it on the page your wallet opened to receive your credentials from ${issuer}. It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.`,
  },
  ja: {
    subject: (issuer) => `${issuer} から証明書を受け取るためのコード`,
    text: (code, issuer) =>
      `コード: ${code}\n\nウォレットが開いたページに入力して、${issuer} から証明書を受け取ってください。有効期間は10分です。心当たりがない場合は、このメールを無視してください。`,
  },
  es: {
    subject: (issuer) => `Su código para recibir credenciales de ${issuer}`,
    text: (code, issuer) =>
      `Su código es ${code}\n\nIntrodúzcalo en la página que abrió su cartera para recibir sus credenciales de ${issuer}. Es válido durante 10 minutos. Si no lo pidió, ignore este correo.`,
  },
  ko: {
    subject: (issuer) => `${issuer}의 자격 증명을 받기 위한 코드`,
    text: (code, issuer) =>
      `코드: ${code}\n\n지갑이 연 페이지에 입력하여 ${issuer}의 자격 증명을 받으세요. 10분 동안 유효합니다. 요청하지 않았다면 이 이메일을 무시하세요.`,
  },
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(language: Language, organizationName: string, body: string) {
  const texts = TEXTS[language];
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(texts.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:1rem 0 .25rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}.message{padding:.75rem;background:#f3f4f6;border-radius:4px}
.recipient{padding:.75rem;border:1px solid #d97706;border-radius:4px;overflow-wrap:anywhere}.hint{font-size:.875rem;color:#4b5563}</style>
</head><body><main><h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(organizationName)}</p>${body}</main></body></html>`;
}

const messageHtml = (language: Language, message: AuthorizeMessage | undefined, attemptsLeft?: number) =>
  message
    ? `<p class="message" role="status">${escapeHtml(TEXTS[language].messages[message].replace('{n}', String(attemptsLeft ?? 0)))}</p>`
    : '';

/**
 * Where the credentials go, as the holder can check it: the redirect URI's origin (scheme and host; a custom
 * scheme without a host is shown as the scheme), and the attested wallet provider when there is one.
 */
export interface PageRecipient {
  redirectUri: string;
  walletProviderName: string | null;
}

export function recipientOrigin(redirectUri: string) {
  const url = new URL(redirectUri);
  if (url.origin !== 'null') return url.origin;
  return url.host ? `${url.protocol}//${url.host}` : url.protocol;
}

function recipientHtml(language: Language, recipient: PageRecipient) {
  const texts = TEXTS[language];
  const app = `<strong data-recipient-origin>${escapeHtml(recipientOrigin(recipient.redirectUri))}</strong>`;
  const provider = recipient.walletProviderName
    ? ` ${escapeHtml(texts.attestedBy).replace('{provider}', `<strong>${escapeHtml(recipient.walletProviderName)}</strong>`)}`
    : '';
  return `<p class="recipient">${escapeHtml(texts.recipient).replace('{app}', app)}${provider}</p>
<p class="hint">${escapeHtml(texts.notYou)}</p>`;
}

export interface FormPage {
  language: Language;
  organizationName: string;
  /** Where the form posts (absolute URL of this issuer's endpoint). */
  action: string;
  /** The flow's secret: also in the flow cookie (double submit against CSRF). */
  flow: string;
  message?: AuthorizeMessage;
  attemptsLeft?: number;
  recipient: PageRecipient;
}

export function emailPage(input: FormPage) {
  const texts = TEXTS[input.language];
  return page(
    input.language,
    input.organizationName,
    `${messageHtml(input.language, input.message)}${recipientHtml(input.language, input.recipient)}<p>${escapeHtml(texts.emailIntro)}</p>
<form method="post" action="${escapeHtml(input.action)}"><input type="hidden" name="flow" value="${escapeHtml(input.flow)}">
<input type="hidden" name="lang" value="${input.language}">
<label for="email">${escapeHtml(texts.emailLabel)}</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320">
<button type="submit">${escapeHtml(texts.sendCode)}</button></form>`,
  );
}

export function codePage(input: FormPage) {
  const texts = TEXTS[input.language];
  return page(
    input.language,
    input.organizationName,
    `${messageHtml(input.language, input.message, input.attemptsLeft)}${recipientHtml(input.language, input.recipient)}
<form method="post" action="${escapeHtml(input.action)}"><input type="hidden" name="flow" value="${escapeHtml(input.flow)}">
<input type="hidden" name="lang" value="${input.language}">
<label for="code">${escapeHtml(texts.codeLabel)}</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxlength="6">
<button type="submit">${escapeHtml(texts.confirm)}</button></form>`,
  );
}

export function messagePage(language: Language, organizationName: string, message: AuthorizeMessage) {
  return page(language, organizationName, messageHtml(language, message));
}
