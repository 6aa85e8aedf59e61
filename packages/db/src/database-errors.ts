/**
 * What the database refused, read from PostgreSQL's SQLSTATE (PostgreSQL 15 Appendix A, "PostgreSQL Error
 * Codes"). node-postgres and PGlite raise the same `DatabaseError` shape (`code`, `constraint`, `table`,
 * `column`); drizzle wraps it as the `cause` of its own error.
 */
export type DatabaseRefusalKind =
  /** 23505 unique_violation, 23P01 exclusion_violation: a row with these values exists already. */
  | 'unique_violation'
  /** 23503 foreign_key_violation: a referenced row is missing, or a row to delete is still referred to. */
  | 'reference_violation'
  /** 23514 check_violation: a value breaks a rule of the table. */
  | 'check_violation'
  /** 22001 string_data_right_truncation, 54000 program_limit_exceeded (an index row too large): a value too long. */
  | 'value_too_long'
  /** 23502 not_null_violation and class 22 data exceptions (bad syntax, out of range, NUL bytes…). */
  | 'value_invalid'
  /** 40001 serialization_failure, 40P01 deadlock_detected, 55P03 lock_not_available: retry the transaction. */
  | 'transaction_conflict';

export interface DatabaseRefusal {
  kind: DatabaseRefusalKind;
  /** The SQLSTATE, for logs. */
  sqlState: string;
  constraint?: string;
  table?: string;
  column?: string;
}

function kindOf(sqlState: string): DatabaseRefusalKind | undefined {
  switch (sqlState) {
    case '23505':
    case '23P01':
      return 'unique_violation';
    case '23503':
      return 'reference_violation';
    case '23514':
      return 'check_violation';
    case '22001':
    case '54000':
      return 'value_too_long';
    case '23502':
      return 'value_invalid';
    case '40001':
    case '40P01':
    case '55P03':
      return 'transaction_conflict';
    default:
      // Class 22, data exception: 22P02 invalid_text_representation, 22003 numeric_value_out_of_range,
      // 22007/22008 datetime errors, 22021 character_not_in_repertoire (a NUL byte in text), 22P05 …
      return sqlState.startsWith('22') ? 'value_invalid' : undefined;
  }
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The database's refusal of a statement, when the error (or one of its causes) is one: a fault of the
 * request or a lost race between requests rather than of the server. Undefined for anything else.
 */
export function databaseRefusalOf(error: unknown): DatabaseRefusal | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const { code, constraint, table, column } = current as Record<string, unknown>;
    if (typeof code === 'string' && SQLSTATE.test(code)) {
      const kind = kindOf(code);
      if (!kind) return undefined;
      return {
        kind,
        sqlState: code,
        constraint: optionalString(constraint),
        table: optionalString(table),
        column: optionalString(column),
      };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
