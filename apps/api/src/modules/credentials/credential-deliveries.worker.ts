import type { AppContext } from '../../context.ts';
import { deliver } from './credential-deliveries.service.ts';

export const CREDENTIAL_DELIVERY_QUEUE = 'credentials.delivery';

export interface CredentialDeliveryJob {
  deliveryId: string;
}

/** One job per delivery: a retry (with backoff) or a restart resends only that one, and only if not SENT. */
export async function registerCredentialDeliveryWorker(ctx: AppContext) {
  const deps = ctx.deps.deliver;
  await ctx.jobs.register<CredentialDeliveryJob>(CREDENTIAL_DELIVERY_QUEUE, async (job) => {
    await deliver(deps, job.deliveryId);
  });
}
