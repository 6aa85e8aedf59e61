import { randomUUID } from 'node:crypto';
import type {
  CompleteAuthRequest,
  LogoutResponse,
  StartAuthRequest,
  StartAuthResponse,
  TokenResponse,
} from '@cp/contracts';
import type { Database } from '@cp/db';
import { type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { AppError } from '../../errors/app-error.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import * as usersService from '../users/users.service.ts';
import type { AccessTokens } from './access-tokens.ts';
import * as repository from './auth.repository.ts';
import type { OidcClient } from './oidc-client.ts';

const SIGN_IN_ATTEMPT_TTL_MS = 15 * 60 * 1000;
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** Logout tokens are meant for immediate delivery (oidc-provider gives them 2 minutes). */
const LOGOUT_TOKEN_MAX_AGE_SECONDS = 5 * 60;
const CLOCK_TOLERANCE_SECONDS = 30;
/** Longest provider session id recorded or accepted (oidc-provider's are 21 characters). */
const MAX_PROVIDER_SID_LENGTH = 255;
/**
 * RFC 8176 authentication method references that mean a second factor was used: a one-time code (`otp`, and the
 * `totp`/`hotp` some providers send), a hardware or software key (`hwk`, `swk`), an SMS code (`sms`), or the
 * provider saying so outright (`mfa`).
 */
const TWO_FACTOR_AMR = new Set(['otp', 'totp', 'hotp', 'mfa', 'hwk', 'swk', 'sms']);

/** Whether an ID token's `amr` claim says the person signed in with two steps. */
export function isTwoFactorAmr(amr: unknown): boolean {
  return (
    Array.isArray(amr) && amr.some((value) => typeof value === 'string' && TWO_FACTOR_AMR.has(value.toLowerCase()))
  );
}

/** Asymmetric algorithms only: the keys come from the provider's JWKS, never the client secret. */
const LOGOUT_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export interface AuthDeps {
  db: Database;
  oidc: OidcClient;
  accessTokens: AccessTokens;
  logger: Logger;
  scopes: string;
  defaultRedirectUrl: string;
  /** Origins whose /oauth/socious may receive the code (the console's). */
  allowedRedirectOrigins: string[];
  refreshTtlDays: number;
  /** Where the provider sends the browser after its sign-out (the console's /intro; registered at the provider). */
  postLogoutRedirectUrl: string;
}

function checkRedirect(deps: AuthDeps, redirectUrl: string) {
  const url = new URL(redirectUrl);
  if (!deps.allowedRedirectOrigins.includes(url.origin) || url.pathname !== '/oauth/socious') {
    throw new AppError('AUTH_REDIRECT_NOT_ALLOWED', { detail: 'This redirect address is not allowed.' });
  }
  return `${url.origin}${url.pathname}`;
}

/** Starts an authorization code flow with PKCE; the verifier, state and nonce stay server-side. */
export async function startAuth(deps: AuthDeps, input: StartAuthRequest): Promise<StartAuthResponse> {
  const redirectUrl = checkRedirect(deps, input.redirect_url ?? deps.defaultRedirectUrl);
  const configuration = await deps.oidc.configuration();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const session = await repository.insertAuthSession(deps.db, {
    state,
    nonce,
    codeVerifier,
    redirectUrl,
    expiresAt: new Date(Date.now() + SIGN_IN_ATTEMPT_TTL_MS),
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUrl,
    scope: deps.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    // OpenID Connect "Initiating User Registration": the provider shows its sign-up form first; prompt=login
    // (Core §3.1.2.1) asks for the sign-in form even with an open provider session, to change accounts.
    ...(input.signup ? { prompt: 'create' } : input.reauthenticate ? { prompt: 'login' } : {}),
  });
  return { auth_url: url.href, session: session.id };
}

/** Exchanges the code (PKCE, state, nonce checked by openid-client), syncs the user and opens a session. */
export async function completeAuth(deps: AuthDeps, input: CompleteAuthRequest): Promise<TokenResponse> {
  const attempt = /^[0-9a-f-]{36}$/i.test(input.session)
    ? await repository.consumeAuthSession(deps.db, input.session)
    : undefined;
  if (!attempt) {
    throw new AppError('AUTH_SESSION_INVALID', { detail: 'This sign-in attempt is unknown, used or expired.' });
  }
  const configuration = await deps.oidc.configuration();
  const callback = new URL(attempt.redirectUrl);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state ?? '');
  if (input.iss) callback.searchParams.set('iss', input.iss);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
  } catch (cause) {
    deps.logger.warn({ err: cause }, 'authorization code exchange failed');
    throw new AppError('AUTH_SESSION_INVALID', { detail: 'The identity provider did not accept this sign-in.', cause });
  }
  const idClaims = tokens.claims();
  if (!idClaims) throw new AppError('AUTH_PROVIDER_ERROR', { detail: 'The provider sent no ID token.' });
  let claims: Record<string, unknown> = { ...idClaims };
  try {
    const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    claims = { ...claims, ...userinfo };
  } catch (cause) {
    // The ID token alone is enough to sign in; userinfo only adds profile claims.
    deps.logger.warn({ err: cause }, 'userinfo request failed');
  }
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value.slice(0, 320) : null);
  const user = await usersService.upsertUserFromIdentity(deps.db, {
    issuer: String(idClaims.iss),
    subject: idClaims.sub,
    email: text(claims.email),
    // Only a provider that vouches for the address (email_verified: true) makes it one that can name an
    // administrator (ADMIN_EMAILS).
    emailVerified: claims.email_verified === true,
    username: text(claims.preferred_username),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
    locale: text(claims.locale),
  });
  await organizationsService.syncProviderOrganizations(deps.db, user.id, String(idClaims.iss), claims.organizations);
  // Back-Channel Logout 1.0 §2.1 / §2.4: the provider's session id, so a logout token naming it ends
  // only the console sessions opened from that provider session.
  const sid = idClaims.sid;
  const providerSid = typeof sid === 'string' && sid.length > 0 && sid.length <= MAX_PROVIDER_SID_LENGTH ? sid : null;
  // Only the ID token's amr counts (signed by the provider for this sign-in), not userinfo's.
  return openSession(deps, user.id, { providerSid, twoFactor: isTwoFactorAmr(idClaims.amr) });
}

/** Issues an access token and a fresh refresh-token family (of a provider session, when known). */
export async function openSession(
  deps: Pick<AuthDeps, 'db' | 'accessTokens' | 'refreshTtlDays'>,
  userId: string,
  options: { providerSid?: string | null; twoFactor?: boolean } = {},
): Promise<TokenResponse> {
  return issueTokens(deps, userId, randomUUID(), {
    providerSid: options.providerSid ?? null,
    twoFactor: options.twoFactor ?? false,
  });
}

async function issueTokens(
  deps: Pick<AuthDeps, 'db' | 'accessTokens' | 'refreshTtlDays'>,
  userId: string,
  familyId: string,
  family: { providerSid: string | null; twoFactor: boolean },
): Promise<TokenResponse> {
  const refreshToken = randomToken(32);
  await repository.insertRefreshToken(deps.db, {
    userId,
    familyId,
    ...family,
    tokenHash: sha256(refreshToken),
    expiresAt: new Date(Date.now() + deps.refreshTtlDays * 86_400_000),
  });
  return {
    access_token: await deps.accessTokens.issue({ userId, sessionId: familyId, twoFactor: family.twoFactor }),
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: deps.accessTokens.ttl,
  };
}

/**
 * Rotates a refresh token (OAuth 2.0 Security BCP §4.14.2): each is single-use; presenting one that was
 * already rotated means it leaked, so its whole family is revoked.
 */
export async function refreshSession(
  deps: Pick<AuthDeps, 'db' | 'accessTokens' | 'refreshTtlDays' | 'logger'>,
  refreshToken: string,
): Promise<TokenResponse> {
  const invalid = () => new AppError('AUTH_REFRESH_TOKEN_INVALID', { detail: 'The refresh token is not valid.' });
  const row = await repository.findRefreshTokenByHash(deps.db, sha256(refreshToken));
  if (!row || row.revokedAt) throw invalid();
  if (row.rotatedAt || !(await repository.markRefreshTokenRotated(deps.db, row.id))) {
    deps.logger.warn({ familyId: row.familyId }, 'refresh token reuse detected; revoking its family');
    await repository.revokeRefreshFamily(deps.db, row.familyId);
    throw invalid();
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalid();
  // The new token stays in the family and keeps its provider session id and how the person signed in.
  return issueTokens(deps, row.userId, row.familyId, { providerSid: row.providerSid, twoFactor: row.twoFactor });
}

/**
 * Ends the API session (revokes the refresh-token family) and answers where the browser goes next to end the
 * provider's session too: its `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0 §2) with `client_id`,
 * `post_logout_redirect_uri` (the console's /intro) and `state`; null when the provider has none (or cannot be
 * reached), and the console then just goes to /intro.
 *
 * §2 recommends `id_token_hint`; the API does not keep ID tokens (there is no column for them on the refresh
 * family), and `client_id` is what the spec offers instead. The bundled account center then ends its session
 * without a second question when the sign-out comes from the console's own site (see the account center).
 */
export async function logout(
  deps: Pick<AuthDeps, 'db' | 'oidc' | 'logger' | 'postLogoutRedirectUrl'>,
  input: { refreshToken?: string; sessionId?: string },
): Promise<LogoutResponse> {
  if (input.sessionId) await repository.revokeRefreshFamily(deps.db, input.sessionId);
  if (input.refreshToken) {
    const row = await repository.findRefreshTokenByHash(deps.db, sha256(input.refreshToken));
    if (row) await repository.revokeRefreshFamily(deps.db, row.familyId);
  }
  return { logout_url: await endSessionUrl(deps) };
}

async function endSessionUrl(deps: Pick<AuthDeps, 'oidc' | 'logger' | 'postLogoutRedirectUrl'>) {
  try {
    const configuration = await deps.oidc.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(configuration, {
      client_id: deps.oidc.clientId,
      post_logout_redirect_uri: deps.postLogoutRedirectUrl,
      state: oidc.randomState(),
    }).href;
  } catch (cause) {
    // The API session has ended all the same; the provider's page is only a courtesy then.
    deps.logger.warn({ err: cause }, 'no end-session address for the sign-out');
    return null;
  }
}

/**
 * OpenID Connect Back-Channel Logout 1.0 §2.6: validates a logout token from the identity provider and
 * ends the console sessions (refresh-token families) it names. Access tokens stop working at once too:
 * every call checks that its session is still active.
 *
 * §2.4: with a `sid`, only the families opened from that provider session end (the sid recorded from
 * the ID token at sign-in, of this issuer; and of that user when `sub` is there too). With only a `sub`,
 * every family of the user ends: the bundled account center sends that after a password change.
 */
export async function backchannelLogout(
  deps: Pick<AuthDeps, 'db' | 'oidc' | 'logger'>,
  logoutToken: string,
): Promise<{ familiesRevoked: number }> {
  const invalid = (detail: string, cause?: unknown) =>
    new AppError('AUTH_LOGOUT_TOKEN_INVALID', { detail, ...(cause ? { cause } : {}) });
  const { issuer, keys } = await deps.oidc.providerKeys();
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(logoutToken, keys, {
      issuer,
      audience: deps.oidc.clientId,
      algorithms: LOGOUT_TOKEN_ALGORITHMS,
      requiredClaims: ['iat', 'jti'],
      maxTokenAge: LOGOUT_TOKEN_MAX_AGE_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (cause) {
    // The reason only: jose's claim errors carry the token's payload.
    deps.logger.warn(
      { reason: cause instanceof Error ? cause.message : 'invalid' },
      'back-channel logout token refused',
    );
    throw invalid('The logout token is not valid.', cause);
  }
  const events = claims.events as Record<string, unknown> | undefined;
  const event = events && typeof events === 'object' ? events[BACKCHANNEL_LOGOUT_EVENT] : undefined;
  if (!event || typeof event !== 'object' || Array.isArray(event)) {
    throw invalid('The logout token has no back-channel logout event.');
  }
  // §2.6 step 7: a nonce means an ID token is being passed off as a logout token.
  if ('nonce' in claims) throw invalid('A logout token must not contain a nonce.');
  const sub = typeof claims.sub === 'string' && claims.sub.length > 0 ? claims.sub : undefined;
  const sid = typeof claims.sid === 'string' && claims.sid.length > 0 ? claims.sid : undefined;
  if (!sub && !sid) throw invalid('The logout token names neither a subject nor a session.');
  if (sid && sid.length > MAX_PROVIDER_SID_LENGTH) throw invalid('The logout token names an unusable session (sid).');
  if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 256) {
    throw invalid('The logout token has no usable identifier (jti).');
  }
  const iat = claims.iat ?? 0;
  const acceptableUntil = Math.max(claims.exp ?? 0, iat + LOGOUT_TOKEN_MAX_AGE_SECONDS) + CLOCK_TOLERANCE_SECONDS;
  const fresh = await repository.recordLogoutTokenOnce(
    deps.db,
    sha256(`${issuer}\n${claims.jti}`),
    new Date(acceptableUntil * 1000),
  );
  if (!fresh) throw invalid('This logout token was already used.');

  if (sid) {
    const families = await repository.findLiveFamiliesByProviderSid(deps.db, sid);
    // Sessions recorded with this sid for a user of another provider or another account: the token
    // contradicts what the API saw at sign-in, so it ends nothing (and the provider is told).
    for (const userId of new Set(families.map((f) => f.userId))) {
      const owner = await usersService.getUser(deps.db, userId);
      if (owner.issuer !== issuer || (sub !== undefined && owner.subject !== sub)) {
        deps.logger.warn({ userId }, 'back-channel logout token refused: its sid is of another account');
        throw invalid('The session in the logout token belongs to another account.');
      }
    }
    // An unknown sid (never seen, or its sessions already ended): nothing to end, a success (§2.8).
    const familiesRevoked = await repository.revokeRefreshFamilies(
      deps.db,
      families.map((f) => f.familyId),
    );
    deps.logger.info({ familiesRevoked }, 'back-channel logout: provider session ended');
    return { familiesRevoked };
  }
  const user = sub ? await usersService.findUserByIdentity(deps.db, issuer, sub) : undefined;
  // An unknown subject has no session here: nothing to end, and the logout still succeeded (§2.8).
  const familiesRevoked = user ? await repository.revokeUserRefreshFamilies(deps.db, user.id) : 0;
  deps.logger.info({ userId: user?.id, familiesRevoked }, 'back-channel logout: sessions ended');
  return { familiesRevoked };
}

export const isSessionActive = repository.isSessionActive;
export const findSessionInOrganization = repository.findSessionInOrganization;
