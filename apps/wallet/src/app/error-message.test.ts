import { describe, expect, it } from 'vitest';
import { WalletError, WalletErrorCode } from '../core/errors.ts';
import { messages } from '../i18n/messages.ts';
import { errorCode } from './error-message.ts';

describe('wallet error messages', () => {
  it.each(Object.entries(messages))('explains every error code in %s', (_, tree) => {
    const errors = (tree as { errors: Record<string, string> }).errors;
    const missing = [...Object.values(WalletErrorCode), 'UNKNOWN'].filter((code) => !errors[code]?.trim());
    expect(missing).toEqual([]);
  });

  it('reads the code of a core error, a failed fetch, or nothing known', () => {
    expect(errorCode(new WalletError(WalletErrorCode.PIN_WRONG))).toBe(WalletErrorCode.PIN_WRONG);
    expect(errorCode(new TypeError('Failed to fetch'))).toBe(WalletErrorCode.NETWORK);
    expect(errorCode({ code: 'SOMETHING_ELSE' })).toBe('UNKNOWN');
  });

  it('compares error codes against the constants, never strings', () => {
    const sources = Object.entries(
      import.meta.glob<string>(
        ['../app/**/*.{ts,tsx}', '../features/**/*.{ts,tsx}', '../components/**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'],
        {
          query: '?raw',
          import: 'default',
          eager: true,
        },
      ),
    );
    expect(sources.length).toBeGreaterThan(10);
    const comparison =
      /(?:code|errorCode\([^)]*\))\s*[!=]==?\s*'[A-Z][A-Z0-9_]+'|'[A-Z][A-Z0-9_]+'\s*[!=]==?\s*\w*code\b/;
    const offending = sources.flatMap(([file, text]) =>
      text.split('\n').flatMap((line, index) => (comparison.test(line) ? [`${file}:${index + 1} ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });
});
