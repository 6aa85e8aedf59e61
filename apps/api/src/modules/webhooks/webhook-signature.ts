import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secret prefix: what follows is the base64 of the signing key's bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The HMAC key: the base64-decoded part after `whsec_`. */
export function webhookSigningKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('Not a webhook secret');
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}

/**
 * The `webhook-signature` header value (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` under the secret's key bytes. `timestamp` is in unix seconds.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', webhookSigningKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one delivery attempt (the signature is computed here and never logged). */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string, userAgent: string) {
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
