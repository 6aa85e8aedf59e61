import { describe, expect, it } from 'vitest';
import { dropEmpty } from './drop-empty.ts';

describe('dropEmpty', () => {
  it('drops undefined, null and empty strings', () => {
    expect(dropEmpty({ a: 'x', b: '', c: null, d: undefined })).toEqual({ a: 'x' });
  });

  it('keeps 0 and false, which are meaningful values', () => {
    expect(dropEmpty({ n: 0, f: false })).toEqual({ n: 0, f: false });
  });

  it('cleans nested objects but leaves arrays as they are', () => {
    expect(dropEmpty({ nested: { a: '', b: 1 }, list: ['', null, 'x'] })).toEqual({
      nested: { b: 1 },
      list: ['', null, 'x'],
    });
  });

  it('returns non-objects unchanged', () => {
    expect(dropEmpty('text')).toBe('text');
    expect(dropEmpty(null)).toBeNull();
  });
});
