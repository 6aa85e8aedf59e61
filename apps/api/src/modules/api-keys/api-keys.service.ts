import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_ID_PATTERN, type CreateApiKeyRequest, type PageQuery, type UpdateApiKeyRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import { type AuditActor, recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as repository from './api-keys.repository.ts';

export interface ApiKeyPrincipal {
  apiKeyId: string;
  organizationId: string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID_LENGTH = 24;
/** `last_used_at` is written at most once a minute per key: it is for people, not an audit log. */
const LAST_USED_PRECISION_MS = 60_000;

/** Uniform base62 characters: bytes ≥ 248 are dropped so that no character is more likely than another. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const generateKeyId = () => `ck_${randomBase62(KEY_ID_LENGTH)}`;

/** 32 random bytes: high entropy, so a plain SHA-256 is enough to store it (no password hashing needed). */
export const generateSecret = () => `cs_${randomBytes(32).toString('base64url')}`;

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export function findApiKeys(db: Database, organizationId: string, page: Pick<PageQuery, 'page' | 'limit'>) {
  return repository.findApiKeys(db, organizationId, page);
}

/** Creates a key; the plaintext secret exists only in this answer. */
export async function createApiKey(
  db: Database,
  params: { organizationId: string; userId: string | null; actor: AuditActor },
  input: CreateApiKeyRequest,
) {
  const secret = generateSecret();
  const row = await db.transaction(async (tx) => {
    const inserted = await repository.insertApiKey(tx, params.organizationId, {
      name: input.name,
      keyId: generateKeyId(),
      secretHash: hashSecret(secret),
      lastFour: secret.slice(-4),
      createdByUserId: params.userId,
    });
    await recordAuditEvent(tx, params, {
      action: 'api_key.created',
      target: { id: inserted.id, label: inserted.name },
      details: {},
    });
    return inserted;
  });
  return { row, secret };
}

/** 404 both for a missing key and for another organization's key: no existence leak. */
export async function renameApiKey(
  db: Database,
  organizationId: string,
  id: string,
  input: UpdateApiKeyRequest,
  actor: AuditActor,
) {
  return db.transaction(async (tx) => {
    const before = await repository.findApiKey(tx, organizationId, id);
    const row = before && (await repository.renameApiKey(tx, organizationId, id, input.name));
    if (!row) throw new AppError('API_KEY_NOT_FOUND');
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'api_key.updated', target: { id, label: row.name }, details: { previous_name: before.name } },
    );
    return row;
  });
}

export async function deleteApiKey(db: Database, organizationId: string, id: string, actor: AuditActor) {
  await db.transaction(async (tx) => {
    const before = await repository.findApiKey(tx, organizationId, id);
    if (!before || !(await repository.revokeApiKey(tx, organizationId, id, new Date()))) {
      throw new AppError('API_KEY_NOT_FOUND');
    }
    await recordAuditEvent(
      tx,
      { organizationId, actor },
      { action: 'api_key.deleted', target: { id, label: before.name }, details: {} },
    );
  });
}

/**
 * Checks an API key (HTTP Basic `key:secret`). Returns its organization, or null when the key is
 * unknown, deleted or the secret does not match.
 */
export async function verifyApiKey(db: Database, keyId: string, secret: string): Promise<ApiKeyPrincipal | null> {
  if (!API_KEY_ID_PATTERN.test(keyId) || secret.length === 0 || secret.length > 200) return null;
  const row = await repository.findLiveApiKeyByKeyId(db, keyId);
  if (!row) return null;
  const expected = Buffer.from(row.secretHash, 'hex');
  const actual = Buffer.from(hashSecret(secret), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    await repository.touchApiKey(db, row.id, now, new Date(now.getTime() - LAST_USED_PRECISION_MS));
  }
  return { apiKeyId: row.id, organizationId: row.organizationId };
}
