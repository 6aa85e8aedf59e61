import { decodeJwt } from '@cp/credentials';
import { answerDcApiRequest, createDcApiResponse, resolveDcApiRequest } from '@cp/holder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, fetchOf, type Holder, makeHolder } from './support/wallet.ts';

/**
 * OpenID4VP 1.0 over the Digital Credentials API (Appendix A; issue 17, HAIP 1.0 Verifier item 3): the holder
 * page fetches the `openid4vp-v1-signed` request for an attempt, the browser's wallet answers it (played by
 * @cp/holder's answerDcApiRequest) and the page forwards `{response: <JWE>}`, checked like direct_post.jwt
 * plus the origin rule: the key binding's `aud` is `origin:<the platform's origin>` (A.4).
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: Holder;
let credential: string;
let origin: string;

beforeAll(async () => {
  t = await startTestApp();
  origin = new URL(t.config.publicUrl).origin;
  issuer = await buildVerifiedOrganization(t, 'Browser Society', {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: { name: 'Membership', schema_id: issuer.schemaRecord.schema.id, claims: { full_name: 'Ada' } },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
  holder = await makeHolder();
  credential = await claimCredential(t, connect.connection_url, holder);
});
afterAll(async () => {
  await t?.close();
});

async function startAttempt(type: 'MULTI' | 'SINGLE' = 'MULTI') {
  const verification = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: { name: 'Members', schema_id: issuer.schemaRecord.schema.id, type, attributes: [] },
  });
  expect(verification.statusCode, verification.body).toBe(201);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verification.json().id },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

const getRequest = (attemptId: string, from = origin) =>
  t.app.inject({ url: `/oid4vp/dc-api/requests/${attemptId}?origin=${encodeURIComponent(from)}` });

async function requestData(attemptId: string) {
  const response = await getRequest(attemptId);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.protocol).toBe('openid4vp-v1-signed');
  return body.data as { request: string };
}

const selection = () => [{ queryId: 'credential', credential, disclose: ['full_name'] }];

const postResponse = (attemptId: string, data: unknown) =>
  t.app.inject({ method: 'POST', url: `/oid4vp/dc-api/responses/${attemptId}`, payload: data as object });

const outcome = async (attemptId: string) =>
  (await t.app.inject({ url: `/api/verifications/${attemptId}/verify` })).json();

describe('the DC API request', () => {
  it('is the attempt’s signed request in dc_api.jwt mode for the platform’s origin, without response_uri or state', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const { header, payload } = decodeJwt(data.request);
    expect(header.typ).toBe('oauth-authz-req+jwt');
    expect(Array.isArray(header.x5c)).toBe(true);
    expect(payload).toMatchObject({
      response_mode: 'dc_api.jwt',
      expected_origins: [origin],
      response_type: 'vp_token',
    });
    expect(String(payload.client_id)).toMatch(/^x509_hash:/);
    expect(payload).not.toHaveProperty('response_uri');
    expect(payload).not.toHaveProperty('state');
    const metadata = payload.client_metadata as { jwks: { keys: { kty: string }[] } };
    expect(metadata.jwks.keys[0]?.kty).toBe('EC');
    // The same client id the wallet checks on the request_uri path: @cp/holder accepts it for this origin.
    const request = await resolveDcApiRequest(data, origin, { fetch: fetchOf(t) });
    expect(request).toMatchObject({ clientId: payload.client_id, audience: `origin:${origin}`, nonce: payload.nonce });
    // ...and a wallet refuses it from another origin (expected_origins, A.2).
    await expect(resolveDcApiRequest(data, 'https://evil.example', { fetch: fetchOf(t) })).rejects.toMatchObject({
      code: 'REQUEST_UNTRUSTED',
    });
  });

  it('is made for the platform’s own origin only (another origin answers invalid_request)', async () => {
    const attemptId = await startAttempt();
    for (const other of ['https://evil.example', `${origin}.evil.example`, `${origin}/`, 'null']) {
      const response = await getRequest(attemptId, other);
      expect(response.statusCode, other).toBe(400);
      expect(response.json().error).toBe('invalid_request');
    }
    expect((await t.app.inject({ url: `/oid4vp/dc-api/requests/${attemptId}` })).statusCode).toBe(400);
  });

  it('is not given for an unknown attempt', async () => {
    const response = await getRequest('5f0c2a43-3c1b-4f57-9d55-9b8d1b0b3b11');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('invalid_request');
  });
});

describe('the DC API response', () => {
  it('verifies a presentation bound to origin:<origin>, encrypted to the attempt’s key', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const answer = await answerDcApiRequest(data, origin, selection(), { key: holder }, { fetch: fetchOf(t) });
    expect(Object.keys(answer)).toEqual(['response']);
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().status).toBe('VERIFIED');
    expect(await outcome(attemptId)).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
  });

  it('fails a presentation built for another origin (key binding aud), with the audience check', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const answer = await answerDcApiRequest(
      data,
      origin,
      selection(),
      { key: holder, audience: 'origin:https://evil.example' },
      { fetch: fetchOf(t) },
    );
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().status).toBe('FAILED');
    expect((await outcome(attemptId)).failed_checks).toEqual(['AUDIENCE']);
  });

  it('fails a presentation bound to the client id instead of the origin (A.4: the origin even for signed requests)', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const clientId = String(decodeJwt(data.request).payload.client_id);
    const answer = await answerDcApiRequest(
      data,
      origin,
      selection(),
      { key: holder, audience: clientId },
      { fetch: fetchOf(t) },
    );
    await postResponse(attemptId, answer);
    expect((await outcome(attemptId)).failed_checks).toEqual(['AUDIENCE']);
  });

  it('fails a presentation for another attempt’s nonce', async () => {
    const attemptId = await startAttempt();
    const other = await startAttempt();
    const data = await requestData(attemptId);
    const otherNonce = String(decodeJwt((await requestData(other)).request).payload.nonce);
    const answer = await answerDcApiRequest(
      data,
      origin,
      selection(),
      { key: holder, nonce: otherNonce },
      { fetch: fetchOf(t) },
    );
    await postResponse(attemptId, answer);
    expect(await outcome(attemptId)).toMatchObject({ status: 'FAILED', failed_checks: ['NONCE'] });
  });

  it('refuses a replay once the attempt completed, as the response endpoint does', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const answer = await answerDcApiRequest(data, origin, selection(), { key: holder }, { fetch: fetchOf(t) });
    expect((await postResponse(attemptId, answer)).json().status).toBe('VERIFIED');
    const replay = await postResponse(attemptId, answer);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'This verification request has already been answered.',
    });
    // ...and the request itself is no longer given.
    expect((await getRequest(attemptId)).statusCode).toBe(410);
    expect(await outcome(attemptId)).toMatchObject({ status: 'VERIFIED' });
  });

  it('refuses a plain (dc_api) response when dc_api.jwt was asked (downgrade), recording nothing', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const answer = await answerDcApiRequest(
      data,
      origin,
      selection(),
      { key: holder, responseMode: 'dc_api' },
      { fetch: fetchOf(t) },
    );
    expect(answer).toHaveProperty('vp_token');
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
    expect(response.json().error_description).toMatch(/encrypted/);
    expect((await outcome(attemptId)).status).toBe('CREATED');
  });

  it('refuses a tampered JWE, recording nothing', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const answer = (await answerDcApiRequest(data, origin, selection(), { key: holder }, { fetch: fetchOf(t) })) as {
      response: string;
    };
    const parts = answer.response.split('.');
    const ciphertext = parts[3]!;
    parts[3] = `${ciphertext.slice(0, -2)}${ciphertext.endsWith('AA') ? 'BB' : 'AA'}`;
    const response = await postResponse(attemptId, { response: parts.join('.') });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(response.json().error_description).toMatch(/decrypted/);
    expect((await outcome(attemptId)).status).toBe('CREATED');
  });

  it('refuses an answer encrypted to another attempt’s key', async () => {
    const attemptId = await startAttempt();
    const other = await startAttempt();
    const answer = await answerDcApiRequest(
      await requestData(other),
      origin,
      selection(),
      { key: holder },
      {
        fetch: fetchOf(t),
      },
    );
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
  });

  it('records a wallet that declines (encrypted error, no state over the DC API) as FAILED with WALLET_ERROR', async () => {
    const attemptId = await startAttempt();
    const request = await resolveDcApiRequest(await requestData(attemptId), origin, { fetch: fetchOf(t) });
    const answer = await createDcApiResponse(request, { error: 'access_denied', error_description: 'Declined' });
    expect(Object.keys(answer)).toEqual(['response']);
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode, response.body).toBe(200);
    expect(await outcome(attemptId)).toMatchObject({ status: 'FAILED', failed_checks: ['WALLET_ERROR'] });
  });

  it('refuses malformed and oversized bodies with OAuth errors', async () => {
    const attemptId = await startAttempt();
    for (const body of [{}, { response: 'not-a-jwe' }, { response: 42 }, { response: 'a.b.c.d.e', extra: 1 }]) {
      const response = await postResponse(attemptId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe('invalid_request');
    }
    const huge = await postResponse(attemptId, { response: 'a'.repeat(500_000) });
    expect(huge.statusCode).toBe(413);
    expect((await postResponse('not-an-id', { response: 'a.b.c.d.e' })).statusCode).toBe(404);
  });
});
