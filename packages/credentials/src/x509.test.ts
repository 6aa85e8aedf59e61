import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateEs256KeyPair } from './jws.ts';
import { makeCertificate, makeIssuerPki, type TestCertificate } from './testing/pki.ts';
import {
  CertificatePathError,
  cachedPathValidator,
  certificateNamesIssuer,
  createCaCertificate,
  describeCertificate,
  describeLeaf,
  issueLeafCertificate,
  pemToX5c,
  validateCertificationPath,
  validateSigningChain,
  x5cLeafJwk,
  x509Hash,
} from './x509.ts';

const ISS = 'https://issuer.example/orgs/7';

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(CertificatePathError);
  expect((error as CertificatePathError).code).toBe(code);
}

describe('platform CA and organization certificates', () => {
  it('issues a leaf that chains to the CA, and refuses another CA', async () => {
    const caKeys = await generateEs256KeyPair();
    const orgKeys = await generateEs256KeyPair();
    const caPem = await createCaCertificate({ commonName: 'Platform CA', ...caKeys });
    const leafPem = await issueLeafCertificate({
      subject: { commonName: 'Acme University', organization: 'Acme University' },
      publicJwk: orgKeys.publicJwk,
      caCertificatePem: caPem,
      caPrivateJwk: caKeys.privateJwk,
      uris: [ISS],
    });
    const x5c = pemToX5c([leafPem, caPem]);
    const path = await validateCertificationPath(x5c, [caPem]);
    expect(path.leafJwk).toEqual(orgKeys.publicJwk);
    expect(path.uris).toEqual([ISS]);
    expect(path.subject).toContain('CN=Acme University');
    expect(path.anchor.index).toBe(0);
    expect(path.anchor.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // Leaf alone, anchored by the CA, also validates.
    expect((await validateCertificationPath(pemToX5c([leafPem]), [caPem])).leafJwk).toEqual(orgKeys.publicJwk);

    const otherCa = await createCaCertificate({ commonName: 'Other CA', ...(await generateEs256KeyPair()) });
    await expectCode(validateCertificationPath(x5c, [otherCa]), 'CHAIN_UNTRUSTED');
    await expectCode(
      validateCertificationPath(x5c, [caPem], new Date(Date.now() + 3 * 365 * 86_400_000)),
      'CHAIN_NOT_VALID_NOW',
    );
    expect(await x509Hash(x5c[0]!)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("what is kept of a certificate (its key and hash, the last 256 certificates')", () => {
  it("answers each certificate's own key and hash, asked in turn, and a copy the caller may change", async () => {
    const caKeys = await generateEs256KeyPair();
    const caPem = await createCaCertificate({ commonName: 'Platform CA', ...caKeys });
    const leaves = await Promise.all(
      ['A', 'B'].map(async (name) => {
        const keys = await generateEs256KeyPair();
        const pem = await issueLeafCertificate({
          subject: { commonName: name, organization: name },
          publicJwk: keys.publicJwk,
          caCertificatePem: caPem,
          caPrivateJwk: caKeys.privateJwk,
          uris: [`${ISS}/${name}`],
        });
        const der = pemToX5c([pem])[0]!;
        const hash = Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.from(der, 'base64'))).toString(
          'base64url',
        );
        return { der, jwk: keys.publicJwk, hash };
      }),
    );
    for (let round = 0; round < 2; round++) {
      for (const leaf of leaves) {
        const jwk = await x5cLeafJwk([leaf.der]);
        expect(jwk).toEqual(leaf.jwk);
        expect(await x509Hash(leaf.der)).toBe(leaf.hash);
        jwk.x = 'changed by the caller';
      }
    }
    // Not a certificate: refused each time, never kept.
    for (let round = 0; round < 2; round++) {
      await expect(x5cLeafJwk(['bm90IGEgY2VydGlmaWNhdGU='])).rejects.toThrow();
      await expect(x5cLeafJwk([])).rejects.toThrow();
    }
  });
});

describe('certification path validation, as an attacker tries it', () => {
  let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
  beforeAll(async () => {
    pki = await makeIssuerPki(ISS);
  });

  it('accepts root → intermediate → leaf, and names the anchor it ends at', async () => {
    const other = await makeCertificate({ subject: 'CN=Unrelated Root', ca: true });
    const path = await validateCertificationPath(pki.x5c, [other.pem, pki.root.pem]);
    expect(path.anchor).toMatchObject({ index: 1, subject: 'CN=Test Root CA' });
    expect(path.length).toBe(3);
    expect(certificateNamesIssuer(path, ISS)).toBe(true);
  });

  it('refuses a leaf certificate used as a CA (an organization signing a certificate for another issuer)', async () => {
    const victim = 'https://issuer.example/orgs/8';
    const forged = await makeCertificate({ subject: 'CN=Forged', issuer: pki.leaf, uris: [victim] });
    await expectCode(
      validateCertificationPath([forged.b64, pki.leaf.b64, pki.intermediate.b64], [pki.root.pem]),
      'CHAIN_NOT_CA',
    );
  });

  it('refuses a CA without keyCertSign', async () => {
    const root = await makeCertificate({ subject: 'CN=Root', ca: true });
    const noCertSign = await makeCertificate({
      subject: 'CN=Signing-only CA',
      issuer: root,
      ca: true,
      keyUsage: x509.KeyUsageFlags.digitalSignature,
    });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: noCertSign, uris: [ISS] });
    await expectCode(validateCertificationPath([leaf.b64, noCertSign.b64], [root.pem]), 'CHAIN_KEY_USAGE');
  });

  it('refuses an intermediate CA without any key usage', async () => {
    const root = await makeCertificate({ subject: 'CN=Root', ca: true });
    const bare = await makeCertificate({ subject: 'CN=Bare CA', issuer: root, ca: true, keyUsage: 'none' });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: bare, uris: [ISS] });
    await expectCode(validateCertificationPath([leaf.b64, bare.b64], [root.pem]), 'CHAIN_KEY_USAGE');
  });

  it('refuses a path longer than a CA allows (pathLenConstraint)', async () => {
    const root = await makeCertificate({ subject: 'CN=Root', ca: { pathLength: 0 } });
    const intermediate = await makeCertificate({ subject: 'CN=Sub CA', issuer: root, ca: true });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: intermediate, uris: [ISS] });
    await expectCode(validateCertificationPath([leaf.b64, intermediate.b64], [root.pem]), 'CHAIN_PATH_LENGTH');
    // The same root may sign a leaf directly.
    const direct = await makeCertificate({ subject: 'CN=Direct', issuer: root, uris: [ISS] });
    await expect(validateCertificationPath([direct.b64], [root.pem])).resolves.toMatchObject({ length: 2 });
  });

  it('refuses an intermediate whose own pathLength forbids another CA below it', async () => {
    const deeper = await makeCertificate({ subject: 'CN=Third level', issuer: pki.intermediate, ca: true });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: deeper, uris: [ISS] });
    await expectCode(
      validateCertificationPath([leaf.b64, deeper.b64, pki.intermediate.b64], [pki.root.pem]),
      'CHAIN_PATH_LENGTH',
    );
  });

  it('refuses a CA certificate as the signing certificate', async () => {
    const caAsLeaf = await makeCertificate({
      subject: 'CN=CA as leaf',
      issuer: pki.intermediate,
      ca: true,
      uris: [ISS],
    });
    await expectCode(
      validateCertificationPath([caAsLeaf.b64, pki.intermediate.b64], [pki.root.pem]),
      'LEAF_NOT_FOR_SIGNING',
    );
  });

  it('refuses a leaf whose key usage does not allow signatures', async () => {
    const encipher = await makeCertificate({
      subject: 'CN=Key agreement only',
      issuer: pki.intermediate,
      keyUsage: x509.KeyUsageFlags.keyAgreement,
      uris: [ISS],
    });
    await expectCode(
      validateCertificationPath([encipher.b64, pki.intermediate.b64], [pki.root.pem]),
      'LEAF_NOT_FOR_SIGNING',
    );
  });

  it('refuses the trust anchor itself as the signing certificate', async () => {
    await expectCode(validateCertificationPath([pki.root.b64], [pki.root.pem]), 'LEAF_NOT_FOR_SIGNING');
  });

  it('refuses an expired intermediate and a not-yet-valid leaf', async () => {
    const expired = await makeCertificate({
      subject: 'CN=Expired CA',
      issuer: pki.root,
      ca: { pathLength: 0 },
      notBefore: new Date(Date.now() - 3 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: expired, uris: [ISS] });
    await expectCode(validateCertificationPath([leaf.b64, expired.b64], [pki.root.pem]), 'CHAIN_NOT_VALID_NOW');
    const future = await makeCertificate({
      subject: 'CN=Future',
      issuer: pki.intermediate,
      uris: [ISS],
      notBefore: new Date(Date.now() + 86_400_000),
    });
    await expectCode(
      validateCertificationPath([future.b64, pki.intermediate.b64], [pki.root.pem]),
      'CHAIN_NOT_VALID_NOW',
    );
  });

  it('refuses a certificate with an unprocessed critical extension', async () => {
    const odd = await makeCertificate({
      subject: 'CN=Odd',
      issuer: pki.intermediate,
      uris: [ISS],
      unknownCriticalExtension: true,
    });
    await expectCode(
      validateCertificationPath([odd.b64, pki.intermediate.b64], [pki.root.pem]),
      'CHAIN_CRITICAL_EXTENSION',
    );
  });

  it('refuses a chain whose intermediate is signed by another key under the same name', async () => {
    const impostorRoot = await makeCertificate({ subject: 'CN=Test Root CA', ca: true });
    const intermediate = await makeCertificate({ subject: 'CN=Test Issuing CA', issuer: impostorRoot, ca: true });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: intermediate, uris: [ISS] });
    await expectCode(validateCertificationPath([leaf.b64, intermediate.b64], [pki.root.pem]), 'CHAIN_UNTRUSTED');
  });

  it('refuses malformed x5c values', async () => {
    for (const value of [
      undefined,
      [],
      'abc',
      [42],
      ['not base64!'],
      Array(7).fill(pki.leaf.b64),
      [pki.leaf.b64, pki.leaf.b64],
    ]) {
      await expectCode(validateCertificationPath(value, [pki.root.pem]), 'CHAIN_MALFORMED');
    }
  });
});

describe('cachedPathValidator: a path kept only while every certificate of it is valid', () => {
  let pki: Awaited<ReturnType<typeof makeIssuerPki>>;
  beforeAll(async () => {
    pki = await makeIssuerPki(ISS);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const notAfter = (c: TestCertificate) => new x509.X509Certificate(c.pem).notAfter.getTime();
  const notBefore = (c: TestCertificate) => new x509.X509Certificate(c.pem).notBefore.getTime();

  it('answers a repeated chain from memory, with the window in which its whole path is valid', async () => {
    const validate = cachedPathValidator({ maxAgeMs: 60_000, max: 8 });
    const first = await validate(pki.x5c, [pki.root.pem]);
    expect(await validate(pki.x5c, [pki.root.pem])).toBe(first);
    const path = [pki.leaf, pki.intermediate, pki.root];
    expect(first.validUntil.getTime()).toBe(Math.min(...path.map(notAfter)));
    expect(first.validFrom.getTime()).toBe(Math.max(...path.map(notBefore)));
    // Other anchors are another question.
    const other = await makeCertificate({ subject: 'CN=Other Root', ca: true });
    await expectCode(validate(pki.x5c, [other.pem]), 'CHAIN_UNTRUSTED');
  });

  it('refuses a kept path once its leaf has expired, as a check without memory does', async () => {
    const now = Date.now();
    const shortLived = await makeCertificate({
      subject: 'CN=Short-lived',
      issuer: pki.intermediate,
      uris: [ISS],
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 30_000),
    });
    const chain = [shortLived.b64, pki.intermediate.b64];
    const validate = cachedPathValidator({ maxAgeMs: 10 * 60_000, max: 8 });
    expect((await validate(chain, [pki.root.pem])).subject).toBe('CN=Short-lived');
    // 45 s later: well within the memory's age, past the certificate's end.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now + 45_000);
    await expectCode(validate(chain, [pki.root.pem]), 'CHAIN_NOT_VALID_NOW');
    await expectCode(validate(chain, [pki.root.pem]), 'CHAIN_NOT_VALID_NOW');
  });

  it('computes a check of another moment, whatever it keeps', async () => {
    const validate = cachedPathValidator({ maxAgeMs: 60_000, max: 8 });
    await validate(pki.x5c, [pki.root.pem]);
    const beforeTheCertificates = new Date(Math.min(notBefore(pki.leaf), notBefore(pki.intermediate)) - 86_400_000);
    await expectCode(validate(pki.x5c, [pki.root.pem], beforeTheCertificates), 'CHAIN_NOT_VALID_NOW');
  });
});

describe('describeLeaf', () => {
  it('gives each caller its own copy of what it read of a certificate', async () => {
    const { leaf } = await makeIssuerPki(ISS);
    // The first answer is read from the certificate, the next ones from memory: each changed by its caller.
    for (const answer of [describeLeaf(leaf.b64), describeLeaf(leaf.b64)]) {
      answer.uris.push('https://attacker.example');
      answer.dnsNames.push('attacker.example');
      answer.notAfter.setFullYear(2999);
    }
    const again = describeLeaf(leaf.b64);
    expect(again.uris).toEqual([ISS]);
    expect(again.dnsNames).toEqual([]);
    expect(again.notAfter.getFullYear()).toBeLessThan(2999);
  });
});

describe('whose names a leaf speaks for', () => {
  it('a URI SAN speaks for that issuer only; a DNS SAN only for its host, and only without URIs', () => {
    expect(certificateNamesIssuer({ uris: [ISS], dnsNames: [] }, ISS)).toBe(true);
    expect(certificateNamesIssuer({ uris: [ISS], dnsNames: [] }, `${ISS}/`)).toBe(true);
    expect(certificateNamesIssuer({ uris: [ISS], dnsNames: [] }, 'https://issuer.example/orgs/8')).toBe(false);
    // A platform certificate naming its issuer URL and the shared host must not speak for the host's other issuers.
    expect(certificateNamesIssuer({ uris: [ISS], dnsNames: ['issuer.example'] }, 'https://issuer.example/orgs/8')).toBe(
      false,
    );
    expect(certificateNamesIssuer({ uris: [], dnsNames: ['issuer.example'] }, 'https://issuer.example/any')).toBe(true);
    expect(certificateNamesIssuer({ uris: [], dnsNames: ['issuer.example'] }, 'http://issuer.example/any')).toBe(false);
    expect(certificateNamesIssuer({ uris: [], dnsNames: ['issuer.example'] }, 'https://evil.example/any')).toBe(false);
    expect(certificateNamesIssuer({ uris: [], dnsNames: ['issuer.example'] }, 'did:web:issuer.example')).toBe(false);
  });

  it('property: a URI-named certificate speaks for exactly the issuers it names', () => {
    const issuer = fc.webUrl({ validSchemes: ['https'] }).filter((u) => !u.endsWith('/'));
    fc.assert(
      fc.property(
        fc.array(issuer, { minLength: 1, maxLength: 4 }),
        issuer,
        fc.array(fc.domain(), { maxLength: 3 }),
        (uris, iss, dnsNames) => {
          const named = certificateNamesIssuer({ uris, dnsNames }, iss);
          expect(named).toBe(uris.some((u) => u.replace(/\/+$/, '') === iss));
        },
      ),
    );
  });
});

describe('property: no certificate an attacker can make without a CA key leads to the anchor', () => {
  let root: TestCertificate;
  let intermediate: TestCertificate;
  let leaf: TestCertificate;
  beforeAll(async () => {
    ({ root, intermediate, leaf } = await makeIssuerPki(ISS));
  });

  it('any arrangement of valid, self-made and leaf-signed certificates validates only along the real path', async () => {
    const attackerRoot = await makeCertificate({ subject: 'CN=Test Root CA', ca: true });
    const attackerLeaf = await makeCertificate({ subject: 'CN=Attacker', issuer: attackerRoot, uris: [ISS] });
    const leafSigned = await makeCertificate({ subject: 'CN=Under a leaf', issuer: leaf, uris: [ISS] });
    const selfSigned = await makeCertificate({ subject: 'CN=Self', uris: [ISS] });
    const pool = { leaf, intermediate, root, attackerRoot, attackerLeaf, leafSigned, selfSigned };
    const names = Object.keys(pool) as (keyof typeof pool)[];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }), async (picked) => {
        const x5c = picked.map((name) => pool[name].b64);
        const result = await validateCertificationPath(x5c, [root.pem]).then(
          (path) => path,
          (err: unknown) => err,
        );
        // Only a chain whose first certificate is the genuine leaf (or the leaf alone with its CA) can pass.
        const mayPass =
          picked[0] === 'leaf' && picked.includes('intermediate') && new Set(picked).size === picked.length;
        if (!mayPass) expect(result).toBeInstanceOf(CertificatePathError);
        else expect(result).toMatchObject({ uris: [ISS], anchor: { index: 0 } });
      }),
      { numRuns: 60 },
    );
  });
});

describe('describeCertificate', () => {
  it('reads what an operator needs to decide on an anchor', async () => {
    const root = await makeCertificate({ subject: 'CN=Anchor', ca: true });
    const summary = await describeCertificate(root.pem);
    expect(summary).toMatchObject({ subject: 'CN=Anchor', isCa: true, canSignCertificates: true, selfSigned: true });
    const leaf = await makeCertificate({ subject: 'CN=Leaf', issuer: root });
    expect(await describeCertificate(leaf.pem)).toMatchObject({ isCa: false, selfSigned: false });
    await expect(describeCertificate('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).rejects.toThrow();
  });
});

describe('validateSigningChain: a CA anchors a path, an end-entity certificate is pinned', () => {
  it('accepts a chain to a trusted CA and names which trusted certificate it ends at', async () => {
    const other = await makeCertificate({ subject: 'CN=Other CA', ca: true });
    const ca = await makeCertificate({ subject: 'CN=Provider CA', ca: true });
    const leaf = await makeCertificate({ subject: 'CN=Provider Signer', issuer: ca });
    const path = await validateSigningChain([leaf.b64], [other.pem, ca.pem]);
    expect(path.anchor.index).toBe(1);
    expect(path.subject).toBe('CN=Provider Signer');
  });

  it('accepts the pinned signing certificate itself, and nothing it signed', async () => {
    const pinned = await makeCertificate({ subject: 'CN=Pinned Signer' });
    const path = await validateSigningChain([pinned.b64], [pinned.pem]);
    expect(path).toMatchObject({ length: 1, anchor: { index: 0 }, subject: 'CN=Pinned Signer' });
    // A certificate "issued" by a non-CA leaf is no path (the pinned leaf is not an anchor for others).
    const below = await makeCertificate({ subject: 'CN=Below', issuer: pinned });
    await expectCode(validateSigningChain([below.b64], [pinned.pem]), 'CHAIN_UNTRUSTED');
  });

  it('refuses a pinned certificate that is expired or may not sign, and a CA presented as the signer', async () => {
    const expired = await makeCertificate({
      subject: 'CN=Expired Signer',
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    await expectCode(validateSigningChain([expired.b64], [expired.pem]), 'CHAIN_NOT_VALID_NOW');
    const noSigning = await makeCertificate({ subject: 'CN=No Signing', keyUsage: x509.KeyUsageFlags.keyEncipherment });
    await expectCode(validateSigningChain([noSigning.b64], [noSigning.pem]), 'LEAF_NOT_FOR_SIGNING');
    const ca = await makeCertificate({ subject: 'CN=CA As Signer', ca: true });
    await expectCode(validateSigningChain([ca.b64], [ca.pem]), 'LEAF_NOT_FOR_SIGNING');
  });

  it('refuses a chain to an untrusted CA and a malformed x5c', async () => {
    const trusted = await makeCertificate({ subject: 'CN=Trusted CA', ca: true });
    const rogue = await makeCertificate({ subject: 'CN=Rogue CA', ca: true });
    const leaf = await makeCertificate({ subject: 'CN=Rogue Signer', issuer: rogue });
    await expectCode(validateSigningChain([leaf.b64, rogue.b64], [trusted.pem]), 'CHAIN_UNTRUSTED');
    await expectCode(validateSigningChain('not an array', [trusted.pem]), 'CHAIN_MALFORMED');
    await expectCode(validateSigningChain(['AAAA'], [trusted.pem]), 'CHAIN_MALFORMED');
  });
});
