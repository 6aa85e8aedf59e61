import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateEs256KeyPair, type JwsSigner, signerFromPrivateJwk, verifyJwtSignature } from './jws.ts';
import { decodeSdJwtVc, issueSdJwtVc, presentSdJwtVc } from './sd-jwt-vc.ts';
import { SdJwtVcError, verifySdJwtVc } from './sd-jwt-verify.ts';
import { encodeStatusList, readStatus, signStatusListToken, statusFromToken } from './status-list.ts';

let issuer: { signer: JwsSigner; publicJwk: JsonWebKey };
let holder: { signer: JwsSigner; publicJwk: JsonWebKey };
let other: { signer: JwsSigner; publicJwk: JsonWebKey };

beforeAll(async () => {
  const make = async () => {
    const pair = await generateEs256KeyPair();
    return { signer: await signerFromPrivateJwk(pair.privateJwk), publicJwk: pair.publicJwk };
  };
  [issuer, holder, other] = await Promise.all([make(), make(), make()]);
});

const claims = { first_name: 'Ada', last_name: 'Lovelace', score: 97, graduated: true, date_of_birth: '1815-12-10' };

async function issue(overrides: Partial<Parameters<typeof issueSdJwtVc>[0]> = {}) {
  return issueSdJwtVc({
    signer: issuer.signer,
    header: { kid: 'key-1' },
    issuer: 'https://issuer.example/orgs/7',
    vct: 'https://issuer.example/vct/diploma',
    holderJwk: holder.publicJwk,
    claims,
    status: { idx: 3, uri: 'https://issuer.example/orgs/7/status-list' },
    ...overrides,
  });
}

const resolveIssuerKey = async () => ({ jwk: issuer.publicJwk });

describe('SD-JWT VC', () => {
  it('issues with typ dc+sd-jwt, cnf, status and every claim selectively disclosable', async () => {
    const credential = await issue();
    const [jwt, ...disclosures] = credential.split('~');
    const { header, payload } = decodeJwt(jwt!);
    expect(header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: 'key-1' });
    expect(payload).toMatchObject({
      iss: 'https://issuer.example/orgs/7',
      vct: 'https://issuer.example/vct/diploma',
      cnf: { jwk: holder.publicJwk },
      status: { status_list: { idx: 3, uri: 'https://issuer.example/orgs/7/status-list' } },
      _sd_alg: 'sha-256',
    });
    // No claim value in the signed part: all of them are disclosures.
    for (const name of Object.keys(claims)) expect(payload).not.toHaveProperty(name);
    expect((payload._sd as string[]).length).toBe(Object.keys(claims).length);
    expect(disclosures.filter(Boolean)).toHaveLength(Object.keys(claims).length);
    expect(await verifyJwtSignature(jwt!, issuer.publicJwk)).toBe(true);

    const decoded = await decodeSdJwtVc(credential);
    expect(decoded.claims).toMatchObject(claims);
    expect(typeof decoded.claims.score).toBe('number');
    expect(typeof decoded.claims.graduated).toBe('boolean');
  });

  it('verifies a presentation with chosen disclosures and a key-binding JWT', async () => {
    const presentation = await presentSdJwtVc(await issue(), {
      disclose: ['first_name', 'score'],
      keyBinding: { signer: holder.signer, audience: 'x509_hash:verifier', nonce: 'n-123' },
    });
    const verified = await verifySdJwtVc(presentation, {
      resolveIssuerKey,
      keyBinding: { nonce: 'n-123', audience: 'x509_hash:verifier' },
    });
    expect(verified.claims).toMatchObject({ first_name: 'Ada', score: 97 });
    expect(verified.claims).not.toHaveProperty('last_name');
    expect(
      Object.keys(verified.claims)
        .filter((name) => name in claims)
        .sort(),
    ).toEqual(['first_name', 'score']);
  });

  it('refuses a wrong nonce, audience, holder key, stale binding, or a missing binding', async () => {
    const credential = await issue();
    const present = (signer: JwsSigner, nonce = 'n', audience = 'aud', issuedAt?: number) =>
      presentSdJwtVc(credential, {
        disclose: ['first_name'],
        keyBinding: { signer, audience, nonce, ...(issuedAt ? { issuedAt } : {}) },
      });
    const expectCode = async (promise: Promise<unknown>, code: string) => {
      const error = await promise.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(SdJwtVcError);
      expect((error as SdJwtVcError).code).toBe(code);
    };
    const kb = { nonce: 'n', audience: 'aud' };
    await expectCode(
      verifySdJwtVc(await present(holder.signer, 'other'), { resolveIssuerKey, keyBinding: kb }),
      'SD_JWT_KEY_BINDING_INVALID',
    );
    await expectCode(
      verifySdJwtVc(await present(holder.signer, 'n', 'elsewhere'), { resolveIssuerKey, keyBinding: kb }),
      'SD_JWT_KEY_BINDING_AUDIENCE',
    );
    await expectCode(
      verifySdJwtVc(await present(other.signer), { resolveIssuerKey, keyBinding: kb }),
      'SD_JWT_KEY_BINDING_INVALID',
    );
    const old = Math.floor(Date.now() / 1000) - 3600;
    await expectCode(
      verifySdJwtVc(await present(holder.signer, 'n', 'aud', old), { resolveIssuerKey, keyBinding: kb }),
      'SD_JWT_KEY_BINDING_STALE',
    );
    await expectCode(verifySdJwtVc(credential, { resolveIssuerKey, keyBinding: kb }), 'SD_JWT_KEY_BINDING_MISSING');
  });

  it('refuses another issuer key, a tampered disclosure and an expired credential', async () => {
    const credential = await issue();
    await expect(
      verifySdJwtVc(credential, { resolveIssuerKey: async () => ({ jwk: other.publicJwk }) }),
    ).rejects.toMatchObject({
      code: 'SD_JWT_SIGNATURE_INVALID',
    });
    const parts = credential.split('~');
    const forged = btoa(JSON.stringify(['c2FsdA', 'score', 100])).replace(/=+$/, '');
    parts[1] = forged;
    await expect(verifySdJwtVc(parts.join('~'), { resolveIssuerKey })).rejects.toBeInstanceOf(SdJwtVcError);
    const expired = await issue({ issuedAt: 1_600_000_000, expiresAt: 1_600_000_100 });
    await expect(verifySdJwtVc(expired, { resolveIssuerKey })).rejects.toMatchObject({ code: 'SD_JWT_EXPIRED' });
  });
});

describe('Token Status List', () => {
  it('encodes bits, signs a statuslist+jwt and reads a status back', async () => {
    const lst = encodeStatusList(1024, [3, 1000]);
    expect(readStatus(lst, 3)).toBe(1);
    expect(readStatus(lst, 4)).toBe(0);
    expect(readStatus(lst, 1000)).toBe(1);
    const token = await signStatusListToken({
      signer: issuer.signer,
      header: { kid: 'key-1' },
      uri: 'https://issuer.example/orgs/7/status-list',
      lst,
      ttl: 60,
    });
    expect(decodeJwt(token).header).toMatchObject({ typ: 'statuslist+jwt', alg: 'ES256' });
    expect(await verifyJwtSignature(token, issuer.publicJwk)).toBe(true);
    expect(statusFromToken(token, 3)).toMatchObject({ status: 1, sub: 'https://issuer.example/orgs/7/status-list' });
    expect(statusFromToken(token, 2).status).toBe(0);
    expect(() => encodeStatusList(8, [8])).toThrow(RangeError);
  });

  it('matches the draft example: bits 1, lst "eNrbuRgAAhcBXQ" has indexes 0, 3, 4, 5, 7, 8, 9, 13, 15 set', () => {
    // Token Status List draft, section 4.1 example (statuses 1 0 0 1 1 1 0 1 1 1 0 0 0 1 0 1).
    const set = [0, 3, 4, 5, 7, 8, 9, 13, 15];
    for (let index = 0; index < 16; index++) {
      expect(readStatus('eNrbuRgAAhcBXQ', index)).toBe(set.includes(index) ? 1 : 0);
    }
  });
});

describe('nested disclosures', () => {
  it('accepts disclosures referenced from a nested object', async () => {
    const { SDJwtVcInstance } = await import('@sd-jwt/sd-jwt-vc');
    const { sha256: digest, base64url } = await import('./encoding.ts');
    const instance = new SDJwtVcInstance({
      hasher: async (data) => digest(data),
      hashAlg: 'sha-256',
      saltGenerator: () => base64url(crypto.getRandomValues(new Uint8Array(16))),
      signer: (data) => issuer.signer.sign(data),
      signAlg: 'ES256',
    });
    const credential = await instance.issue(
      { iss: 'https://issuer.example', vct: 'urn:t', iat: Math.floor(Date.now() / 1000), address: { city: 'London' } },
      { address: { _sd: ['city'] } } as never,
      { header: { typ: 'dc+sd-jwt' } },
    );
    const verified = await verifySdJwtVc(credential, { resolveIssuerKey });
    expect(verified.claims).toMatchObject({ address: { city: 'London' } });
  });

  it('folds nested objects and array elements exactly as SDJwtInstance.verify, for every subset', async () => {
    const { SDJwtVcInstance } = await import('@sd-jwt/sd-jwt-vc');
    const { SDJwtInstance } = await import('@sd-jwt/core');
    const { sha256: digest, base64url } = await import('./encoding.ts');
    const hasher = async (data: string | ArrayBuffer) => digest(data);
    const instance = new SDJwtVcInstance({
      hasher,
      hashAlg: 'sha-256',
      saltGenerator: () => base64url(crypto.getRandomValues(new Uint8Array(16))),
      signer: (data) => issuer.signer.sign(data),
      signAlg: 'ES256',
    });
    const credential = await instance.issue(
      {
        iss: 'https://issuer.example',
        vct: 'urn:t',
        iat: Math.floor(Date.now() / 1000),
        name: 'Ada',
        address: { city: 'London', street: { name: 'Baker', number: 221 } },
        nationalities: ['GB', 'FR', { region: 'EU' }],
        plain: { kept: [1, 2] },
      },
      // Recursive disclosures (a digest inside another disclosure) are refused before folding (collectDigests).
      {
        _sd: ['name'],
        address: { _sd: ['city'], street: { _sd: ['number'] } },
        nationalities: { _sd: [0, 2] },
      } as never,
      { header: { typ: 'dc+sd-jwt' } },
    );
    const [jwt, ...rest] = credential.split('~');
    const disclosures = rest.filter(Boolean);
    expect(disclosures.length).toBe(5);
    const library = new SDJwtInstance({ hasher, verifier: () => true });
    for (let mask = 0; mask < 1 << disclosures.length; mask++) {
      const subset = disclosures.filter((_, i) => mask & (1 << i));
      const presented = `${[jwt, ...subset].join('~')}~`;
      const expected = (await library.verify(presented, { skewSeconds: 1e9 })).payload;
      const ours = await verifySdJwtVc(presented, { resolveIssuerKey });
      expect(ours.claims, `subset ${mask}`).toEqual(expected);
    }
  });
});
