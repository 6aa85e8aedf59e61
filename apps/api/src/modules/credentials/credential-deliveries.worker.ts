import type { AppContext } from '../../context.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { deliver } from './credential-deliveries.service.ts';
import { credentialDeps } from './credentials.routes.ts';

export const CREDENTIAL_DELIVERY_QUEUE = 'credentials.delivery';

export interface CredentialDeliveryJob {
  deliveryId: string;
}

export function deliveryDeps(ctx: AppContext) {
  return {
    db: ctx.database.db,
    enqueue: async (deliveryId: string) => {
      await ctx.jobs.send<CredentialDeliveryJob>(
        CREDENTIAL_DELIVERY_QUEUE,
        { deliveryId },
        { singletonKey: deliveryId },
      );
    },
  };
}

/** One job per delivery: a retry (with backoff) or a restart resends only that one, and only if not SENT. */
export async function registerCredentialDeliveryWorker(ctx: AppContext, mailer: Pick<Mailer, 'send'>) {
  const deps = { db: ctx.database.db, storage: ctx.storage, mailer, credentials: credentialDeps(ctx) };
  await ctx.jobs.register<CredentialDeliveryJob>(CREDENTIAL_DELIVERY_QUEUE, async (job) => {
    await deliver(deps, job.deliveryId);
  });
}
