/**
 * The screens' single import point for the wallet core (src/core): component tests mock this module.
 */
export { pickDisplay } from '../core/display.ts';
export { WalletError, WalletErrorCode } from '../core/errors.ts';
export {
  answersRequest,
  chosenCandidates,
  declinePresentation,
  defaultChoice,
  findCandidates,
  isUsable,
  planPresentation,
  resolvePresentationRequest,
  submitPresentation,
} from '../core/present.ts';
export { acceptOffer, resolveOffer } from '../core/receive.ts';
export { checkStatus, recheckCredential, refreshStatuses } from '../core/status.ts';
export type * from '../core/types.ts';
export { openVault } from '../core/vault.ts';
