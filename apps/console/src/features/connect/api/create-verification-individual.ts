import type { CreatedVerificationIndividual, CreateVerificationIndividualRequest } from '@cp/contracts';
import { api } from '../../../lib/api-client.ts';
import { withCatalogue } from '../../../lib/api-error.ts';

/** POST /api/verifications/individuals (public): opens one holder's attempt at a verification. */
export const createVerificationIndividual = (body: CreateVerificationIndividualRequest) =>
  withCatalogue(
    'catalogue.createVerificationIndividuals',
    api.post<CreatedVerificationIndividual>('/verifications/individuals', body),
  );

/**
 * A customer id for a holder who came without one (spec §7): three 4-digit groups joined by dashes,
 * e.g. `4821-0937-5520`, from the browser's cryptographic random source.
 */
export function generateCustomerId(): string {
  const values = crypto.getRandomValues(new Uint32Array(3));
  return Array.from(values, (value) => String(value % 10_000).padStart(4, '0')).join('-');
}
