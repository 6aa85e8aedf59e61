import { type CredentialMailLocale, credentialMailLocales } from '@cp/contracts';
import type { Mailer } from '../../mail/mailer.ts';

export const KYB_DECISION_MAIL_QUEUE = 'kyb.decision-mail';

/** One e-mail to one member: a retry resends only that one. */
export interface KybDecisionMailJob {
  to: string;
  firstName: string | null;
  /** The member's language (`users.locale`); absent or unknown: English. Jobs queued before it existed have none. */
  locale?: string | null;
  organizationId: string;
  organizationName: string;
  status: 'APPROVED' | 'REJECTED';
  reason: string | null;
}

interface KybMailText {
  greeting: (firstName: string | null) => string;
  approvedSubject: (organization: string) => string;
  approvedBody: (organization: string) => string;
  rejectedSubject: (organization: string) => string;
  rejectedBody: (organization: string) => string;
  reason: (reason: string) => string;
  applyAgain: string;
  open: string;
}

/**
 * The decision e-mail in each member's language. The organization's name and the reviewer's reason are
 * quoted as written (never translated).
 */
const KYB_MAIL_TEXT: Record<CredentialMailLocale, KybMailText> = {
  en: {
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    approvedSubject: (organization) => `${organization} is verified`,
    approvedBody: (organization) =>
      `Good news: the verification of ${organization} is approved. Your organization can now issue credentials.`,
    rejectedSubject: (organization) => `${organization}: verification not approved`,
    rejectedBody: (organization) => `We could not approve the verification of ${organization}.`,
    reason: (reason) => `Reason: ${reason}`,
    applyAgain:
      'You can send new documents and apply again from the console; our team will also contact you by e-mail.',
    open: 'Open your organization in the console:',
  },
  ja: {
    greeting: (name) => (name ? `${name} 様` : 'ご担当者様'),
    approvedSubject: (organization) => `${organization}の組織認証が完了しました`,
    approvedBody: (organization) =>
      `${organization}の組織認証が承認されました。これで証明書を発行できるようになりました。`,
    rejectedSubject: (organization) => `${organization}の組織認証は承認されませんでした`,
    rejectedBody: (organization) => `申し訳ありませんが、${organization}の組織認証を承認できませんでした。`,
    reason: (reason) => `理由：${reason}`,
    applyAgain:
      'コンソールから新しい書類を提出して、再度お申し込みいただけます。担当チームからもメールでご連絡いたします。',
    open: 'コンソールで組織を開く：',
  },
  es: {
    greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
    approvedSubject: (organization) => `${organization} ya está verificada`,
    approvedBody: (organization) =>
      `¡Buenas noticias! Hemos aprobado la verificación de ${organization}. Tu organización ya puede emitir credenciales.`,
    rejectedSubject: (organization) => `${organization}: verificación no aprobada`,
    rejectedBody: (organization) => `No hemos podido aprobar la verificación de ${organization}.`,
    reason: (reason) => `Motivo: ${reason}`,
    applyAgain:
      'Puedes enviar documentos nuevos y volver a solicitarla desde la consola; nuestro equipo también se pondrá en contacto contigo por correo electrónico.',
    open: 'Abre tu organización en la consola:',
  },
  ko: {
    greeting: (name) => (name ? `${name}님, 안녕하세요.` : '안녕하세요.'),
    approvedSubject: (organization) => `${organization} 조직 인증이 완료되었습니다`,
    approvedBody: (organization) =>
      `${organization}의 조직 인증이 승인되었습니다. 이제 자격 증명을 발급할 수 있습니다.`,
    rejectedSubject: (organization) => `${organization} 조직 인증이 승인되지 않았습니다`,
    rejectedBody: (organization) => `죄송하지만 ${organization}의 조직 인증을 승인하지 못했습니다.`,
    reason: (reason) => `사유: ${reason}`,
    applyAgain: '콘솔에서 새 서류를 제출하여 다시 신청할 수 있습니다. 담당 팀에서도 이메일로 연락드리겠습니다.',
    open: '콘솔에서 조직 열기:',
  },
};

export function kybDecisionMail(job: KybDecisionMailJob, publicUrl: string) {
  const locale = credentialMailLocales.find((l) => l === job.locale) ?? 'en';
  const m = KYB_MAIL_TEXT[locale];
  const link = `${publicUrl.replace(/\/$/, '')}/organization/${job.organizationId}`;
  if (job.status === 'APPROVED') {
    return {
      to: job.to,
      subject: m.approvedSubject(job.organizationName),
      text: [m.greeting(job.firstName), '', m.approvedBody(job.organizationName), '', m.open, link].join('\n'),
    };
  }
  return {
    to: job.to,
    subject: m.rejectedSubject(job.organizationName),
    text: [
      m.greeting(job.firstName),
      '',
      m.rejectedBody(job.organizationName),
      m.reason(job.reason ?? '-'),
      '',
      m.applyAgain,
      '',
      m.open,
      link,
    ].join('\n'),
  };
}

export function sendKybDecisionMail(mailer: Mailer, publicUrl: string) {
  return async (job: KybDecisionMailJob) => {
    await mailer.send(kybDecisionMail(job, publicUrl));
  };
}
