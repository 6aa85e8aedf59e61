/**
 * CSV output for spreadsheets: RFC 4180 fields and records, neutralised formulas, a UTF-8 byte order mark.
 */

/** U+FEFF first: Excel reads the file as UTF-8 only with it (Japanese and Korean names are garbled without). */
export const UTF8_BOM = '\uFEFF';

/**
 * OWASP "CSV Injection": a cell starting with one of these is read as a formula by Excel, LibreOffice and
 * Google Sheets (`=HYPERLINK(…)`, `+1`, `-1+1`, `@SUM(…)`; a leading TAB or CR is skipped by some of them,
 * which then read what follows).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

/**
 * One field: a value that could start a formula gets a leading single quote (OWASP), then the field is
 * quoted when it holds a comma, a double quote, CR or LF, its double quotes doubled (RFC 4180 §2.6–2.7).
 * null and undefined are empty fields.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated (RFC 4180 §2.1). */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
