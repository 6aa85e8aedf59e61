import type { Database, SecretBox } from '@cp/db';
import type { AppContext } from '../../context.ts';
import type { Logger } from '../../lib/logger.ts';
import { OutboundError, outboundRequest } from '../../lib/outbound-http.ts';
import { webhookHeaders } from './webhook-signature.ts';
import * as repository from './webhooks.repository.ts';
import {
  WEBHOOK_DELIVERY_QUEUE,
  type WebhookDeliveryJob,
  type WebhookDeps,
  webhookSecretName,
} from './webhooks.service.ts';

export const WEBHOOK_SWEEP_QUEUE = 'webhooks.sweep';

/** Waits between attempts: 10 s, 30 s, 2 min, 10 min, 1 h, 6 h — so 7 attempts in all over about 7 h. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [10_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];

export interface WebhookWorkerSettings {
  /** The wait before each retry; the number of attempts is its length + 1. */
  retryDelaysMs: number[];
  /** One attempt's time limit (connection, request and response headers). */
  timeoutMs: number;
  /**
   * How long a claimed attempt holds the delivery. Longer than `timeoutMs`: if the process dies mid-attempt,
   * the sweep queues the delivery again once the lease (plus `sweepGraceMs`) has passed.
   */
  leaseMs: number;
  /** A PENDING delivery this far past its due time has lost its job: the sweep queues it again. */
  sweepGraceMs: number;
  userAgent: string;
}

export const defaultWebhookWorkerSettings = (): WebhookWorkerSettings => ({
  retryDelaysMs: [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS],
  timeoutMs: 10_000,
  leaseMs: 60_000,
  sweepGraceMs: 60_000,
  userAgent: 'CredentialPlatform-Webhooks/1.0',
});

export interface DeliverWebhookDeps {
  db: Database;
  secretBox: SecretBox;
  /** Queues a delivery's next attempt. */
  enqueue: WebhookDeps['enqueue'];
  logger: Pick<Logger, 'info' | 'warn'>;
  settings: WebhookWorkerSettings;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORKS: may endpoints resolve to loopback/private addresses (development, tests)? */
  allowPrivateNetworks: boolean;
  /** Host names resolved at once by the system resolver (config `outbound.lookupsAtOnce`). */
  lookupsAtOnce?: number;
}

const ERROR_MAX = 200;

type AttemptResult = { statusCode: number; error: null } | { statusCode: number | null; error: string };

/**
 * One POST: no redirects followed, a time limit, the response body discarded, and (unless private
 * networks are allowed) only to public addresses, checked at connection time. Never throws.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivateNetworks: boolean; lookupsAtOnce?: number },
): Promise<AttemptResult> {
  try {
    const response = await outboundRequest(
      url,
      { allowPrivateNetworks: options.allowPrivateNetworks, allowHttp: true, lookupsAtOnce: options.lookupsAtOnce },
      { method: 'POST', headers, body, timeoutMs: options.timeoutMs, maxBytes: 0 },
    );
    if (response.status >= 200 && response.status < 300) return { statusCode: response.status, error: null };
    const error =
      response.status >= 300 && response.status < 400
        ? `HTTP ${response.status} (redirects are not followed)`
        : `HTTP ${response.status}`;
    return { statusCode: response.status, error };
  } catch (err) {
    // OutboundError messages are short and name no URL, header or body content.
    const error = err instanceof OutboundError ? err.message : 'Connection failed';
    return { statusCode: null, error: error.slice(0, ERROR_MAX) };
  }
}

/** The JSON body, members in the documented order (the jsonb column does not keep key order). */
function eventBody(payload: Record<string, unknown>): string {
  return JSON.stringify({
    id: payload.id,
    type: payload.type,
    created_at: payload.created_at,
    organization_id: payload.organization_id,
    data: payload.data,
  });
}

/**
 * One attempt of one delivery. The attempt is claimed atomically (PENDING, due, endpoint enabled and
 * live) and counted before the request, so two jobs for the same delivery never both send, and a delivery
 * stops after the last attempt even across crashes. A 2xx marks it SUCCEEDED; anything else stores the
 * status/error and either queues the next attempt after the schedule's delay or marks it FAILED.
 * Receivers may still see an event twice (e.g. a 2xx that arrives after the time limit): the
 * `webhook-id` header is the same on every attempt so they can drop duplicates.
 */
export async function deliverWebhook(deps: DeliverWebhookDeps, deliveryId: string) {
  const found = await repository.findDeliveryWithWebhook(deps.db, deliveryId);
  if (found?.delivery.status !== 'PENDING') return 'skipped' as const;
  if (found.webhook.deletedAt || !found.webhook.enabled) {
    await repository.cancelDelivery(
      deps.db,
      deliveryId,
      found.webhook.deletedAt ? 'The endpoint was deleted.' : 'The endpoint is disabled.',
    );
    return 'cancelled' as const;
  }
  const claimed = await repository.claimDelivery(deps.db, deliveryId, deps.settings.leaseMs);
  if (!claimed) return 'skipped' as const; // not due yet, being attempted elsewhere, or just disabled
  const webhook = found.webhook;
  const attempt = claimed.attempts;

  let result: AttemptResult;
  try {
    const secret = deps.secretBox.open(webhook.secretCiphertext, webhookSecretName(webhook.id));
    const body = eventBody(claimed.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders(secret, claimed.eventId, timestamp, body, deps.settings.userAgent);
    result = await post(webhook.url, headers, body, {
      timeoutMs: deps.settings.timeoutMs,
      allowPrivateNetworks: deps.allowPrivateNetworks,
      lookupsAtOnce: deps.lookupsAtOnce,
    });
  } catch {
    // Only the secret can fail here (e.g. the master key changed); the reason stays generic.
    result = { statusCode: null, error: 'The signing secret could not be read.' };
  }

  if (result.error === null) {
    await repository.recordAttempt(deps.db, deliveryId, attempt, {
      ok: true,
      statusCode: result.statusCode,
      at: new Date(),
    });
    return 'succeeded' as const;
  }

  const delay = deps.settings.retryDelaysMs[attempt - 1];
  const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + delay);
  const stored = await repository.recordAttempt(deps.db, deliveryId, attempt, {
    ok: false,
    statusCode: result.statusCode,
    error: result.error.slice(0, ERROR_MAX),
    nextAttemptAt,
  });
  deps.logger.info(
    {
      deliveryId,
      webhookId: webhook.id,
      attempt,
      statusCode: result.statusCode,
      error: result.error,
      final: !nextAttemptAt,
    },
    'webhook delivery attempt failed',
  );
  if (stored && nextAttemptAt) {
    try {
      await deps.enqueue(deliveryId, nextAttemptAt);
    } catch (err) {
      deps.logger.warn({ err, deliveryId }, 'webhook retry not queued; the sweep will retry it');
    }
  }
  return nextAttemptAt ? ('retrying' as const) : ('failed' as const);
}

/** Queues again the PENDING deliveries whose job was lost (not sent, or its worker died mid-attempt). */
export async function sweepWebhookDeliveries(deps: Pick<DeliverWebhookDeps, 'db' | 'enqueue' | 'logger' | 'settings'>) {
  const ids = await repository.findOverdueDeliveryIds(deps.db, deps.settings.sweepGraceMs, 500);
  for (const id of ids) await deps.enqueue(id);
  if (ids.length > 0) deps.logger.info({ count: ids.length }, 'overdue webhook deliveries queued again');
  return ids.length;
}

const settingsByContext = new WeakMap<AppContext, WebhookWorkerSettings>();

/**
 * The live settings of the worker registered for this context. The worker reads them on every job, so
 * tests can shorten the retry schedule (milliseconds) and the time limit after the app has started.
 */
export function webhookWorkerSettings(ctx: AppContext): WebhookWorkerSettings {
  let settings = settingsByContext.get(ctx);
  if (!settings) {
    settings = defaultWebhookWorkerSettings();
    settingsByContext.set(ctx, settings);
  }
  return settings;
}

/** One job per attempt (singleton per delivery id), plus a sweep every five minutes for lost jobs. */
export async function registerWebhookWorker(ctx: AppContext, settings: Partial<WebhookWorkerSettings> = {}) {
  const live = Object.assign(webhookWorkerSettings(ctx), settings);
  const deps: DeliverWebhookDeps = {
    db: ctx.database.db,
    secretBox: ctx.secretBox,
    enqueue: ctx.deps.webhooks.enqueue,
    logger: ctx.logger,
    settings: live,
    allowPrivateNetworks: ctx.config.outbound.allowPrivateNetworks,
    lookupsAtOnce: ctx.config.outbound.lookupsAtOnce,
  };
  await ctx.jobs.register<WebhookDeliveryJob>(
    WEBHOOK_DELIVERY_QUEUE,
    async (job) => {
      await deliverWebhook(deps, job.deliveryId);
    },
    { retryLimit: 3 },
  );
  await ctx.jobs.register(WEBHOOK_SWEEP_QUEUE, async () => {
    await sweepWebhookDeliveries(deps);
  });
  await ctx.jobs.schedule(WEBHOOK_SWEEP_QUEUE, '*/5 * * * *');
}
