import { randomBytes } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-tokens.ts';

const ISSUER = 'https://console.example';
const key = new Uint8Array(randomBytes(32));
const tokens = new AccessTokens(key, ISSUER, 600);
const claims = { userId: '3f1c0d9e-0000-4000-8000-000000000001', sessionId: 'session-1', twoFactor: true };

/** A token as the API writes them, with `change` applied: what an attacker would try to pass off as one. */
function forge(
  signingKey: Uint8Array,
  change: { typ?: string; issuer?: string; audience?: string; expiresIn?: number; alg?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: change.alg ?? 'HS256', typ: change.typ ?? 'at+jwt' })
    .setIssuer(change.issuer ?? ISSUER)
    .setAudience(change.audience ?? ISSUER)
    .setSubject(claims.userId)
    .setIssuedAt(now - 1000)
    .setExpirationTime(now + (change.expiresIn ?? 600))
    .sign(signingKey);
}

describe('the API access tokens', () => {
  it('verifies what it issued, with its claims', async () => {
    expect(await tokens.verify(await tokens.issue(claims))).toEqual(claims);
    expect(await tokens.verify(await forge(key))).toEqual({ ...claims, twoFactor: false });
  });

  it('refuses a token signed with another key, unsigned, expired, of another type, issuer or audience', async () => {
    const refused = [
      await forge(new Uint8Array(randomBytes(32))),
      new UnsecuredJWT({ sid: claims.sessionId, sub: claims.userId, iss: ISSUER, aud: ISSUER })
        .setExpirationTime('10m')
        .encode(),
      await forge(key, { expiresIn: -1 }),
      await forge(key, { typ: 'JWT' }),
      await forge(key, { issuer: 'https://elsewhere.example' }),
      await forge(key, { audience: 'https://elsewhere.example' }),
      await forge(new Uint8Array(randomBytes(48)), { alg: 'HS384' }),
    ];
    for (const token of refused) {
      await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'AUTH_TOKEN_INVALID' });
    }
    // Another instance's key (another deployment's secret) does not verify this one's tokens.
    const other = new AccessTokens(new Uint8Array(randomBytes(32)), ISSUER, 600);
    await expect(other.verify(await tokens.issue(claims))).rejects.toMatchObject({ code: 'AUTH_TOKEN_INVALID' });
  });
});
