/**
 * The holder library's errors: a stable `code` per outcome a wallet can act on, an English `message` for
 * logs, and the remote party's own words when it sent an OAuth-style error.
 */
export type HolderErrorCode =
  /** The link, QR code or JSON is not a credential offer. */
  | 'OFFER_INVALID'
  /** The offer only supports a flow this holder does not (authorization code, deferred issuance, a format…). */
  | 'OFFER_UNSUPPORTED'
  /** The offer was used, withdrawn or has expired. */
  | 'OFFER_EXPIRED'
  /** The offer needs the transaction code (tx_code) and none was given. */
  | 'PIN_REQUIRED'
  /** The transaction code is wrong. */
  | 'PIN_WRONG'
  /** The issuer's metadata or endpoints cannot be reached or make no sense. */
  | 'ISSUER_UNREACHABLE'
  /** The issuer refused a request (an OAuth / OpenID4VCI error other than the ones above). */
  | 'ISSUER_ERROR'
  /** The issued credential cannot be read, or is not bound to the holder key. */
  | 'CREDENTIAL_INVALID'
  /** The presentation request is malformed or asks for something unsupported. */
  | 'REQUEST_INVALID'
  /** The presentation request's client identifier does not check out (certificate, DID, response URI). */
  | 'REQUEST_UNTRUSTED'
  /** The presentation request is not signed by the key its client identifier names. */
  | 'REQUEST_SIGNATURE_INVALID'
  /** The presentation request has expired or was already answered. */
  | 'REQUEST_EXPIRED'
  /** The credentials chosen do not answer the request. */
  | 'NO_MATCHING_CREDENTIAL'
  /** The verifier refused the response. */
  | 'VERIFIER_ERROR'
  /** No connection, or the server did not answer. */
  | 'NETWORK';

/** An OAuth-style error of the remote party (RFC 6749 §5.2, OpenID4VP 1.0 §8.5). */
export interface RemoteError {
  error: string;
  description?: string;
}

export class HolderError extends Error {
  constructor(
    readonly code: HolderErrorCode,
    message: string = code,
    /** `error: error_description` of the remote party, for logs and details. */
    readonly detail?: string,
    /** The remote party's error as it sent it (bounded), for screens that show its words. */
    readonly remote?: RemoteError,
  ) {
    super(message);
    this.name = 'HolderError';
  }
}

export const isHolderError = (err: unknown): err is HolderError => err instanceof HolderError;

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads `{error, error_description}` from a body, bounded (a verifier's or issuer's words are shown, not trusted). */
export function remoteErrorOf(body: unknown): RemoteError | undefined {
  if (!isObject(body) || typeof body.error !== 'string' || body.error === '') return undefined;
  const description =
    typeof body.error_description === 'string' && body.error_description !== ''
      ? body.error_description.slice(0, 500)
      : undefined;
  return { error: body.error.slice(0, 100), ...(description ? { description } : {}) };
}

export const remoteDetail = (remote: RemoteError | undefined) =>
  remote ? `${remote.error}${remote.description ? `: ${remote.description}` : ''}` : undefined;
