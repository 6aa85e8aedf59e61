import type { IssuerTrust } from '@cp/contracts';
import type { TFunction } from '../../../i18n/index.ts';

/** The reasons the verifier gives (`issuer_trust.reason`) that the console says in the user's language. */
const REASONS = new Set([
  'PLATFORM_VERIFIED_ORGANIZATION',
  'NAMED_ISSUER',
  'TRUST_ANCHOR',
  'ANY_ISSUER',
  'NOT_A_PLATFORM_ORGANIZATION',
  'ORGANIZATION_NOT_VERIFIED',
  'NOT_A_NAMED_ISSUER',
  'NO_TRUST_ANCHOR',
  'PLATFORM_ISSUER_NOT_CERTIFIED_BY_PLATFORM',
  'UNKNOWN_PLATFORM_ORGANIZATION',
]);

type Anchor = NonNullable<NonNullable<IssuerTrust['certificate']>['anchor']>;

/** A trust anchor as people know it: this platform's CA, a platform-wide anchor, or one the organization added. */
export function anchorName(t: TFunction, anchor: Anchor): string {
  if (anchor.origin === 'PLATFORM_CA') return t('verifications.trust.platformCa');
  if (anchor.origin === 'PLATFORM_LIST') return t('verifications.trust.platformAnchor', { name: anchor.name });
  return anchor.name;
}

/**
 * Why the verification's trust policy admitted or refused the issuer, in plain words in the user's language
 * (one message per reason code); an unknown code falls back to the API's own English `detail`.
 */
export function describeIssuerTrust(t: TFunction, trust: IssuerTrust, issuer: string | null): string {
  if (!REASONS.has(trust.reason)) return trust.detail;
  const theIssuer = t('verifications.trust.theIssuer');
  const anchor = trust.certificate?.anchor;
  return t(`verifications.trust.reasons.${trust.reason}`, {
    issuer: issuer ?? trust.organization?.name ?? theIssuer,
    organization: trust.organization?.name ?? issuer ?? theIssuer,
    anchor: anchor ? anchorName(t, anchor) : t('verifications.trust.oneOfYourAnchors'),
  });
}
