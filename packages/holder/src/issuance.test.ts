import { decodeJwt, generateEs256KeyPair, issueSdJwtVc, signerFromPrivateJwk } from '@cp/credentials';
import { CompactEncrypt, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { allowHttpUrls, createHolderKey, type HolderKey } from './callbacks.ts';
import { parseCredentialOfferLink, receiveCredential, requestCredential, resolveCredentialOffer } from './issuance.ts';
import { json, type Route, routerFetch, text } from './test-support.ts';

const ISSUER = 'https://issuer.example/tenant';
const VCT = 'https://issuer.example/vct/diploma';
const PRE = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

const offer = (grant: Record<string, unknown> = {}) => ({
  credential_issuer: ISSUER,
  credential_configuration_ids: ['diploma'],
  grants: { [PRE]: { 'pre-authorized_code': 'code-1', ...grant } },
});
const byValue = (value: unknown) =>
  `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(value))}`;

let holder: HolderKey;
let issuerSigner: Awaited<ReturnType<typeof signerFromPrivateJwk>>;
beforeAll(async () => {
  holder = await createHolderKey();
  issuerSigner = await signerFromPrivateJwk((await generateEs256KeyPair()).privateJwk);
});

/** An OpenID4VCI 1.0 issuer on a path (its own authorization server), with a nonce endpoint. */
function issuer(
  overrides: Record<string, Route> = {},
  options: {
    bindTo?: JsonWebKey;
    metadata?: Record<string, unknown>;
    encryptTo?: (asked: JWK) => Promise<JWK>;
    /** A batch issuer's choice of keys (default: each proof's own). */
    bindEach?: (proven: JsonWebKey[]) => JsonWebKey[];
    requests?: Record<string, unknown>[];
  } = {},
) {
  let nonces = 0;
  return routerFetch({
    'https://issuer.example/.well-known/openid-credential-issuer/tenant': () =>
      json({
        credential_issuer: ISSUER,
        credential_endpoint: `${ISSUER}/credential`,
        nonce_endpoint: `${ISSUER}/nonce`,
        credential_configurations_supported: {
          diploma: {
            format: 'dc+sd-jwt',
            vct: VCT,
            proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
            credential_metadata: { display: [{ name: 'Diploma', locale: 'en' }] },
          },
        },
        ...options.metadata,
      }),
    'https://issuer.example/.well-known/oauth-authorization-server/tenant': () =>
      json({ issuer: ISSUER, token_endpoint: `${ISSUER}/token` }),
    [`POST ${ISSUER}/token`]: () => json({ access_token: 'at-1', token_type: 'Bearer' }),
    [`POST ${ISSUER}/nonce`]: () => json({ c_nonce: `nonce-${++nonces}` }),
    [`POST ${ISSUER}/credential`]: async ({ body, headers }) => {
      if (headers.get('authorization') !== 'Bearer at-1') return json({ error: 'invalid_token' }, 401);
      const request = JSON.parse(body);
      options.requests?.push(request);
      const proven = (request.proofs.jwt as string[]).map((jwt) => decodeJwt(jwt).header.jwk as JsonWebKey);
      const bound = options.bindEach ? options.bindEach(proven) : proven.map((jwk) => options.bindTo ?? jwk);
      const credentials = await Promise.all(
        bound.map(async (holderJwk, i) => ({
          credential: await issueSdJwtVc({
            signer: issuerSigner,
            header: {},
            issuer: ISSUER,
            vct: VCT,
            holderJwk,
            claims: { full_name: 'Ada Lovelace' },
            status: { idx: 3 + i, uri: `${ISSUER}/status/1` },
          }),
        })),
      );
      const credential = credentials[0]!.credential;
      const asked = request.credential_response_encryption as { jwk: JWK; enc: string } | undefined;
      if (!asked) return json({ credentials });
      // OpenID4VCI 1.0 §8.3: a JWE to the request's key (or, for an attacker's test, to another one).
      const to = options.encryptTo ? await options.encryptTo(asked.jwk) : asked.jwk;
      const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ credentials: [{ credential }] })))
        .setProtectedHeader({ alg: 'ECDH-ES', enc: asked.enc })
        .encrypt(await importJWK(to, 'ECDH-ES'));
      return text(jwe, 'application/jwt');
    },
    ...overrides,
  });
}

describe('parseCredentialOfferLink', () => {
  it('reads offers by value and by reference, in custom-scheme, https and wrapping links, and raw JSON', () => {
    expect(parseCredentialOfferLink(byValue(offer())).offer).toEqual(offer());
    expect(parseCredentialOfferLink(JSON.stringify(offer())).offer).toEqual(offer());
    const byReference = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ISSUER}/offers/1`)}`;
    expect(parseCredentialOfferLink(byReference)).toEqual({ offerUri: `${ISSUER}/offers/1` });
    expect(parseCredentialOfferLink(`https://wallet.example/receive?offer=${encodeURIComponent(byReference)}`)).toEqual(
      {
        offerUri: `${ISSUER}/offers/1`,
      },
    );
    for (const bad of [
      'hello',
      'openid-credential-offer://?credential_offer=%7Bnot-json',
      'openid-credential-offer://?x=1',
    ]) {
      expect(() => parseCredentialOfferLink(bad)).toThrow(expect.objectContaining({ code: 'OFFER_INVALID' }));
    }
  });

  it('follows plain http only while allowHttpUrls is on (development)', async () => {
    const local = 'http://localhost:3000/tenant';
    const byReference = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${local}/offers/1`)}`;
    const { fetch, calls } = routerFetch({
      'http://localhost:3000/.well-known/openid-credential-issuer/tenant': () =>
        json({
          credential_issuer: local,
          credential_endpoint: `${local}/credential`,
          credential_configurations_supported: { diploma: { format: 'dc+sd-jwt', vct: VCT } },
        }),
      'http://localhost:3000/.well-known/oauth-authorization-server/tenant': () =>
        json({ issuer: local, token_endpoint: `${local}/token` }),
    });
    const localOffer = byValue({ ...offer(), credential_issuer: local });
    expect(() => parseCredentialOfferLink(byReference)).toThrow(expect.objectContaining({ code: 'OFFER_INVALID' }));
    await expect(resolveCredentialOffer(localOffer, { fetch })).rejects.toMatchObject({ code: 'OFFER_INVALID' });
    expect(calls).toEqual([]);
    allowHttpUrls(true);
    try {
      expect(parseCredentialOfferLink(byReference)).toEqual({ offerUri: `${local}/offers/1` });
      expect(await resolveCredentialOffer(localOffer, { fetch })).toMatchObject({ configurationId: 'diploma' });
    } finally {
      allowHttpUrls(false);
    }
  });
});

describe('resolveCredentialOffer', () => {
  it('resolves an offer by reference, the issuer metadata and the transaction code asked for', async () => {
    const { fetch } = issuer({
      [`${ISSUER}/offers/1`]: () => json(offer({ tx_code: { length: 4, input_mode: 'numeric', description: 'PIN' } })),
    });
    const issuance = await resolveCredentialOffer(
      `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ISSUER}/offers/1`)}`,
      { fetch },
    );
    expect(issuance).toMatchObject({
      configurationId: 'diploma',
      configuration: { format: 'dc+sd-jwt', vct: VCT },
      txCode: { length: 4, inputMode: 'numeric', description: 'PIN' },
    });
    expect(issuance.issuerMetadata.authorizationServers[0]?.token_endpoint).toBe(`${ISSUER}/token`);
    // Plain data: a wallet keeps it in its screen state.
    expect(structuredClone(issuance)).toEqual(issuance);
  });

  it('says why it cannot: gone (404), no pre-authorized code (unless the authorization code flow is allowed), unknown configuration, unreachable', async () => {
    const { fetch } = issuer();
    const gone = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ISSUER}/offers/gone`)}`;
    await expect(resolveCredentialOffer(gone, { fetch })).rejects.toMatchObject({ code: 'OFFER_EXPIRED' });
    const authorizationCode = { ...offer(), grants: { authorization_code: { issuer_state: 's' } } };
    await expect(resolveCredentialOffer(byValue(authorizationCode), { fetch })).rejects.toMatchObject({
      code: 'OFFER_UNSUPPORTED',
    });
    // A holder that can run the authorization code flow (a browser step) takes it, with its issuer_state.
    const accepted = await resolveCredentialOffer(byValue(authorizationCode), { fetch }, { authorizationCode: true });
    expect(accepted.offer.grants?.authorization_code?.issuer_state).toBe('s');
    expect(accepted.txCode).toBeUndefined();
    await expect(
      resolveCredentialOffer(byValue({ ...offer(), credential_configuration_ids: ['ghost'] }), { fetch }),
    ).rejects.toMatchObject({ code: 'OFFER_INVALID' });
    const down = (() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    await expect(resolveCredentialOffer(byValue(offer()), { fetch: down })).rejects.toMatchObject({
      code: 'ISSUER_UNREACHABLE',
    });
  });
});

describe('resolveCredentialOffer with a format', () => {
  const mdocMetadata = {
    credential_configurations_supported: {
      diploma: { format: 'dc+sd-jwt', vct: VCT },
      diploma_mdoc: { format: 'mso_mdoc', doctype: 'example.issuer.vct.diploma' },
    },
  };
  const both = byValue({ ...offer(), credential_configuration_ids: ['diploma', 'diploma_mdoc'] });

  it('picks the offered configuration of that format; the first (an SD-JWT VC) by default', async () => {
    const { fetch } = issuer({}, { metadata: mdocMetadata });
    expect((await resolveCredentialOffer(both, { fetch })).configurationId).toBe('diploma');
    const mdoc = await resolveCredentialOffer(both, { fetch }, { format: 'mso_mdoc' });
    expect(mdoc.configurationId).toBe('diploma_mdoc');
    // An mdoc configuration is not read as an SD-JWT VC.
    await expect(requestCredential(mdoc, { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'OFFER_UNSUPPORTED',
    });
  });

  it('refuses an offer without that format, and an mdoc-only offer by default', async () => {
    const { fetch } = issuer({}, { metadata: mdocMetadata });
    await expect(resolveCredentialOffer(byValue(offer()), { fetch }, { format: 'mso_mdoc' })).rejects.toMatchObject({
      code: 'OFFER_UNSUPPORTED',
    });
    const mdocOnly = byValue({ ...offer(), credential_configuration_ids: ['diploma_mdoc'] });
    await expect(resolveCredentialOffer(mdocOnly, { fetch })).rejects.toMatchObject({ code: 'OFFER_UNSUPPORTED' });
  });
});

describe('requestCredential', () => {
  it('token with the transaction code, nonce, key proof with the holder JWK, and a credential bound to it', async () => {
    const { fetch, calls } = issuer();
    const issuance = await resolveCredentialOffer(byValue(offer({ tx_code: {} })), { fetch });
    await expect(requestCredential(issuance, { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'PIN_REQUIRED',
    });
    const { credential, parsed } = await requestCredential(issuance, { key: holder, txCode: ' 1234 ' }, { fetch });

    const token = calls.find((c) => c.url === `${ISSUER}/token`)!;
    expect(Object.fromEntries(new URLSearchParams(token.body))).toMatchObject({
      grant_type: PRE,
      'pre-authorized_code': 'code-1',
      tx_code: '1234',
    });
    const request = JSON.parse(calls.find((c) => c.url === `${ISSUER}/credential`)!.body);
    expect(request.credential_configuration_id).toBe('diploma');
    const proof = decodeJwt(request.proofs.jwt[0]);
    expect(proof.header).toMatchObject({ typ: 'openid4vci-proof+jwt', alg: 'ES256', jwk: holder.publicJwk });
    expect(proof.payload).toMatchObject({ aud: ISSUER, nonce: 'nonce-1', iat: expect.any(Number) });
    expect(credential.split('~').length).toBeGreaterThan(1);
    expect(parsed).toMatchObject({
      vct: VCT,
      iss: ISSUER,
      claims: { full_name: 'Ada Lovelace' },
      holderJwk: holder.publicJwk,
      status: { uri: `${ISSUER}/status/1`, idx: 3 },
    });
  });

  it('tries once more with a fresh nonce when the issuer calls the first one stale', async () => {
    let attempts = 0;
    const base = issuer();
    const { fetch, calls } = issuer({
      [`POST ${ISSUER}/credential`]: async (request) => {
        if (++attempts === 1) return json({ error: 'invalid_nonce', error_description: 'stale' }, 400);
        return await base.fetch(request.url.href, { method: 'POST', body: request.body, headers: request.headers });
      },
    });
    const { parsed } = await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    expect(parsed.vct).toBe(VCT);
    const proofs = calls
      .filter((c) => c.url === `${ISSUER}/credential`)
      .map((c) => decodeJwt(JSON.parse(c.body).proofs.jwt[0]).payload.nonce);
    expect(proofs).toEqual(['nonce-1', 'nonce-2']);
  });

  it('maps token errors to what the holder can act on, and refuses a credential bound to another key', async () => {
    for (const [body, pin, code] of [
      [{ error: 'invalid_grant', error_description: 'The transaction code is wrong.' }, '1', 'PIN_WRONG'],
      [
        { error: 'invalid_grant', error_description: 'The pre-authorized code was already used.' },
        undefined,
        'OFFER_EXPIRED',
      ],
      [{ error: 'server_error' }, undefined, 'ISSUER_ERROR'],
    ] as const) {
      const { fetch } = issuer({ [`POST ${ISSUER}/token`]: () => json(body, 400) });
      const issuance = await resolveCredentialOffer(byValue(pin ? offer({ tx_code: {} }) : offer()), { fetch });
      await expect(
        requestCredential(issuance, { key: holder, ...(pin ? { txCode: pin } : {}) }, { fetch }),
      ).rejects.toMatchObject({ code, remote: { error: body.error } });
    }
    const someoneElse = await createHolderKey();
    const { fetch } = issuer({}, { bindTo: someoneElse.publicJwk });
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
  });
});

describe('requestCredential with DPoP (RFC 9449)', () => {
  const dpopAs = () =>
    json({ issuer: ISSUER, token_endpoint: `${ISSUER}/token`, dpop_signing_alg_values_supported: ['ES256'] });
  const sha256 = async (value: string) =>
    Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))).toString('base64url');

  /** An issuer that requires DPoP with server nonces, as the platform's does. */
  function dpopIssuer(tokenType = 'DPoP') {
    const base = issuer();
    return issuer({
      'https://issuer.example/.well-known/oauth-authorization-server/tenant': dpopAs,
      [`POST ${ISSUER}/token`]: ({ headers }) => {
        const proof = headers.get('dpop');
        if (!proof) return json({ error: 'invalid_dpop_proof' }, 400);
        if (decodeJwt(proof).payload.nonce !== 'server-nonce-1') {
          return new Response(JSON.stringify({ error: 'use_dpop_nonce' }), {
            status: 400,
            headers: { 'content-type': 'application/json', 'dpop-nonce': 'server-nonce-1' },
          });
        }
        return new Response(JSON.stringify({ access_token: 'at-1', token_type: tokenType }), {
          headers: { 'content-type': 'application/json', 'dpop-nonce': 'server-nonce-2' },
        });
      },
      [`POST ${ISSUER}/credential`]: async (request) => {
        if (request.headers.get('authorization') !== 'DPoP at-1') return json({ error: 'invalid_token' }, 401);
        const headers = new Headers(request.headers);
        headers.set('authorization', 'Bearer at-1');
        return base.fetch(request.url.href, { method: 'POST', body: request.body, headers });
      },
    });
  }

  it('binds the token to a key of its own, follows use_dpop_nonce, and proves the key with ath and the nonce', async () => {
    const { fetch, calls } = dpopIssuer();
    const { parsed } = await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    expect(parsed.holderJwk).toEqual(holder.publicJwk);
    const tokens = calls.filter((c) => c.url === `${ISSUER}/token`).map((c) => decodeJwt(c.headers.get('dpop')!));
    expect(tokens.map((proof) => proof.payload.nonce)).toEqual([undefined, 'server-nonce-1']);
    expect(tokens[0]!.payload).toMatchObject({ htm: 'POST', htu: `${ISSUER}/token` });
    const credential = calls.find((c) => c.url === `${ISSUER}/credential`)!;
    expect(credential.headers.get('authorization')).toBe('DPoP at-1');
    const proof = decodeJwt(credential.headers.get('dpop')!);
    expect(proof.header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
    expect(proof.payload).toMatchObject({
      htm: 'POST',
      htu: `${ISSUER}/credential`,
      nonce: 'server-nonce-2',
      ath: await sha256('at-1'),
    });
    // One DPoP key for the request, not the holder key (the issuer cannot link requests by it).
    expect(proof.header.jwk).toEqual(tokens[0]!.header.jwk);
    expect((proof.header.jwk as JsonWebKey).x).not.toBe(holder.publicJwk.x);
  });

  it('refuses an issuer that announces DPoP but hands out a Bearer token (a downgrade)', async () => {
    const { fetch } = dpopIssuer('Bearer');
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch })).rejects.toMatchObject({
      code: 'ISSUER_ERROR',
    });
  });

  it('sends no DPoP proof to an issuer that does not announce DPoP', async () => {
    const { fetch, calls } = issuer();
    await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    expect(calls.some((c) => c.headers.has('dpop'))).toBe(false);
  });
});

describe('credential response encryption', () => {
  const offered = (encryption: Record<string, unknown>) => ({
    metadata: { credential_response_encryption: encryption },
  });
  const ecdhEs = { alg_values_supported: ['ECDH-ES'], enc_values_supported: ['A256GCM'], encryption_required: false };

  it('asks with a one-time public key per request and reads the JWE', async () => {
    const { fetch, calls } = issuer({}, offered(ecdhEs));
    const { parsed } = await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    expect(parsed.claims).toEqual({ full_name: 'Ada Lovelace' });
    await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    const asked = calls
      .filter((c) => c.url === `${ISSUER}/credential`)
      .map((c) => JSON.parse(c.body).credential_response_encryption);
    expect(asked).toHaveLength(2);
    for (const one of asked) {
      expect(one.enc).toBe('A256GCM');
      expect(one.jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES', use: 'enc' });
      expect(one.jwk).not.toHaveProperty('d');
      expect(one.jwk.x).not.toBe(holder.publicJwk.x);
    }
    expect(asked[0].jwk.x).not.toBe(asked[1].jwk.x);
  });

  it('refuses a plaintext answer, a JWE to another key, and an issuer requiring what it cannot do', async () => {
    const plain = issuer(
      {
        [`POST ${ISSUER}/credential`]: () => json({ credentials: [{ credential: 'a.b.c~' }] }),
      },
      offered(ecdhEs),
    );
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch: plain.fetch })).rejects.toMatchObject({
      code: 'ISSUER_ERROR',
      message: expect.stringMatching(/plaintext/),
    });
    const stranger = await exportJWK((await generateKeyPair('ECDH-ES', { crv: 'P-256' })).publicKey);
    const misdirected = issuer({}, { ...offered(ecdhEs), encryptTo: async () => stranger });
    await expect(
      receiveCredential(byValue(offer()), { key: holder }, { fetch: misdirected.fetch }),
    ).rejects.toMatchObject({ code: 'ISSUER_ERROR', message: expect.stringMatching(/cannot be decrypted/) });
    const rsaOnly = issuer(
      {},
      offered({ alg_values_supported: ['RSA-OAEP-256'], enc_values_supported: ['A256GCM'], encryption_required: true }),
    );
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch: rsaOnly.fetch })).rejects.toMatchObject({
      code: 'OFFER_UNSUPPORTED',
    });
    // Offered but not required, in a form it cannot read: a plain request.
    const optional = issuer({}, offered({ ...ecdhEs, enc_values_supported: ['A128CBC-HS256'] }));
    await receiveCredential(byValue(offer()), { key: holder }, { fetch: optional.fetch });
    const request = JSON.parse(optional.calls.find((c) => c.url === `${ISSUER}/credential`)!.body);
    expect(request).not.toHaveProperty('credential_response_encryption');
  });

  it('tries once more with a fresh nonce when the issuer calls the first one stale', async () => {
    let attempts = 0;
    const base = issuer({}, offered(ecdhEs));
    const { fetch, calls } = issuer(
      {
        [`POST ${ISSUER}/credential`]: async (request) => {
          if (++attempts === 1) return json({ error: 'invalid_nonce', error_description: 'stale' }, 400);
          return await base.fetch(request.url.href, { method: 'POST', body: request.body, headers: request.headers });
        },
      },
      offered(ecdhEs),
    );
    const { parsed } = await receiveCredential(byValue(offer()), { key: holder }, { fetch });
    expect(parsed.vct).toBe(VCT);
    // Each attempt with its own response key.
    const keys = calls
      .filter((c) => c.url === `${ISSUER}/credential`)
      .map((c) => JSON.parse(c.body).credential_response_encryption.jwk.x);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('batch issuance (OpenID4VCI 1.0 §8.2 proofs)', () => {
  const batchIssuer = (batchSize: number, more: Parameters<typeof issuer>[1] = {}) => {
    const requests: Record<string, unknown>[] = [];
    const fake = issuer({}, { metadata: { batch_credential_issuance: { batch_size: batchSize } }, requests, ...more });
    return { ...fake, requests };
  };
  const proofsOf = (request: Record<string, unknown> | undefined) =>
    ((request?.proofs as { jwt?: string[] } | undefined)?.jwt ?? []).map((jwt) => decodeJwt(jwt));
  const thumb = (jwk: unknown) => {
    const { crv, kty, x, y } = jwk as JsonWebKey;
    return JSON.stringify({ crv, kty, x, y });
  };

  it('asks for batch_size credentials, one fresh key each, one nonce; answers every instance with its key', async () => {
    const { fetch, requests } = batchIssuer(4);
    const made: HolderKey[] = [];
    const received = await receiveCredential(
      byValue(offer()),
      {
        key: holder,
        createKey: async () => {
          const key = await createHolderKey();
          made.push(key);
          return key;
        },
      },
      { fetch },
    );
    const proofs = proofsOf(requests[0]);
    expect(proofs).toHaveLength(4);
    expect(new Set(proofs.map((p) => thumb(p.header.jwk))).size).toBe(4);
    expect(new Set(proofs.map((p) => p.payload.nonce)).size).toBe(1);
    expect(made).toHaveLength(3);
    // The further keys are made concurrently: \`made\` is in the order they were ready, not asked for.
    const keys = received.instances.map((i) => i.key);
    expect(keys[0]).toBe(holder);
    expect(new Set(keys.slice(1))).toEqual(new Set(made));
    for (const instance of received.instances) {
      expect(thumb(instance.parsed.holderJwk)).toBe(thumb(instance.key.publicJwk));
    }
    expect(received.credential).toBe(received.instances[0]!.credential);
  });

  it('caps the batch with batchSize, and asks for one credential when the issuer announces no batch', async () => {
    const capped = batchIssuer(10);
    const two = await receiveCredential(byValue(offer()), { key: holder, batchSize: 2 }, { fetch: capped.fetch });
    expect(proofsOf(capped.requests[0])).toHaveLength(2);
    expect(two.instances).toHaveLength(2);
    const plain = batchIssuer(1);
    const one = await receiveCredential(byValue(offer()), { key: holder }, { fetch: plain.fetch });
    expect(proofsOf(plain.requests[0])).toHaveLength(1);
    expect(one.instances).toHaveLength(1);
  });

  it('refuses a batch whose instances are not bound to distinct keys of its own', async () => {
    const same = batchIssuer(3, { bindEach: (proven) => proven.map(() => proven[0]!) });
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch: same.fetch })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
    const stranger = (await createHolderKey()).publicJwk;
    const foreign = batchIssuer(3, { bindEach: (proven) => [proven[0]!, stranger, proven[2]!] });
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch: foreign.fetch })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
    const extra = batchIssuer(2, { bindEach: (proven) => [...proven, proven[1]!] });
    await expect(receiveCredential(byValue(offer()), { key: holder }, { fetch: extra.fetch })).rejects.toMatchObject({
      code: 'CREDENTIAL_INVALID',
    });
  });
});
