import { decodeJwt, signJwt } from '@cp/credentials';
import type { ClientAuthenticationCallback } from '@openid4vc/oauth2';
import type { Fetch, HolderKey } from './callbacks.ts';
import { errorMessage, HolderError } from './errors.ts';

/**
 * Wallet attestation for the token request (OAuth 2.0 Attestation-Based Client Authentication, draft-10): the
 * wallet provider's Client Attestation JWT for this wallet instance, and a Client Attestation PoP made per request
 * with the instance key (`cnf.jwk`). When the authorization server announces a `challenge_endpoint`, a fresh
 * challenge is fetched from it for every PoP (§Challenges: the client MUST use it then).
 */
export interface WalletAttestation {
  /** The `oauth-client-attestation+jwt` the wallet provider issued for this wallet instance. */
  attestation: string;
  /** The wallet instance key: the attestation's `cnf.jwk`, which signs each PoP. */
  key: HolderKey;
}

export const CLIENT_ATTESTATION_HEADER = 'OAuth-Client-Attestation';
export const CLIENT_ATTESTATION_POP_HEADER = 'OAuth-Client-Attestation-PoP';
/** How long a PoP is valid (servers also bound it by its `iat`). */
const POP_TTL_SECONDS = 60;

const randomId = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

/** A challenge from the authorization server's challenge endpoint (`{attestation_challenge}`). */
export async function fetchAttestationChallenge(fetchImpl: Fetch, challengeEndpoint: string): Promise<string> {
  let body: unknown;
  try {
    const response = await fetchImpl(challengeEndpoint, { method: 'POST', headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    body = await response.json();
  } catch (err) {
    if (err instanceof HolderError) throw err;
    throw new HolderError('ISSUER_ERROR', `No attestation challenge: ${errorMessage(err)}`);
  }
  const challenge = (body as { attestation_challenge?: unknown } | null)?.attestation_challenge;
  if (typeof challenge !== 'string' || challenge.length === 0) {
    throw new HolderError('ISSUER_ERROR', 'The challenge endpoint answered no attestation_challenge');
  }
  return challenge;
}

/**
 * A Client Attestation PoP JWT for `audience` (the authorization server's issuer identifier). Draft-10 asks for
 * `aud`, `jti`, `iat` and the server's `challenge`; `iss` (the attestation's `sub`) and `exp` are kept for servers
 * of earlier drafts, which required them (draft-10 servers ignore claims they do not know).
 */
export async function createAttestationPop(
  walletAttestation: WalletAttestation,
  audience: string,
  challenge: string | undefined,
  now = Date.now(),
): Promise<string> {
  const { payload } = decodeJwt<{ sub?: unknown }>(walletAttestation.attestation);
  const iat = Math.floor(now / 1000);
  return signJwt(
    walletAttestation.key.signer,
    { typ: 'oauth-client-attestation-pop+jwt' },
    {
      ...(typeof payload.sub === 'string' ? { iss: payload.sub } : {}),
      aud: audience,
      jti: randomId(),
      iat,
      exp: iat + POP_TTL_SECONDS,
      ...(challenge ? { challenge } : {}),
    },
  );
}

/**
 * The client authentication callback of the @openid4vc clients that sends the wallet attestation and a fresh PoP
 * (with a fresh challenge when the server offers a challenge endpoint) on the token request.
 */
export function clientAuthenticationWalletAttestation(
  walletAttestation: WalletAttestation,
  fetchImpl: Fetch,
): ClientAuthenticationCallback {
  return async ({ headers, authorizationServerMetadata }) => {
    const challengeEndpoint = (authorizationServerMetadata as { challenge_endpoint?: unknown }).challenge_endpoint;
    const challenge =
      typeof challengeEndpoint === 'string' ? await fetchAttestationChallenge(fetchImpl, challengeEndpoint) : undefined;
    headers.set(CLIENT_ATTESTATION_HEADER, walletAttestation.attestation);
    headers.set(
      CLIENT_ATTESTATION_POP_HEADER,
      await createAttestationPop(walletAttestation, authorizationServerMetadata.issuer, challenge),
    );
  };
}
