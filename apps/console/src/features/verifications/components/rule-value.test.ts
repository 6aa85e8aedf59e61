import { describe, expect, it } from 'vitest';
import { ruleValueError, ruleValueErrorFromServer } from './rule-value.ts';

describe('ruleValueError (spec §5 verification attribute messages)', () => {
  it.each([
    ['NUMBER', '18', null],
    ['NUMBER', '-1.5e3', null],
    ['NUMBER', '18 years', 'number'],
    ['NUMBER', '  ', 'required'],
    ['EMAIL', 'ada@example.com', null],
    ['EMAIL', 'ada@', 'email'],
    ['URL', 'https://example.com/x', null],
    ['URL', 'javascript:alert(1)', 'url'],
    ['URL', 'example.com', 'url'],
    ['DATETIME', '2008-02-29', null],
    ['DATETIME', '2007-02-29', 'date'],
    ['DATETIME', '2024-05-01T10:00:00Z', null],
    ['DATETIME', '05/01/2024', 'date'],
    ['BOOLEAN', 'true', null],
    ['BOOLEAN', 'yes', 'boolean'],
    ['TEXT', 'anything', null],
    ['TEXT', '', 'required'],
  ] as const)('%s %j → %s', (type, value, expected) => {
    expect(ruleValueError(type, value)).toBe(expected);
  });

  it('reads the API messages back as keys', () => {
    expect(ruleValueErrorFromServer('Must be a numeric value')).toBe('number');
    expect(ruleValueErrorFromServer('Something else')).toBeNull();
  });
});
