import type { OAuthErrorCode } from '@cp/contracts';

/**
 * An OAuth 2.0 style error of the protocol endpoints (RFC 6749 §5.2, RFC 6750 §3.1, OpenID4VCI 1.0 §8.3.1.2,
 * OpenID4VP 1.0 §8.5): rendered as `{error, error_description}`, never as problem+json, because wallets read
 * these endpoints with OAuth clients. The codes are the standards' own (lower snake case), not the API's.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    /** Headers the answer carries: `DPoP-Nonce`, a `WWW-Authenticate` challenge of its own (RFC 9449 §7.1, §9). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
