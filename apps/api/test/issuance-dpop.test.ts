import { createHash, randomUUID } from 'node:crypto';
import { base64url } from '@cp/credentials';
import { schema } from '@cp/db';
import {
  createHolderKey,
  createKeyProof,
  type HolderKey,
  type Issuance,
  receiveCredential,
  requestNonce,
} from '@cp/holder';
import { eq } from 'drizzle-orm';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDpopNonce } from '../src/modules/issuer/dpop.ts';
import { startTestApp, type TestApp } from './harness.ts';
import { buildIssuer, offerOf, type TestIssuer } from './support/issuer.ts';
import { fetchOf } from './support/wallet.ts';

/**
 * DPoP (RFC 9449) at the OpenID4VCI token and credential endpoints, from an attacker's side: each way of getting
 * an access token or a credential without holding the bound key, or with a proof made for something else, is
 * refused with the standard error, and a nonce problem is answered with a fresh `DPoP-Nonce`. The holder's own
 * path (@cp/holder) goes through with DPoP, including the nonce retries.
 */

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_ISSUER_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await t?.close();
});

const nonceDeps = () => ({ db: t.runtime.ctx.database.db, offerCodeKey: t.runtime.ctx.secrets.offerCodeKey });

/** A DPoP proof made by hand (RFC 9449 §4.2), with every claim an attacker may want to choose. */
async function dpopProof(
  key: HolderKey,
  claims: { htm?: string; htu: string; nonce?: string; ath?: string; iat?: number; jti?: string },
  header: Record<string, unknown> = {},
) {
  const payload = {
    htm: claims.htm ?? 'POST',
    htu: claims.htu,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    jti: claims.jti ?? randomUUID(),
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    ...(claims.ath ? { ath: claims.ath } : {}),
  };
  const signingInput = `${base64url(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk, ...header }))}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${await key.signer.sign(signingInput)}`;
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
const thumbprint = (key: HolderKey) => calculateJwkThumbprint(key.publicJwk as JWK, 'sha256');

function tokenRequest(issuer: TestIssuer, code: string, dpop?: string, txCode?: string) {
  return t.app.inject({
    method: 'POST',
    url: new URL(issuer.tokenEndpoint).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
    payload: new URLSearchParams({
      grant_type: PRE_AUTHORIZED_GRANT,
      'pre-authorized_code': code,
      ...(txCode !== undefined ? { tx_code: txCode } : {}),
    }).toString(),
  });
}

/** The server nonce, asked for as a wallet does: a proof without one, answered `use_dpop_nonce`. */
async function serverNonce(issuer: TestIssuer, key: HolderKey) {
  const answer = await tokenRequest(issuer, 'no-such-code', await dpopProof(key, { htu: issuer.tokenEndpoint }));
  expect(answer.statusCode).toBe(400);
  expect(answer.json().error).toBe('use_dpop_nonce');
  return String(answer.headers['dpop-nonce']);
}

/** An access token bound to `key`, as a wallet gets it. */
async function boundToken(issuer: TestIssuer, key: HolderKey) {
  const { issuance, code } = await offerOf(t, issuer);
  const nonce = await serverNonce(issuer, key);
  const answer = await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }));
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json().token_type).toBe('DPoP');
  return { issuance, token: answer.json().access_token as string, nonce: String(answer.headers['dpop-nonce']) };
}

/** A credential request body with a valid key proof of `holder` (c_nonce from the nonce endpoint). */
async function credentialBody(issuance: Issuance, holder: HolderKey) {
  const context = { fetch: fetchOf(t) };
  const cNonce = await requestNonce(issuance.issuerMetadata, undefined, context);
  const proof = await createKeyProof(issuance, holder, cNonce, context);
  return { credential_configuration_id: issuance.configurationId, proofs: { jwt: [proof] } };
}

function credentialRequest(issuer: TestIssuer, body: object, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: new URL(issuer.credentialEndpoint).pathname,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

describe('DPoP metadata and the holder', () => {
  it('announces DPoP with ES256 in the authorization server metadata', async () => {
    const issuer = await buildIssuer(t, 'DPoP Metadata');
    const metadata = await t.app.inject({
      url: `/.well-known/oauth-authorization-server/orgs/${issuer.organizationId}`,
    });
    expect(metadata.json().dpop_signing_alg_values_supported).toEqual(['ES256']);
  });

  it('lets @cp/holder claim with DPoP from an issuer that requires it: bound token, proofs with the nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP Holder', { policy: { dpop_required: true } });
    const { link } = await offerOf(t, issuer);
    const seen: { url: string; authorization: string | null; dpop: string | null; status: number }[] = [];
    const inner = fetchOf(t);
    const recording = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const response = await inner(input, init);
      const headers = new Headers(init.headers);
      seen.push({
        url: String(input),
        authorization: headers.get('authorization'),
        dpop: headers.get('dpop'),
        status: response.status,
      });
      return response;
    }) as typeof fetch;
    const holder = await createHolderKey();
    const dpopKey = await createHolderKey();
    const { parsed } = await receiveCredential(link, { key: holder, dpopKey }, { fetch: recording });
    expect(parsed.payload.cnf).toMatchObject({ jwk: { x: holder.publicJwk.x } });
    const tokenCalls = seen.filter((c) => c.url === issuer.tokenEndpoint);
    // The first proof had no nonce (400 use_dpop_nonce), the second one had it.
    expect(tokenCalls.map((c) => c.status)).toEqual([400, 200]);
    expect(tokenCalls.every((c) => c.dpop)).toBe(true);
    // The credential request used the nonce given with the token: no retry, the DPoP scheme, a proof.
    const credentialCalls = seen.filter((c) => c.url === issuer.credentialEndpoint);
    expect(credentialCalls).toHaveLength(1);
    expect(credentialCalls[0]).toMatchObject({ status: 200 });
    expect(credentialCalls[0]!.authorization).toMatch(/^DPoP \S+\.\S{43}$/);
    const header = JSON.parse(Buffer.from(credentialCalls[0]!.dpop!.split('.')[0]!, 'base64url').toString());
    // The DPoP key is not the holder key (requests are not linkable by it).
    expect(header.jwk.x).toBe(dpopKey.publicJwk.x);
    expect(header.jwk.x).not.toBe(holder.publicJwk.x);
  });

  it('still issues Bearer tokens to a wallet without DPoP when the organization does not require it', async () => {
    const issuer = await buildIssuer(t, 'Bearer Still Works');
    const { issuance, code } = await offerOf(t, issuer);
    const answer = await tokenRequest(issuer, code);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().token_type).toBe('Bearer');
    expect(answer.json().access_token).not.toContain('.');
    const body = await credentialBody(issuance, await createHolderKey());
    const credential = await credentialRequest(issuer, body, { authorization: `Bearer ${answer.json().access_token}` });
    expect(credential.statusCode, credential.body).toBe(200);
  });
});

describe('DPoP at the token endpoint', () => {
  it('refuses a token request without a proof when the organization requires DPoP, leaving the code usable', async () => {
    const issuer = await buildIssuer(t, 'DPoP Required', { policy: { dpop_required: true } });
    const { code } = await offerOf(t, issuer);
    const answer = await tokenRequest(issuer, code);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('invalid_dpop_proof');
    expect(answer.headers['dpop-nonce']).toBeTruthy();
    // The refused request did not use the code up: the same code with a proof gets a bound token.
    const key = await createHolderKey();
    const retry = await tokenRequest(
      issuer,
      code,
      await dpopProof(key, { htu: issuer.tokenEndpoint, nonce: String(answer.headers['dpop-nonce']) }),
    );
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().token_type).toBe('DPoP');
    expect(retry.json().access_token.endsWith(`.${await thumbprint(key)}`)).toBe(true);
  });

  it('refuses a request with the right PIN but no proof when DPoP is required, without spending a PIN attempt', async () => {
    const issuer = await buildIssuer(t, 'DPoP Required PIN', { policy: { dpop_required: true } });
    const { code, txCode, credentialId } = await offerOf(t, issuer, { txCode: true });
    expect(txCode).toMatch(/^\d+$/);
    const attempts = async () =>
      (
        await t.runtime.ctx.database.db
          .select({ attempts: schema.credentialOffers.txCodeAttempts, redeemedAt: schema.credentialOffers.redeemedAt })
          .from(schema.credentialOffers)
          .where(eq(schema.credentialOffers.credentialId, credentialId))
      )[0]!;
    const answer = await tokenRequest(issuer, code, undefined, txCode);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('invalid_dpop_proof');
    expect(await attempts()).toEqual({ attempts: 0, redeemedAt: null });
    const key = await createHolderKey();
    const nonce = String(answer.headers['dpop-nonce']);
    const retry = await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }), txCode);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().token_type).toBe('DPoP');
  });

  it('refuses a request with a good proof but no wallet attestation when only the attestation is required', async () => {
    // What the request carries (DPoP) and what it lacks (attestation) are told apart: the demand it fails is named.
    const issuer = await buildIssuer(t, 'Attestation Required DPoP Sent', {
      policy: { wallet_attestation_required: true },
    });
    const { code, credentialId } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const nonce = await serverNonce(issuer, key);
    const answer = await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }));
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ error: 'invalid_client' });
    expect(answer.json().error_description).toMatch(/requires a wallet attestation/);
    const [offer] = await t.runtime.ctx.database.db
      .select({ redeemedAt: schema.credentialOffers.redeemedAt })
      .from(schema.credentialOffers)
      .where(eq(schema.credentialOffers.credentialId, credentialId));
    expect(offer).toEqual({ redeemedAt: null });
  });

  it('applies a policy changed to require DPoP to the next token request, and one relaxed again too', async () => {
    const issuer = await buildIssuer(t, 'DPoP Policy Changed');
    const setPolicy = async (dpopRequired: boolean) => {
      const changed = await t.app.inject({
        method: 'PUT',
        url: `/api/organizations/${issuer.organizationId}/issuer-policy`,
        headers: issuer.adminHeaders,
        payload: { dpop_required: dpopRequired, wallet_attestation_required: false },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    };
    expect((await tokenRequest(issuer, (await offerOf(t, issuer)).code)).statusCode).toBe(200);
    await setPolicy(true);
    const { code } = await offerOf(t, issuer);
    const refused = await tokenRequest(issuer, code);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_dpop_proof');
    await setPolicy(false);
    // The same code, unused by the refusal, now exchanged without a proof.
    const bearer = await tokenRequest(issuer, code);
    expect(bearer.statusCode, bearer.body).toBe(200);
    expect(bearer.json().token_type).toBe('Bearer');
  });

  it('answers a proof without a nonce with use_dpop_nonce and a fresh DPoP-Nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP No Nonce');
    const { code } = await offerOf(t, issuer);
    const answer = await tokenRequest(
      issuer,
      code,
      await dpopProof(await createHolderKey(), { htu: issuer.tokenEndpoint }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe('use_dpop_nonce');
    expect(String(answer.headers['dpop-nonce'])).toMatch(/^[0-9a-z]+\.[\w-]{22}$/);
  });

  it('answers a stale nonce, a forged one and another issuer’s with use_dpop_nonce and a fresh one', async () => {
    const issuer = await buildIssuer(t, 'DPoP Stale Nonce');
    const other = await buildIssuer(t, 'DPoP Other TestIssuer');
    const { code } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const stale = createDpopNonce(nonceDeps(), issuer.organizationId, Date.now() - 10 * 60_000);
    const fresh = createDpopNonce(nonceDeps(), issuer.organizationId);
    const forged = `${fresh.split('.')[0]}.${'A'.repeat(22)}`;
    const foreign = createDpopNonce(nonceDeps(), other.organizationId);
    for (const nonce of [stale, forged, foreign]) {
      const answer = await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }));
      expect(answer.statusCode, nonce).toBe(400);
      expect(answer.json().error).toBe('use_dpop_nonce');
      const given = String(answer.headers['dpop-nonce']);
      expect(given).not.toBe(nonce);
      // The nonce given is one the issuer takes.
      const retry = await tokenRequest(
        issuer,
        'no-such-code',
        await dpopProof(key, { htu: issuer.tokenEndpoint, nonce: given }),
      );
      expect(retry.json().error).toBe('invalid_grant');
    }
  });

  it('refuses a proof made for another URL or another method', async () => {
    const issuer = await buildIssuer(t, 'DPoP Wrong Target');
    const { code } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const nonce = await serverNonce(issuer, key);
    for (const claims of [
      { htu: issuer.credentialEndpoint, nonce },
      { htu: `${t.config.publicUrl}/orgs/${randomUUID()}/token`, nonce },
      { htu: issuer.tokenEndpoint, htm: 'GET', nonce },
    ]) {
      const answer = await tokenRequest(issuer, code, await dpopProof(key, claims));
      expect(answer.statusCode, JSON.stringify(claims)).toBe(400);
      expect(answer.json().error).toBe('invalid_dpop_proof');
      expect(answer.json().error_description).toMatch(/htu|htm/);
    }
  });

  it('refuses a replayed proof (same jti) even with a valid nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP Replay');
    const { code } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const nonce = await serverNonce(issuer, key);
    const proof = await dpopProof(key, { htu: issuer.tokenEndpoint, nonce });
    expect((await tokenRequest(issuer, code, proof)).statusCode).toBe(200);
    const { code: second } = await offerOf(t, issuer);
    const replay = await tokenRequest(issuer, second, proof);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    expect(replay.json().error_description).toMatch(/already used/);
  });

  it('refuses a proof whose iat is far in the past or the future, whatever its nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP Bad Iat');
    const { code } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const nonce = await serverNonce(issuer, key);
    const now = Math.floor(Date.now() / 1000);
    for (const iat of [now - 3600, now + 3600]) {
      const answer = await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce, iat }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toBe('invalid_dpop_proof');
      expect(answer.json().error_description).toMatch(/iat/);
    }
  });

  it('refuses malformed proofs, another algorithm and a private key in the header', async () => {
    const issuer = await buildIssuer(t, 'DPoP Malformed');
    const { code } = await offerOf(t, issuer);
    const key = await createHolderKey();
    const nonce = await serverNonce(issuer, key);
    const good = await dpopProof(key, { htu: issuer.tokenEndpoint, nonce });
    const [h, p, s] = good.split('.');
    const cases = [
      'not-a-jwt',
      `${h}.${p}.${s}, ${good}`, // two DPoP headers
      `${h}.${p}.${s!.slice(0, -4)}AAAA`, // a signature that does not verify
      await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }, { alg: 'ES384' }),
      await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }, { typ: 'JWT' }),
      await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }, { jwk: { ...key.publicJwk, d: 'AAAA' } }),
    ];
    for (const proof of cases) {
      const answer = await tokenRequest(issuer, code, proof);
      expect(answer.statusCode, proof.slice(0, 40)).toBe(400);
      expect(answer.json().error).toBe('invalid_dpop_proof');
    }
    // None of them used the code up.
    expect(
      (await tokenRequest(issuer, code, await dpopProof(key, { htu: issuer.tokenEndpoint, nonce }))).statusCode,
    ).toBe(200);
  });
});

describe('DPoP at the credential endpoint', () => {
  it('issues to the holder of the bound key, with ath and the nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP Credential');
    const key = await createHolderKey();
    const { issuance, token, nonce } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    const proof = await dpopProof(key, { htu: issuer.credentialEndpoint, nonce, ath: ath(token) });
    const answer = await credentialRequest(issuer, body, { authorization: `DPoP ${token}`, dpop: proof });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().credentials).toHaveLength(1);
  });

  it('refuses a proof by another key than the bound one (a stolen token), 401 with a DPoP challenge', async () => {
    const issuer = await buildIssuer(t, 'DPoP Stolen Token');
    const { issuance, token, nonce } = await boundToken(issuer, await createHolderKey());
    const body = await credentialBody(issuance, await createHolderKey());
    const thief = await createHolderKey();
    const proof = await dpopProof(thief, { htu: issuer.credentialEndpoint, nonce, ath: ath(token) });
    const answer = await credentialRequest(issuer, body, { authorization: `DPoP ${token}`, dpop: proof });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().error).toBe('invalid_dpop_proof');
    expect(answer.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);
  });

  it("refuses a token whose bound thumbprint was swapped for the thief's own key", async () => {
    const issuer = await buildIssuer(t, 'DPoP Swapped Thumbprint');
    const { issuance, token, nonce } = await boundToken(issuer, await createHolderKey());
    const body = await credentialBody(issuance, await createHolderKey());
    const thief = await createHolderKey();
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${await thumbprint(thief)}`;
    const proof = await dpopProof(thief, { htu: issuer.credentialEndpoint, nonce, ath: ath(forged) });
    const answer = await credentialRequest(issuer, body, { authorization: `DPoP ${forged}`, dpop: proof });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().error).toBe('invalid_token');
  });

  it('refuses a bound token presented as Bearer, with or without a proof', async () => {
    const issuer = await buildIssuer(t, 'DPoP As Bearer');
    const key = await createHolderKey();
    const { issuance, token, nonce } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    for (const headers of [
      { authorization: `Bearer ${token}` } as Record<string, string>,
      {
        authorization: `Bearer ${token}`,
        dpop: await dpopProof(key, { htu: issuer.credentialEndpoint, nonce, ath: ath(token) }),
      },
    ]) {
      const answer = await credentialRequest(issuer, body, headers);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error).toBe('invalid_token');
      expect(answer.json().error_description).toMatch(/DPoP/);
    }
  });

  it('refuses a proof without ath or with the ath of another token, and a bound token without a proof', async () => {
    const issuer = await buildIssuer(t, 'DPoP Missing Ath');
    const key = await createHolderKey();
    const { issuance, token, nonce } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    for (const dpop of [
      await dpopProof(key, { htu: issuer.credentialEndpoint, nonce }),
      await dpopProof(key, { htu: issuer.credentialEndpoint, nonce, ath: ath(`${token}x`) }),
      undefined,
    ]) {
      const answer = await credentialRequest(issuer, body, {
        authorization: `DPoP ${token}`,
        ...(dpop ? { dpop } : {}),
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error).toBe('invalid_dpop_proof');
    }
    // The c_nonce of the key proof was not spent by those refusals: the right proof still gets the credential.
    const right = await dpopProof(key, { htu: issuer.credentialEndpoint, nonce, ath: ath(token) });
    expect((await credentialRequest(issuer, body, { authorization: `DPoP ${token}`, dpop: right })).statusCode).toBe(
      200,
    );
  });

  it('refuses a proof for the token endpoint (htu) or with another method (htm)', async () => {
    const issuer = await buildIssuer(t, 'DPoP Credential Target');
    const key = await createHolderKey();
    const { issuance, token, nonce } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    for (const claims of [
      { htu: issuer.tokenEndpoint, nonce, ath: ath(token) },
      { htu: issuer.credentialEndpoint, htm: 'PUT', nonce, ath: ath(token) },
    ]) {
      const answer = await credentialRequest(issuer, body, {
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, claims),
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error).toBe('invalid_dpop_proof');
    }
  });

  it('answers a missing or stale nonce with a use_dpop_nonce challenge and a fresh DPoP-Nonce', async () => {
    const issuer = await buildIssuer(t, 'DPoP Credential Nonce');
    const key = await createHolderKey();
    const { issuance, token } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    const stale = createDpopNonce(nonceDeps(), issuer.organizationId, Date.now() - 10 * 60_000);
    for (const nonce of [undefined, stale]) {
      const answer = await credentialRequest(issuer, body, {
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, { htu: issuer.credentialEndpoint, ath: ath(token), ...(nonce ? { nonce } : {}) }),
      });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error).toBe('use_dpop_nonce');
      expect(answer.headers['www-authenticate']).toBe('DPoP error="use_dpop_nonce", algs="ES256"');
      expect(answer.headers['dpop-nonce']).toBeTruthy();
    }
  });

  it('refuses a replayed credential request proof (same jti)', async () => {
    const issuer = await buildIssuer(t, 'DPoP Credential Replay');
    const key = await createHolderKey();
    const { issuance, token, nonce } = await boundToken(issuer, key);
    const body = await credentialBody(issuance, await createHolderKey());
    const proof = await dpopProof(key, { htu: issuer.credentialEndpoint, nonce, ath: ath(token) });
    expect((await credentialRequest(issuer, body, { authorization: `DPoP ${token}`, dpop: proof })).statusCode).toBe(
      200,
    );
    const replay = await credentialRequest(issuer, body, { authorization: `DPoP ${token}`, dpop: proof });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error_description).toMatch(/already used/);
  });

  it('lets a browser wallet read the DPoP nonce and challenge (CORS)', async () => {
    const issuer = await buildIssuer(t, 'DPoP Cors');
    const answer = await t.app.inject({
      method: 'POST',
      url: new URL(issuer.credentialEndpoint).pathname,
      headers: { origin: 'https://wallet.example', 'content-type': 'application/json', authorization: 'DPoP x' },
      payload: {},
    });
    expect(String(answer.headers['access-control-expose-headers'])).toMatch(/dpop-nonce/);
    expect(String(answer.headers['access-control-expose-headers'])).toMatch(/www-authenticate/);
  });
});
