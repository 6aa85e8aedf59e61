import { type Database, schema } from '@cp/db';
import { and, eq, gt, isNull } from 'drizzle-orm';

const { authSessions, refreshTokens } = schema;

export async function insertAuthSession(
  db: Database,
  values: { state: string; nonce: string; codeVerifier: string; redirectUrl: string; expiresAt: Date },
) {
  const [row] = await db.insert(authSessions).values(values).returning({ id: authSessions.id });
  return row!;
}

/** Marks the sign-in attempt used and returns it; a second use or an expired one returns undefined. */
export async function consumeAuthSession(db: Database, id: string) {
  const [row] = await db
    .update(authSessions)
    .set({ consumedAt: new Date() })
    .where(and(eq(authSessions.id, id), isNull(authSessions.consumedAt), gt(authSessions.expiresAt, new Date())))
    .returning();
  return row;
}

export async function insertRefreshToken(
  db: Database,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshTokenByHash(db: Database, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}

/** Atomically marks a refresh token as rotated; false when someone else already did (a reuse). */
export async function markRefreshTokenRotated(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeRefreshFamily(db: Database, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** A session (refresh family) is active while at least one of its tokens is unrevoked and unexpired. */
export async function isSessionActive(db: Database, familyId: string): Promise<boolean> {
  const rows = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, familyId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
