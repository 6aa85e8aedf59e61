import { vi } from 'vitest';
import type * as CoreApi from '../app/core-api.ts';
import { pickDisplay as realPickDisplay } from '../core/display.ts';

export { WalletErrorCode } from '../core/errors.ts';

/**
 * Stand-in for src/app/core-api.ts: `vi.mock('…/app/core-api.ts', () => import('…/test/core-api-mock.ts'))`.
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
export const resolveOffer = vi.fn<typeof CoreApi.resolveOffer>();
export const acceptOffer = vi.fn<typeof CoreApi.acceptOffer>();
export const checkStatus = vi.fn<typeof CoreApi.checkStatus>();
export const refreshStatuses = vi.fn<typeof CoreApi.refreshStatuses>();
export const recheckCredential = vi.fn<typeof CoreApi.recheckCredential>();
export const resolvePresentationRequest = vi.fn<typeof CoreApi.resolvePresentationRequest>();
export const findCandidates = vi.fn<typeof CoreApi.findCandidates>();
export const planPresentation = vi.fn<typeof CoreApi.planPresentation>();
/** Pure: the real ones. */
export { answersRequest, chosenCandidates, defaultChoice, isUsable } from '../core/present.ts';
export const submitPresentation = vi.fn<typeof CoreApi.submitPresentation>();
export const declinePresentation = vi.fn<typeof CoreApi.declinePresentation>();
