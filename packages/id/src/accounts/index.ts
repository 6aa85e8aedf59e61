// The account services without the OpenID Connect provider: for the admin CLI and seeding, which must
// not load oidc-provider (it prints a runtime notice on import).
export { AccountError, type AccountErrorCode } from './account-error.ts';
export {
  type Account,
  type AccountOrganization,
  createAccount,
  createAccountOrganization,
  findAccountByEmail,
  listAccountOrganizations,
  markEmailVerified,
} from './accounts.service.ts';
