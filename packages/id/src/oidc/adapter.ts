import { type Database, schema } from '@cp/db';
import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';

const { oidcPayloads } = schema;

/**
 * oidc-provider storage over the `oidc_payloads` table: one row per (model name, id). Every process
 * sharing the database sees the same sessions, interactions, codes and grants. Expired rows are never
 * answered; they are swept opportunistically.
 */
export class DatabaseAdapter implements Adapter {
  readonly #db: Database;
  readonly #type: string;

  constructor(db: Database, type: string) {
    this.#db = db;
    this.#type = type;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const row = {
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt,
      consumedAt: null,
    };
    await this.#db
      .insert(oidcPayloads)
      .values({ id, type: this.#type, ...row })
      .onConflictDoUpdate({ target: [oidcPayloads.id, oidcPayloads.type], set: row });
  }

  async #findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    const rows = await this.#db
      .select()
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.type, this.#type),
          condition,
          or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
        ),
      )
      .limit(1);
    const row = rows[0];
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere(eq(oidcPayloads.id, id));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere(eq(oidcPayloads.userCode, userCode));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere(eq(oidcPayloads.uid, uid));
  }

  async consume(id: string): Promise<void> {
    await this.#db
      .update(oidcPayloads)
      .set({ consumedAt: new Date() })
      .where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.#db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // oidc-provider calls this once per model (codes, access and refresh tokens...).
    await this.#db
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.type, this.#type), eq(oidcPayloads.grantId, grantId)));
  }
}

/** Unexpired rows of one model (e.g. 'Session', 'Grant') that belong to an account (`payload.accountId`). */
export async function findAccountPayloads(
  db: Database,
  type: string,
  accountId: string,
): Promise<Array<{ id: string; uid: string | null; payload: AdapterPayload }>> {
  const rows = await db
    .select({ id: oidcPayloads.id, uid: oidcPayloads.uid, payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.type, type),
        sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`,
        or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
      ),
    );
  return rows.map((row) => ({ id: row.id, uid: row.uid, payload: row.payload as AdapterPayload }));
}

/**
 * Deletes the account's sessions except the one with uid `keepUid` (all of them when it is null); answers the
 * deleted rows' payloads.
 */
export async function deleteOtherAccountSessions(
  db: Database,
  accountId: string,
  keepUid: string | null,
): Promise<AdapterPayload[]> {
  const rows = await db
    .delete(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.type, 'Session'),
        sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`,
        keepUid === null ? undefined : or(isNull(oidcPayloads.uid), ne(oidcPayloads.uid, keepUid)),
      ),
    )
    .returning({ payload: oidcPayloads.payload });
  return rows.map((row) => row.payload as AdapterPayload);
}

/**
 * Revokes grants: the Grant rows and every row issued under them (authorization codes, access and
 * refresh tokens, whatever the model), in one statement.
 */
export async function deleteGrants(db: Database, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db
    .delete(oidcPayloads)
    .where(
      or(
        inArray(oidcPayloads.grantId, grantIds),
        and(eq(oidcPayloads.type, 'Grant'), inArray(oidcPayloads.id, grantIds)),
      ),
    );
}

/** oidc-provider instantiates the adapter with `new Adapter(modelName)`: bind the database here. */
export function databaseAdapterFor(db: Database): new (name: string) => Adapter {
  return class extends DatabaseAdapter {
    constructor(name: string) {
      super(db, name);
    }
  };
}
