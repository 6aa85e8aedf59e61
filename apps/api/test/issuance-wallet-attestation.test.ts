import { randomUUID } from 'node:crypto';
import { generateEs256KeyPair, signerFromPrivateJwk, signJwt } from '@cp/credentials';
import { makeCertificate, type TestCertificate } from '@cp/credentials/testing';
import {
  createHolderKey,
  createKeyProof,
  type HolderKey,
  type Issuance,
  receiveCredential,
  requestNonce,
} from '@cp/holder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationChallenge } from '../src/modules/issuer/wallet-attestation.ts';
import { startTestApp, type TestApp } from './harness.ts';
import {
  buildIssuer,
  buildWalletProvider,
  epochSeconds,
  offerOf,
  signWalletAttestation,
  type TestIssuer,
} from './support/issuer.ts';
import { fetchOf, walletHttp } from './support/wallet.ts';

/**
 * Wallet attestation (OAuth 2.0 Attestation-Based Client Authentication) at the OpenID4VCI token endpoint, from an
 * attacker's side: one test per way of getting an access token with an attestation that no trusted wallet
 * provider vouches for, or with a proof of possession made by someone else, for someone else, or earlier. Each is
 * refused with `invalid_client` (a missing challenge with `use_attestation_challenge`), whatever the policy. A
 * valid attestation gets the token and the credential records which provider vouched for the wallet.
 */

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_ISSUER_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await t?.close();
});

/** A Client Attestation PoP JWT made by hand (draft-10: aud, jti, iat, challenge). */
async function pop(
  issuer: TestIssuer,
  key: HolderKey,
  options: { aud?: string; jti?: string; iat?: number; challenge?: string | null } = {},
) {
  const challenge = options.challenge === undefined ? await fetchChallenge(issuer) : options.challenge;
  const payload = {
    aud: options.aud ?? issuer.issuer,
    jti: options.jti ?? randomUUID(),
    iat: options.iat ?? epochSeconds(),
    ...(challenge === null ? {} : { challenge }),
  };
  return signJwt(key.signer, { typ: 'oauth-client-attestation-pop+jwt' }, payload);
}

async function fetchChallenge(issuer: TestIssuer): Promise<string> {
  const answer = await t.app.inject({ method: 'POST', url: `/orgs/${issuer.organizationId}/challenge` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().attestation_challenge;
}

function tokenRequest(
  issuer: TestIssuer,
  code: string,
  headers: { attestation?: string; pop?: string } = {},
  extra: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/orgs/${issuer.organizationId}/token`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(headers.attestation ? { 'oauth-client-attestation': headers.attestation } : {}),
      ...(headers.pop ? { 'oauth-client-attestation-pop': headers.pop } : {}),
    },
    payload: new URLSearchParams({
      grant_type: PRE_AUTHORIZED_GRANT,
      'pre-authorized_code': code,
      ...extra,
    }).toString(),
  });
}

async function expectInvalidClient(answer: Awaited<ReturnType<typeof tokenRequest>>, reason: RegExp) {
  expect(answer.statusCode, answer.body).toBe(401);
  expect(answer.json().error).toBe('invalid_client');
  expect(answer.json().error_description).toMatch(reason);
}

/** Claims the credential with the access token (a key proof of a fresh holder key). */
async function claim(issuer: TestIssuer, issuance: Issuance, accessToken: string) {
  const context = { fetch: fetchOf(t) };
  const holder = await createHolderKey();
  const cNonce = await requestNonce(issuance.issuerMetadata, undefined, context);
  const proof = await createKeyProof(issuance, holder, cNonce, context);
  const answer = await t.app.inject({
    method: 'POST',
    url: `/orgs/${issuer.organizationId}/credential`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    payload: { credential_configuration_id: issuance.configurationId, proofs: { jwt: [proof] } },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

async function credentialOf(issuer: TestIssuer, credentialId: string) {
  const answer = await t.app.inject({ url: `/api/credentials/${credentialId}`, headers: issuer.adminHeaders });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

describe('wallet attestation: metadata and challenges', () => {
  it('announces attest_jwt_client_auth, the challenge endpoint and ES256 in the authorization server metadata', async () => {
    const issuer = await buildIssuer(t, 'Attestation Metadata');
    const metadata = (
      await t.app.inject({ url: `/.well-known/oauth-authorization-server/orgs/${issuer.organizationId}` })
    ).json();
    expect(metadata).toMatchObject({
      token_endpoint_auth_methods_supported: ['none', 'attest_jwt_client_auth'],
      challenge_endpoint: `${issuer.issuer}/challenge`,
      client_attestation_signing_alg_values_supported: ['ES256'],
      client_attestation_pop_signing_alg_values_supported: ['ES256'],
    });
  });

  it('answers a fresh attestation_challenge, not cacheable; an unknown issuer answers 404', async () => {
    const issuer = await buildIssuer(t, 'Attestation Challenge');
    const answer = await t.app.inject({ method: 'POST', url: `/orgs/${issuer.organizationId}/challenge` });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json().attestation_challenge).toMatch(/^[0-9a-z]+\.[\w-]{22}$/);
    const unknown = await t.app.inject({ method: 'POST', url: `/orgs/${randomUUID()}/challenge` });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('wallet attestation at the token endpoint', () => {
  it('refuses a request without attestation when the policy requires it (invalid_client), leaving the code usable', async () => {
    const provider = await buildWalletProvider('Required Missing');
    const issuer = await buildIssuer(t, 'Attestation Required Missing', {
      policy: { wallet_attestation_required: true },
      providers: [provider.ca],
    });
    const { code } = await offerOf(t, issuer);
    await expectInvalidClient(await tokenRequest(issuer, code), /requires a wallet attestation/);
    // Half of the pair is refused too.
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, { attestation: await signWalletAttestation(provider.signer, instance) }),
      /go together/,
    );
    const retry = await tokenRequest(issuer, code, {
      attestation: await signWalletAttestation(provider.signer, instance),
      pop: await pop(issuer, instance),
    });
    expect(retry.statusCode, retry.body).toBe(200);
  });

  it('issues the token to an attestation chaining to a trusted provider CA and records the provider on the credential', async () => {
    const provider = await buildWalletProvider('Chained');
    const issuer = await buildIssuer(t, 'Attestation Required Valid', {
      policy: { wallet_attestation_required: true },
      providers: [provider.ca],
    });
    const { code, issuance, credentialId } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    const answer = await tokenRequest(issuer, code, {
      attestation: await signWalletAttestation(provider.signer, instance, {
        x5c: [provider.signer.b64, provider.ca.b64],
      }),
      pop: await pop(issuer, instance),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    await claim(issuer, issuance, answer.json().access_token);
    const credential = await credentialOf(issuer, credentialId);
    expect(credential.status).toBe('CLAIMED');
    expect(credential.wallet_attestation).toMatchObject({
      provider_name: `Provider ${provider.ca.subject}`,
      client_id: 'https://wallet.example',
      wallet_name: 'Example Wallet',
      certificate_subject: 'CN=Chained Attestation Signer',
    });
  });

  it('records a valid attestation when the policy does not require one (pinned signing certificate)', async () => {
    const signer = await makeCertificate({ subject: 'CN=Pinned Attestation Signer' });
    const issuer = await buildIssuer(t, 'Attestation Optional Valid', { providers: [signer] });
    const { code, issuance, credentialId } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    const answer = await tokenRequest(issuer, code, {
      attestation: await signWalletAttestation(signer, instance),
      pop: await pop(issuer, instance),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    await claim(issuer, issuance, answer.json().access_token);
    expect((await credentialOf(issuer, credentialId)).wallet_attestation).toMatchObject({
      provider_name: `Provider ${signer.subject}`,
    });
  });

  it('keeps issuing to wallets without attestation when the policy does not require one', async () => {
    const issuer = await buildIssuer(t, 'Attestation Optional Absent');
    const { code, issuance, credentialId } = await offerOf(t, issuer);
    const answer = await tokenRequest(issuer, code);
    expect(answer.statusCode, answer.body).toBe(200);
    await claim(issuer, issuance, answer.json().access_token);
    expect((await credentialOf(issuer, credentialId)).wallet_attestation).toBeNull();
  });

  it('refuses an attestation of an untrusted provider, even when the policy does not require one', async () => {
    const trusted = await buildWalletProvider('Trusted');
    const rogue = await buildWalletProvider('Rogue');
    const issuer = await buildIssuer(t, 'Attestation Untrusted', { providers: [trusted.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(rogue.signer, instance, { x5c: [rogue.signer.b64, rogue.ca.b64] }),
        pop: await pop(issuer, instance),
      }),
      /not of a wallet provider this issuer trusts/,
    );
  });

  it("refuses an attestation vouched for only by another organization's provider", async () => {
    const provider = await buildWalletProvider('Elsewhere');
    await buildIssuer(t, 'Attestation Provider Owner', { providers: [provider.ca] });
    const issuer = await buildIssuer(t, 'Attestation Provider Borrower', {
      policy: { wallet_attestation_required: true },
    });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance),
        pop: await pop(issuer, instance),
      }),
      /trusts no wallet provider/,
    );
  });

  it('refuses an expired attestation', async () => {
    const provider = await buildWalletProvider('Expired');
    const issuer = await buildIssuer(t, 'Attestation Expired', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance, { exp: epochSeconds() - 120 }),
        pop: await pop(issuer, instance),
      }),
      /expired/,
    );
  });

  it('refuses an attestation whose provider certificate has expired', async () => {
    const ca = await makeCertificate({ subject: 'CN=Short CA', ca: true });
    const signer = await makeCertificate({
      subject: 'CN=Expired Signer',
      issuer: ca,
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const issuer = await buildIssuer(t, 'Attestation Expired Certificate', { providers: [ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(signer, instance),
        pop: await pop(issuer, instance),
      }),
      /chain is not valid/,
    );
  });

  it('refuses an attestation signed by another key than its x5c certificate', async () => {
    const provider = await buildWalletProvider('Forged');
    const issuer = await buildIssuer(t, 'Attestation Forged', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    const attackerKey = (await generateEs256KeyPair()).privateJwk;
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance, { signWith: attackerKey }),
        pop: await pop(issuer, instance),
      }),
      /not by the key of its x5c certificate/,
    );
  });

  it('refuses an attestation whose sub is not the client_id of the request', async () => {
    const provider = await buildWalletProvider('Sub');
    const issuer = await buildIssuer(t, 'Attestation Sub', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(
        issuer,
        code,
        { attestation: await signWalletAttestation(provider.signer, instance), pop: await pop(issuer, instance) },
        { client_id: 'https://another-wallet.example' },
      ),
      /another client/,
    );
  });

  it('refuses a PoP signed by another key than the attestation cnf.jwk', async () => {
    const provider = await buildWalletProvider('Pop Key');
    const issuer = await buildIssuer(t, 'Attestation Pop Key', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    const thief = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance),
        pop: await pop(issuer, thief),
      }),
      /not signed by the wallet instance key/,
    );
  });

  it('refuses a PoP made for another issuer (aud)', async () => {
    const provider = await buildWalletProvider('Pop Aud');
    const issuer = await buildIssuer(t, 'Attestation Pop Aud', { providers: [provider.ca] });
    const other = await buildIssuer(t, 'Attestation Pop Aud Other', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance),
        pop: await pop(issuer, instance, { aud: other.issuer }),
      }),
      /another issuer/,
    );
  });

  it('refuses a PoP used twice (jti)', async () => {
    const provider = await buildWalletProvider('Pop Replay');
    const issuer = await buildIssuer(t, 'Attestation Pop Replay', { providers: [provider.ca] });
    const instance = await createHolderKey();
    const headers = {
      attestation: await signWalletAttestation(provider.signer, instance),
      pop: await pop(issuer, instance),
    };
    const first = await tokenRequest(issuer, (await offerOf(t, issuer)).code, headers);
    expect(first.statusCode, first.body).toBe(200);
    await expectInvalidClient(await tokenRequest(issuer, (await offerOf(t, issuer)).code, headers), /already used/);
  });

  it('refuses a stale PoP (iat) and one from the future', async () => {
    const provider = await buildWalletProvider('Pop Stale');
    const issuer = await buildIssuer(t, 'Attestation Pop Stale', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    for (const iat of [epochSeconds() - 600, epochSeconds() + 600]) {
      await expectInvalidClient(
        await tokenRequest(issuer, code, {
          attestation: await signWalletAttestation(provider.signer, instance),
          pop: await pop(issuer, instance, { iat }),
        }),
        /too old or from the future/,
      );
    }
  });

  it('answers a PoP without a challenge, with an expired one or another issuer’s with use_attestation_challenge', async () => {
    const provider = await buildWalletProvider('Pop Challenge');
    const issuer = await buildIssuer(t, 'Attestation Pop Challenge', { providers: [provider.ca] });
    const other = await buildIssuer(t, 'Attestation Pop Challenge Other');
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    const deps = { db: t.runtime.ctx.database.db, offerCodeKey: t.runtime.ctx.secrets.offerCodeKey };
    for (const challenge of [
      null,
      createAttestationChallenge(deps, issuer.organizationId, Date.now() - 10 * 60_000),
      await fetchChallenge(other),
      'forged.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const answer = await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance),
        pop: await pop(issuer, instance, { challenge }),
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().error).toBe('use_attestation_challenge');
      // A fresh challenge to retry with, as the draft asks.
      expect(String(answer.headers['oauth-client-attestation-challenge'])).toMatch(/^[0-9a-z]+\.[\w-]{22}$/);
    }
    // The retries did not use the code: a PoP with the challenge just given gets the token.
    const retry = await tokenRequest(issuer, code, {
      attestation: await signWalletAttestation(provider.signer, instance),
      pop: await pop(issuer, instance),
    });
    expect(retry.statusCode, retry.body).toBe(200);
  });

  it('refuses an attestation of another typ, and a PoP that is not one', async () => {
    const provider = await buildWalletProvider('Typ');
    const issuer = await buildIssuer(t, 'Attestation Typ', { providers: [provider.ca] });
    const { code } = await offerOf(t, issuer);
    const instance = await createHolderKey();
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance, { typ: 'JWT' }),
        pop: await pop(issuer, instance),
      }),
      /typ/,
    );
    await expectInvalidClient(
      await tokenRequest(issuer, code, {
        attestation: await signWalletAttestation(provider.signer, instance),
        pop: 'a.b',
      }),
      /PoP is not a compact JWT/,
    );
  });
});

/** A key attestation (OpenID4VCI 1.0 Appendix D.1) made by hand. */
async function keyAttestation(
  signer: TestCertificate,
  attested: JsonWebKey[],
  options: { exp?: number; nonce?: string } = {},
) {
  return signJwt(
    await signerFromPrivateJwk(signer.key.privateJwk),
    { typ: 'key-attestation+jwt', x5c: [signer.b64] },
    {
      iat: epochSeconds() - 60,
      exp: options.exp ?? epochSeconds() + 3600,
      attested_keys: attested,
      key_storage: ['iso_18045_high'],
      user_authentication: ['iso_18045_moderate'],
      ...(options.nonce ? { nonce: options.nonce } : {}),
    },
  );
}

/** Claims with a key proof of `holder` that carries `attestationJwt` in its header. */
async function claimWithKeyAttestation(issuer: TestIssuer, holder: HolderKey, attestationJwt: string) {
  const { code, issuance, credentialId } = await offerOf(t, issuer);
  const token = await tokenRequest(issuer, code);
  expect(token.statusCode, token.body).toBe(200);
  const cNonce = await requestNonce(issuance.issuerMetadata, undefined, { fetch: fetchOf(t) });
  const proof = await signJwt(
    holder.signer,
    { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk, key_attestation: attestationJwt },
    { aud: issuer.issuer, iat: epochSeconds(), nonce: cNonce },
  );
  const answer = await t.app.inject({
    method: 'POST',
    url: `/orgs/${issuer.organizationId}/credential`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.json().access_token}` },
    payload: { credential_configuration_id: issuance.configurationId, proofs: { jwt: [proof] } },
  });
  return { answer, credentialId };
}

describe('key attestations in key proofs', () => {
  it('records a key attestation of a trusted provider with the credential', async () => {
    const provider = await buildWalletProvider('Key Valid');
    const issuer = await buildIssuer(t, 'Key Attestation Valid', { providers: [provider.ca] });
    const holder = await createHolderKey();
    const { answer, credentialId } = await claimWithKeyAttestation(
      issuer,
      holder,
      await keyAttestation(provider.signer, [holder.publicJwk]),
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await credentialOf(issuer, credentialId)).key_attestation).toMatchObject({
      provider_name: `Provider ${provider.ca.subject}`,
      certificate_subject: 'CN=Key Valid Attestation Signer',
      key_storage: ['iso_18045_high'],
      user_authentication: ['iso_18045_moderate'],
    });
  });

  it('refuses a proof whose key is not among the attested keys (invalid_proof)', async () => {
    const provider = await buildWalletProvider('Key Other');
    const issuer = await buildIssuer(t, 'Key Attestation Other Key', { providers: [provider.ca] });
    const holder = await createHolderKey();
    const attestedElsewhere = await createHolderKey();
    const { answer, credentialId } = await claimWithKeyAttestation(
      issuer,
      holder,
      await keyAttestation(provider.signer, [attestedElsewhere.publicJwk]),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error).toBe('invalid_proof');
    expect((await credentialOf(issuer, credentialId)).status).not.toBe('CLAIMED');
  });

  it('refuses a key attestation of an untrusted provider (invalid_proof), nothing claimed', async () => {
    const trusted = await buildWalletProvider('Key Trusted');
    const rogue = await buildWalletProvider('Key Rogue');
    const issuer = await buildIssuer(t, 'Key Attestation Untrusted', { providers: [trusted.ca] });
    const holder = await createHolderKey();
    const { answer, credentialId } = await claimWithKeyAttestation(
      issuer,
      holder,
      await keyAttestation(rogue.signer, [holder.publicJwk]),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json()).toMatchObject({ error: 'invalid_proof' });
    expect(answer.json().error_description).toMatch(/not of a wallet provider this issuer trusts/);
    const credential = await credentialOf(issuer, credentialId);
    expect(credential.status).not.toBe('CLAIMED');
    expect(credential.key_attestation).toBeNull();
  });

  it('refuses a key attestation made for another c_nonce (invalid_proof)', async () => {
    const provider = await buildWalletProvider('Key Nonce');
    const issuer = await buildIssuer(t, 'Key Attestation Nonce', { providers: [provider.ca] });
    const holder = await createHolderKey();
    const { answer } = await claimWithKeyAttestation(
      issuer,
      holder,
      await keyAttestation(provider.signer, [holder.publicJwk], { nonce: 'an-earlier-c-nonce' }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error).toBe('invalid_proof');
    expect(answer.json().error_description).toMatch(/nonce/);
  });

  it('refuses an expired key attestation (invalid_proof)', async () => {
    const provider = await buildWalletProvider('Key Expired');
    const issuer = await buildIssuer(t, 'Key Attestation Expired', { providers: [provider.ca] });
    const holder = await createHolderKey();
    const { answer } = await claimWithKeyAttestation(
      issuer,
      holder,
      await keyAttestation(provider.signer, [holder.publicJwk], { exp: epochSeconds() - 600 }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error).toBe('invalid_proof');
  });
});

describe('@cp/holder with a wallet attestation and a key attestation', () => {
  it('claims from an issuer that requires attestation: challenge fetched, PoP per request, both recorded', async () => {
    const provider = await buildWalletProvider('Holder Library');
    const issuer = await buildIssuer(t, 'Attestation Holder Library', {
      policy: { wallet_attestation_required: true },
      providers: [provider.ca],
    });
    const { credentialId } = await offerOf(t, issuer);
    // The offer above was resolved already; a second one is claimed through the library from its link.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: issuer.adminHeaders,
      payload: {
        credential: { name: 'Membership of Bo', schema_id: issuer.schemaId, claims: { full_name: 'Bo Li' } },
        recipient: { email: 'bo@example.com', first_name: 'Bo', last_name: 'Li' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = (await walletHttp(t)(`${t.config.publicUrl}/api/credentials/${created.json().id}/connect`)).json()
      .connection_url as string;
    const seen: { url: string; status: number; attestation: boolean }[] = [];
    const inner = fetchOf(t);
    const recording = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const response = await inner(input, init);
      const headers = new Headers(init.headers);
      seen.push({ url: String(input), status: response.status, attestation: headers.has('oauth-client-attestation') });
      return response;
    }) as typeof fetch;
    const instance = await createHolderKey();
    const holder = await createHolderKey();
    const { parsed } = await receiveCredential(
      link,
      {
        key: holder,
        walletAttestation: { attestation: await signWalletAttestation(provider.signer, instance), key: instance },
        keyAttestation: await keyAttestation(provider.signer, [holder.publicJwk]),
      },
      { fetch: recording },
    );
    expect(parsed.payload.cnf).toMatchObject({ jwk: { x: holder.publicJwk.x } });
    // Each token request (the first one is answered use_dpop_nonce: this issuer takes DPoP) carries the
    // attestation with a PoP of its own, made with a challenge fetched just before it.
    const calls = seen.map((c) => c.url.replace(issuer.issuer, ''));
    expect(calls.filter((c) => c === '/token').length).toBeGreaterThanOrEqual(1);
    calls.forEach((url, index) => {
      if (url === '/token') expect(calls[index - 1]).toBe('/challenge');
    });
    const tokenCalls = seen.filter((c) => c.url === `${issuer.issuer}/token`);
    expect(tokenCalls.every((c) => c.attestation)).toBe(true);
    expect(tokenCalls.at(-1)?.status).toBe(200);
    const credential = await credentialOf(issuer, created.json().id);
    expect(credential.wallet_attestation).toMatchObject({ provider_name: `Provider ${provider.ca.subject}` });
    expect(credential.key_attestation).toMatchObject({ key_storage: ['iso_18045_high'] });
    // The offer made first is untouched by all this.
    expect((await credentialOf(issuer, credentialId)).status).not.toBe('CLAIMED');
  });
});
