import type { Mailer } from '../../mail/mailer.ts';

export const KYB_DECISION_MAIL_QUEUE = 'kyb.decision-mail';

/** One e-mail to one member: a retry resends only that one. */
export interface KybDecisionMailJob {
  to: string;
  firstName: string | null;
  organizationId: string;
  organizationName: string;
  status: 'APPROVED' | 'REJECTED';
  reason: string | null;
}

export function kybDecisionMail(job: KybDecisionMailJob, publicUrl: string) {
  const greeting = job.firstName ? `Hello ${job.firstName},` : 'Hello,';
  const link = `${publicUrl.replace(/\/$/, '')}/organization/${job.organizationId}`;
  if (job.status === 'APPROVED') {
    return {
      to: job.to,
      subject: `${job.organizationName} is verified`,
      text: [
        greeting,
        '',
        `The verification of ${job.organizationName} is approved: your organization can now issue credentials.`,
        '',
        link,
      ].join('\n'),
    };
  }
  return {
    to: job.to,
    subject: `${job.organizationName}: verification not approved`,
    text: [
      greeting,
      '',
      `The verification of ${job.organizationName} was not approved.`,
      `Reason: ${job.reason ?? '-'}`,
      '',
      'You can send new documents and apply again from the console; our team will also contact you by e-mail.',
      '',
      link,
    ].join('\n'),
  };
}

export function sendKybDecisionMail(mailer: Mailer, publicUrl: string) {
  return async (job: KybDecisionMailJob) => {
    await mailer.send(kybDecisionMail(job, publicUrl));
  };
}
