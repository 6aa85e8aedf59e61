import type { CredentialStatus } from '@cp/contracts';

/**
 * The credential statuses of the contract (`credentialStatuses` in @cp/contracts), as a plain list. Importing the
 * value from @cp/contracts would load every zod schema with the credentials list (issue 8: first-screen size);
 * credential-statuses.test.ts keeps the two lists equal.
 */
export const CREDENTIAL_STATUSES = [
  'CREATED',
  'ISSUED',
  'CLAIMED',
  'REVOKED',
  'EXPIRED',
] as const satisfies readonly CredentialStatus[];

// Compile-time check that no contract status is missing.
type Missing = Exclude<CredentialStatus, (typeof CREDENTIAL_STATUSES)[number]>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;
