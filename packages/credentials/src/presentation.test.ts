import { beforeAll, describe, expect, it } from 'vitest';
import { buildDcqlQuery } from './dcql.ts';
import type { IssuerBinding } from './issuer-trust.ts';
import { generateEs256KeyPair, type JwsSigner, signerFromPrivateJwk } from './jws.ts';
import {
  claimAtPath,
  evaluateRule,
  type PresentationExpectation,
  type PresentationRule,
  type PresentationVerifierDeps,
  verifySdJwtPresentation,
} from './presentation.ts';
import { issueSdJwtVc, presentSdJwtVc } from './sd-jwt-vc.ts';
import { encodeStatusList, signStatusListToken } from './status-list.ts';

type Party = { signer: JwsSigner; publicJwk: JsonWebKey };
let issuer: Party;
let holder: Party;
let stranger: Party;

const ISS = 'https://issuer.example/orgs/7';
const VCT = 'https://issuer.example/vct/membership';
const STATUS_URI = `${ISS}/status-list`;
const AUD = 'x509_hash:abc';
const claims = { first_name: 'Ada', age: 36, member: true, joined: '2020-05-01', email: 'ada@example.com' };

beforeAll(async () => {
  const make = async () => {
    const pair = await generateEs256KeyPair();
    return { signer: await signerFromPrivateJwk(pair.privateJwk), publicJwk: pair.publicJwk };
  };
  [issuer, holder, stranger] = await Promise.all([make(), make(), make()]);
});

let revoked: number[] = [];
/** The issuer's key as the trust function (issuer-trust.ts, tested there) binds it. */
const bound = (jwk: JsonWebKey): IssuerBinding => ({
  iss: ISS,
  jwk,
  source: 'metadata',
  identifiers: [ISS, 'did:web:issuer.example:orgs:7'],
});
const admitted = { admitted: true, reason: 'NAMED_ISSUER', detail: 'Admitted: named by the verification' };
const deps: PresentationVerifierDeps = {
  bindIssuerKey: async () => bound(issuer.publicJwk),
  admitIssuer: async () => ({ issuer: admitted, type: { passed: true } }),
  fetchStatusListToken: async (uri: string) =>
    signStatusListToken({ signer: issuer.signer, header: {}, uri, lst: encodeStatusList(16, revoked), ttl: 60 }),
};

const requested = (...names: string[]) => names.map((name) => ({ name, path: [name] }));
const expectation = (extra: Partial<PresentationExpectation> = {}): PresentationExpectation => ({
  nonce: 'n-1',
  audience: AUD,
  vctValues: [VCT],
  requestedClaims: requested('first_name', 'age'),
  rules: [],
  ...extra,
});

async function present(
  options: { disclose?: string[]; nonce?: string; audience?: string; iat?: number; signer?: JwsSigner } = {},
  issueExtra: Partial<Parameters<typeof issueSdJwtVc>[0]> = {},
) {
  const credential = await issueSdJwtVc({
    signer: issuer.signer,
    header: {},
    issuer: ISS,
    vct: VCT,
    holderJwk: holder.publicJwk,
    claims,
    status: { idx: 2, uri: STATUS_URI },
    ...issueExtra,
  });
  return presentSdJwtVc(credential, {
    disclose: options.disclose ?? ['first_name', 'age'],
    keyBinding: {
      signer: options.signer ?? holder.signer,
      audience: options.audience ?? AUD,
      nonce: options.nonce ?? 'n-1',
      ...(options.iat ? { issuedAt: options.iat } : {}),
    },
  });
}

const failed = (checks: { code: string; passed: boolean }[]) => checks.filter((c) => !c.passed).map((c) => c.code);

describe('verifySdJwtPresentation', () => {
  it('verifies a good presentation and records every check', async () => {
    revoked = [];
    const result = await verifySdJwtPresentation(await present(), expectation(), deps);
    expect(result.verified).toBe(true);
    expect(result.claims).toEqual({ first_name: 'Ada', age: 36 });
    expect(result.issuer).toBe(ISS);
    expect(result.admission).toEqual(admitted);
    expect(result.binding?.source).toBe('metadata');
    expect(result.checks.map((c) => c.code)).toEqual([
      'ISSUER_SIGNATURE',
      'TRUSTED_ISSUER',
      'CREDENTIAL_TYPE',
      'EXPIRY',
      'STATUS',
      'KEY_BINDING',
      'NONCE',
      'AUDIENCE',
      'FRESHNESS',
      'CLAIMS_DISCLOSED',
    ]);
  });

  it('fails STATUS for a revoked credential', async () => {
    revoked = [2];
    const result = await verifySdJwtPresentation(await present(), expectation(), deps);
    revoked = [];
    expect(result.verified).toBe(false);
    expect(failed(result.checks)).toEqual(['STATUS']);
    expect(result.checks.find((c) => c.code === 'STATUS')?.detail).toMatch(/revoked/);
  });

  it('fails NONCE, AUDIENCE and FRESHNESS each on their own', async () => {
    expect(
      failed((await verifySdJwtPresentation(await present({ nonce: 'other' }), expectation(), deps)).checks),
    ).toEqual(['NONCE']);
    expect(
      failed((await verifySdJwtPresentation(await present({ audience: 'x509_hash:zzz' }), expectation(), deps)).checks),
    ).toEqual(['AUDIENCE']);
    const old = Math.floor(Date.now() / 1000) - 3600;
    expect(failed((await verifySdJwtPresentation(await present({ iat: old }), expectation(), deps)).checks)).toEqual([
      'FRESHNESS',
    ]);
  });

  it('fails KEY_BINDING when another key signs it, or when it is missing', async () => {
    const wrong = await present({ signer: stranger.signer });
    expect(failed((await verifySdJwtPresentation(wrong, expectation(), deps)).checks)).toEqual(['KEY_BINDING']);
    const noKb = `${wrong.slice(0, wrong.lastIndexOf('~'))}~`;
    expect(failed((await verifySdJwtPresentation(noKb, expectation(), deps)).checks)).toContain('KEY_BINDING');
  });

  it('fails ISSUER_SIGNATURE for a tampered disclosure and stops there', async () => {
    const good = await present();
    const parts = good.split('~');
    const disclosure = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as unknown[];
    disclosure[2] = typeof disclosure[2] === 'number' ? 99 : 'Eve';
    parts[1] = Buffer.from(JSON.stringify(disclosure)).toString('base64url');
    const result = await verifySdJwtPresentation(parts.join('~'), expectation(), deps);
    expect(result.checks).toEqual([
      {
        code: 'ISSUER_SIGNATURE',
        passed: false,
        detail: `Claims to be from ${ISS}: A disclosure is not covered by the issuer signature`,
      },
    ]);
    expect(result.verified).toBe(false);
    expect(result.claims).toEqual({});
  });

  it('fails ISSUER_SIGNATURE when signed by a key other than the issuer’s', async () => {
    const result = await verifySdJwtPresentation(await present({}, { signer: stranger.signer }), expectation(), deps);
    expect(failed(result.checks)).toEqual(['ISSUER_SIGNATURE']);
  });

  it('fails EXPIRY, CREDENTIAL_TYPE and CLAIMS_DISCLOSED', async () => {
    const expired = await present({}, { expiresAt: Math.floor(Date.now() / 1000) - 7200 });
    expect(failed((await verifySdJwtPresentation(expired, expectation(), deps)).checks)).toEqual(['EXPIRY']);
    const other = await present({}, { vct: 'https://elsewhere/vct/x' });
    expect(failed((await verifySdJwtPresentation(other, expectation(), deps)).checks)).toEqual(['CREDENTIAL_TYPE']);
    const fewer = await present({ disclose: ['first_name'] });
    expect(failed((await verifySdJwtPresentation(fewer, expectation(), deps)).checks)).toEqual(['CLAIMS_DISCLOSED']);
  });

  it('fails ISSUER_SIGNATURE and stops when no key of the issuer can be established', async () => {
    const unbound = {
      ...deps,
      bindIssuerKey: async () => {
        throw new Error('the kid names did:jwk:…, not the issuer');
      },
    };
    const result = await verifySdJwtPresentation(await present(), expectation(), unbound);
    expect(result.checks).toEqual([
      { code: 'ISSUER_SIGNATURE', passed: false, detail: expect.stringMatching(/^Claims to be from .*not the issuer/) },
    ]);
    // The issuer it names is not recorded as its issuer.
    expect(result).toMatchObject({ verified: false, claims: {}, issuer: null });
  });

  it('fails TRUSTED_ISSUER with the policy’s reason, and CREDENTIAL_TYPE when the type is not the issuer’s', async () => {
    const refused = {
      admitted: false,
      reason: 'NOT_A_PLATFORM_ISSUER',
      detail: 'Refused: not an organization of this platform',
    };
    const policy = { ...deps, admitIssuer: async () => ({ issuer: refused, type: { passed: true } }) };
    const result = await verifySdJwtPresentation(await present(), expectation(), policy);
    expect(failed(result.checks)).toEqual(['TRUSTED_ISSUER']);
    expect(result.checks.find((c) => c.code === 'TRUSTED_ISSUER')?.detail).toBe(refused.detail);
    expect(result.admission).toEqual(refused);
    const typeOfAnother = {
      ...deps,
      admitIssuer: async () => ({
        issuer: admitted,
        type: { passed: false, detail: 'Only its organization issues this type' },
      }),
    };
    const typed = await verifySdJwtPresentation(await present(), expectation(), typeOfAnother);
    expect(failed(typed.checks)).toEqual(['CREDENTIAL_TYPE']);
    expect(typed.checks.find((c) => c.code === 'CREDENTIAL_TYPE')?.detail).toMatch(/Only its organization/);
  });

  it('keeps no claims and evaluates no rule when the key binding fails', async () => {
    const rules: PresentationRule[] = [{ attribute: 'age', type: 'NUMBER', operator: 'BIGGER', value: '18' }];
    const replayed = await verifySdJwtPresentation(await present({ nonce: 'stolen' }), expectation({ rules }), deps);
    expect(replayed.claims).toEqual({});
    expect(replayed.checks.find((c) => c.code === 'RULE')).toMatchObject({ passed: false, rule: { presented: null } });
    const good = await verifySdJwtPresentation(await present(), expectation({ rules }), deps);
    expect(good.checks.find((c) => c.code === 'RULE')).toMatchObject({ passed: true, rule: { presented: 36 } });
  });

  it('reads requested claims by path, and keeps only those', async () => {
    const result = await verifySdJwtPresentation(
      await present({ disclose: ['first_name', 'age', 'email'] }),
      expectation({ requestedClaims: [{ name: 'given', path: ['first_name'] }] }),
      deps,
    );
    expect(result.claims).toEqual({ given: 'Ada' });
    expect(claimAtPath({ a: { b: [1, { c: 2 }] } }, ['a', 'b', 1, 'c'])).toBe(2);
    expect(claimAtPath({ a: [1, 2] }, ['a', null])).toEqual([1, 2]);
    expect(claimAtPath({ a: 'x' }, ['a', 'b'])).toBeUndefined();
  });

  it('answers RESPONSE_FORMAT for something that is not an SD-JWT', async () => {
    const result = await verifySdJwtPresentation('not-a-credential', expectation(), deps);
    expect(result).toMatchObject({ verified: false, checks: [{ code: 'RESPONSE_FORMAT', passed: false }] });
  });

  it('fails STATUS when the status list cannot be fetched', async () => {
    const broken = {
      ...deps,
      fetchStatusListToken: async () => {
        throw new Error('HTTP 503');
      },
    };
    const result = await verifySdJwtPresentation(await present(), expectation(), broken);
    expect(result.checks.find((c) => c.code === 'STATUS')).toMatchObject({ passed: false, detail: /HTTP 503/ });
  });
});

describe('rules by attribute type', () => {
  const rule = (
    attribute: string,
    type: PresentationRule['type'],
    operator: PresentationRule['operator'],
    value: string,
  ) => evaluateRule({ attribute, type, operator, value }, claims).passed;
  it.each([
    ['age', 'NUMBER', 'EQUAL', '36', true],
    ['age', 'NUMBER', 'EQUAL', '36.0', true],
    ['age', 'NUMBER', 'NOT', '36', false],
    ['age', 'NUMBER', 'BIGGER', '18', true],
    ['age', 'NUMBER', 'BIGGER', '100', false],
    ['age', 'NUMBER', 'SMALLER', '9', false],
    ['joined', 'DATETIME', 'BIGGER', '2019-12-31', true],
    ['joined', 'DATETIME', 'SMALLER', '2020-01-01T00:00:00Z', false],
    ['member', 'BOOLEAN', 'EQUAL', 'true', true],
    ['member', 'BOOLEAN', 'NOT', 'true', false],
    ['email', 'EMAIL', 'EQUAL', 'ADA@example.com', true],
    ['first_name', 'TEXT', 'NOT', 'Eve', true],
    ['first_name', 'TEXT', 'EQUAL', 'Eve', false],
  ] as const)('%s %s %s %s → %s', (attribute, type, operator, value, expected) => {
    expect(rule(attribute, type, operator, value)).toBe(expected);
  });

  it('fails a rule on an undisclosed claim, recording what was presented', () => {
    expect(evaluateRule({ attribute: 'missing', type: 'TEXT', operator: 'EQUAL', value: 'x' }, claims)).toMatchObject({
      passed: false,
      rule: { presented: null },
    });
    expect(evaluateRule({ attribute: 'age', type: 'NUMBER', operator: 'SMALLER', value: '18' }, claims)).toEqual({
      code: 'RULE',
      passed: false,
      rule: { attribute: 'age', operator: 'SMALLER', value: '18', presented: 36 },
    });
  });
});

describe('DCQL', () => {
  const query = buildDcqlQuery({ id: 'membership', vctValues: [VCT], claims: ['first_name', 'age'] });
  it('builds a dc+sd-jwt query with vct_values and claim paths', () => {
    expect(query).toEqual({
      credentials: [
        {
          id: 'membership',
          format: 'dc+sd-jwt',
          meta: { vct_values: [VCT] },
          claims: [{ path: ['first_name'] }, { path: ['age'] }],
        },
      ],
    });
  });
});
