import { randomInt, randomUUID } from 'node:crypto';
import {
  type ClaimLabel,
  CREDENTIAL_EXPORT_COLUMNS,
  type CreateCredentialWithRecipientRequest,
  type CredentialExportQuery,
  type CredentialListQuery,
  type CredentialStatus,
} from '@cp/contracts';
import { type AttributeType, buildClaims } from '@cp/credentials';
import { type Database, uuidv7 } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { hmacSha256, sha256 } from '../../lib/crypto.ts';
import { csvRecord, UTF8_BOM } from '../../lib/csv.ts';
import { calendarDay, isoInTimeZone, startOfDay, startOfNextDay } from '../../lib/time-zone.ts';
import {
  type AuditActor,
  auditEventRow,
  credentialTarget,
  recordAuditEvents,
} from '../audit-events/audit-events.service.ts';
import { isPlatformSchemaSlug } from '../credential-schemas/platform-credential-schemas.ts';
import { claimLabel } from '../credential-schemas/platform-schema-display.ts';
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
  scope: { organizationId: string; userId: string | null; actor: AuditActor },
  input: CreateCredentialWithRecipientRequest,
) {
  // One statement reads the organization's KYB state and name and the schema (issue 16).
  const context = await repository.findIssuingContext(deps.db, scope.organizationId, input.credential.schema_id);
  kybService.assertVerified(context?.organization);
  const schemaRecord = context?.schema;
  if (!schemaRecord) throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
  if (schemaRecord.issueDisabled) {
    throw new AppError('CREDENTIAL_SCHEMA_ISSUE_DISABLED', {
      detail: 'This schema can be used for verification only.',
    });
  }
  const organization = { id: scope.organizationId, name: context.organization.name };
  const attributes = schemaRecord.attributes.map((a) => ({
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
  const { statusListId, statusIndex } = await repository.allocateStatusIndex(
    deps.db,
    scope.organizationId,
    deps.statusListSize,
  );
  const snapshot: SchemaSnapshot = {
    id: schemaRecord.id,
    name: schemaRecord.name,
    slug: schemaRecord.slug,
    attributes,
  };
  const values = {
    id: uuidv7(),
    organizationId: scope.organizationId,
    schemaId: schemaRecord.id,
    schemaSnapshot: snapshot as unknown as Record<string, unknown>,
    name: input.credential.name,
    description: input.credential.description || null,
    recipientEmail: input.recipient.email,
    recipientFirstName: input.recipient.first_name,
    recipientLastName: input.recipient.last_name,
    claims: typed.claims,
    statusListId,
    statusIndex,
    createdByUserId: scope.userId,
  };
  // Stored with its audit event in one statement (all or nothing).
  const { target, details } = credentialTarget(values);
  const credential = await repository.createCredentialWithEvent(
    deps.db,
    values,
    auditEventRow(scope, {
      action: 'credential.issued',
      target,
      details: { ...details, schema_id: schemaRecord.id, tx_code: Boolean(input.tx_code) },
    }),
  );
  if (!input.tx_code) return { credential, txCode: undefined, offerExpiresAt: null, organization };
  // The PIN travels to the recipient separately from the link; only its hash is kept.
  const txCode = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const offered = await createOffer(deps, credential, txCode);
  return { credential: offered.credential, txCode, offerExpiresAt: offered.offer.expiresAt, organization };
}

/** The status shown: an ISSUED credential whose offer ran out without being claimed is EXPIRED. */
export function effectiveStatus(row: repository.CredentialRow, offerExpiresAt: Date | null): CredentialStatus {
  if (row.status === 'ISSUED' && offerExpiresAt && offerExpiresAt.getTime() <= Date.now()) return 'EXPIRED';
  return row.status as CredentialStatus;
}

/**
 * The claims the credential holds, labelled as wallets label them (the issuer metadata's claim display): the
 * schema's attribute order, platform schemas translated. Labels only: the holder page never shows the values.
 */
export function claimLabelsOf(row: repository.CredentialRow): ClaimLabel[] {
  const snapshot = row.schemaSnapshot as unknown as Partial<SchemaSnapshot>;
  const schema = { organizationId: snapshot.slug && isPlatformSchemaSlug(snapshot.slug) ? null : row.organizationId };
  const claims = row.claims as Record<string, unknown>;
  return (snapshot.attributes ?? [])
    .filter((attribute) => claims[attribute.name] !== undefined)
    .map((attribute) => claimLabel(schema, attribute.name));
}

/** The repository's filters of a list or export query: a range of days becomes instants in its time zone. */
export function listFilters(query: CredentialExportQuery): repository.CredentialFilters {
  const from = query['filter.created_from'];
  const to = query['filter.created_to'];
  return {
    status: query['filter.status'],
    schemaId: query['filter.schema_id'],
    search: query['filter.search'] || undefined,
    importId: query['filter.import_id'],
    createdFrom: from ? startOfDay(from, query.timezone) : undefined,
    createdBefore: to ? startOfNextDay(to, query.timezone) : undefined,
  };
}

export async function findCredentials(
  deps: Pick<CredentialDeps, 'db'>,
  organizationId: string,
  query: CredentialListQuery,
) {
  const { rows, total } = await repository.findCredentials(
    deps.db,
    organizationId,
    listFilters(query),
    { offset: (query.page - 1) * query.limit, limit: query.limit },
    query.sort,
  );
  return { rows, total, page: query.page, limit: query.limit };
}

/** Rows per query of an export: small enough that a batch is a few hundred KB, large enough to stream fast. */
export const EXPORT_BATCH_SIZE = 500;

/**
 * Every credential the list's filters match, in the list's order, as CSV (UTF-8 with a byte order mark,
 * RFC 4180 records, formulas neutralised, times ISO 8601 in the query's time zone), one batch at a time: read
 * by keyset pagination and written as the reader takes it, so memory does not grow with the result. The
 * first chunk holds the header and the first batch, so a failing query fails before anything is sent.
 */
export async function* exportCredentials(
  deps: Pick<CredentialDeps, 'db'>,
  organizationId: string,
  query: CredentialExportQuery,
): AsyncGenerator<string> {
  const now = new Date();
  const filters = listFilters(query);
  const time = (instant: Date | null) => (instant ? isoInTimeZone(instant, query.timezone) : null);
  let chunk = UTF8_BOM + csvRecord(CREDENTIAL_EXPORT_COLUMNS);
  for (const status of repository.statusStretches(filters, query.sort)) {
    let after: repository.ExportCursor | null = null;
    for (;;) {
      const batch = await repository.findCredentialExportBatch(
        deps.db,
        organizationId,
        { ...filters, status },
        query.sort,
        after,
        EXPORT_BATCH_SIZE,
        now,
      );
      for (const row of batch) {
        const expired = row.status === 'ISSUED' && row.offerExpiresAt !== null && row.offerExpiresAt <= now;
        chunk += csvRecord([
          row.id,
          row.name,
          row.schemaName,
          row.recipientFirstName,
          row.recipientLastName,
          row.recipientEmail,
          expired ? 'EXPIRED' : row.status,
          time(row.createdAt),
          time(row.issuedAt),
          time(row.claimedAt),
          time(row.offerExpiresAt),
          time(row.revokedAt),
        ]);
      }
      yield chunk;
      chunk = '';
      if (batch.length < EXPORT_BATCH_SIZE) break;
      after = repository.exportCursorOf(batch[batch.length - 1]!);
    }
  }
}

/** The export's file name: the day it was made, in the user's time zone. */
export const exportFileName = (prefix: string, timeZone: string) =>
  `${prefix}-${calendarDay(new Date(), timeZone)}.csv`;

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
  actor: AuditActor,
) {
  const unique = [...new Set(ids)];
  if ((await repository.countExisting(deps.db, organizationId, unique)) !== unique.length) {
    throw new AppError('CREDENTIAL_NOT_FOUND', { detail: 'One or more credentials do not exist.' });
  }
  const { revoked, deliveryIds } = await deps.db.transaction(async (tx) => {
    const { ids: revoked, statusListIds } = await repository.revokeCredentials(tx, organizationId, unique);
    await repository.bumpStatusListRevisions(tx, organizationId, statusListIds);
    await recordCredentialEvents(tx, { organizationId, actor }, 'credential.revoked', revoked);
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

/** One activity-log event per credential (a call names at most 100 of them). */
async function recordCredentialEvents(
  tx: Database,
  scope: { organizationId: string; actor: AuditActor },
  action: 'credential.revoked' | 'credential.deleted',
  ids: string[],
) {
  if (ids.length === 0) return;
  const rows = await repository.findCredentialsForLog(tx, scope.organizationId, ids);
  await recordAuditEvents(
    tx,
    scope,
    rows.map((row) => ({ action, ...credentialTarget(row) })),
  );
}

/** Deletes credentials of the organization; an issued one is revoked first so it stops verifying. */
export async function deleteCredentials(
  deps: Pick<CredentialDeps, 'db' | 'webhooks'>,
  organizationId: string,
  ids: string[],
  actor: AuditActor,
) {
  const unique = [...new Set(ids)];
  if ((await repository.countExisting(deps.db, organizationId, unique)) !== unique.length) {
    throw new AppError('CREDENTIAL_NOT_FOUND', { detail: 'One or more credentials do not exist.' });
  }
  const { deleted, deliveryIds } = await deps.db.transaction(async (tx) => {
    const { ids: revoked, statusListIds } = await repository.revokeCredentials(tx, organizationId, unique);
    await repository.bumpStatusListRevisions(tx, organizationId, statusListIds);
    const deliveryIds = await recordRevokedEvents(tx, organizationId, revoked);
    const deleted = await repository.softDeleteCredentials(tx, organizationId, unique);
    // Deleting revokes too: the log says "deleted" once, not "revoked" and "deleted".
    await recordCredentialEvents(tx, { organizationId, actor }, 'credential.deleted', deleted);
    return { deleted, deliveryIds };
  });
  await dispatchWebhookDeliveries(deps.webhooks, deliveryIds);
  return deleted;
}

/**
 * The further instances of a credential claimed as a batch (OpenID4VCI 1.0 §8.2 `proofs`): one status slot each
 * from the organization's allocator (never one given before, to any credential or instance) and its row, with
 * the holder key it is bound to. Instance i + 1 gets `holderJwks[i]`; answers their slots in that order. Called
 * by the issuer in the claim's transaction, after the claim succeeded: a refused request allocates nothing.
 */
export async function addBatchInstances(
  deps: Pick<CredentialDeps, 'statusListSize'>,
  tx: Database,
  organizationId: string,
  credentialId: string,
  holderJwks: Record<string, unknown>[],
): Promise<repository.StatusSlot[]> {
  if (holderJwks.length === 0) return [];
  const slots = await repository.allocateStatusIndexes(tx, organizationId, deps.statusListSize, holderJwks.length);
  await repository.insertStatusEntries(
    tx,
    organizationId,
    credentialId,
    slots.map((slot, i) => ({ instance: i + 1, slot, holderJwk: holderJwks[i]! })),
  );
  return slots;
}

// ---- offers ---------------------------------------------------------------------------------------

export function preAuthorizedCode(deps: Pick<CredentialDeps, 'offerCodeKey'>, offerId: string) {
  return hmacSha256(deps.offerCodeKey).update(`pre-authorized-code:${offerId}`).digest('base64url');
}

async function createOffer(deps: CredentialDeps, credential: repository.CredentialRow, txCode?: string) {
  // The pre-authorized code derives from the offer id, so it is known before the row exists.
  const id = randomUUID();
  // Stored with CREATED → ISSUED in one statement; when something else changed the credential meanwhile (a
  // revocation), it is read again.
  const { offer, issued } = await repository.insertOfferAndIssue(deps.db, {
    id,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    preAuthorizedCodeHash: sha256(preAuthorizedCode(deps, id)),
    txCodeHash: txCode ? sha256(txCode) : null,
    expiresAt: new Date(Date.now() + deps.offerTtlDays * 86_400_000),
  });
  const current = issued
    ? { ...credential, ...issued }
    : ((await repository.findCredentialById(deps.db, credential.id)) ?? credential);
  return { offer, credential: current };
}

/**
 * The offer that the holder page and the e-mail point at: the open one, or a new one while the credential
 * has never been offered. An expired, claimed or revoked credential gets no new offer. Answers the
 * credential as it is afterwards (ISSUED once offered).
 */
export async function ensureOffer(
  deps: CredentialDeps,
  credential: repository.CredentialRow,
  /** The open offer when the caller read it with the credential (null: none). */
  known?: repository.CredentialOfferRow | null,
): Promise<{ offer?: repository.CredentialOfferRow; credential: repository.CredentialRow }> {
  if (credential.status === 'REVOKED' || credential.status === 'CLAIMED') return { credential };
  const open = known === undefined ? await repository.findOpenOffer(deps.db, credential.id) : known;
  if (open) return { offer: open, credential };
  if (credential.status === 'ISSUED') return { credential };
  return createOffer(deps, credential);
}

/**
 * Resending the e-mail of an ISSUED credential whose offer can no longer be redeemed (expired, withdrawn after
 * too many wrong PINs, or exchanged by a wallet that never fetched the credential): a fresh offer replaces it,
 * so the link in the new e-mail works, and every older offer is withdrawn, so none of them can be redeemed any
 * more (OpenID4VCI §4.1: an offer is single-use; this keeps one live offer per credential). A PIN-protected
 * offer keeps its PIN (its hash is copied): the recipient already has it. Answers the new offer, if any.
 */
export async function renewOfferIfSpent(
  deps: CredentialDeps,
  credential: repository.CredentialRow,
): Promise<repository.CredentialOfferRow | undefined> {
  if (credential.status !== 'ISSUED') return undefined;
  if (await repository.findRedeemableOffer(deps.db, credential.id)) return undefined;
  const previous = await repository.findLatestOffer(deps.db, credential.id);
  await repository.withdrawOffers(deps.db, credential.id);
  const id = randomUUID();
  return repository.insertOffer(deps.db, {
    id,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    preAuthorizedCodeHash: sha256(preAuthorizedCode(deps, id)),
    txCodeHash: previous?.txCodeHash ?? null,
    expiresAt: new Date(Date.now() + deps.offerTtlDays * 86_400_000),
  });
}

export function offerUri(deps: Pick<CredentialDeps, 'publicUrl'>, offer: repository.CredentialOfferRow) {
  return `${issuerUrl(deps.publicUrl, offer.organizationId)}/credential-offer/${offer.id}`;
}

/** OpenID4VCI §4.1.3: the offer by reference, so the QR code stays small. */
export function connectionUrl(deps: Pick<CredentialDeps, 'publicUrl'>, offer: repository.CredentialOfferRow) {
  return `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri(deps, offer))}`;
}

/**
 * The holder page's credential (one statement with its open offer, its offers' latest expiry and its organization;
 * a second one when the credential is offered here for the first time).
 */
export async function getCredentialForConnect(deps: CredentialDeps, id: string) {
  const row = await repository.findCredentialForHolderPage(deps.db, id);
  if (!row) throw new AppError('CREDENTIAL_NOT_FOUND');
  const { offer, credential } = await ensureOffer(deps, row.credential, row.openOffer ?? null);
  // A credential is offered once (a new offer only while it has none), so an open offer is the latest.
  const offerExpiresAt = offer ? offer.expiresAt : row.latestOfferExpiry;
  return { credential, offer, offerExpiresAt, brand: row.brand };
}
