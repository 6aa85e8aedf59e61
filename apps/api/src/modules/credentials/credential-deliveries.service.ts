import {
  CREDENTIAL_RESEND_INTERVAL_SECONDS,
  type CredentialMailLocale,
  type NotifyViaSchemaRequest,
} from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { type AuditActor, credentialTarget, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as kybService from '../kyb/kyb.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as repository from './credential-deliveries.repository.ts';
import { credentialMail, toCredentialMailLocale } from './credential-mail.ts';
import * as credentialsRepository from './credentials.repository.ts';
import * as credentialsService from './credentials.service.ts';

/** A SENDING delivery older than this is taken to belong to a dead worker and may be retried. */
export const STALE_SENDING_SECONDS = 5 * 60;
export const MAX_DELIVERY_ATTEMPTS = 5;
const QUEUE_PAGE = 1000;

export interface DeliveryDeps {
  db: Database;
  /** Queues the job of one delivery (pg-boss, singleton per delivery). */
  enqueue: (deliveryId: string) => Promise<void>;
}

/**
 * Queues one e-mail per credential of the schema that was never queued, in `locale` (the route resolves it
 * from the request); answers how many were queued.
 */
export async function notifyViaSchema(
  deps: DeliveryDeps,
  organizationId: string,
  input: NotifyViaSchemaRequest & { locale: CredentialMailLocale },
  actor: AuditActor,
) {
  await kybService.assertOrganizationVerified(deps.db, organizationId);
  // Another organization's schema is not found.
  const schema = await credentialSchemasService.getCredentialSchema(deps.db, { organizationId, id: input.schema_id });
  // Deliveries left QUEUED by an earlier call whose jobs were never sent get their job again (the claim
  // makes a second job harmless).
  const leftovers = await repository.findQueuedDeliveries(deps.db, organizationId, input.schema_id);
  let queued = 0;
  let after: string | null = null;
  for (;;) {
    // The activity log gets one `credential.sent` per page queued (a Send of 100,000 credentials writes 100
    // events, not 100,000), in the page's own transaction: queued deliveries always have their event.
    const page = await deps.db.transaction(async (tx) => {
      const queuedPage = await repository.queueDeliveriesForSchema(
        tx,
        organizationId,
        input.schema_id,
        { message: input.message || null, locale: input.locale },
        after,
        QUEUE_PAGE,
      );
      if (queuedPage.queued.length > 0) {
        await recordAuditEvent(
          tx,
          { organizationId, actor },
          {
            action: 'credential.sent',
            target: { id: schema.schema.id, label: schema.schema.name },
            details: { count: queuedPage.queued.length },
          },
        );
      }
      return queuedPage;
    });
    for (const id of page.queued) await deps.enqueue(id);
    queued += page.queued.length;
    if (page.last === null) break;
    after = page.last;
  }
  for (const id of leftovers) await deps.enqueue(id);
  return { queued };
}

export interface DeliverDeps {
  db: Database;
  mailer: Pick<Mailer, 'send'>;
  credentials: credentialsService.CredentialDeps;
}

/**
 * Sends one delivery, at most once in the normal course: the delivery is claimed atomically
 * (QUEUED → SENDING), the offer is made if needed (CREATED → ISSUED), the e-mail goes out with a stable
 * Message-ID, then the delivery becomes SENT and the credential gets emailed_at. Residual window: if the
 * process dies after the SMTP server accepted the mail but before SENT is stored, the delivery is retried
 * once it is STALE_SENDING_SECONDS old, so that recipient may get the same mail (same Message-ID) twice.
 */
export async function deliver(deps: DeliverDeps, deliveryId: string) {
  const delivery = await repository.claimDelivery(deps.db, deliveryId, STALE_SENDING_SECONDS);
  if (!delivery) return 'skipped' as const;
  try {
    const credential = await credentialsRepository.findCredential(
      deps.db,
      delivery.organizationId,
      delivery.credentialId,
    );
    if (!credential || credential.status === 'REVOKED' || credential.status === 'CLAIMED') {
      await repository.releaseDelivery(deps.db, delivery.id, 'The credential can no longer be offered.', true);
      return 'failed' as const;
    }
    const { offer } = await credentialsService.ensureOffer(deps.credentials, credential);
    if (!offer) {
      await repository.releaseDelivery(deps.db, delivery.id, 'The credential offer has expired.', true);
      return 'failed' as const;
    }
    const organization = await organizationsService.getPublicOrganization(deps.db, delivery.organizationId);
    const mail = await credentialMail({
      deliveryId: delivery.id,
      locale: toCredentialMailLocale(delivery.locale),
      to: credential.recipientEmail,
      recipientFirstName: credential.recipientFirstName,
      recipientLastName: credential.recipientLastName,
      organizationName: organization.name,
      organizationLogoUrl: organization.logoMediaId
        ? `${deps.credentials.publicUrl}/api/media/${organization.logoMediaId}`
        : null,
      credentialName: credential.name,
      message: delivery.message,
      publicUrl: deps.credentials.publicUrl,
      credentialId: credential.id,
      connectionUrl: credentialsService.connectionUrl(deps.credentials, offer),
      offerExpiresAt: offer.expiresAt,
    });
    await deps.mailer.send(mail);
  } catch (err) {
    const final = delivery.attempts >= MAX_DELIVERY_ATTEMPTS;
    await repository.releaseDelivery(deps.db, delivery.id, err instanceof Error ? err.message : String(err), final);
    if (final) return 'failed' as const;
    throw err; // the job retries with backoff
  }
  await repository.markSent(deps.db, delivery);
  return 'sent' as const;
}

export type ResendOutcome = { delivery: repository.CredentialDeliveryRow } | { retryAfterSeconds: number };

export interface ResendDeps extends DeliveryDeps {
  credentials: credentialsService.CredentialDeps;
}

/**
 * Resends a credential's claim e-mail: a new delivery (sequence = previous + 1, the previous message) in the
 * sender's language, sent once by the delivery job like the first. Only while the credential can still be
 * claimed (not claimed, revoked or deleted); an offer that can no longer be redeemed is replaced first (see
 * renewOfferIfSpent), in the same transaction. At most one e-mail per credential per
 * CREDENTIAL_RESEND_INTERVAL_SECONDS: otherwise nothing is written and the answer says when to retry.
 */
export async function resendCredential(
  deps: ResendDeps,
  organizationId: string,
  credentialId: string,
  locale: CredentialMailLocale,
  actor: AuditActor,
): Promise<ResendOutcome> {
  const credential = await credentialsRepository.findCredential(deps.db, organizationId, credentialId);
  if (!credential) throw new AppError('CREDENTIAL_NOT_FOUND');
  if (credential.status === 'CLAIMED') {
    throw new AppError('CREDENTIAL_ALREADY_CLAIMED', { detail: 'The recipient has already claimed this credential.' });
  }
  if (credential.status === 'REVOKED') {
    throw new AppError('CREDENTIAL_ALREADY_REVOKED', { detail: 'This credential was revoked.' });
  }
  await kybService.assertOrganizationVerified(deps.db, organizationId);
  const outcome = await deps.db.transaction(async (tx): Promise<ResendOutcome> => {
    const delivery = await repository.insertResend(
      tx,
      organizationId,
      credentialId,
      locale,
      CREDENTIAL_RESEND_INTERVAL_SECONDS,
    );
    if (!delivery) {
      return {
        retryAfterSeconds: await repository.secondsUntilResend(tx, credentialId, CREDENTIAL_RESEND_INTERVAL_SECONDS),
      };
    }
    await credentialsService.renewOfferIfSpent({ ...deps.credentials, db: tx }, credential);
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'credential.resent', ...credentialTarget(credential) },
    );
    return { delivery };
  });
  if ('delivery' in outcome) await deps.enqueue(outcome.delivery.id);
  return outcome;
}

/** How many of a credential's e-mails its history shows (at most one resend a minute: hours of them). */
const DELIVERY_HISTORY_LIMIT = 100;

/** A credential's e-mails, the latest first; another organization's credential is not found. */
export async function findDeliveries(db: Database, organizationId: string, credentialId: string) {
  if (!(await credentialsRepository.findCredential(db, organizationId, credentialId))) {
    throw new AppError('CREDENTIAL_NOT_FOUND');
  }
  return repository.findDeliveriesOfCredential(db, organizationId, credentialId, DELIVERY_HISTORY_LIMIT);
}

export async function getDelivery(db: Database, id: string) {
  const row = await repository.findDelivery(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
