export {
  type AccountCenter,
  type AccountCenterLogger,
  type AccountCenterOptions,
  createAccountCenter,
} from './account-center.ts';
export { AccountError, type AccountErrorCode } from './accounts/account-error.ts';
export {
  type Account,
  type AccountOrganization,
  authenticate,
  type CreateAccountInput,
  changePassword,
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  findAccountById,
  findAccountByLogin,
  listAccountOrganizations,
  markEmailVerified,
} from './accounts/accounts.service.ts';
export { hashPassword, verifyPassword } from './accounts/passwords.ts';
export { type FailureStore, MemoryFailureStore } from './http/rate-limit.ts';
export type { RelyingPartyClient } from './oidc/provider.ts';
