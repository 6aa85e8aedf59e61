/**
 * The protocol half of the wallet core (OpenID4VCI receive, OpenID4VP present: @cp/holder on @openid4vc/* and dcql),
 * imported only by the receive and present screens, so their lazy chunks carry it and the home screen does not
 * (issue 16). Everything else the screens use comes through core-api.ts. Component tests mock both modules with
 * src/test/core-api-mock.ts.
 */

export { loadPlatformTrust } from '../core/platform-trust.ts';
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
export {
  completeAuthorizedReceive,
  type ResolvedIssuer,
  resolveIssuer,
  resolveIssuerConfiguration,
  startAuthorizedReceive,
} from '../core/receive-authorization.ts';
