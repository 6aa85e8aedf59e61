import type { MemberRole } from '@cp/contracts';
import { type Database, runStatement, schema, statement } from '@cp/db';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';

const { authSessions, nonces, refreshTokens } = schema;

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
  values: {
    userId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
    providerSid: string | null;
    twoFactor: boolean;
  },
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

/** Revokes every live refresh-token family of a user; answers how many families were still live. */
export async function revokeUserRefreshFamilies(db: Database, userId: string): Promise<number> {
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
    .returning({ familyId: refreshTokens.familyId });
  return new Set(rows.map((r) => r.familyId)).size;
}

/**
 * The live refresh-token families recorded with a provider session id, and their users: one per console
 * sign-in through that provider session, so a few rows.
 */
export async function findLiveFamiliesByProviderSid(
  db: Database,
  providerSid: string,
): Promise<Array<{ familyId: string; userId: string }>> {
  return db
    .selectDistinct({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.providerSid, providerSid), isNull(refreshTokens.revokedAt)));
}

/** Revokes the given refresh-token families; answers how many of them were still live. */
export async function revokeRefreshFamilies(db: Database, familyIds: string[]): Promise<number> {
  if (familyIds.length === 0) return 0;
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(inArray(refreshTokens.familyId, familyIds), isNull(refreshTokens.revokedAt)))
    .returning({ familyId: refreshTokens.familyId });
  return new Set(rows.map((r) => r.familyId)).size;
}

/**
 * Remembers a logout token's identifier once (Back-Channel Logout 1.0 §2.6 step 8: reject replays).
 * It reuses the single-use `nonces` table: the key is the hash of issuer and jti, kept until the token
 * could no longer be accepted anyway. False when it was already seen.
 */
export async function recordLogoutTokenOnce(db: Database, keyHash: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(nonces)
    .values({ nonceHash: keyHash, purpose: 'oidc-logout-token', expiresAt, consumedAt: new Date() })
    .onConflictDoNothing({ target: nonces.nonceHash })
    .returning({ hash: nonces.nonceHash });
  return rows.length === 1;
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

/**
 * What authenticating a signed-in user's request to an organization reads, in one statement: whether the
 * session is active (as `isSessionActive`), the user's role in the organization (as `findMemberRole`) and
 * whether the organization requires two-step sign-in (as `requiresTwoFactor`). Read on every request, so a
 * sign-out, a removed member or a new requirement applies at once.
 */
const sessionInOrganization = statement<{ active: boolean; role: MemberRole | null; requireTwoFactor: boolean }>(
  'auth_session_in_organization',
  `select exists (select from refresh_tokens
                   where family_id = $1 and revoked_at is null and expires_at > $2) as "active",
          (select role from memberships where organization_id = $3 and user_id = $4 limit 1) as "role",
          coalesce((select require_two_factor from organizations where id = $3), false) as "requireTwoFactor"`,
);

export async function findSessionInOrganization(
  db: Database,
  input: { sessionId: string; organizationId: string; userId: string },
) {
  const [row] = await runStatement(db, sessionInOrganization, [
    input.sessionId,
    new Date(),
    input.organizationId,
    input.userId,
  ]);
  if (!row) throw new Error('The session statement answered no row');
  return row;
}
