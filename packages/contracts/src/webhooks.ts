import { z } from 'zod';
import { pageOf, zHttpUrl } from './common.ts';

/** Events an integration can subscribe to. */
export const webhookEventTypes = ['verification.completed', 'credential.claimed', 'credential.revoked'] as const;
export const zWebhookEventType = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof zWebhookEventType>;

export const WEBHOOK_ENDPOINTS_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

const zWebhookUrl = zHttpUrl(WEBHOOK_URL_MAX);

export const zCreateWebhookRequest = z.strictObject({
  url: zWebhookUrl,
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  events: z.array(zWebhookEventType).min(1).max(webhookEventTypes.length),
});
export type CreateWebhookRequest = z.infer<typeof zCreateWebhookRequest>;

export const zUpdateWebhookRequest = z.strictObject({
  url: zWebhookUrl.optional(),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  events: z.array(zWebhookEventType).min(1).max(webhookEventTypes.length).optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookRequest = z.infer<typeof zUpdateWebhookRequest>;

/**
 * A webhook endpoint. Deliveries follow Standard Webhooks: headers `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed by the secret's bytes.
 */
export const zWebhook = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(zWebhookEventType),
  enabled: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  /** Last four characters of the secret. */
  secret_last_four: z.string(),
});
export type Webhook = z.infer<typeof zWebhook>;

/** The creation answer: the only time the signing secret (`whsec_…`) is returned. */
export const zCreatedWebhook = zWebhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof zCreatedWebhook>;

export const zWebhookPage = pageOf(zWebhook);
export type WebhookPage = z.infer<typeof zWebhookPage>;

export const webhookDeliveryStatuses = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export const zWebhookDeliveryStatus = z.enum(webhookDeliveryStatuses);
export type WebhookDeliveryStatus = z.infer<typeof zWebhookDeliveryStatus>;

/** One event sent (or being sent) to one endpoint, with its attempts. */
export const zWebhookDelivery = z.object({
  id: z.uuid(),
  webhook_id: z.uuid(),
  /** The `webhook-id` header: the same on every retry, so receivers can drop duplicates. */
  event_id: z.string(),
  event_type: zWebhookEventType,
  status: zWebhookDeliveryStatus,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  delivered_at: z.iso.datetime({ offset: true }).nullable(),
  next_attempt_at: z.iso.datetime({ offset: true }).nullable(),
});
export type WebhookDelivery = z.infer<typeof zWebhookDelivery>;

export const zWebhookDeliveryPage = pageOf(zWebhookDelivery);
export type WebhookDeliveryPage = z.infer<typeof zWebhookDeliveryPage>;

/** The JSON body of every delivery. */
export const zWebhookEvent = z.object({
  id: z.string(),
  type: zWebhookEventType,
  created_at: z.iso.datetime({ offset: true }),
  organization_id: z.uuid(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof zWebhookEvent>;
