export type AccountErrorCode =
  | 'ACCOUNT_USERNAME_TAKEN'
  | 'ACCOUNT_EMAIL_TAKEN'
  | 'ACCOUNT_PASSWORD_WEAK'
  | 'ACCOUNT_INVALID_INPUT'
  | 'ACCOUNT_NOT_FOUND'
  | 'ACCOUNT_PASSWORD_INCORRECT'
  | 'ORGANIZATION_INVALID_INPUT';

/** One error class for the account services; `code` is stable, `field` names the form field at fault. */
export class AccountError extends Error {
  readonly code: AccountErrorCode;
  readonly field: string | undefined;

  constructor(code: AccountErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'AccountError';
    this.code = code;
    this.field = field;
  }
}
