import { describe, expect, it } from 'vitest';
import { buildClaims, compareClaim, typeClaimValue } from './claims.ts';

describe('typeClaimValue', () => {
  it.each([
    ['NUMBER', '42', 42],
    ['NUMBER', ' -3.5 ', -3.5],
    ['NUMBER', 7, 7],
    ['BOOLEAN', 'true', true],
    ['BOOLEAN', 'No', false],
    ['BOOLEAN', false, false],
    ['DATETIME', '2024-02-29', '2024-02-29'],
    ['DATETIME', '2024-05-01T10:30:00+02:00', '2024-05-01T08:30:00.000Z'],
    ['URL', 'https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['EMAIL', 'ada@example.com', 'ada@example.com'],
    ['TEXT', '  Ada  ', 'Ada'],
  ] as const)('%s %j → %j', (type, raw, expected) => {
    expect(typeClaimValue(type, raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['NUMBER', '4 2', 'NOT_A_NUMBER'],
    ['NUMBER', 'Infinity', 'NOT_A_NUMBER'],
    ['BOOLEAN', 'maybe', 'NOT_A_BOOLEAN'],
    ['DATETIME', '2023-02-29', 'NOT_A_DATE'],
    ['DATETIME', '05/01/2024', 'NOT_A_DATE'],
    ['URL', 'javascript:alert(1)', 'NOT_A_URL'],
    ['URL', 'not a url', 'NOT_A_URL'],
    ['EMAIL', 'ada@', 'NOT_AN_EMAIL'],
    ['TEXT', '', 'REQUIRED'],
    ['TEXT', 'x'.repeat(2001), 'TOO_LONG'],
  ] as const)('%s %j is refused with %s', (type, raw, error) => {
    expect(typeClaimValue(type, raw)).toEqual({ ok: false, error });
  });
});

describe('buildClaims', () => {
  it('types every attribute and reports every problem', () => {
    const attributes = [
      { name: 'score', type: 'NUMBER' as const },
      { name: 'graduated', type: 'BOOLEAN' as const },
      { name: 'note', type: 'TEXT' as const, required: false },
    ];
    expect(buildClaims(attributes, { score: '97', graduated: 'yes' })).toEqual({
      ok: true,
      claims: { score: 97, graduated: true },
    });
    expect(buildClaims(attributes, { score: 'high' })).toEqual({
      ok: false,
      errors: [
        { name: 'score', error: 'NOT_A_NUMBER' },
        { name: 'graduated', error: 'REQUIRED' },
      ],
    });
  });
});

describe('compareClaim', () => {
  it('compares by the attribute type, not as strings', () => {
    expect(compareClaim('NUMBER', 10, '9')).toBe(1);
    expect(compareClaim('DATETIME', '2000-01-01', '1999-12-31T23:59:59Z')).toBe(1);
    expect(compareClaim('EMAIL', 'Ada@Example.com', 'ada@example.com')).toBe(0);
    expect(compareClaim('BOOLEAN', true, 'true')).toBe(0);
    expect(compareClaim('NUMBER', 'ten', 1)).toBeNull();
  });
});
