/**
 * How a receiver checks a delivery (Standard Webhooks): HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`
 * keyed by the secret's bytes (base64 after `whsec_`), compared in constant time with each `v1,` signature.
 */
export const WEBHOOK_SIGNATURE_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the whsec_… value; body: the raw request body, exactly as received.
export function isValidWebhook(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // more than 5 minutes off
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest('base64');
  return headers['webhook-signature'].split(' ').some((signature) => {
    const [version, value = ''] = signature.split(',');
    return version === 'v1' && value.length === expected.length
      && timingSafeEqual(Buffer.from(value), Buffer.from(expected));
  });
}`;
