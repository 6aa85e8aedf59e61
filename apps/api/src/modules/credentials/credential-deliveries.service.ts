import {
  CREDENTIAL_RESEND_INTERVAL_SECONDS,
  type CredentialMailLocale,
  NOTIFY_MAX_CREDENTIAL_IDS,
  type NotifyViaSchemaRequest,
} from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Storage } from '../../storage/storage.ts';
import { type AuditActor, credentialTarget, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as kybService from '../kyb/kyb.service.ts';
import * as repository from './credential-deliveries.repository.ts';
import * as importsService from './credential-imports.service.ts';
import { mailBranding } from './credential-mail.service.ts';
import { credentialMail, toCredentialMailLocale } from './credential-mail.ts';
import * as credentialsRepository from './credentials.repository.ts';
import * as credentialsService from './credentials.service.ts';

/** A SENDING delivery older than this is taken to belong to a dead worker and may be retried. */
export const STALE_SENDING_SECONDS = 5 * 60;
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Rows of an import read per page when sending to it; tests lower it to cross page boundaries. */
export const notifyPaging = { importPageSize: 1000 };

export interface DeliveryDeps {
  db: Database;
  /** Queues the job of one delivery (pg-boss, singleton per delivery). */
  enqueue: (deliveryId: string) => Promise<void>;
}

/**
 * Queues the first e-mail of exactly the named credentials — `credential_ids` and/or every row of the
 * import `import_id` — that can still be sent, in `locale` (the route resolves it from the request), and
 * answers how many were queued by this call. Ids of another organization or schema are ignored; nothing is
 * ever sent to credentials that were not named (a credential created another way is not "this send").
 */
export async function notifyViaSchema(
  deps: DeliveryDeps,
  organizationId: string,
  input: NotifyViaSchemaRequest & { locale: CredentialMailLocale },
  actor: AuditActor,
) {
  if (!input.credential_ids?.length && !input.import_id) {
    throw new AppError('REQUEST_INVALID', {
      detail: `Name the credentials to e-mail: credential_ids (up to ${NOTIFY_MAX_CREDENTIAL_IDS} per call) and/or import_id.`,
      errors: [{ path: 'body.credential_ids', message: 'Required unless import_id is given' }],
    });
  }
  await kybService.assertOrganizationVerified(deps.db, organizationId);
  // Another organization's schema or import is not found.
  const schema = await credentialSchemasService.getCredentialSchema(deps.db, { organizationId, id: input.schema_id });
  if (input.import_id) {
    const row = await importsService.getImport(deps.db, organizationId, input.import_id);
    if (row.schemaId !== input.schema_id) {
      throw new AppError('REQUEST_INVALID', {
        detail: 'The import is of another schema.',
        errors: [{ path: 'body.import_id', message: 'Not an import of schema_id' }],
      });
    }
    if (row.status === 'PENDING' || row.status === 'PROCESSING') {
      throw new AppError('CONFLICT', { detail: 'The import has not finished yet: send once it has.' });
    }
  }
  const mail = { message: input.message || null, locale: input.locale };
  const enqueued = new Set<string>();
  let queued = 0;
  const sendBatch = async (credentialIds: string[]) => {
    // Deliveries left QUEUED by an earlier call whose jobs were never sent get their job again.
    const leftovers = await repository.findQueuedFirstDeliveries(deps.db, organizationId, credentialIds);
    // The activity log gets one `credential.sent` per batch queued (a Send of 100,000 credentials writes 100
    // events, not 100,000), in the batch's own transaction: queued deliveries always have their event.
    const created = await deps.db.transaction(async (tx) => {
      const ids = await repository.queueFirstDeliveries(tx, organizationId, input.schema_id, credentialIds, mail);
      if (ids.length > 0) {
        await recordAuditEvent(
          tx,
          { organizationId, actor },
          {
            action: 'credential.sent',
            target: { id: schema.schema.id, label: schema.schema.name },
            details: { count: ids.length },
          },
        );
      }
      return ids;
    });
    queued += created.length;
    for (const id of [...created, ...leftovers]) {
      if (enqueued.has(id)) continue;
      enqueued.add(id);
      await deps.enqueue(id);
    }
  };
  if (input.credential_ids?.length) await sendBatch([...new Set(input.credential_ids)]);
  if (input.import_id) {
    let after: number | null = null;
    for (;;) {
      const page = await repository.findImportCredentialIds(
        deps.db,
        organizationId,
        input.import_id,
        after,
        notifyPaging.importPageSize,
      );
      await sendBatch(page.ids);
      if (page.last === null) break;
      after = page.last;
    }
  }
  return { queued };
}

export interface DeliverDeps {
  db: Database;
  /** Where the organization's logo is read from (an inline image of the e-mail). */
  storage: Storage;
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
    const mail = await credentialMail({
      deliveryId: delivery.id,
      locale: toCredentialMailLocale(delivery.locale),
      to: credential.recipientEmail,
      recipientFirstName: credential.recipientFirstName,
      recipientLastName: credential.recipientLastName,
      ...(await mailBranding({ ...deps, publicUrl: deps.credentials.publicUrl }, delivery.organizationId)),
      credentialName: credential.name,
      credentialDescription: credential.description,
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
