import { jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../errors/app-error.ts';
import { randomToken } from '../../lib/crypto.ts';

export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  /** The session began with a two-step sign-in at the provider (its `amr`); kept by every refresh. */
  twoFactor: boolean;
}

/**
 * The API's own access tokens: short-lived JWTs (RFC 9068 `at+jwt`) signed with a platform secret.
 * Refresh tokens are opaque and never verify here, so one can never be used as an access token.
 */
export class AccessTokens {
  /** Imported once: given the raw bytes, jose imports them again for every token it signs or checks. */
  readonly #key: Promise<CryptoKey>;

  constructor(
    key: Uint8Array,
    private readonly issuer: string,
    private readonly ttlSeconds: number,
  ) {
    this.#key = crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    // A refused key fails each use (as AUTH_TOKEN_INVALID or the sign-in's error), not the process.
    this.#key.catch(() => undefined);
  }

  get ttl() {
    return this.ttlSeconds;
  }

  async issue(claims: AccessTokenClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, ...(claims.twoFactor ? { two_factor: true } : {}) })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.issuer)
      .setSubject(claims.userId)
      .setJti(randomToken(16))
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.#key);
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        issuer: this.issuer,
        audience: this.issuer,
        algorithms: ['HS256'],
        typ: 'at+jwt',
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('claims missing');
      return { userId: payload.sub, sessionId: payload.sid, twoFactor: payload.two_factor === true };
    } catch (cause) {
      throw new AppError('AUTH_TOKEN_INVALID', { detail: 'The access token is invalid or expired.', cause });
    }
  }
}
