import {
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEventType,
  webhookEventTypes,
} from '@cp/contracts';
import type { WebhookDeliveryRow, WebhookRow } from './webhooks.repository.ts';

const isEventType = (value: string): value is WebhookEventType =>
  (webhookEventTypes as readonly string[]).includes(value);

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter(isEventType),
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    secret_last_four: row.secretLastFour,
  };
}

/** Only the creation answer carries the secret. */
export function presentCreatedWebhook(row: WebhookRow, secret: string): CreatedWebhook {
  return { ...presentWebhook(row), secret };
}

export function presentWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    event_type: row.eventType as WebhookEventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt ? row.deliveredAt.toISOString() : null,
    next_attempt_at: row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
  };
}
