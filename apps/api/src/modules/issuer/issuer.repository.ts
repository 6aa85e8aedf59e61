import { type Database, schema } from '@cp/db';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';

const { credentialOffers, credentials } = schema;

export async function findOfferByCodeHash(db: Database, organizationId: string, codeHash: string) {
  const [row] = await db
    .select({ offer: credentialOffers, credential: credentials })
    .from(credentialOffers)
    .innerJoin(credentials, eq(credentials.id, credentialOffers.credentialId))
    .where(
      and(eq(credentialOffers.organizationId, organizationId), eq(credentialOffers.preAuthorizedCodeHash, codeHash)),
    );
  return row;
}

export async function findOfferByAccessTokenHash(db: Database, organizationId: string, tokenHash: string) {
  const [row] = await db
    .select({ offer: credentialOffers, credential: credentials })
    .from(credentialOffers)
    .innerJoin(credentials, eq(credentials.id, credentialOffers.credentialId))
    .where(and(eq(credentialOffers.organizationId, organizationId), eq(credentialOffers.accessTokenHash, tokenHash)));
  return row;
}

export async function findOfferWithCredential(db: Database, organizationId: string, offerId: string) {
  const [row] = await db
    .select({ offer: credentialOffers, credential: credentials })
    .from(credentialOffers)
    .innerJoin(credentials, eq(credentials.id, credentialOffers.credentialId))
    .where(and(eq(credentialOffers.organizationId, organizationId), eq(credentialOffers.id, offerId)));
  return row;
}

/**
 * Reserves one tx_code attempt before the PIN is compared: counting and the limit check are one
 * statement, so the row lock serializes racing requests and at most `maxAttempts` of them, however
 * many arrive at once, get an attempt (a read-then-compare-then-count let 50 concurrent wrong PINs
 * each be compared). Answers the attempt's number (1..maxAttempts), or undefined when the offer has
 * no attempt left or was revoked or redeemed meanwhile: then the PIN must not be compared.
 */
export async function reserveTxCodeAttempt(db: Database, offerId: string, maxAttempts: number) {
  const [row] = await db
    .update(credentialOffers)
    .set({ txCodeAttempts: sql`${credentialOffers.txCodeAttempts} + 1` })
    .where(
      and(
        eq(credentialOffers.id, offerId),
        lt(credentialOffers.txCodeAttempts, maxAttempts),
        isNull(credentialOffers.revokedAt),
        isNull(credentialOffers.redeemedAt),
      ),
    )
    .returning({ attempt: credentialOffers.txCodeAttempts });
  return row?.attempt;
}

/**
 * The last reserved attempt had a wrong PIN: the offer is withdrawn. Not when a correct PIN redeemed it
 * meanwhile (the holder's own exchange stands), nor again when already revoked (keeps the first time).
 */
export async function revokeOfferAfterTxCodeAttempts(db: Database, offerId: string) {
  await db
    .update(credentialOffers)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(credentialOffers.id, offerId), isNull(credentialOffers.revokedAt), isNull(credentialOffers.redeemedAt)),
    );
}

/** Single use: only the first exchange of a pre-authorized code succeeds. */
export async function redeemOffer(db: Database, offerId: string, accessTokenHash: string, expiresAt: Date) {
  const rows = await db
    .update(credentialOffers)
    .set({ redeemedAt: new Date(), accessTokenHash, accessTokenExpiresAt: expiresAt })
    .where(
      and(eq(credentialOffers.id, offerId), isNull(credentialOffers.redeemedAt), isNull(credentialOffers.revokedAt)),
    )
    .returning({ id: credentialOffers.id });
  return rows.length === 1;
}

/** One credential per offer: only the first credential request completes it. */
export async function completeOffer(db: Database, offerId: string) {
  const rows = await db
    .update(credentialOffers)
    .set({ completedAt: new Date() })
    .where(
      and(eq(credentialOffers.id, offerId), isNull(credentialOffers.completedAt), isNull(credentialOffers.revokedAt)),
    )
    .returning({ id: credentialOffers.id });
  return rows.length === 1;
}

/** The credential is the holder's now; answers it, or undefined when a revocation came first. */
export async function markClaimed(
  db: Database,
  credentialId: string,
  values: { holderJwk: Record<string, unknown>; signingKeyId: string },
) {
  const [row] = await db
    .update(credentials)
    .set({
      status: 'CLAIMED',
      claimedAt: new Date(),
      holderJwk: values.holderJwk as never,
      signingKeyId: values.signingKeyId,
    })
    .where(and(eq(credentials.id, credentialId), isNull(credentials.revokedAt)))
    .returning({ id: credentials.id, schemaId: credentials.schemaId, claimedAt: credentials.claimedAt });
  return row;
}
