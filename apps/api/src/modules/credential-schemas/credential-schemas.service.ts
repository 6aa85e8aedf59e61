import { randomUUID } from 'node:crypto';
import type { CreateCredentialSchemaRequest, PageQuery } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as repository from './credential-schemas.repository.ts';
import { platformCredentialSchemas } from './platform-credential-schemas.ts';

export type { CredentialSchemaRecord } from './credential-schemas.repository.ts';

/** Who acts: the organization and the signed-in user (null for an API key). */
export interface CredentialSchemaScope {
  organizationId: string;
  userId: string | null;
  actor: AuditActor;
}

/** The organization's schemas and the platform's, one page (deleted ones are not listed). */
export async function findCredentialSchemas(db: Database, organizationId: string, query: PageQuery) {
  const { records, total } = await repository.findCredentialSchemas(db, organizationId, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return { records, total, page: query.page, limit: query.limit };
}

/**
 * One schema of the organization or the platform. Another organization's schema and a missing one both
 * answer 404. `includeDeleted` is for credentials issued before a deletion, which keep their schema.
 */
export async function getCredentialSchema(
  db: Database,
  params: { organizationId: string; id: string; includeDeleted?: boolean },
) {
  const record = await repository.findCredentialSchema(db, params.organizationId, params.id, {
    includeDeleted: params.includeDeleted ?? false,
  });
  if (!record) throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
  return record;
}

export const findPlatformCredentialSchema = (db: Database, slug: string) =>
  repository.findPlatformCredentialSchema(db, slug);

/** Publishes a schema. There is no update: a published schema is immutable (duplicate it instead). */
export async function createCredentialSchema(
  db: Database,
  scope: CredentialSchemaScope,
  input: CreateCredentialSchemaRequest,
) {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await repository.insertCredentialSchema(tx, {
      id,
      organizationId: scope.organizationId,
      name: input.name,
      description: input.description || null,
      slug: credentialSchemaSlug(input.name, id),
      issueDisabled: false,
      createdByUserId: scope.userId,
      attributes: input.attributes.map((a) => ({ name: a.name, description: a.description || null, type: a.type })),
    });
    await recordAuditEvent(tx, scope, {
      action: 'credential_schema.created',
      target: { id, label: input.name },
      details: { attribute_count: input.attributes.length },
    });
  });
  return getCredentialSchema(db, { organizationId: scope.organizationId, id });
}

/** Soft delete of an own schema; platform schemas are not deleteable. Issued credentials stay valid. */
export async function deleteCredentialSchema(db: Database, scope: CredentialSchemaScope, id: string) {
  const record = await getCredentialSchema(db, { organizationId: scope.organizationId, id });
  if (!isDeleteable(record.schema)) {
    throw new AppError('CREDENTIAL_SCHEMA_NOT_DELETEABLE', { detail: 'Schemas of the platform cannot be deleted.' });
  }
  await db.transaction(async (tx) => {
    if (!(await repository.softDeleteCredentialSchema(tx, scope.organizationId, id))) {
      throw new AppError('CREDENTIAL_SCHEMA_NOT_FOUND');
    }
    await recordAuditEvent(tx, scope, {
      action: 'credential_schema.deleted',
      target: { id, label: record.schema.name },
      details: {},
    });
  });
}

export const isDeleteable = (row: { organizationId: string | null }) => row.organizationId !== null;

/** A URL-safe slug: the name's ASCII letters and digits, then the first 8 hex digits of the id. */
export function credentialSchemaSlug(name: string, id: string) {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return `${base || 'schema'}-${id.replaceAll('-', '').slice(0, 8)}`;
}

/**
 * Inserts the platform schemas that are missing (by slug). Safe at every start and when several
 * processes start together; existing platform schemas are never changed (they are published).
 */
export async function seedPlatformCredentialSchemas(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await repository.lockPlatformSeed(tx);
    const existing = await repository.findPlatformCredentialSchemaSlugs(tx);
    const now = Date.now();
    let inserted = 0;
    for (const [index, platform] of platformCredentialSchemas.entries()) {
      if (existing.has(platform.slug)) continue;
      await repository.insertCredentialSchema(tx, {
        id: randomUUID(),
        organizationId: null,
        name: platform.name,
        description: platform.description,
        slug: platform.slug,
        issueDisabled: platform.issueDisabled,
        createdByUserId: null,
        // Newest first in lists: one millisecond apart keeps the declared order.
        createdAt: new Date(now - index),
        attributes: platform.attributes,
      });
      inserted += 1;
    }
    return inserted;
  });
}
