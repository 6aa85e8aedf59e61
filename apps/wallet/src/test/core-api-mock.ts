import { vi } from 'vitest';
import type * as CoreApi from '../app/core-api.ts';
import type * as ProtocolApi from '../app/protocol-api.ts';
import { pickDisplay as realPickDisplay } from '../core/display.ts';

export { WalletErrorCode } from '../core/errors.ts';

/**
 * Stand-in for src/app/core-api.ts and src/app/protocol-api.ts: `vi.mock('…/app/core-api.ts', () =>
 * import('…/test/core-api-mock.ts'))`, and the same for protocol-api.ts.
 * The protocol functions are vi.fn()s each test programs; `pickDisplay` and `WalletError` are the real ones.
 */
export class WalletError extends Error {
  constructor(
    readonly code: string,
    message: string = code,
    readonly detail?: string,
    readonly remote?: { error: string; description?: string },
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

export const pickDisplay = realPickDisplay;
export const openVault = vi.fn<typeof CoreApi.openVault>();
export const resolveOffer = vi.fn<typeof ProtocolApi.resolveOffer>();
export const acceptOffer = vi.fn<typeof ProtocolApi.acceptOffer>();
export const startAuthorizedReceive = vi.fn<typeof ProtocolApi.startAuthorizedReceive>();
export const completeAuthorizedReceive = vi.fn<typeof ProtocolApi.completeAuthorizedReceive>();
export const resolveIssuer = vi.fn<typeof ProtocolApi.resolveIssuer>();
export const resolveIssuerConfiguration = vi.fn<typeof ProtocolApi.resolveIssuerConfiguration>();
export const loadPlatformTrust = vi.fn<typeof ProtocolApi.loadPlatformTrust>();
export const checkStatus = vi.fn<typeof CoreApi.checkStatus>();
export const refreshStatuses = vi.fn<typeof CoreApi.refreshStatuses>();
export const recheckCredential = vi.fn<typeof CoreApi.recheckCredential>();
export const resolvePresentationRequest = vi.fn<typeof ProtocolApi.resolvePresentationRequest>();
export const findCandidates = vi.fn<typeof ProtocolApi.findCandidates>();
export const planPresentation = vi.fn<typeof ProtocolApi.planPresentation>();
/** Pure: the real ones. */
export { answersRequest, chosenCandidates, defaultChoice, isUsable } from '../core/present.ts';
export const submitPresentation = vi.fn<typeof ProtocolApi.submitPresentation>();
export const declinePresentation = vi.fn<typeof ProtocolApi.declinePresentation>();
