import {
  didJwkFromJwk,
  didWebFromUrl,
  encodeStatusList,
  generateEs256KeyPair,
  issueSdJwtVc,
  type JwsSigner,
  signerFromPrivateJwk,
  signStatusListToken,
} from '@cp/credentials';
import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookWorkerSettings } from '../src/modules/webhooks/webhooks.worker.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { didWebDocument, startDocumentServer } from './support/document-server.ts';
import { type Holder, makeHolder, presentCredential } from './support/wallet.ts';

/**
 * OUTBOUND_ALLOW_PRIVATE_NETWORKS end to end: the same loopback receiver and document server, reached by
 * an app with the block on (as in production) and by one with it off (as in development and tests).
 */

let blocked: TestApp;
let open: TestApp;
let peer: Awaited<ReturnType<typeof startDocumentServer>>;
let origin: string;
let hits: string[];
let documents: Awaited<ReturnType<typeof startDocumentServer>>['documents'];
let foreign: { signer: JwsSigner; publicJwk: JsonWebKey };
let holder: Holder;

beforeAll(async () => {
  peer = await startDocumentServer();
  ({ origin, hits, documents } = peer);
  const pair = await generateEs256KeyPair();
  foreign = { publicJwk: pair.publicJwk, signer: await signerFromPrivateJwk(pair.privateJwk) };
  holder = await makeHolder();
  blocked = await startTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' } });
  open = await startTestApp();
  for (const t of [blocked, open]) Object.assign(webhookWorkerSettings(t.runtime.ctx), { retryDelaysMs: [] });
});
afterAll(async () => {
  await blocked?.close();
  await open?.close();
  await peer?.close();
});

const organization = (t: TestApp, name: string) =>
  buildVerifiedOrganization(t, name, {
    name: 'Pass',
    attributes: [
      { name: 'holder_name', type: 'TEXT' },
      { name: 'level', type: 'NUMBER' },
    ],
  });

describe('webhook endpoints with the block on', () => {
  it('refuses a literal private, loopback, link-local or localhost URL as a validation error on url', async () => {
    const { headers } = await organization(blocked, 'Hooks Co');
    for (const url of [
      `${origin}/hook`,
      'http://localhost:8080/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0x7f000001/hook',
      'http://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/hook',
      'https://192.168.1.20/hook',
    ]) {
      const response = await blocked.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers,
        payload: { url, events: ['verification.completed'] },
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      const body = response.json();
      expect(body).toMatchObject({ status: 400, code: 'REQUEST_INVALID' });
      expect(body.errors).toEqual([
        { path: 'body.url', message: expect.stringMatching(/^Must be a publicly reachable address/) },
      ]);
    }
    // A public name passes (it is checked again, resolved, at each delivery); moving it onto a private
    // address later is refused the same way.
    const created = await blocked.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers,
      payload: { url: 'https://hooks.example.com/in', events: ['credential.claimed'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const moved = await blocked.app.inject({
      method: 'PATCH',
      url: `/api/webhooks/${created.json().id}`,
      headers,
      payload: { url: 'http://172.16.0.1/in' },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors[0].path).toBe('body.url');
  });

  it('refuses the delivery when the endpoint turns out to be on a loopback address; the log says why', async () => {
    const { headers } = await organization(blocked, 'Rebound Co');
    const created = await blocked.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers,
      payload: { url: 'https://hooks.example.com/in', events: ['verification.completed'] },
    });
    expect(created.statusCode).toBe(201);
    // As for an endpoint saved before the block was turned on (or a name that now resolves to loopback).
    await blocked.runtime.ctx.database.db
      .update(schema.webhooks)
      .set({ url: `${origin}/blocked-hook` })
      .where(eq(schema.webhooks.id, created.json().id));
    const page = await sendTestEventAndSettle(blocked, headers, created.json().id);
    expect(page).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      last_status_code: null,
      last_error: "Refused: the host's address is not public (loopback)",
    });
    expect(hits).not.toContain('POST /blocked-hook');
  });

  it('delivers to the same loopback receiver with the block off', async () => {
    const { headers } = await organization(open, 'Local Co');
    const created = await open.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers,
      payload: { url: `${origin}/open-hook`, events: ['verification.completed'] },
    });
    expect(created.statusCode).toBe(201);
    const page = await sendTestEventAndSettle(open, headers, created.json().id);
    expect(page).toMatchObject({ status: 'SUCCEEDED', attempts: 1, last_status_code: 200, last_error: null });
    expect(hits).toContain('POST /open-hook');
  });
});

async function sendTestEventAndSettle(t: TestApp, headers: Record<string, string>, webhookId: string) {
  const sent = await t.app.inject({ method: 'POST', url: `/api/webhooks/${webhookId}/test`, headers });
  expect(sent.statusCode).toBe(202);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = await t.app.inject({ url: `/api/webhooks/${webhookId}/deliveries`, headers });
    const delivery = page.json().results[0];
    if (delivery && delivery.status !== 'PENDING') return delivery;
    if (Date.now() > deadline) throw new Error(`delivery never settled: ${page.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the verifier's fetches with the block on", () => {
  let nextIndex = 0;

  /** A credential of an outside issuer whose status list (and maybe DID document) is on the loopback server. */
  async function foreignCredential(vct: string, input: { iss: string; kid: string; path: string }) {
    const idx = nextIndex++;
    const uri = `${origin}${input.path}`;
    documents.set(input.path, async () => ({
      type: 'application/statuslist+jwt',
      body: await signStatusListToken({
        signer: foreign.signer,
        header: { kid: input.kid },
        uri,
        lst: encodeStatusList(64, new Set()),
        ttl: 60,
      }),
    }));
    return issueSdJwtVc({
      signer: foreign.signer,
      header: { kid: input.kid },
      issuer: input.iss,
      vct,
      holderJwk: holder.publicJwk,
      claims: { holder_name: 'Grace Hopper', level: 7 },
      status: { idx, uri },
    });
  }

  async function verify(t: TestApp, verifier: Awaited<ReturnType<typeof organization>>, credential: string) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/verifications',
      headers: verifier.headers,
      payload: {
        name: 'Foreign',
        credential: {
          format: 'dc+sd-jwt',
          vct_values: [FOREIGN_VCT],
          claims: [{ name: 'holder_name', path: ['holder_name'], type: 'TEXT' }],
        },
        type: 'MULTI',
        trust_policy: 'ANY_ISSUER',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const individual = await t.app.inject({
      method: 'POST',
      url: '/api/verifications/individuals',
      payload: { verification_id: created.json().id },
    });
    const connect = (await t.app.inject({ url: `/api/verifications/${individual.json().id}/connect` })).json();
    expect((await presentCredential(t, connect.connection_url, credential, holder)).status).toBe(200);
    const history = await t.app.inject({
      url: `/api/verifications/${created.json().id}/individuals`,
      headers: verifier.headers,
    });
    return history.json().results[0] as {
      status: string;
      checks: { code: string; passed: boolean; detail?: string }[];
    };
  }
  const failedChecks = (row: { checks: { code: string; passed: boolean; detail?: string }[] }) =>
    row.checks.filter((c) => !c.passed);
  /** A type of the foreign issuer's own (a platform organization's type is only its own to issue). */
  const FOREIGN_VCT = 'https://foreign.example/vct/pass';

  it('fails STATUS for a status list on 127.0.0.1 with a clear reason, without fetching it', async () => {
    const verifier = await organization(blocked, 'Blocked Verifier');
    const did = didJwkFromJwk(foreign.publicJwk);
    const credential = await foreignCredential(FOREIGN_VCT, {
      iss: did,
      kid: `${did}#0`,
      path: '/blocked/status',
    });
    const row = await verify(blocked, verifier, credential);
    expect(row.status).not.toBe('VERIFIED');
    expect(failedChecks(row)).toEqual([
      expect.objectContaining({ code: 'STATUS', detail: expect.stringMatching(/address is not public \(loopback\)/) }),
    ]);
    expect(hits).not.toContain('GET /blocked/status');
  });

  it('fails the issuer check for a did:web on 127.0.0.1, without fetching the DID document', async () => {
    const verifier = await organization(blocked, 'Blocked Web Verifier');
    const did = didWebFromUrl(`${origin}/blocked-web`);
    const credential = await foreignCredential(FOREIGN_VCT, {
      iss: did,
      kid: `${did}#key-1`,
      path: '/blocked-web/status',
    });
    const row = await verify(blocked, verifier, credential);
    expect(row.status).not.toBe('VERIFIED');
    const problems = failedChecks(row);
    expect(problems.map((c) => c.code)).toEqual(['ISSUER_SIGNATURE']);
    expect(problems[0]?.detail).toMatch(/address is not public \(loopback\)/);
    expect(hits.filter((h) => h.includes('/blocked-web/'))).toEqual([]);
  });

  it('verifies the same kind of credential with the block off (status list and did:web fetched)', async () => {
    const verifier = await organization(open, 'Open Verifier');
    const did = didWebFromUrl(`${origin}/open-web`);
    documents.set('/open-web/did.json', didWebDocument(did, foreign.publicJwk));
    const credential = await foreignCredential(FOREIGN_VCT, {
      iss: did,
      kid: `${did}#key-1`,
      path: '/open-web/status',
    });
    const row = await verify(open, verifier, credential);
    expect(failedChecks(row)).toEqual([]);
    expect(row.status).toBe('VERIFIED');
    expect(hits).toEqual(expect.arrayContaining(['GET /open-web/did.json', 'GET /open-web/status']));
  });
});
