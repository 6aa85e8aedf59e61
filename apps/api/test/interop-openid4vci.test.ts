import { createHash, randomBytes } from 'node:crypto';
import {
  base64url,
  bindIssuerKey,
  decodeSdJwtVc,
  generateEs256KeyPair,
  signerFromPrivateJwk,
  verifySdJwtVc,
} from '@cp/credentials';
import { clientAuthenticationNone, setGlobalConfig } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  // The test server speaks plain http on loopback; the library refuses that unless told.
  setGlobalConfig({ allowInsecureUrls: true });
  t = await startTestApp({ listen: true });
});
afterAll(async () => {
  setGlobalConfig({ allowInsecureUrls: false });
  await t?.close();
});

describe('interoperability with a third-party OpenID4VCI client (@openid4vc/openid4vci)', () => {
  it('resolves the offer, gets a token with the pre-authorized code, a nonce, and an SD-JWT VC', async () => {
    const {
      organization,
      schemaRecord: record,
      member,
    } = await buildVerifiedOrganization(t, 'Interop University', {
      name: 'Membership',
      attributes: [
        { name: 'member_name', type: 'TEXT' },
        { name: 'level', type: 'NUMBER' },
      ],
    });
    const headers = { ...member.auth, currentidentity: organization.id, 'content-type': 'application/json' };
    const created = await fetch(`${t.baseUrl}/api/credentials/with-recipient`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        credential: { name: 'Membership', schema_id: record.schema.id, claims: { member_name: 'Grace', level: 3 } },
        recipient: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
      }),
    }).then((r) => r.json());
    const connect = await fetch(`${t.baseUrl}/api/credentials/${created.id}/connect`).then((r) => r.json());

    const holder = await generateEs256KeyPair();
    const holderSigner = await signerFromPrivateJwk(holder.privateJwk);
    const client = new Openid4vciClient({
      callbacks: {
        fetch,
        // A wallet is a public client: the pre-authorized code grant needs no client authentication.
        clientAuthentication: clientAuthenticationNone({ clientId: 'interop-wallet' }),
        hash: (data, alg) => {
          if (alg !== 'sha-256') throw new Error(`unexpected hash ${alg}`);
          return new Uint8Array(createHash('sha256').update(data).digest());
        },
        generateRandom: (length) => new Uint8Array(randomBytes(length)),
        signJwt: async (signer, { header, payload }) => {
          const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
          const jwt = `${signingInput}.${await holderSigner.sign(signingInput)}`;
          return { jwt, signerJwk: signer.method === 'jwk' ? signer.publicJwk : (holder.publicJwk as never) };
        },
      },
    });

    const offer = await client.resolveCredentialOffer(connect.connection_url);
    const issuerMetadata = await client.resolveIssuerMetadata(offer.credential_issuer);
    const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer: offer,
      issuerMetadata,
    });
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const configurationId = offer.credential_configuration_ids[0]!;
    const { jwt } = await client.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId: configurationId,
      nonce: c_nonce,
      signer: { method: 'jwk', alg: 'ES256', publicJwk: holder.publicJwk as never },
    });
    const response = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: configurationId,
      proofs: { jwt: [jwt] },
    });
    const first = response.credentialResponse.credentials?.[0] as { credential: string } | undefined;
    expect(first).toBeDefined();
    const credential = first!.credential;
    const fetchJson = (url: string) => fetch(url).then((r) => r.json());
    // The key through the issuer's JWT VC Issuer Metadata (no trust anchor given: the x5c path cannot be used).
    const verified = await verifySdJwtVc(credential, {
      resolveIssuerKey: (h, p) => bindIssuerKey(h, p, { fetchJson, trustAnchors: [], allowHttp: () => true }),
    });
    expect(verified.claims).toMatchObject({ member_name: 'Grace', level: 3, cnf: { jwk: holder.publicJwk } });
    expect((await decodeSdJwtVc(credential)).header.typ).toBe('dc+sd-jwt');
  });
});
