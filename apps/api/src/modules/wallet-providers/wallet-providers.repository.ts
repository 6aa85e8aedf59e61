import { type Database, schema } from '@cp/db';
import { and, asc, count, eq } from 'drizzle-orm';

const { walletProviders } = schema;

export type WalletProviderRow = typeof walletProviders.$inferSelect;
export type NewWalletProvider = typeof walletProviders.$inferInsert;

const scoped = (organizationId: string, id: string) =>
  and(eq(walletProviders.organizationId, organizationId), eq(walletProviders.id, id));

/** Every trusted wallet provider of an organization, oldest first. */
export async function findWalletProviders(db: Database, organizationId: string) {
  return db
    .select()
    .from(walletProviders)
    .where(eq(walletProviders.organizationId, organizationId))
    .orderBy(asc(walletProviders.createdAt), asc(walletProviders.id));
}

export async function findWalletProvider(db: Database, organizationId: string, id: string) {
  const [row] = await db.select().from(walletProviders).where(scoped(organizationId, id));
  return row;
}

export async function countWalletProviders(db: Database, organizationId: string) {
  const [row] = await db
    .select({ total: count() })
    .from(walletProviders)
    .where(eq(walletProviders.organizationId, organizationId));
  return row?.total ?? 0;
}

/** Inserts a provider; undefined when the organization already trusts this certificate. */
export async function insertWalletProvider(db: Database, values: NewWalletProvider) {
  const [row] = await db.insert(walletProviders).values(values).onConflictDoNothing().returning();
  return row;
}

export async function deleteWalletProvider(db: Database, organizationId: string, id: string) {
  const rows = await db.delete(walletProviders).where(scoped(organizationId, id)).returning({ id: walletProviders.id });
  return rows.length === 1;
}
