import { credentialStatuses } from '@cp/contracts';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_STATUSES } from './credential-statuses.ts';

describe('CREDENTIAL_STATUSES', () => {
  it('is the contract list, in the same order', () => {
    expect([...CREDENTIAL_STATUSES]).toEqual([...credentialStatuses]);
  });
});
