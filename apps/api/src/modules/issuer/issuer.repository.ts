import { type Database, schema } from '@cp/db';
import { and, eq, isNull, sql } from 'drizzle-orm';

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

export async function countTxCodeFailure(db: Database, offerId: string, revokeAfter: number) {
  await db
    .update(credentialOffers)
    .set({
      txCodeAttempts: sql`${credentialOffers.txCodeAttempts} + 1`,
      revokedAt: sql`case when ${credentialOffers.txCodeAttempts} + 1 >= ${revokeAfter} then now() else ${credentialOffers.revokedAt} end`,
    })
    .where(eq(credentialOffers.id, offerId));
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
