import { VERIFICATION_HISTORY_EXPORT_COLUMNS, type VerificationCheck } from '@cp/contracts';
import type { Database } from '@cp/db';
import { type CsvValue, csvRecord, UTF8_BOM } from '../../lib/csv.ts';
import { isoInTimeZone } from '../../lib/time-zone.ts';
import { isVouchedCustomer } from './openid4vp.service.ts';
import * as repository from './verification-history.repository.ts';
import { getVerification } from './verifications.service.ts';

/** Attempts per query of the export. */
export const HISTORY_EXPORT_BATCH_SIZE = 500;

/** A disclosed value as a spreadsheet cell: text, numbers and booleans as written, anything else as JSON. */
function claimCell(value: unknown): CsvValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** `KEY_BINDING NONCE RULE:age`: the failed checks' codes, a failed rule with its attribute. */
function failedChecks(checks: Record<string, unknown>[]) {
  return (checks as unknown as VerificationCheck[])
    .filter((check) => !check.passed)
    .map((check) => (check.code === 'RULE' && check.rule ? `RULE:${check.rule.attribute}` : check.code))
    .join(' ');
}

/**
 * Every attempt at an organization's verification as CSV, newest first (same format as the credential export:
 * UTF-8 with a byte order mark, RFC 4180, formulas neutralised, times ISO 8601 in `timeZone`), read by keyset
 * pagination one batch at a time. Another organization's verification is not found, before anything is sent.
 * One column per claim asked for, by the verification now and by its earlier versions (an attempt keeps what
 * it was asked); a cell is empty when the attempt kept no value (nothing disclosed, or the checks failed first).
 */
export async function exportVerificationHistory(
  db: Database,
  organizationId: string,
  verificationId: string,
  timeZone: string,
) {
  const record = await getVerification(db, organizationId, verificationId);
  const current = record.verification.requestedClaims;
  const earlier = await repository.findRequestedClaimNames(db, organizationId, verificationId);
  const claims = [...current, ...earlier.filter((name) => !current.includes(name))];
  const time = (instant: Date | null) => (instant ? isoInTimeZone(instant, timeZone) : null);
  async function* chunks(): AsyncGenerator<string> {
    let chunk =
      UTF8_BOM + csvRecord([...VERIFICATION_HISTORY_EXPORT_COLUMNS, ...claims.map((name) => `claim:${name}`)]);
    let after: repository.HistoryCursor | null = null;
    for (;;) {
      const batch = await repository.findHistoryBatch(
        db,
        organizationId,
        verificationId,
        after,
        HISTORY_EXPORT_BATCH_SIZE,
      );
      for (const row of batch) {
        const trust = row.issuerTrust as { admitted?: boolean; reason?: string; detail?: string } | null;
        chunk += csvRecord([
          row.id,
          row.customerId,
          row.customerBinding,
          isVouchedCustomer(row.customerBinding),
          row.status,
          time(row.createdAt),
          row.status === 'VERIFIED' ? time(row.verifiedAt) : null,
          row.status === 'FAILED' ? time(row.verifiedAt) : null,
          row.issuer,
          typeof trust?.admitted === 'boolean' ? trust.admitted : null,
          trust?.reason ?? null,
          trust?.detail ?? null,
          failedChecks(row.checks),
          ...claims.map((name) => claimCell(row.presentedClaims[name])),
        ]);
      }
      yield chunk;
      chunk = '';
      if (batch.length < HISTORY_EXPORT_BATCH_SIZE) return;
      const last = batch[batch.length - 1]!;
      after = { createdAt: last.cursor, id: last.id };
    }
  }
  return { presentId: record.verification.presentId, chunks: chunks() };
}
