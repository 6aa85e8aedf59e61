import { type Database, schema } from '@cp/db';
import { and, asc, desc, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';

/**
 * The authorization code flow's rows (migration 0021): pushed authorization requests, wallet-initiated browser
 * flows with their e-mail one-time codes, and authorization codes. Every single-use step is one conditional
 * update, so that of two concurrent uses only one finds the row unused. Not on the pre-authorized code's path.
 */

const { authorizationRequests, authorizationCodes, emailOneTimeCodes, credentialOffers, credentials } = schema;

export type AuthorizationRequestRow = typeof authorizationRequests.$inferSelect;
export type AuthorizationCodeRow = typeof authorizationCodes.$inferSelect;

export async function insertAuthorizationRequest(db: Database, row: typeof authorizationRequests.$inferInsert) {
  await db.insert(authorizationRequests).values(row);
}

/**
 * RFC 9126 §4: a request_uri is used once, by the client that pushed it, before it expires. A request of another
 * client_id, or late, leaves it as it was (and is refused).
 */
export async function useAuthorizationRequest(
  db: Database,
  organizationId: string,
  requestUriHash: string,
  clientId: string,
  now: Date,
  flow: { flowHash: string; flowExpiresAt: Date },
): Promise<AuthorizationRequestRow | undefined> {
  const [row] = await db
    .update(authorizationRequests)
    .set({
      usedAt: now,
      // Only a request without an offer starts a browser flow.
      flowHash: sql`case when ${authorizationRequests.offerId} is null then ${flow.flowHash} end`,
      flowExpiresAt: sql`case when ${authorizationRequests.offerId} is null then ${flow.flowExpiresAt.toISOString()}::timestamptz end`,
    })
    .where(
      and(
        eq(authorizationRequests.organizationId, organizationId),
        eq(authorizationRequests.requestUriHash, requestUriHash),
        eq(authorizationRequests.clientId, clientId),
        isNull(authorizationRequests.usedAt),
        gt(authorizationRequests.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** The open browser flow of a wallet-initiated request (its secret's hash), if not expired or ended. */
export async function findOpenFlow(db: Database, organizationId: string, flowHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(authorizationRequests)
    .where(
      and(
        eq(authorizationRequests.organizationId, organizationId),
        eq(authorizationRequests.flowHash, flowHash),
        isNull(authorizationRequests.offerId),
        gt(authorizationRequests.flowExpiresAt, now),
      ),
    );
  return row;
}

/**
 * Ends a browser flow (the right code was given, or every attempt was spent): it must start again. Its code
 * can no longer be tried (expired now), and stays counted for its address.
 */
export async function endFlow(db: Database, authorizationRequestId: string, now: Date) {
  await db
    .update(authorizationRequests)
    .set({ flowExpiresAt: now })
    .where(eq(authorizationRequests.id, authorizationRequestId));
  await db
    .update(emailOneTimeCodes)
    .set({ expiresAt: now })
    .where(eq(emailOneTimeCodes.authorizationRequestId, authorizationRequestId));
}

/** How many codes this organization's flows sent to `email` since `since` (whichever flows asked). */
export async function countCodesSentTo(db: Database, organizationId: string, email: string, since: Date) {
  const [row] = await db
    .select({ sent: sql<number>`coalesce(sum(${emailOneTimeCodes.sentCount}), 0)::int` })
    .from(emailOneTimeCodes)
    .where(
      and(
        eq(emailOneTimeCodes.organizationId, organizationId),
        eq(emailOneTimeCodes.email, email),
        gt(emailOneTimeCodes.createdAt, since),
      ),
    );
  return row?.sent ?? 0;
}

/**
 * A new one-time code for the flow (replacing the previous one, with fresh attempts), at most `maxSent` per flow.
 * Answers false when the flow has had its codes.
 */
export async function putEmailOneTimeCode(
  db: Database,
  row: { authorizationRequestId: string; organizationId: string; email: string; codeHash: string; expiresAt: Date },
  maxSent: number,
) {
  const rows = await db
    .insert(emailOneTimeCodes)
    .values(row)
    .onConflictDoUpdate({
      target: emailOneTimeCodes.authorizationRequestId,
      set: {
        email: row.email,
        codeHash: row.codeHash,
        expiresAt: row.expiresAt,
        attempts: 0,
        sentCount: sql`${emailOneTimeCodes.sentCount} + 1`,
      },
      setWhere: lt(emailOneTimeCodes.sentCount, maxSent),
    })
    .returning({ sentCount: emailOneTimeCodes.sentCount });
  return rows.length === 1;
}

/**
 * Reserves one attempt at the flow's code before it is compared (as tx_code: counting and the limit are one
 * statement, so concurrent guesses get at most `maxAttempts` comparisons). Answers the code to compare, or
 * undefined when there is none, it expired, or its attempts are spent.
 */
export async function reserveEmailCodeAttempt(
  db: Database,
  authorizationRequestId: string,
  maxAttempts: number,
  now: Date,
) {
  const [row] = await db
    .update(emailOneTimeCodes)
    .set({ attempts: sql`${emailOneTimeCodes.attempts} + 1` })
    .where(
      and(
        eq(emailOneTimeCodes.authorizationRequestId, authorizationRequestId),
        lt(emailOneTimeCodes.attempts, maxAttempts),
        gt(emailOneTimeCodes.expiresAt, now),
      ),
    )
    .returning({
      attempt: emailOneTimeCodes.attempts,
      codeHash: emailOneTimeCodes.codeHash,
      email: emailOneTimeCodes.email,
    });
  return row;
}

/**
 * The offer through which a credential of this organization, issued to `email` in configuration `slug`, can
 * still be claimed: the credential ISSUED (not claimed, revoked or deleted), the offer neither used, withdrawn
 * nor expired. The oldest such credential first (the order it was issued in), its newest open offer.
 */
export async function findClaimableOffer(
  db: Database,
  organizationId: string,
  email: string,
  slug: string,
  now: Date,
  offerId?: string,
) {
  const [row] = await db
    .select({
      offerId: credentialOffers.id,
      credentialId: credentials.id,
      hasTxCode: isNotNull(credentialOffers.txCodeHash),
    })
    .from(credentialOffers)
    .innerJoin(credentials, eq(credentials.id, credentialOffers.credentialId))
    .where(
      and(
        eq(credentials.organizationId, organizationId),
        eq(credentialOffers.organizationId, organizationId),
        ...(offerId ? [eq(credentialOffers.id, offerId)] : [sql`lower(${credentials.recipientEmail}) = ${email}`]),
        sql`${credentials.schemaSnapshot}->>'slug' = ${slug}`,
        eq(credentials.status, 'ISSUED'),
        isNull(credentials.revokedAt),
        isNull(credentials.deletedAt),
        isNull(credentialOffers.redeemedAt),
        isNull(credentialOffers.revokedAt),
        gt(credentialOffers.expiresAt, now),
      ),
    )
    .orderBy(asc(credentials.createdAt), desc(credentialOffers.createdAt))
    .limit(1);
  return row;
}

/** What the token response repeats of the authorization request (its `authorization_details`, if any). */
export async function findAuthorizationRequestDetails(db: Database, authorizationRequestId: string) {
  const [row] = await db
    .select({
      authorizationDetails: authorizationRequests.authorizationDetails,
      credentialConfigurationId: authorizationRequests.credentialConfigurationId,
    })
    .from(authorizationRequests)
    .where(eq(authorizationRequests.id, authorizationRequestId));
  return row;
}

export async function insertAuthorizationCode(db: Database, row: typeof authorizationCodes.$inferInsert) {
  await db.insert(authorizationCodes).values(row);
}

/** Single use (RFC 6749 §4.1.2): the first exchange marks the code used; a replay finds it used. */
export async function useAuthorizationCode(db: Database, organizationId: string, codeHash: string, now: Date) {
  const [row] = await db
    .update(authorizationCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(authorizationCodes.organizationId, organizationId),
        eq(authorizationCodes.codeHash, codeHash),
        isNull(authorizationCodes.usedAt),
      ),
    )
    .returning();
  return row;
}

export async function findAuthorizationCode(db: Database, organizationId: string, codeHash: string) {
  const [row] = await db
    .select()
    .from(authorizationCodes)
    .where(and(eq(authorizationCodes.organizationId, organizationId), eq(authorizationCodes.codeHash, codeHash)));
  return row;
}

/**
 * The offer the code grants, redeemed for the access token (as the pre-authorized code redeems it): single use
 * across both grants, refused once withdrawn or expired, or when its credential was revoked or deleted.
 */
export async function redeemOfferForCode(
  db: Database,
  organizationId: string,
  offerId: string,
  accessTokenHash: string,
  accessTokenExpiresAt: Date,
  now: Date,
) {
  const rows = await db
    .update(credentialOffers)
    .set({ redeemedAt: now, accessTokenHash, accessTokenExpiresAt })
    .where(
      and(
        eq(credentialOffers.organizationId, organizationId),
        eq(credentialOffers.id, offerId),
        isNull(credentialOffers.redeemedAt),
        isNull(credentialOffers.revokedAt),
        gt(credentialOffers.expiresAt, now),
        sql`exists (select from ${credentials} c where c.id = ${credentialOffers.credentialId}
                      and c.revoked_at is null and c.deleted_at is null)`,
      ),
    )
    .returning({ id: credentialOffers.id });
  return rows.length === 1;
}

/**
 * RFC 6749 §4.1.2: a replayed code revokes the access token issued for it (the offer's token expires now);
 * a credential already delivered stays delivered.
 */
export async function revokeTokenOfCode(db: Database, code: AuthorizationCodeRow, now: Date) {
  if (!code.accessTokenHash) return;
  await db
    .update(credentialOffers)
    .set({ accessTokenExpiresAt: now })
    .where(
      and(
        eq(credentialOffers.organizationId, code.organizationId),
        eq(credentialOffers.id, code.offerId),
        eq(credentialOffers.accessTokenHash, code.accessTokenHash),
      ),
    );
}

/** The access token a code was exchanged for (its hash). */
export async function recordCodeAccessToken(db: Database, codeHash: string, accessTokenHash: string) {
  await db.update(authorizationCodes).set({ accessTokenHash }).where(eq(authorizationCodes.codeHash, codeHash));
}
