import { randomBytes, randomUUID } from 'node:crypto';
import {
  type CreateWebhookRequest,
  type PageQuery,
  type UpdateWebhookRequest,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookEvent,
  type WebhookEventType,
} from '@cp/contracts';
import type { Database, SecretBox } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { literalNonPublicHost } from '../../lib/outbound-http.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import { generateWebhookSecret } from './webhook-signature.ts';
import * as repository from './webhooks.repository.ts';

export const WEBHOOK_DELIVERY_QUEUE = 'webhooks.delivery';

export interface WebhookDeliveryJob {
  deliveryId: string;
}

/** What recording and sending webhook events needs; built once in the composition root (`ctx.deps.webhooks`). */
export interface WebhookDeps {
  db: Database;
  /** Queues the job of one delivery (pg-boss), at once or at `startAfter`. */
  enqueue: (deliveryId: string, startAfter?: Date) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
}

/** The SecretBox name of an endpoint's secret: bound to its id, so a ciphertext copied elsewhere won't open. */
export const webhookSecretName = (webhookId: string) => `webhook.secret.${webhookId}`;

// ---- endpoints ------------------------------------------------------------------------------------

export function findWebhooks(db: Database, organizationId: string, page: Pick<PageQuery, 'page' | 'limit'>) {
  return repository.findWebhooks(db, organizationId, page);
}

/** 404 both for a missing endpoint and for another organization's: no existence leak. */
export async function getWebhook(db: Database, organizationId: string, id: string) {
  const row = await repository.findWebhook(db, organizationId, id);
  if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
  return row;
}

/**
 * Refuses, as a validation error on `url`, an endpoint that is plainly on a non-public network: a literal
 * loopback/private/link-local IP or a localhost name. Only a first line: a name that resolves to such an
 * address is refused at each delivery, when the address is checked and pinned (lib/outbound-http).
 */
function assertPublicWebhookUrl(url: string, allowPrivateNetworks: boolean) {
  if (allowPrivateNetworks) return;
  const range = literalNonPublicHost(new URL(url));
  if (!range) return;
  const message = `Must be a publicly reachable address (this host is ${range})`;
  throw new AppError('REQUEST_INVALID', {
    detail: 'The request is not valid.',
    errors: [{ path: 'body.url', message }],
  });
}

/** What managing endpoints needs: the secret box (endpoint secrets) and the outbound policy for their URLs. */
export interface WebhookEndpointDeps {
  db: Database;
  secretBox: SecretBox;
  allowPrivateNetworks: boolean;
}

/** Creates an endpoint; the plaintext secret exists only in this answer (stored encrypted, to sign with). */
export async function createWebhook(
  deps: WebhookEndpointDeps,
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  input: CreateWebhookRequest,
) {
  assertPublicWebhookUrl(input.url, deps.allowPrivateNetworks);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const events = [...new Set(input.events)];
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repository.insertWebhookWithinLimit(tx, WEBHOOK_ENDPOINTS_MAX, {
      id,
      organizationId: scope.organizationId,
      url: input.url,
      description: input.description || null,
      events,
      secretCiphertext: deps.secretBox.seal(secret, webhookSecretName(id)),
      secretLastFour: secret.slice(-4),
      createdByUserId: scope.userId,
    });
    if (inserted) {
      await recordAuditEvent(tx, scope, {
        action: 'webhook.created',
        target: { id, label: webhookLabel(inserted.url) },
        details: { events },
      });
    }
    return inserted;
  });
  if (!row) {
    throw new AppError('WEBHOOK_LIMIT_REACHED', {
      detail: `An organization can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`,
    });
  }
  return { row, secret };
}

export async function updateWebhook(
  deps: Pick<WebhookEndpointDeps, 'db' | 'allowPrivateNetworks'>,
  organizationId: string,
  id: string,
  input: UpdateWebhookRequest,
  actor: AuditActor,
) {
  if (input.url !== undefined) assertPublicWebhookUrl(input.url, deps.allowPrivateNetworks);
  return deps.db.transaction(async (tx) => {
    const row = await repository.updateWebhook(tx, organizationId, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description || null } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    });
    if (!row) throw new AppError('WEBHOOK_NOT_FOUND');
    const fields = Object.keys(input).filter((key) => input[key as keyof UpdateWebhookRequest] !== undefined);
    if (fields.length === 0) return row; // nothing changed, nothing to record
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      {
        action: 'webhook.updated',
        target: { id, label: webhookLabel(row.url) },
        details: { fields, ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) },
      },
    );
    return row;
  });
}

/** Soft delete: the endpoint disappears and its pending deliveries stop. */
export async function deleteWebhook(db: Database, organizationId: string, id: string, actor: AuditActor) {
  await db.transaction(async (tx) => {
    const before = await repository.findWebhook(tx, organizationId, id);
    if (!before || !(await repository.softDeleteWebhook(tx, organizationId, id, new Date()))) {
      throw new AppError('WEBHOOK_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'webhook.deleted', target: { id, label: webhookLabel(before.url) }, details: {} },
    );
  });
}

/** An endpoint as the activity log names it: its host only (paths and queries often carry tokens). */
const webhookLabel = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

export async function findDeliveries(
  db: Database,
  organizationId: string,
  webhookId: string,
  page: Pick<PageQuery, 'page' | 'limit'>,
) {
  await getWebhook(db, organizationId, webhookId);
  return repository.findDeliveries(db, organizationId, webhookId, page);
}

const SAMPLE_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Queues one test delivery of type `verification.completed` to this endpoint only (whatever it subscribes
 * to), with sample data flagged `test: true`. A disabled endpoint gets nothing: 409.
 */
export async function sendTestEvent(deps: WebhookDeps, organizationId: string, id: string) {
  const webhook = await getWebhook(deps.db, organizationId, id);
  if (!webhook.enabled) {
    throw new AppError('WEBHOOK_DISABLED', { detail: 'Enable the endpoint before sending a test event.' });
  }
  const now = new Date();
  const { deliveries } = await recordEvent(
    deps.db,
    {
      organizationId,
      type: 'verification.completed',
      data: {
        test: true,
        verification_id: SAMPLE_ID,
        individual_id: SAMPLE_ID,
        customer_id: '0000-0000-0000',
        status: 'VERIFIED',
        verified_at: now.toISOString(),
      },
    },
    webhook.id,
  );
  const delivery = deliveries[0];
  if (!delivery) throw new AppError('WEBHOOK_NOT_FOUND'); // deleted or disabled meanwhile
  await dispatchWebhookDeliveries(deps, [delivery.id]);
  return delivery;
}

// ---- events ---------------------------------------------------------------------------------------

/** An event as the module that saw it describes it. `data` must be JSON (it is stored as jsonb). */
export interface WebhookEventInput {
  organizationId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** `evt_` + 24 random bytes (base64url): the `webhook-id` header, the same for every endpoint and retry. */
export const generateEventId = () => `evt_${randomBytes(24).toString('base64url')}`;

async function recordEvent(db: Database, input: WebhookEventInput, onlyWebhookId?: string) {
  const webhookIds = await repository.findSubscribedWebhookIds(db, input.organizationId, input.type, onlyWebhookId);
  if (webhookIds.length === 0) return { eventId: null, deliveries: [] };
  const at = new Date();
  const event: WebhookEvent = {
    id: generateEventId(),
    type: input.type,
    created_at: at.toISOString(),
    organization_id: input.organizationId,
    data: input.data,
  };
  const deliveries = await repository.insertDeliveries(db, {
    organizationId: input.organizationId,
    webhookIds,
    eventId: event.id,
    eventType: event.type,
    payload: event as unknown as Record<string, unknown>,
    at,
  });
  return { eventId: event.id, deliveries };
}

/**
 * Records events inside the caller's transaction (`db` may be a transaction handle): one PENDING delivery
 * per enabled endpoint of the organization subscribed to `type`, per event. `dataOf` runs only when some
 * endpoint is subscribed, so callers can skip their own reads otherwise. Answers the delivery ids: pass
 * them to `dispatchWebhookDeliveries` once the transaction has committed (a job must never run before
 * its row is visible; on PGlite a query outside the transaction would also wait for it).
 */
export async function recordWebhookEvents(
  db: Database,
  organizationId: string,
  type: WebhookEventType,
  dataOf: () => Promise<Record<string, unknown>[]>,
): Promise<string[]> {
  const subscribed = await repository.findSubscribedWebhookIds(db, organizationId, type);
  if (subscribed.length === 0) return [];
  const ids: string[] = [];
  for (const data of await dataOf()) {
    const { deliveries } = await recordEvent(db, { organizationId, type, data });
    ids.push(...deliveries.map((d) => d.id));
  }
  return ids;
}

/**
 * Sends the delivery jobs. Never throws: a job that could not be queued is logged, and the periodic
 * sweep (webhooks.worker.ts) queues overdue PENDING deliveries again.
 */
export async function dispatchWebhookDeliveries(deps: WebhookDeps, deliveryIds: string[]) {
  for (const deliveryId of deliveryIds) {
    try {
      await deps.enqueue(deliveryId);
    } catch (err) {
      deps.logger.warn({ err, deliveryId }, 'webhook delivery job not queued; the sweep will retry it');
    }
  }
}

/**
 * Announces an event to the organization's webhook endpoints. Call it after the change it reports is
 * stored, e.g. when a verification completes:
 *
 * ```ts
 * await enqueueWebhookEvent(ctx.deps.webhooks, {
 *   organizationId,
 *   type: 'verification.completed',
 *   data: { verification_id, individual_id, customer_id, status, verified_at },
 * });
 * ```
 *
 * It inserts one `webhook_deliveries` row per enabled, live endpoint of that organization subscribed to
 * `type` (all with the same event id `evt_…`, payload = the `WebhookEvent` body), then queues one job per
 * delivery. It throws only when the database fails (the rows could not be stored); a job that cannot be
 * queued is logged and picked up by the sweep. With no subscribed endpoint it does one read and nothing
 * else. Answers the event id (null when nobody is subscribed) and the delivery ids.
 */
export async function enqueueWebhookEvent(
  deps: WebhookDeps,
  event: WebhookEventInput,
): Promise<{ eventId: string | null; deliveryIds: string[] }> {
  const { eventId, deliveries } = await recordEvent(deps.db, event);
  const deliveryIds = deliveries.map((d) => d.id);
  await dispatchWebhookDeliveries(deps, deliveryIds);
  return { eventId, deliveryIds };
}

/**
 * Whether some enabled endpoint of the organization takes `type`: lets a hot path skip the transaction
 * that would store the event with its cause. An endpoint created at that same moment may miss the event.
 */
export async function hasWebhookSubscribers(db: Database, organizationId: string, type: WebhookEventType) {
  return (await repository.findSubscribedWebhookIds(db, organizationId, type)).length > 0;
}
