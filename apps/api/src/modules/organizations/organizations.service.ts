import type { CreateOrganizationRequest, MemberRole, UpdateOrganizationRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import { getOrganizationLogo } from '../media/media.service.ts';
import * as repository from './organizations.repository.ts';

export function findOrganizationsForUser(db: Database, userId: string) {
  return repository.findOrganizationsForUser(db, userId);
}

/**
 * The organization with the user's role in it; 404 both when the organization does not exist and when the user
 * is not a member: no existence leak.
 */
export async function getOrganizationForMember(db: Database, params: { organizationId: string; userId: string }) {
  const row = await repository.findOrganizationForMember(db, params.organizationId, params.userId);
  if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
  return row;
}

export async function getOrganization(db: Database, params: { organizationId: string; userId: string }) {
  return (await getOrganizationForMember(db, params)).organization;
}

export async function updateOrganization(
  db: Database,
  params: { organizationId: string; userId: string },
  input: UpdateOrganizationRequest,
) {
  await getOrganization(db, params);
  // The logo must be this organization's own image upload (404 for another organization's file).
  const logo = input.logo !== undefined ? await getOrganizationLogo(db, params.organizationId, input.logo) : undefined;
  const row = await repository.updateOrganization(db, params.organizationId, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description || null } : {}),
    ...(logo ? { logoMediaId: logo.id } : {}),
  });
  if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
  return row;
}

/** An organization created in the console (providers without organizations); the creator becomes its admin. */
export async function createOrganization(db: Database, userId: string, input: CreateOrganizationRequest) {
  return db.transaction(async (tx) => {
    const organization = await repository.insertOrganization(tx, {
      name: input.name,
      description: input.description || null,
    });
    await repository.insertMembership(tx, { organizationId: organization.id, userId, source: 'local', role: 'admin' });
    return organization;
  });
}

/** The user's role in the organization, or null when not a member. */
export async function findMemberRole(db: Database, organizationId: string, userId: string): Promise<MemberRole | null> {
  return (await repository.findMemberRole(db, organizationId, userId)) ?? null;
}

/** The user's role in the organization named by CurrentIdentity; 403 when not a member. */
export async function getMemberRole(db: Database, organizationId: string, userId: string): Promise<MemberRole> {
  const role = await findMemberRole(db, organizationId, userId);
  if (!role) {
    throw new AppError('ORGANIZATION_ACCESS_DENIED', {
      detail: 'You are not a member of the organization named in CurrentIdentity.',
    });
  }
  return role;
}

export async function assertMember(db: Database, organizationId: string, userId: string) {
  await getMemberRole(db, organizationId, userId);
}

const zClaimedOrganizations = z
  .array(
    z.object({
      id: z.string().min(1).max(200),
      name: z.string().min(1).max(200),
      description: z.string().max(2000).nullish(),
    }),
  )
  .max(500);

/**
 * Mirrors the provider's `organizations` claim: unknown organizations are created, the user's
 * provider-sourced memberships become exactly the claimed set. Without the claim nothing changes
 * (a generic provider has no organizations; the console then creates its own).
 */
export async function syncProviderOrganizations(db: Database, userId: string, issuer: string, claim: unknown) {
  if (claim === undefined) return;
  const parsed = zClaimedOrganizations.safeParse(claim);
  if (!parsed.success) return;
  await db.transaction(async (tx) => {
    const rows = await repository.ensureProviderOrganizations(
      tx,
      issuer,
      parsed.data.map((c) => ({ externalId: c.id, name: c.name, description: c.description ?? null })),
    );
    await repository.insertProviderMemberships(
      tx,
      userId,
      rows.map((r) => r.id),
    );
    await repository.removeProviderMembershipsExcept(
      tx,
      userId,
      rows.map((r) => r.id),
    );
  });
}

export function listAllOrganizations(db: Database) {
  return repository.listAllOrganizations(db);
}

export { insertMembership, insertOrganization, lockOrganization } from './organizations.repository.ts';

/** The organization's public facts (name, verification), for what it publishes as an issuer. */
export async function getPublicOrganization(db: Database, organizationId: string) {
  const row = await repository.findOrganizationById(db, organizationId);
  if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
  return row;
}
