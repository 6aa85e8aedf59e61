import { createHmac, randomInt, randomUUID } from 'node:crypto';
import type { CreateCredentialWithRecipientRequest, CredentialListQuery, CredentialStatus } from '@cp/contracts';
import { type AttributeType, buildClaims } from '@cp/credentials';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { sha256 } from '../../lib/crypto.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import * as kybService from '../kyb/kyb.service.ts';
import { issuerUrl } from '../organization-keys/identifiers.ts';
import { dispatchWebhookDeliveries, recordWebhookEvents, type WebhookDeps } from '../webhooks/webhooks.service.ts';
import * as repository from './credentials.repository.ts';

export interface CredentialDeps {
  db: Database;
  publicUrl: string;
  statusListSize: number;
  offerTtlDays: number;
  /** Derives a pre-authorized code from an offer id (HMAC under a platform secret): never stored. */
  offerCodeKey: Buffer;
  /** Webhook events (`credential.revoked`; the issuer sends `credential.claimed`). */
  webhooks: WebhookDeps;
}

export interface SchemaSnapshot {
  id: string;
  name: string;
  slug: string;
  attributes: { name: string; type: AttributeType; description: string | null }[];
}

/**
 * Creates a credential for one recipient: claims typed by the schema, a status-list index reserved; with
 * `tx_code`, offered at once (ISSUED) with a fresh PIN.
 */
export async function createCredentialWithRecipient(
  deps: CredentialDeps,
  scope: { organizationId: string; userId: string | null },
  input: CreateCredentialWithRecipientRequest,
) {
  await kybService.assertOrganizationVerified(deps.db, scope.organizationId);
  const record = await credentialSchemasService.getCredentialSchema(deps.db, {
    organizationId: scope.organizationId,
    id: input.credential.schema_id,
  });
  if (record.schema.issueDisabled) {
    throw new AppError('CREDENTIAL_SCHEMA_ISSUE_DISABLED', {
      detail: 'This schema can be used for verification only.',
    });
  }
  const attributes = record.attributes.map((a) => ({
    name: a.name,
    type: a.type as AttributeType,
    description: a.description,
  }));
  const raw = Array.isArray(input.credential.claims)
    ? Object.fromEntries(input.credential.claims.map((c) => [c.name, c.value]))
    : input.credential.claims;
  const unknown = Object.keys(raw).filter((name) => !attributes.some((a) => a.name === name));
  const typed = buildClaims(attributes, raw);
  if (!typed.ok || unknown.length > 0) {
    throw new AppError('CREDENTIAL_CLAIMS_INVALID', {
      detail: 'Some claims do not match the schema.',
      errors: [
        ...(typed.ok ? [] : typed.errors.map((e) => ({ path: `credential.claims.${e.name}`, message: e.error }))),
        ...unknown.map((name) => ({ path: `credential.claims.${name}`, message: 'NOT_IN_SCHEMA' })),
      ],
    });
  }
  const statusIndex = await repository.allocateStatusIndex(deps.db, scope.organizationId, deps.statusListSize);
  if (statusIndex === null) throw new AppError('CREDENTIAL_STATUS_LIST_FULL');
  const snapshot: SchemaSnapshot = {
    id: record.schema.id,
    name: record.schema.name,
    slug: record.schema.slug,
    attributes,
  };
  const credential = await repository.insertCredential(deps.db, {
    organizationId: scope.organizationId,
    schemaId: record.schema.id,
    schemaSnapshot: snapshot as unknown as Record<string, unknown>,
    name: input.credential.name,
    description: input.credential.description || null,
    recipientEmail: input.recipient.email,
    recipientFirstName: input.recipient.first_name,
    recipientLastName: input.recipient.last_name,
    claims: typed.claims,
    statusIndex,
    createdByUserId: scope.userId,
  });
  if (!input.tx_code) return { credential, txCode: undefined, offerExpiresAt: null };
  // The PIN travels to the recipient separately from the link; only its hash is kept.
  const txCode = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const offered = await createOffer(deps, credential, txCode);
  return { credential: offered.credential, txCode, offerExpiresAt: offered.offer.expiresAt };
}

/** The status shown: an ISSUED credential whose offer ran out without being claimed is EXPIRED. */
export function effectiveStatus(row: repository.CredentialRow, offerExpiresAt: Date | null): CredentialStatus {
  if (row.status === 'ISSUED' && offerExpiresAt && offerExpiresAt.getTime() <= Date.now()) return 'EXPIRED';
  return row.status as CredentialStatus;
}

export async function findCredentials(
  deps: Pick<CredentialDeps, 'db'>,
  organizationId: string,
  query: CredentialListQuery,
) {
  const { rows, total } = await repository.findCredentials(
    deps.db,
    organizationId,
    {
      status: query['filter.status'],
      schemaId: query['filter.schema_id'],
      search: query['filter.search'],
      importId: query['filter.import_id'],
    },
    { offset: (query.page - 1) * query.limit, limit: query.limit },
  );
  return { rows, total, page: query.page, limit: query.limit };
}

export async function getCredential(deps: Pick<CredentialDeps, 'db'>, organizationId: string, id: string) {
  const row = await repository.findCredential(deps.db, organizationId, id);
  if (!row) throw new AppError('CREDENTIAL_NOT_FOUND');
  return { credential: row, offerExpiresAt: await repository.findLatestOfferExpiry(deps.db, id) };
}

/** Revokes credentials of the organization: their status bit becomes 1 and open offers end. */
export async function revokeCredentials(
  deps: Pick<CredentialDeps, 'db' | 'webhooks'>,
  organizationId: string,
  ids: string[],
) {
  const unique = [...new Set(ids)];
  if ((await repository.countExisting(deps.db, organizationId, unique)) !== unique.length) {
    throw new AppError('CREDENTIAL_NOT_FOUND', { detail: 'One or more credentials do not exist.' });
  }
  const { revoked, deliveryIds } = await deps.db.transaction(async (tx) => {
    const revoked = await repository.revokeCredentials(tx, organizationId, unique);
    if (revoked.length > 0) await repository.bumpStatusListRevision(tx, organizationId);
    return { revoked, deliveryIds: await recordRevokedEvents(tx, organizationId, revoked) };
  });
  await dispatchWebhookDeliveries(deps.webhooks, deliveryIds);
  return revoked;
}

/** One `credential.revoked` webhook event per credential just revoked, stored with the revocation. */
function recordRevokedEvents(tx: Database, organizationId: string, revoked: string[]) {
  if (revoked.length === 0) return Promise.resolve([]);
  return recordWebhookEvents(tx, organizationId, 'credential.revoked', async () => {
    const data: Record<string, unknown>[] = [];
    for (const id of revoked) {
      const row = await repository.findCredential(tx, organizationId, id);
      if (row?.revokedAt) {
        data.push({ credential_id: row.id, schema_id: row.schemaId, revoked_at: row.revokedAt.toISOString() });
      }
    }
    return data;
  });
}

/** Deletes credentials of the organization; an issued one is revoked first so it stops verifying. */
export async function deleteCredentials(
  deps: Pick<CredentialDeps, 'db' | 'webhooks'>,
  organizationId: string,
  ids: string[],
) {
  const unique = [...new Set(ids)];
  if ((await repository.countExisting(deps.db, organizationId, unique)) !== unique.length) {
    throw new AppError('CREDENTIAL_NOT_FOUND', { detail: 'One or more credentials do not exist.' });
  }
  const { deleted, deliveryIds } = await deps.db.transaction(async (tx) => {
    const revoked = await repository.revokeCredentials(tx, organizationId, unique);
    if (revoked.length > 0) await repository.bumpStatusListRevision(tx, organizationId);
    const deliveryIds = await recordRevokedEvents(tx, organizationId, revoked);
    return { deleted: await repository.softDeleteCredentials(tx, organizationId, unique), deliveryIds };
  });
  await dispatchWebhookDeliveries(deps.webhooks, deliveryIds);
  return deleted;
}

// ---- offers ---------------------------------------------------------------------------------------

export function preAuthorizedCode(deps: Pick<CredentialDeps, 'offerCodeKey'>, offerId: string) {
  return createHmac('sha256', deps.offerCodeKey).update(`pre-authorized-code:${offerId}`).digest('base64url');
}

async function createOffer(deps: CredentialDeps, credential: repository.CredentialRow, txCode?: string) {
  // The pre-authorized code derives from the offer id, so it is known before the row exists.
  const id = randomUUID();
  const offer = await repository.insertOffer(deps.db, {
    id,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    preAuthorizedCodeHash: sha256(preAuthorizedCode(deps, id)),
    txCodeHash: txCode ? sha256(txCode) : null,
    expiresAt: new Date(Date.now() + deps.offerTtlDays * 86_400_000),
  });
  // CREATED → ISSUED; when something else changed the credential meanwhile (a revocation), read it again.
  const issued =
    (await repository.markIssued(deps.db, credential.id)) ??
    (await repository.findCredentialById(deps.db, credential.id)) ??
    credential;
  return { offer, credential: issued };
}

/**
 * The offer that the holder page and the e-mail point at: the open one, or a new one while the credential
 * has never been offered. An expired, claimed or revoked credential gets no new offer. Answers the
 * credential as it is afterwards (ISSUED once offered).
 */
export async function ensureOffer(
  deps: CredentialDeps,
  credential: repository.CredentialRow,
): Promise<{ offer?: repository.CredentialOfferRow; credential: repository.CredentialRow }> {
  if (credential.status === 'REVOKED' || credential.status === 'CLAIMED') return { credential };
  const open = await repository.findOpenOffer(deps.db, credential.id);
  if (open) return { offer: open, credential };
  if (credential.status === 'ISSUED') return { credential };
  return createOffer(deps, credential);
}

export function offerUri(deps: Pick<CredentialDeps, 'publicUrl'>, offer: repository.CredentialOfferRow) {
  return `${issuerUrl(deps.publicUrl, offer.organizationId)}/credential-offer/${offer.id}`;
}

/** OpenID4VCI §4.1.3: the offer by reference, so the QR code stays small. */
export function connectionUrl(deps: Pick<CredentialDeps, 'publicUrl'>, offer: repository.CredentialOfferRow) {
  return `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri(deps, offer))}`;
}

export async function getCredentialForConnect(deps: CredentialDeps, id: string) {
  const credential = await repository.findCredentialById(deps.db, id);
  if (!credential) throw new AppError('CREDENTIAL_NOT_FOUND');
  const { offer, credential: current } = await ensureOffer(deps, credential);
  // A credential is offered once (a new offer only while it has none), so an open offer is the latest.
  const offerExpiresAt = offer ? offer.expiresAt : await repository.findLatestOfferExpiry(deps.db, id);
  return { credential: current, offer, offerExpiresAt };
}
