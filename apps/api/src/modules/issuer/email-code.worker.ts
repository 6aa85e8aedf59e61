import type { AppContext } from '../../context.ts';
import { type EmailCodeJob, sendEmailCode } from './authorization-code.service.ts';

export const EMAIL_CODE_QUEUE = 'issuer.email-code';

/** One job per code sent: the wallet-initiated flow's one-time code, e-mailed to the address the holder gave. */
export async function registerEmailCodeWorker(ctx: AppContext) {
  const deps = ctx.deps.issuerEmailCode;
  await ctx.jobs.register<EmailCodeJob>(EMAIL_CODE_QUEUE, async (job) => {
    await sendEmailCode(deps, job);
  });
}
