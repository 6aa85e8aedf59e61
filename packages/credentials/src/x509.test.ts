import { describe, expect, it } from 'vitest';
import { generateEs256KeyPair } from './jws.ts';
import { createCaCertificate, issueLeafCertificate, pemToX5c, verifyX5cChain, x509Hash } from './x509.ts';

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
      uris: ['https://issuer.example/orgs/7'],
      dnsNames: ['issuer.example'],
    });
    const x5c = pemToX5c([leafPem, caPem]);
    const verified = await verifyX5cChain(x5c, [caPem]);
    expect(verified.leafJwk).toEqual(orgKeys.publicJwk);
    expect(verified.uris).toEqual(['https://issuer.example/orgs/7']);
    expect(verified.subject).toContain('CN=Acme University');
    // Leaf alone, anchored by the CA, also verifies.
    expect((await verifyX5cChain(pemToX5c([leafPem]), [caPem])).leafJwk).toEqual(orgKeys.publicJwk);

    const otherCa = await createCaCertificate({ commonName: 'Other CA', ...(await generateEs256KeyPair()) });
    await expect(verifyX5cChain(x5c, [otherCa])).rejects.toThrow(/trusted/);
    await expect(verifyX5cChain(x5c, [caPem], new Date(Date.now() + 3 * 365 * 86_400_000))).rejects.toThrow(/valid/);
    expect(await x509Hash(x5c[0]!)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
