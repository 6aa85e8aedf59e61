import type { CreateOrganizationRequest, MemberRole, UpdateOrganizationRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import { type AuditEventInput, recordAuditEvents } from '../audit-events/audit-events.service.ts';
import { findOrganizationMedia, getOrganizationLogo, type MediaRow, purposeOf } from '../media/media.service.ts';
import * as repository from './organizations.repository.ts';

export function findOrganizationsForUser(db: Database, userId: string) {
  return repository.findOrganizationsForUser(db, userId);
}

/**
 * The organization with the user's role in it; 404 both when the organization does not exist and when the user
 * is not a member: no existence leak. A member whose session is not two-step gets 403 when the organization
 * requires two-step sign-in.
 */
export async function getOrganizationForMember(
  db: Database,
  params: { organizationId: string; userId: string; twoFactor: boolean },
) {
  const row = await repository.findOrganizationForMember(db, params.organizationId, params.userId);
  if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
  assertTwoFactorSatisfied(row.organization, params.twoFactor);
  return row;
}

export async function getOrganization(
  db: Database,
  params: { organizationId: string; userId: string; twoFactor: boolean },
) {
  return (await getOrganizationForMember(db, params)).organization;
}

/** 403 for a one-step session acting for an organization that requires two-step sign-in. */
export function twoFactorRequiredError() {
  return new AppError('ORGANIZATION_TWO_FACTOR_REQUIRED', {
    detail: 'This organization requires two-step sign-in: turn it on in your account, then sign out and sign in again.',
  });
}

function assertTwoFactorSatisfied(row: Pick<repository.OrganizationRow, 'requireTwoFactor'>, twoFactor: boolean) {
  if (row.requireTwoFactor && !twoFactor) throw twoFactorRequiredError();
}

/** Whether the organization lets only two-step sessions act for it (API keys are not people: never asked). */
export async function requiresTwoFactor(db: Database, organizationId: string): Promise<boolean> {
  return (await repository.findOrganizationById(db, organizationId))?.requireTwoFactor === true;
}

export async function updateOrganization(
  db: Database,
  params: { organizationId: string; userId: string; twoFactor: boolean },
  input: UpdateOrganizationRequest,
) {
  const before = await getOrganization(db, params);
  // Whoever turns the requirement on must meet it already, so that nobody locks the organization out by mistake.
  if (input.require_two_factor === true && !params.twoFactor) {
    throw new AppError('ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED', {
      detail:
        'Turn on two-step sign-in in your own account and sign in again with it before requiring it for the organization.',
    });
  }
  // The logo must be this organization's own image upload (404 for another organization's file).
  const logo = input.logo !== undefined ? await getOrganizationLogo(db, params.organizationId, input.logo) : undefined;
  return db.transaction(async (tx) => {
    const row = await repository.updateOrganization(tx, params.organizationId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description || null } : {}),
      ...(logo ? { logoMediaId: logo.id } : {}),
      // Already `#rrggbb` in lowercase (the contract normalizes it); null goes back to the product's colours.
      ...(input.brand_color !== undefined ? { brandColor: input.brand_color } : {}),
      ...(input.require_two_factor !== undefined ? { requireTwoFactor: input.require_two_factor } : {}),
    });
    if (!row) throw new AppError('ORGANIZATION_NOT_FOUND');
    // The profile is changed by a signed-in member only (the route refuses API keys). Only what really changed
    // is recorded: names of the fields, and the new name (public).
    const columns = {
      name: 'name',
      description: 'description',
      brandColor: 'brand_color',
      requireTwoFactor: 'require_two_factor',
    } as const;
    const fields = (Object.keys(columns) as (keyof typeof columns)[])
      .filter((field) => row[field] !== before[field])
      .map((field) => columns[field]);
    const events: AuditEventInput[] = [];
    const target = { id: row.id, label: row.name };
    if (fields.length > 0) {
      events.push({
        action: 'organization.updated',
        target,
        details: { fields, ...(fields.includes('name') ? { name: row.name } : {}) },
      });
    }
    if (logo && logo.id !== before.logoMediaId) {
      events.push({ action: 'organization.logo_changed', target, details: { media_id: logo.id } });
    }
    await recordAuditEvents(tx, { organizationId: row.id, actor: { kind: 'user', userId: params.userId } }, events);
    return row;
  });
}

/** An organization created in the console (providers without organizations); the creator becomes its admin. */
export async function createOrganization(db: Database, userId: string, input: CreateOrganizationRequest) {
  return db.transaction(async (tx) => {
    const organization = await repository.insertOrganization(tx, {
      name: input.name,
      description: input.description || null,
    });
    await repository.insertMembership(tx, { organizationId: organization.id, userId, source: 'local', role: 'admin' });
    await recordAuditEvents(tx, { organizationId: organization.id, actor: { kind: 'user', userId } }, [
      {
        action: 'organization.created',
        target: { id: organization.id, label: organization.name },
        details: { name: organization.name },
      },
    ]);
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

/**
 * The organization as holders and wallets see it (holder pages, issuer metadata): its public facts, and its logo
 * only while that is a public logo image of its own, so a link to it never leads to any other file.
 */
export async function getOrganizationBrand(
  db: Database,
  organizationId: string,
): Promise<{ organization: repository.OrganizationRow; logo: MediaRow | null }> {
  const organization = await getPublicOrganization(db, organizationId);
  if (!organization.logoMediaId) return { organization, logo: null };
  const [media] = await findOrganizationMedia(db, organization.id, [organization.logoMediaId]);
  return { organization, logo: publicLogo(media ?? null) };
}

/** The organization as a holder page shows it (presentHolderOrganization), from what a statement read of it. */
export const holderBrand = (row: repository.HolderBrandRow) => ({
  organization: row.organization,
  logo: publicLogo(row.logo),
});

/**
 * The organization's logo file (read by the caller among the organization's own media) as holders may see it: only
 * while it is a public logo image; null otherwise.
 */
export function publicLogo<M extends Pick<MediaRow, 'visibility' | 'storageKey'>>(media: M | null): M | null {
  return media !== null && media.visibility === 'public' && purposeOf(media) === 'logo' ? media : null;
}
