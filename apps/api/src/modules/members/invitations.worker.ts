import type { AppContext } from '../../context.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { type InvitationDeps, type InvitationMailJob, sendInvitationMail } from './invitations.service.ts';

export const INVITATION_MAIL_QUEUE = 'invitations.mail';

/** What the invitation routes need: the job is queued once per link (singleton key: invitation and link). */
export function invitationDeps(ctx: AppContext): InvitationDeps {
  return {
    db: ctx.database.db,
    publicUrl: ctx.config.publicUrl,
    secretBox: ctx.secretBox,
    enqueueMail: async (job) => {
      await ctx.jobs.send<InvitationMailJob>(INVITATION_MAIL_QUEUE, job, {
        singletonKey: `${job.invitationId}:${job.sealedToken.slice(-16)}`,
      });
    },
  };
}

/** One job per invitation link: a retry (with backoff) or a restart sends only that one. */
export async function registerInvitationMailWorker(ctx: AppContext, mailer: Pick<Mailer, 'send'>) {
  const deps = { db: ctx.database.db, publicUrl: ctx.config.publicUrl, secretBox: ctx.secretBox, mailer };
  await ctx.jobs.register<InvitationMailJob>(INVITATION_MAIL_QUEUE, async (job) => {
    await sendInvitationMail(deps, job);
  });
}
