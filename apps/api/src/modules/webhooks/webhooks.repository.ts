import { type Database, schema } from '@cp/db';
import { and, asc, count, desc, eq, exists, isNull, lt, lte, sql } from 'drizzle-orm';

const { organizations, webhooks, webhookDeliveries } = schema;
export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A deleted endpoint keeps its row (deleted_at) so that its delivery log stays readable in the database. */
const isLive = isNull(webhooks.deletedAt);

/** One page of the organization's endpoints, newest first. */
export async function findWebhooks(db: Database, organizationId: string, page: { page: number; limit: number }) {
  const where = and(eq(webhooks.organizationId, organizationId), isLive);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhooks)
      .where(where)
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ value: count() }).from(webhooks).where(where),
  ]);
  return { rows, total: Number(total?.value ?? 0) };
}

/** The endpoint only when it belongs to the organization and is not deleted. */
export async function findWebhook(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id), isLive));
  return row;
}

/**
 * Inserts an endpoint unless the organization already has `max` live ones (answers undefined then). The
 * organization row is locked for the count, so concurrent creations cannot pass the limit together.
 */
export async function insertWebhookWithinLimit(
  db: Database,
  max: number,
  values: {
    id: string;
    organizationId: string;
    url: string;
    description: string | null;
    events: string[];
    secretCiphertext: string;
    secretLastFour: string;
    createdByUserId: string | null;
  },
) {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, values.organizationId))
      .for('update');
    const [live] = await tx
      .select({ value: count() })
      .from(webhooks)
      .where(and(eq(webhooks.organizationId, values.organizationId), isLive));
    if (Number(live?.value ?? 0) >= max) return undefined;
    const [row] = await tx.insert(webhooks).values(values).returning();
    return row!;
  });
}

export async function updateWebhook(
  db: Database,
  organizationId: string,
  id: string,
  values: Partial<Pick<WebhookRow, 'url' | 'description' | 'events' | 'enabled'>>,
) {
  if (Object.keys(values).length === 0) return findWebhook(db, organizationId, id);
  const [row] = await db
    .update(webhooks)
    .set(values)
    .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id), isLive))
    .returning();
  return row;
}

/** Soft delete; the endpoint's pending deliveries stop (FAILED) in the same transaction. */
export async function softDeleteWebhook(db: Database, organizationId: string, id: string, at: Date) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhooks)
      .set({ deletedAt: at })
      .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, id), isLive))
      .returning({ id: webhooks.id });
    if (!row) return undefined;
    await tx
      .update(webhookDeliveries)
      .set({ status: 'FAILED', lastError: 'The endpoint was deleted.', nextAttemptAt: null })
      .where(and(eq(webhookDeliveries.webhookId, row.id), eq(webhookDeliveries.status, 'PENDING')));
    return row;
  });
}

/** One page of an endpoint's deliveries, newest first (the endpoint is checked by the caller). */
export async function findDeliveries(
  db: Database,
  organizationId: string,
  webhookId: string,
  page: { page: number; limit: number },
) {
  const where = and(eq(webhookDeliveries.organizationId, organizationId), eq(webhookDeliveries.webhookId, webhookId));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ value: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: Number(total?.value ?? 0) };
}

/** The organization's enabled, live endpoints subscribed to the event type (or the one endpoint named). */
export async function findSubscribedWebhookIds(
  db: Database,
  organizationId: string,
  eventType: string,
  onlyWebhookId?: string,
) {
  const rows = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.organizationId, organizationId),
        isLive,
        eq(webhooks.enabled, true),
        onlyWebhookId
          ? eq(webhooks.id, onlyWebhookId)
          : sql`${webhooks.events} @> ${JSON.stringify([eventType])}::jsonb`,
      ),
    );
  return rows.map((r) => r.id);
}

/** One PENDING delivery per endpoint, due at once; the (webhook, event) key makes a repeat a no-op. */
export async function insertDeliveries(
  db: Database,
  values: {
    organizationId: string;
    webhookIds: string[];
    eventId: string;
    eventType: string;
    payload: Record<string, unknown>;
    at: Date;
  },
) {
  if (values.webhookIds.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(
      values.webhookIds.map((webhookId) => ({
        webhookId,
        organizationId: values.organizationId,
        eventId: values.eventId,
        eventType: values.eventType,
        payload: values.payload,
        createdAt: values.at,
        nextAttemptAt: values.at,
      })),
    )
    .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventId] })
    .returning();
}

/** Worker lookup by id (the job names the delivery; the row names its organization and endpoint). */
export async function findDeliveryWithWebhook(db: Database, id: string) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, id));
  return row;
}

/**
 * Claims one attempt (a single statement, so two workers never both claim it): the delivery is PENDING,
 * due, and its endpoint is still enabled and live. The attempt is counted at once and next_attempt_at
 * moves `leaseMs` ahead: if this worker dies mid-attempt, the sweep retries once that has passed.
 */
export async function claimDelivery(db: Database, id: string, leaseMs: number) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
    })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'PENDING'),
        lte(webhookDeliveries.nextAttemptAt, sql`now()`),
        exists(
          db
            .select({ one: sql`1` })
            .from(webhooks)
            .where(and(eq(webhooks.id, webhookDeliveries.webhookId), isLive, eq(webhooks.enabled, true))),
        ),
      ),
    )
    .returning();
  return row;
}

/** A PENDING delivery whose endpoint was disabled or deleted stops for good. */
export async function cancelDelivery(db: Database, id: string, reason: string) {
  await db
    .update(webhookDeliveries)
    .set({ status: 'FAILED', lastError: reason, nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'PENDING')));
}

/**
 * Stores the outcome of the attempt numbered `attempt`; a later claim (after a lease ran out) fences an
 * older worker's write out. `nextAttemptAt` null with a failure means the last attempt: FAILED.
 */
export async function recordAttempt(
  db: Database,
  id: string,
  attempt: number,
  outcome:
    | { ok: true; statusCode: number; at: Date }
    | { ok: false; statusCode: number | null; error: string; nextAttemptAt: Date | null },
) {
  const values = outcome.ok
    ? {
        status: 'SUCCEEDED',
        deliveredAt: outcome.at,
        lastStatusCode: outcome.statusCode,
        lastError: null,
        nextAttemptAt: null,
      }
    : {
        status: outcome.nextAttemptAt ? 'PENDING' : 'FAILED',
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt,
      };
  const rows = await db
    .update(webhookDeliveries)
    .set(values)
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, 'PENDING'),
        eq(webhookDeliveries.attempts, attempt),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length === 1;
}

/** PENDING deliveries overdue by more than `graceMs` (their job was lost): the sweep queues them again. */
export async function findOverdueDeliveryIds(db: Database, graceMs: number, limit: number) {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'PENDING'),
        lt(webhookDeliveries.nextAttemptAt, sql`now() - make_interval(secs => ${graceMs / 1000})`),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
  return rows.map((r) => r.id);
}
