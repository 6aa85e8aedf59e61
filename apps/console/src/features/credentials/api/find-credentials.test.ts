import { credentialSorts } from '@cp/contracts';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_SORTS, credentialListQuery, DEFAULT_CREDENTIAL_SORT } from './find-credentials.ts';

describe('CREDENTIAL_SORTS', () => {
  it('is the contract list, in the same order, the default first', () => {
    expect([...CREDENTIAL_SORTS]).toEqual([...credentialSorts]);
    expect(DEFAULT_CREDENTIAL_SORT).toBe(credentialSorts[0]);
  });
});

describe('credentialListQuery', () => {
  it('sends the sort unless it is the default, and the time zone only with a range of days', () => {
    expect(credentialListQuery({ status: 'ISSUED' }, '-created_at').query).toEqual({
      sort: undefined,
      timezone: undefined,
    });
    const ranged = credentialListQuery({ created_from: '2026-03-01', search: ' ada ' }, 'status');
    expect(ranged.query.sort).toBe('status');
    expect(ranged.query.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(ranged.filters).toMatchObject({ created_from: '2026-03-01', search: 'ada' });
  });
});
