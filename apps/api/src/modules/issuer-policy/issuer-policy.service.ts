import type { UpdateIssuerPolicyRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { recordAuditEvent } from '../audit-events/audit-events.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as repository from './issuer-policy.repository.ts';

/** What the organization's OpenID4VCI issuer demands of wallets (HAIP 1.0). */
export interface IssuerPolicy {
  dpopRequired: boolean;
  walletAttestationRequired: boolean;
  /** Null while the defaults apply (never changed). */
  updatedAt: Date | null;
}

const DEFAULT_POLICY: IssuerPolicy = { dpopRequired: false, walletAttestationRequired: false, updatedAt: null };

/** The policy the issuer applies (no row: nothing demanded). */
export async function findIssuerPolicy(db: Database, organizationId: string): Promise<IssuerPolicy> {
  const row = await repository.findIssuerPolicy(db, organizationId);
  return row ?? DEFAULT_POLICY;
}

/**
 * The same, read on every token request in every process (a prepared statement on the database handle: no query
 * built per request), so a change applies to the next request.
 */
export async function readIssuerPolicy(db: Database, organizationId: string): Promise<IssuerPolicy> {
  const row = await repository.readIssuerPolicy(db, organizationId);
  return row ?? DEFAULT_POLICY;
}

type MemberScope = { organizationId: string; userId: string; twoFactor: boolean };

/** The policy, for a member of the organization (404 for anyone else). */
export async function getIssuerPolicy(db: Database, scope: MemberScope): Promise<IssuerPolicy> {
  await organizationsService.getOrganization(db, scope);
  return findIssuerPolicy(db, scope.organizationId);
}

/**
 * Sets the policy (admins; the route checks the role). Requiring wallet attestation with no trusted wallet
 * provider is allowed (the console says so): every token request is then refused until one is added. A change
 * is recorded in the activity log with the policy as it now stands.
 */
export async function updateIssuerPolicy(
  db: Database,
  scope: MemberScope,
  input: UpdateIssuerPolicyRequest,
): Promise<IssuerPolicy> {
  const organization = await organizationsService.getOrganization(db, scope);
  return db.transaction(async (tx) => {
    const before = await findIssuerPolicy(tx, scope.organizationId);
    const values = { dpopRequired: input.dpop_required, walletAttestationRequired: input.wallet_attestation_required };
    const row = await repository.upsertIssuerPolicy(tx, scope.organizationId, values);
    if (
      before.dpopRequired !== row.dpopRequired ||
      before.walletAttestationRequired !== row.walletAttestationRequired
    ) {
      await recordAuditEvent(
        tx,
        { organizationId: scope.organizationId, actor: { kind: 'user', userId: scope.userId } },
        {
          action: 'organization.issuer_policy_changed',
          target: { id: organization.id, label: organization.name },
          details: { dpop_required: row.dpopRequired, wallet_attestation_required: row.walletAttestationRequired },
        },
      );
    }
    return row;
  });
}

export function presentIssuerPolicy(policy: IssuerPolicy) {
  return {
    dpop_required: policy.dpopRequired,
    wallet_attestation_required: policy.walletAttestationRequired,
    updated_at: policy.updatedAt?.toISOString() ?? null,
  };
}
