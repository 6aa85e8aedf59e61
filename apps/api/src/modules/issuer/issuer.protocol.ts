import { createHash, randomBytes } from 'node:crypto';
import { isOAuthErrorCode } from '@cp/contracts';
import { publicJwk, resolveDidKeyReference, verifyJwtSignature, x5cLeafJwk } from '@cp/credentials';
import {
  type CallbackContext,
  clientAuthenticationAnonymous,
  type Jwk,
  Oauth2AuthorizationServer,
  Oauth2ServerErrorResponseError,
  type VerifyJwtCallback,
} from '@openid4vc/oauth2';
import { Openid4vciIssuer } from '@openid4vc/openid4vci';
import { ValidationError } from '@openid4vc/utils';
import { OAuthError } from '../../errors/oauth-error.ts';

/**
 * The OpenID4VCI issuer and its OAuth 2.0 authorization server as @openid4vc/openid4vci and @openid4vc/oauth2
 * see them: they parse and validate every request; the issuer's own rules (single use, PIN attempts, nonces
 * stored once, organizations kept apart) stay in issuer.service.ts. Built once: the callbacks hold no state.
 */

export const PROOF_TYP = 'openid4vci-proof+jwt';
/** The only key proof algorithm the metadata announces (`proof_signing_alg_values_supported`). */
export const PROOF_ALG = 'ES256';

/**
 * The holder's key of a proof JWT (OpenID4VCI 1.0 Appendix F.1): a public `jwk` in the header, or a `kid` that
 * is a did:jwk / did:key URL (resolved locally, never over the network). An `x5c` or federation holder key is
 * not something this issuer announces, so it is refused. The same callback checks the signature of a key
 * attestation the proof carries (Appendix D), which the library verifies along with the proof.
 */
const verifyHolderProofJwt: VerifyJwtCallback = async (signer, { header, compact }) => {
  // A key attestation in the proof header (Appendix D): its signature by its x5c leaf here; whether a trusted
  // wallet provider vouches for that certificate is decided by key-attestation.ts once the proof is verified.
  if ((header.typ === 'key-attestation+jwt' || header.typ === 'keyattestation+jwt') && signer.method === 'x5c') {
    if (header.alg !== PROOF_ALG) throw new Error(`The key attestation must be signed with ${PROOF_ALG}.`);
    const jwk = await x5cLeafJwk(signer.x5c);
    if (!(await verifyJwtSignature(compact, jwk))) return { verified: false };
    return { verified: true, signerJwk: jwk as Jwk };
  }
  if (header.typ !== PROOF_TYP) throw new Error(`Only ${PROOF_TYP} key proofs are accepted.`);
  if (header.alg !== PROOF_ALG) throw new Error(`The proof must be signed with ${PROOF_ALG}.`);
  let jwk: JsonWebKey;
  if (signer.method === 'jwk') {
    if ('d' in signer.publicJwk) throw new Error('The proof header carries a private key.');
    jwk = publicJwk(signer.publicJwk as JsonWebKey);
  } else if (signer.method === 'did' && /^did:(jwk|key):/.test(signer.didUrl)) {
    jwk = await resolveDidKeyReference(signer.didUrl, async () => {
      throw new Error('No network resolution for proofs.');
    });
  } else {
    throw new Error('The proof names no usable holder key (jwk, or a did:jwk / did:key kid).');
  }
  if (!(await verifyJwtSignature(compact, jwk))) return { verified: false };
  return { verified: true, signerJwk: jwk as Jwk };
};

export const callbacks: Omit<CallbackContext, 'decryptJwe' | 'encryptJwe'> = {
  hash: (data, alg) => {
    if (alg !== 'sha-256') throw new Error(`Unsupported hash ${alg}`);
    return new Uint8Array(createHash('sha256').update(data).digest());
  },
  generateRandom: (length) => new Uint8Array(randomBytes(length)),
  // Credentials and status lists are signed by the organization's key outside the library.
  signJwt: () => {
    throw new Error('The issuer signs nothing through @openid4vc');
  },
  verifyJwt: verifyHolderProofJwt,
  // A server: it authenticates to nobody.
  clientAuthentication: clientAuthenticationAnonymous(),
};

export const authorizationServer = new Oauth2AuthorizationServer({ callbacks });
export const openid4vciIssuer = new Openid4vciIssuer({ callbacks });

/**
 * The library's error as this issuer's, with a readable description: when the library only says "Invalid proof"
 * or "Invalid request", the reason is in its cause (e.g. which header field failed its schema).
 */
export function libraryError(err: unknown): unknown {
  if (!(err instanceof Oauth2ServerErrorResponseError)) return err;
  const { error, error_description: description } = err.errorResponse;
  // A schema failure's message starts with the whole input echoed back; the zod issues follow on the next lines.
  const cause =
    err.cause instanceof ValidationError
      ? err.cause.message.split('\n').slice(1).join(' ')
      : err.cause instanceof Error
        ? err.cause.message
        : undefined;
  const generic = !description || /^Invalid (proof|request)$/.test(description);
  const text = (generic && cause ? `${description ?? error}: ${cause}` : (description ?? error)).replace(/\s+/g, ' ');
  // The library's codes are the standards' own; one it adds that the API does not list reads as invalid_request.
  return new OAuthError(isOAuthErrorCode(error) ? error : 'invalid_request', text.trim().slice(0, 500), err.status);
}
