/**
 * The screens' import point for the wallet core (src/core): component tests mock this module. The protocol functions
 * (receive, present) are in protocol-api.ts, so that the home screen's chunks leave @cp/holder out (issue 16).
 */
export { pickDisplay } from '../core/display.ts';
export { WalletError, WalletErrorCode } from '../core/errors.ts';
export { checkStatus, recheckCredential, refreshStatuses } from '../core/status.ts';
export type * from '../core/types.ts';
export { openVault } from '../core/vault.ts';
