import type { CredentialMailLocale, MemberRole } from '@cp/contracts';
import { formatExpiry, toCredentialMailLocale } from '../credentials/credential-mail.ts';

/** What the invitation e-mail needs; `locale` is the inviter's console language. */
export interface InvitationMailInput {
  invitationId: string;
  /** Distinguishes the mails of one invitation (each resend has a new token): the Message-ID's suffix. */
  tokenTag: string;
  locale: CredentialMailLocale;
  to: string;
  organizationName: string;
  organizationLogoUrl: string | null;
  inviter: { firstName: string | null; lastName: string | null } | null;
  role: MemberRole;
  /** `<PUBLIC_URL>/invitations/<token>` */
  url: string;
  expiresAt: Date;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const CJK_NAME = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]/;

/** The inviter's name as each language writes it: family name first for CJK names in ja and ko. */
function personName(locale: CredentialMailLocale, first: string | null, last: string | null) {
  const firstName = first?.trim() ?? '';
  const lastName = last?.trim() ?? '';
  const isCjk = CJK_NAME.test(firstName) || CJK_NAME.test(lastName);
  if ((locale === 'ja' || locale === 'ko') && isCjk) {
    return (locale === 'ko' ? `${lastName}${firstName}` : `${lastName} ${firstName}`).trim();
  }
  return `${firstName} ${lastName}`.trim();
}

interface MailText {
  role: Record<MemberRole, string>;
  subject: (organization: string, inviter: string | null) => string;
  invited: (organization: string, inviter: string | null, role: string) => string;
  roleAdmin: string;
  roleMember: string;
  button: string;
  linkLine: (url: string) => string;
  expires: (date: string) => string;
  ignore: string;
}

/**
 * The e-mail in each language. Organization and person names are the sender's and never translated; the
 * caller escapes them for HTML, so these templates add no markup.
 */
const MAIL_TEXT: Record<CredentialMailLocale, MailText> = {
  en: {
    role: { admin: 'Admin', member: 'Member' },
    subject: (organization, inviter) =>
      inviter ? `${inviter} invited you to join ${organization}` : `You're invited to join ${organization}`,
    invited: (organization, inviter, role) =>
      inviter
        ? `${inviter} invited you to join ${organization} as ${role}.`
        : `You're invited to join ${organization} as ${role}.`,
    roleAdmin: 'Admins manage members, API keys, webhooks, trust anchors, the organization profile and verification.',
    roleMember: 'Members work with schemas, issue credentials and run verifications.',
    button: 'Accept the invitation',
    linkLine: (url) => `Open the invitation: ${url}`,
    expires: (date) => `The invitation expires on ${date}.`,
    ignore: "If you weren't expecting this invitation, you can ignore this e-mail.",
  },
  ja: {
    role: { admin: '管理者', member: 'メンバー' },
    subject: (organization, inviter) =>
      inviter ? `${inviter}さんから${organization}への招待が届きました` : `${organization}への招待が届きました`,
    invited: (organization, inviter, role) =>
      inviter
        ? `${inviter}さんから、${organization}に${role}として参加するよう招待されました。`
        : `${organization}に${role}として参加するよう招待されました。`,
    roleAdmin:
      '管理者は、メンバー、APIキー、Webhook、トラストアンカー、組織プロフィール、組織の本人確認を管理できます。',
    roleMember: 'メンバーは、スキーマの作成、証明書の発行、検証の実施ができます。',
    button: '招待を承諾する',
    linkLine: (url) => `招待を開く：${url}`,
    expires: (date) => `招待の有効期限は${date}です。`,
    ignore: 'この招待に心当たりがない場合は、このメールを破棄してください。',
  },
  es: {
    role: { admin: 'administrador', member: 'miembro' },
    subject: (organization, inviter) =>
      inviter ? `${inviter} te ha invitado a unirte a ${organization}` : `Te han invitado a unirte a ${organization}`,
    invited: (organization, inviter, role) =>
      inviter
        ? `${inviter} te ha invitado a unirte a ${organization} con el rol de ${role}.`
        : `Te han invitado a unirte a ${organization} con el rol de ${role}.`,
    roleAdmin:
      'Los administradores gestionan los miembros, las claves de API, los webhooks, los anclajes de confianza, el perfil de la organización y su verificación.',
    roleMember: 'Los miembros trabajan con esquemas, emiten credenciales y realizan verificaciones.',
    button: 'Aceptar la invitación',
    linkLine: (url) => `Abre la invitación: ${url}`,
    expires: (date) => `La invitación caduca el ${date}.`,
    ignore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
  },
  ko: {
    role: { admin: '관리자', member: '멤버' },
    subject: (organization, inviter) =>
      inviter ? `${inviter}님이 ${organization}에 초대했습니다` : `${organization}에 초대되었습니다`,
    // Both role names end in a vowel, so the particle is 로 (관리자로, 멤버로).
    invited: (organization, inviter, role) =>
      inviter
        ? `${inviter}님이 회원님을 ${organization}의 ${role}로 초대했습니다.`
        : `${organization}의 ${role}로 초대되었습니다.`,
    roleAdmin: '관리자는 멤버, API 키, 웹훅, 신뢰 앵커, 조직 프로필과 조직 인증을 관리합니다.',
    roleMember: '멤버는 스키마를 다루고 자격 증명을 발급하며 검증을 진행합니다.',
    button: '초대 수락하기',
    linkLine: (url) => `초대 열기: ${url}`,
    expires: (date) => `초대는 ${date}에 만료됩니다.`,
    ignore: '초대받을 일이 없었다면 이 메일은 무시하셔도 됩니다.',
  },
};

/** A stable Message-ID per invitation link: a retried send is recognizably the same mail. */
function invitationMessageId(invitationId: string, tokenTag: string, url: string) {
  let host = 'credential-platform.local';
  try {
    host = new URL(url).hostname || host;
  } catch {
    // keep the default host
  }
  return `<invitation-${invitationId}-${tokenTag}@${host}>`;
}

export function invitationMail(input: InvitationMailInput) {
  const locale = toCredentialMailLocale(input.locale);
  const m = MAIL_TEXT[locale];
  const inviter = input.inviter ? personName(locale, input.inviter.firstName, input.inviter.lastName) || null : null;
  const role = m.role[input.role];
  const roleText = input.role === 'admin' ? m.roleAdmin : m.roleMember;
  const expires = formatExpiry(locale, input.expiresAt);
  const organization = escapeHtml(input.organizationName);
  const text = [
    m.invited(input.organizationName, inviter, role),
    roleText,
    '',
    m.linkLine(input.url),
    '',
    m.expires(expires),
    m.ignore,
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}"><body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
${input.organizationLogoUrl ? `<img src="${escapeHtml(input.organizationLogoUrl)}" alt="${organization}" width="48" height="48" style="display:block;border-radius:8px;margin:0 0 12px">` : ''}
<h1 style="font-size:20px;margin:0 0 16px">${organization}</h1>
<p style="margin:0 0 8px">${m.invited(organization, inviter ? escapeHtml(inviter) : null, escapeHtml(role))}</p>
<p style="margin:0 0 16px;color:#52606d">${roleText}</p>
<p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#1e5bd8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px">${m.button}</a></p>
<p style="font-size:12px;color:#7b8794;margin:0 0 4px">${m.expires(expires)}</p>
<p style="font-size:12px;color:#7b8794;margin:0">${m.ignore}</p>
</td></tr></table></body></html>`;
  return {
    to: input.to,
    subject: m.subject(input.organizationName, inviter),
    text,
    html,
    messageId: invitationMessageId(input.invitationId, input.tokenTag, input.url),
  };
}
