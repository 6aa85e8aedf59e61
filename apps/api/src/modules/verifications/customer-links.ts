import { createHmac } from 'node:crypto';
import type { Database, SecretBox } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { randomToken, safeEqual } from '../../lib/crypto.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as repository from './verifications.repository.ts';
import { generateCustomerId } from './verifications.service.ts';

/**
 * Who vouches for the customer id of an attempt. An integrator learns "my customer X passed" only for
 * attempts it started: with its API key (API), or through a holder link it signed with the verification's
 * link secret (SIGNED_LINK). Anyone can put `?customer=X` on a public link: such a value is kept as a
 * label (LABEL) and never answers the per-customer lookup, so nobody can write a result for someone else's
 * customer. Without a customer id the holder page makes one up (GENERATED).
 */
export type CustomerBinding = 'API' | 'SIGNED_LINK' | 'LABEL' | 'GENERATED';

const secretContext = (verificationId: string) => `verification-link:${verificationId}`;

/**
 * The signature of a holder link: base64url(HMAC-SHA256(link secret, "<verification id>.<customer id>.<expires>")),
 * `expires` in seconds since the epoch. Documented for integrators in the README.
 */
export function linkSignature(secret: string, verificationId: string, customerId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${verificationId}.${customerId}.${expires}`).digest('base64url');
}

export function customerBindingOf(
  deps: { secretBox: SecretBox },
  verification: repository.VerificationRow,
  input: { customer_id?: string | undefined; expires?: number | undefined; signature?: string | undefined },
): { customerBinding: CustomerBinding; customerId: string } {
  if (!input.customer_id) return { customerBinding: 'GENERATED', customerId: generateCustomerId() };
  if (input.signature === undefined) return { customerBinding: 'LABEL', customerId: input.customer_id };
  if (input.expires === undefined || !verification.linkSecretCiphertext) {
    throw new AppError('VERIFICATION_LINK_SIGNATURE_INVALID', { detail: 'This link’s signature is not valid.' });
  }
  const secret = deps.secretBox.open(verification.linkSecretCiphertext, secretContext(verification.id));
  const expected = linkSignature(secret, verification.id, input.customer_id, input.expires);
  if (!safeEqual(expected, input.signature)) {
    throw new AppError('VERIFICATION_LINK_SIGNATURE_INVALID', { detail: 'This link’s signature is not valid.' });
  }
  if (input.expires * 1000 < Date.now()) {
    throw new AppError('VERIFICATION_LINK_EXPIRED', { detail: 'This link has expired: ask for a new one.' });
  }
  return { customerBinding: 'SIGNED_LINK', customerId: input.customer_id };
}

/** The verification's link secret, made on first use. */
export async function getLinkSecret(deps: { db: Database; secretBox: SecretBox }, organizationId: string, id: string) {
  const row = await repository.findVerificationRow(deps.db, organizationId, id);
  if (!row) throw new AppError('VERIFICATION_NOT_FOUND');
  if (row.linkSecretCiphertext) return deps.secretBox.open(row.linkSecretCiphertext, secretContext(id));
  return rotateLinkSecret(deps, organizationId, id, { onlyIfMissing: true });
}

/**
 * A new link secret: links signed with the previous one stop vouching for their customers. A replacement
 * (`actor` given) is in the activity log; the first secret, made when it is first read, changes nothing.
 */
export async function rotateLinkSecret(
  deps: { db: Database; secretBox: SecretBox },
  organizationId: string,
  id: string,
  options: { onlyIfMissing?: boolean; actor?: AuditActor } = {},
) {
  const secret = randomToken(32);
  const stored = await deps.db.transaction(async (tx) => {
    const written = await repository.setLinkSecret(
      tx,
      organizationId,
      id,
      deps.secretBox.seal(secret, secretContext(id)),
      options,
    );
    if (written && options.actor) {
      const row = await repository.findVerificationRow(tx, organizationId, id);
      await recordAuditEvent(
        tx,
        { organizationId, actor: options.actor },
        { action: 'verification.link_secret_rotated', target: { id, label: row?.name ?? null }, details: {} },
      );
    }
    return written;
  });
  if (!stored) {
    // Another request made it first (onlyIfMissing), or the verification is gone.
    const row = await repository.findVerificationRow(deps.db, organizationId, id);
    if (!row?.linkSecretCiphertext) throw new AppError('VERIFICATION_NOT_FOUND');
    return deps.secretBox.open(row.linkSecretCiphertext, secretContext(id));
  }
  return secret;
}
