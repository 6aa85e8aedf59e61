import { decodeJwt } from '@cp/credentials';
import type { MdocHandoverInput } from '@cp/credentials/mdoc';
import { mdocNames } from '@cp/credentials/mdoc';
import { createDcApiResponse, createVpToken, type DcApiPresentationRequest, resolveDcApiRequest } from '@cp/holder';
import { answerDcApiMdocRequest, buildMdocDeviceResponse, dcApiMdocHandover } from '@cp/holder/mdoc';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimCredential, claimMdoc, fetchOf, type MdocHolder, makeHolder, makeMdocHolder } from './support/wallet.ts';

/**
 * ISO mdoc over the Digital Credentials API (OpenID4VP 1.0 Appendix A, with the B.2.6.2 session transcript;
 * issue 17): a verification with `format: mso_mdoc` is offered to a wallet on the device through the browser,
 * the wallet (@cp/holder's answerDcApiMdocRequest) device-signs a DeviceResponse over
 * `["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce, jwkThumbprint]))]` and encrypts it to the attempt's
 * key, and the page forwards it. Then what an attacker would try: a signature made for another origin, for the
 * redirect (request_uri) flow, for another nonce, an answer encrypted to another key, a replay.
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;
let holder: MdocHolder;
let mdoc: string;
let origin: string;

const attributes = [
  { name: 'full_name', type: 'TEXT' as const },
  { name: 'age', type: 'NUMBER' as const },
];

async function offer() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Membership',
        schema_id: issuer.schemaRecord.schema.id,
        claims: [
          { name: 'full_name', value: 'Ada Lovelace' },
          { name: 'age', value: '36' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json().connection_url as string;
}

beforeAll(async () => {
  t = await startTestApp();
  origin = new URL(t.config.publicUrl).origin;
  issuer = await buildVerifiedOrganization(t, 'Mdoc Browser Society', { name: 'Membership', attributes });
  holder = await makeMdocHolder();
  mdoc = await claimMdoc(t, await offer(), holder);
});
afterAll(async () => {
  await t?.close();
});

const attributeId = (name: string) => issuer.schemaRecord.attributes.find((a) => a.name === name)!.id;
const namespace = () =>
  mdocNames({ vct: `${t.config.publicUrl}/orgs/${issuer.organization.id}/vct/${issuer.schemaRecord.schema.slug}` })
    .namespace;

let verificationId: string | undefined;
async function verification() {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: {
      name: 'Members (mdoc, DC API)',
      schema_id: issuer.schemaRecord.schema.id,
      format: 'mso_mdoc',
      type: 'MULTI',
      requested_attribute_ids: [attributeId('full_name')],
      attributes: [{ attribute_id: attributeId('age'), operator: 'BIGGER', value: '18' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function startAttempt() {
  verificationId ??= await verification();
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

async function requestData(attemptId: string) {
  const response = await t.app.inject({
    url: `/oid4vp/dc-api/requests/${attemptId}?origin=${encodeURIComponent(origin)}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().protocol).toBe('openid4vp-v1-signed');
  return response.json().data as { request: string };
}

const context = () => ({ fetch: fetchOf(t) });
const paths = () => [
  [namespace(), 'full_name'],
  [namespace(), 'age'],
];
const selection = () => ({ queryId: 'credential', issuerSigned: mdoc, paths: paths(), signer: holder.cose });

/** A wallet that signs over whatever transcript it is given (what a relayed or misbuilt answer carries). */
async function answerOver(request: DcApiPresentationRequest, handover: MdocHandoverInput) {
  const deviceResponse = await buildMdocDeviceResponse({ ...handover, ...selection() });
  return createDcApiResponse(request, { vp_token: { credential: [deviceResponse] } });
}

const postResponse = (attemptId: string, data: unknown) =>
  t.app.inject({ method: 'POST', url: `/oid4vp/dc-api/responses/${attemptId}`, payload: data as object });

interface Attempt {
  status: string;
  presented_claims: Record<string, unknown>;
  checks: { code: string; passed: boolean; detail?: string }[];
}
async function recorded(attemptId: string): Promise<Attempt> {
  const response = await t.app.inject({
    url: `/api/verifications/${verificationId}/attempts/${attemptId}`,
    headers: issuer.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const failed = (row: Attempt) => row.checks.filter((c) => !c.passed).map((c) => c.code);

describe('an mdoc over the Digital Credentials API', () => {
  it('is asked for: the DC API request carries the mso_mdoc DCQL query, dc_api.jwt and the origin', async () => {
    const attemptId = await startAttempt();
    const { payload } = decodeJwt((await requestData(attemptId)).request);
    expect(payload).toMatchObject({
      response_mode: 'dc_api.jwt',
      expected_origins: [origin],
      dcql_query: { credentials: [{ id: 'credential', format: 'mso_mdoc' }] },
      client_metadata: { vp_formats_supported: { mso_mdoc: { deviceauth_alg_values: [-7] } } },
    });
    expect(payload).not.toHaveProperty('response_uri');
  });

  it('is VERIFIED with the claims when device-signed over this origin’s DC API transcript', async () => {
    const attemptId = await startAttempt();
    const answer = await answerDcApiMdocRequest(await requestData(attemptId), origin, selection(), {}, context());
    expect(Object.keys(answer)).toEqual(['response']);
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().status).toBe('VERIFIED');
    const row = await recorded(attemptId);
    expect(failed(row)).toEqual([]);
    expect(row.status).toBe('VERIFIED');
    expect(row.presented_claims).toEqual({ full_name: 'Ada Lovelace', age: 36 });
    expect(row.checks.find((c) => c.code === 'KEY_BINDING')?.passed).toBe(true);
  });
});

describe('what an attacker tries with an mdoc over the DC API', () => {
  it('a device signature over another origin’s transcript is FAILED (KEY_BINDING), nothing disclosed', async () => {
    const attemptId = await startAttempt();
    const request = await resolveDcApiRequest(await requestData(attemptId), origin, context());
    const handover = await dcApiMdocHandover(request);
    const response = await postResponse(
      attemptId,
      await answerOver(request, { ...handover, origin: 'https://evil.example' }),
    );
    expect(response.json().status).toBe('FAILED');
    const row = await recorded(attemptId);
    expect(failed(row)).toEqual(['KEY_BINDING', 'RULE']);
    expect(row.checks.find((c) => c.code === 'KEY_BINDING')?.detail).toMatch(/DC API session transcript/);
    expect(row.presented_claims).toEqual({});
  });

  it('a device signature over the redirect (request_uri) transcript of the same attempt is FAILED', async () => {
    const attemptId = await startAttempt();
    const data = await requestData(attemptId);
    const request = await resolveDcApiRequest(data, origin, context());
    // Everything the B.2.6.1 transcript of this attempt holds: client_id, nonce, response_uri, encryption key.
    const redirect = {
      clientId: request.clientId,
      nonce: request.nonce,
      responseUri: `${t.config.publicUrl}/oid4vp/responses/${attemptId}`,
      jwkThumbprint: await calculateJwkThumbprint(request.encryption!.jwk as JWK, 'sha256'),
    };
    await postResponse(attemptId, await answerOver(request, redirect));
    const row = await recorded(attemptId);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['KEY_BINDING', 'RULE']);
  });

  it('a device signature over another attempt’s nonce is FAILED', async () => {
    const attemptId = await startAttempt();
    const otherNonce = String(decodeJwt((await requestData(await startAttempt())).request).payload.nonce);
    const request = await resolveDcApiRequest(await requestData(attemptId), origin, context());
    await postResponse(
      attemptId,
      await answerOver(request, { ...(await dcApiMdocHandover(request)), nonce: otherNonce }),
    );
    const row = await recorded(attemptId);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toEqual(['KEY_BINDING', 'RULE']);
  });

  it('a device signature without the encryption key’s thumbprint (a re-encrypted answer) is FAILED', async () => {
    const attemptId = await startAttempt();
    const request = await resolveDcApiRequest(await requestData(attemptId), origin, context());
    const { jwkThumbprint: _thumbprint, ...unencrypted } = await dcApiMdocHandover(request);
    await postResponse(attemptId, await answerOver(request, unencrypted));
    expect(failed(await recorded(attemptId))).toEqual(['KEY_BINDING', 'RULE']);
  });

  it('an answer encrypted to another attempt’s key is refused, recording nothing', async () => {
    const attemptId = await startAttempt();
    const other = await startAttempt();
    const answer = await answerDcApiMdocRequest(await requestData(other), origin, selection(), {}, context());
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(response.json().error_description).toMatch(/decrypted/);
    expect((await recorded(attemptId)).status).toBe('CREATED');
  });

  it('a replayed answer is refused, to the same attempt and to another', async () => {
    const attemptId = await startAttempt();
    const answer = await answerDcApiMdocRequest(await requestData(attemptId), origin, selection(), {}, context());
    expect((await postResponse(attemptId, answer)).json().status).toBe('VERIFIED');
    const again = await postResponse(attemptId, answer);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'This verification request has already been answered.',
    });
    const elsewhere = await startAttempt();
    expect((await postResponse(elsewhere, answer)).statusCode).toBe(400);
    expect((await recorded(elsewhere)).status).toBe('CREATED');
    expect((await recorded(attemptId)).status).toBe('VERIFIED');
  });

  it('a plain (dc_api) answer when dc_api.jwt was asked is refused as a downgrade, recording nothing', async () => {
    const attemptId = await startAttempt();
    const answer = await answerDcApiMdocRequest(
      await requestData(attemptId),
      origin,
      selection(),
      { responseMode: 'dc_api' },
      context(),
    );
    expect(answer).toHaveProperty('vp_token');
    const response = await postResponse(attemptId, answer);
    expect(response.statusCode).toBe(400);
    expect(response.json().error_description).toMatch(/encrypted/);
    expect((await recorded(attemptId)).status).toBe('CREATED');
  });

  it('an SD-JWT VC sent to the mdoc request over the DC API fails RESPONSE_FORMAT', async () => {
    const sdJwtHolder = await makeHolder();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/credentials/with-recipient',
      headers: issuer.headers,
      payload: {
        credential: {
          name: 'Membership',
          schema_id: issuer.schemaRecord.schema.id,
          claims: [
            { name: 'full_name', value: 'Ada Lovelace' },
            { name: 'age', value: '36' },
          ],
        },
        recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      },
    });
    const connect = (await t.app.inject({ url: `/api/credentials/${created.json().id}/connect` })).json();
    const sdJwt = await claimCredential(t, connect.connection_url, sdJwtHolder);
    const attemptId = await startAttempt();
    const request = await resolveDcApiRequest(await requestData(attemptId), origin, context());
    const vpToken = await createVpToken(
      { clientId: request.audience, nonce: request.nonce },
      [{ queryId: 'credential', credential: sdJwt, disclose: ['full_name', 'age'] }],
      sdJwtHolder,
    );
    await postResponse(attemptId, await createDcApiResponse(request, { vp_token: vpToken }));
    const row = await recorded(attemptId);
    expect(row.status).toBe('FAILED');
    expect(failed(row)).toContain('RESPONSE_FORMAT');
  });
});
