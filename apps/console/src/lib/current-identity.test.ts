import { describe, expect, it } from 'vitest';
import {
  CURRENT_IDENTITY_KEY,
  clearIdentity,
  getStoredIdentity,
  pickCurrentIdentity,
  storeIdentity,
} from './current-identity.ts';

const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('current organization rule (spec §4)', () => {
  it('uses the stored choice when it is still in the list', () => {
    expect(pickCurrentIdentity(list, 'b')).toEqual({ id: 'b' });
  });

  it('falls back to the first organization when the stored one is gone', () => {
    expect(pickCurrentIdentity(list, 'zzz')).toEqual({ id: 'a' });
  });

  it('falls back to the first organization when nothing is stored', () => {
    expect(pickCurrentIdentity(list, null)).toEqual({ id: 'a' });
  });

  it('is null for an empty list', () => {
    expect(pickCurrentIdentity([], 'a')).toBeNull();
  });

  it("stores the choice under localStorage 'current_identity'", () => {
    storeIdentity('b');
    expect(window.localStorage.getItem(CURRENT_IDENTITY_KEY)).toBe('b');
    expect(getStoredIdentity()).toBe('b');
    clearIdentity();
    expect(getStoredIdentity()).toBeNull();
  });
});
