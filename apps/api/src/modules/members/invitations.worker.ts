import type { AppContext } from '../../context.ts';
import { type InvitationMailJob, sendInvitationMail } from './invitations.service.ts';

export const INVITATION_MAIL_QUEUE = 'invitations.mail';

/** One job per invitation link: a retry (with backoff) or a restart sends only that one. */
export async function registerInvitationMailWorker(ctx: AppContext) {
  const deps = ctx.deps.invitationMail;
  await ctx.jobs.register<InvitationMailJob>(INVITATION_MAIL_QUEUE, async (job) => {
    await sendInvitationMail(deps, job);
  });
}
