import { z } from 'zod';
import { zBrandColor } from './brand-color.ts';
import { zMedia } from './common.ts';
import { zMemberRole } from './members.ts';

export const verificationStatuses = ['UNDEFINED', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export const zVerificationStatus = z.enum(verificationStatuses);
export type VerificationStatus = z.infer<typeof zVerificationStatus>;

export const zOrganization = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  did: z.string().nullable(),
  logo: zMedia.nullable(),
  /**
   * `#rrggbb` (lowercase) on the holder pages, the issuer metadata wallets show and the e-mails; null: the
   * product's. Always answered; optional for answers (and fixtures) from before it existed.
   */
  brand_color: z.string().nullable().optional(),
  verified: z.boolean(),
  verification_status: zVerificationStatus,
  /** Members act for the organization only from a two-step sign-in (else 403 ORGANIZATION_TWO_FACTOR_REQUIRED). */
  require_two_factor: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  /**
   * The signed-in user's role in the organization (GET organizations, GET/PUT/POST organizations). Optional in
   * the contract only for clients older than roles: absent, every member had full rights (an admin).
   */
  role: zMemberRole.optional(),
});
export type Organization = z.infer<typeof zOrganization>;

export const zOrganizationList = z.object({ results: z.array(zOrganization) });

export const ORGANIZATION_DESCRIPTION_MAX = 160;

export const zCreateOrganizationRequest = z.strictObject({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(ORGANIZATION_DESCRIPTION_MAX).optional(),
});
export type CreateOrganizationRequest = z.infer<typeof zCreateOrganizationRequest>;

export const zUpdateOrganizationRequest = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  description: z.string().trim().max(ORGANIZATION_DESCRIPTION_MAX).optional(),
  /** Media id of an uploaded logo (media uploads arrive with the workspace capability). */
  logo: z.uuid().optional(),
  /** `#rrggbb` (any case; stored lowercase), or null to go back to the product's colours. */
  brand_color: zBrandColor.nullable().optional(),
  /** Turning it on needs a two-step session of one's own (else 409 ORGANIZATION_TWO_FACTOR_SESSION_REQUIRED). */
  require_two_factor: z.boolean().optional(),
});
export type UpdateOrganizationRequest = z.infer<typeof zUpdateOrganizationRequest>;

/**
 * What the organization's OpenID4VCI issuer demands of wallets (HAIP 1.0). `dpop_required`: the token
 * endpoint refuses requests without a DPoP proof (RFC 9449), so every access token is bound to the wallet's
 * key. `wallet_attestation_required`: the token
 * endpoint refuses requests without a wallet attestation (OAuth 2.0 Attestation-Based Client Authentication)
 * signed under one of the organization's trusted wallet providers, with `invalid_client`.
 */
export const zIssuerPolicy = z.object({
  dpop_required: z.boolean(),
  wallet_attestation_required: z.boolean(),
  /** When an admin last changed it; null while the defaults apply. */
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type IssuerPolicy = z.infer<typeof zIssuerPolicy>;

export const zUpdateIssuerPolicyRequest = z.strictObject({
  dpop_required: z.boolean(),
  /** The token endpoint refuses a request without a wallet attestation of a trusted wallet provider. */
  wallet_attestation_required: z.boolean(),
});
export type UpdateIssuerPolicyRequest = z.infer<typeof zUpdateIssuerPolicyRequest>;
