import { decodeJwt, statusFromToken } from '@cp/credentials';
import { schema } from '@cp/db';
import {
  createHolderKey,
  createKeyProof,
  type HolderKey,
  type Issuance,
  requestAccessToken,
  requestNonce,
  resolveCredentialOffer,
} from '@cp/holder';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_SIZE } from '../src/modules/issuer/issuer.service.ts';
import { jwkThumbprint } from '../src/modules/organization-keys/organization-keys.service.ts';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { claimBatch, claimCredential, fetchOf, makeHolder, presentCredential, walletHttp } from './support/wallet.ts';

/**
 * Batch issuance (issue 17, HAIP 1.0; OpenID4VCI 1.0 §8.2 `proofs`, §12.2.4 `batch_credential_issuance`): one
 * claim, several credentials, each bound to its own key with its own status entry, all revoked together.
 */

let t: TestApp;
let issuer: Awaited<ReturnType<typeof buildVerifiedOrganization>>;

beforeAll(async () => {
  t = await startTestApp();
  issuer = await buildVerifiedOrganization(t, 'Batch University', {
    name: 'Diploma',
    attributes: [
      { name: 'full_name', type: 'TEXT' },
      { name: 'score', type: 'NUMBER' },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const http = () => walletHttp(t);

/** A credential of the organization and its offer link. */
async function offer() {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.headers,
    payload: {
      credential: {
        name: 'Diploma of Ada',
        schema_id: issuer.schemaRecord.schema.id,
        claims: [
          { name: 'full_name', value: 'Ada Lovelace' },
          { name: 'score', value: '97.5' },
        ],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const connect = (await t.app.inject({ url: `/api/credentials/${id}/connect` })).json();
  return { id, link: connect.connection_url as string };
}

const credentialStatus = async (id: string) =>
  (await t.app.inject({ url: `/api/credentials/${id}`, headers: issuer.headers })).json().status as string;

const entriesOf = (credentialId: string) =>
  db()
    .select()
    .from(schema.credentialStatusEntries)
    .where(eq(schema.credentialStatusEntries.credentialId, credentialId));

interface StatusReference {
  uri: string;
  idx: number;
}
const statusOf = (credential: string): StatusReference =>
  (decodeJwt(credential.split('~')[0]!).payload.status as { status_list: StatusReference }).status_list;
const cnfOf = (credential: string) => (decodeJwt(credential.split('~')[0]!).payload.cnf as { jwk: JsonWebKey }).jwk;

/** The bit of a status entry in its published list (read as a relying party does). */
async function bitOf(reference: StatusReference) {
  const list = await http()(reference.uri);
  expect(list.status).toBe(200);
  return statusFromToken(list.body, reference.idx).status;
}

/** A holder's credential request written out by hand: the token, a nonce, then the proofs it is given. */
async function session(link: string) {
  const context = { fetch: fetchOf(t) };
  const issuance: Issuance = await resolveCredentialOffer(link, context);
  const token = await requestAccessToken(issuance, {}, context);
  const nonce = (await requestNonce(issuance.issuerMetadata, undefined, context))!;
  const proof = (key: HolderKey, withNonce = nonce) => createKeyProof(issuance, key, withNonce, context);
  const send = (proofs: string[]) =>
    http()(issuance.issuerMetadata.credentialIssuer.credential_endpoint, {
      json: { credential_configuration_id: issuance.configurationId, proofs: { jwt: proofs } },
      token: token.access_token,
    });
  return { issuance, nonce, proof, send, context };
}

const keys = (n: number) => Promise.all(Array.from({ length: n }, () => createHolderKey()));

describe('batch issuance', () => {
  it('announces batch_size in the issuer metadata', async () => {
    const metadata = await http()(
      `${t.config.publicUrl}/.well-known/openid-credential-issuer/orgs/${issuer.organization.id}`,
    );
    expect(metadata.json().batch_credential_issuance).toEqual({ batch_size: BATCH_SIZE });
    expect(BATCH_SIZE).toBeGreaterThan(1);
  });

  it('issues a batch of 3: distinct keys, distinct status entries, same claims, each verified by the verifier', async () => {
    const { id, link } = await offer();
    const holder = await makeHolder();
    const instances = await claimBatch(t, link, holder, 3);
    expect(instances).toHaveLength(3);
    expect(await credentialStatus(id)).toBe('CLAIMED');

    // Each bound to its own key, the first to the holder's own.
    const thumbprints = instances.map((i) => jwkThumbprint(cnfOf(i.credential)));
    expect(new Set(thumbprints).size).toBe(3);
    expect(thumbprints[0]).toBe(jwkThumbprint(holder.publicJwk));
    for (const instance of instances) {
      expect(jwkThumbprint(cnfOf(instance.credential))).toBe(jwkThumbprint(instance.holder.publicJwk));
    }

    // Each with its own status entry: instance 0 the credential's own slot, the others in the new table.
    const references = instances.map((i) => statusOf(i.credential));
    expect(new Set(references.map((r) => `${r.uri}#${r.idx}`)).size).toBe(3);
    const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, id));
    expect(references[0]).toEqual({ uri: expect.stringContaining(row!.statusListId), idx: row!.statusIndex });
    const entries = await entriesOf(id);
    expect(entries.map((e) => e.instance).sort()).toEqual([1, 2]);
    for (const [n, reference] of references.slice(1).entries()) {
      const entry = entries.find((e) => e.instance === n + 1)!;
      expect(reference).toEqual({ uri: expect.stringContaining(entry.statusListId), idx: entry.statusIndex });
      expect(jwkThumbprint(entry.holderJwk as JsonWebKey)).toBe(thumbprints[n + 1]);
    }
    for (const reference of references) expect(await bitOf(reference)).toBe(0);

    // Same claims in each; the verifier accepts each instance on its own, with its own key.
    const payloads = instances.map((i) => decodeJwt(i.credential.split('~')[0]!).payload);
    expect(new Set(payloads.map((p) => p.vct)).size).toBe(1);
    const verification = await createVerification();
    for (const instance of instances) {
      const { result } = await attempt(verification.id, instance.credential, instance.holder);
      expect(result).toMatchObject({ status: 'VERIFIED', failed_checks: [] });
    }
  });

  it('takes the older single proof and a single-element proofs as before: one credential, no extra entries', async () => {
    const { id, link } = await offer();
    const [key] = await keys(1);
    const s = await session(link);
    const answer = await s.send([await s.proof(key!)]);
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json().credentials).toHaveLength(1);
    expect(await entriesOf(id)).toEqual([]);
  });

  it('refuses a batch whose keys are not distinct (invalid_proof), and claims nothing', async () => {
    const { id, link } = await offer();
    const [a, b] = await keys(2);
    const s = await session(link);
    const answer = await s.send([await s.proof(a!), await s.proof(b!), await s.proof(a!)]);
    expect(answer.status).toBe(400);
    expect(answer.json().error).toBe('invalid_proof');
    expect(await credentialStatus(id)).toBe('ISSUED');
    expect(await entriesOf(id)).toEqual([]);
    // Nothing was spent: the same nonce and token still redeem the offer with distinct keys.
    const retry = await s.send([await s.proof(a!), await s.proof(b!)]);
    expect(retry.status, retry.body).toBe(200);
    expect(retry.json().credentials).toHaveLength(2);
  });

  it('refuses more proofs than batch_size (invalid_proof), and claims nothing', async () => {
    const { id, link } = await offer();
    const s = await session(link);
    const proofs = await Promise.all((await keys(BATCH_SIZE + 1)).map((key) => s.proof(key)));
    const answer = await s.send(proofs);
    expect(answer.status).toBe(400);
    expect(answer.json().error).toBe('invalid_proof');
    expect(await credentialStatus(id)).toBe('ISSUED');
    expect(await entriesOf(id)).toEqual([]);
  });

  it('refuses the whole batch when one proof carries a wrong or another nonce, and claims nothing', async () => {
    const { id, link } = await offer();
    const [a, b, c] = await keys(3);
    const s = await session(link);
    const wrong = await s.send([await s.proof(a!), await s.proof(b!, 'not-a-nonce-of-this-issuer'), await s.proof(c!)]);
    expect(wrong.status).toBe(400);
    expect(wrong.json().error).toBe('invalid_nonce');
    // Two fresh nonces in one batch: one nonce per request, spent once.
    const other = (await requestNonce(s.issuance.issuerMetadata, undefined, s.context))!;
    const mixed = await s.send([await s.proof(a!), await s.proof(b!, other)]);
    expect(mixed.status).toBe(400);
    expect(mixed.json().error).toBe('invalid_nonce');
    expect(await credentialStatus(id)).toBe('ISSUED');
    expect(await entriesOf(id)).toEqual([]);
  });

  it('stays single use: a second batch request after the claim is refused and adds no instance', async () => {
    const { id, link } = await offer();
    const [a, b, c, d] = await keys(4);
    const s = await session(link);
    expect((await s.send([await s.proof(a!), await s.proof(b!)])).status).toBe(200);
    const fresh = (await requestNonce(s.issuance.issuerMetadata, undefined, s.context))!;
    const again = await s.send([await s.proof(c!, fresh), await s.proof(d!, fresh)]);
    expect(again.status).toBe(400);
    expect(again.json().error).toBe('credential_request_denied');
    // Replaying the spent nonce is refused too.
    const replay = await s.send([await s.proof(c!), await s.proof(d!)]);
    expect(replay.json().error).toBe('invalid_nonce');
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('lets only one of two concurrent batch requests of a token through, with one set of instances', async () => {
    const { id, link } = await offer();
    const s = await session(link);
    const [a, b, c, d] = await keys(4);
    const other = (await requestNonce(s.issuance.issuerMetadata, undefined, s.context))!;
    const answers = await Promise.all([
      s.send([await s.proof(a!), await s.proof(b!)]),
      s.send([await s.proof(c!, other), await s.proof(d!, other)]),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(await entriesOf(id)).toHaveLength(1);
  });

  it('revokes every instance at once; other credentials stay valid; the verifier refuses instance 2', async () => {
    const bystander = await offer();
    const bystanderHolder = await makeHolder();
    const bystanderCredential = await claimCredential(t, bystander.link, bystanderHolder);
    const bystanderBatch = await offer();
    const bystanderInstances = await claimBatch(t, bystanderBatch.link, await makeHolder(), 2);

    const { id, link } = await offer();
    const instances = await claimBatch(t, link, await makeHolder(), 3);
    const revoked = await t.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: issuer.headers,
      payload: { credentials: [id] },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const instance of instances) expect(await bitOf(statusOf(instance.credential))).toBe(1);
    expect(await bitOf(statusOf(bystanderCredential))).toBe(0);
    for (const instance of bystanderInstances) expect(await bitOf(statusOf(instance.credential))).toBe(0);

    const verification = await createVerification();
    const { result } = await attempt(verification.id, instances[1]!.credential, instances[1]!.holder);
    expect(result).toMatchObject({ status: 'FAILED', failed_checks: ['STATUS'] });
    const { result: still } = await attempt(
      verification.id,
      bystanderInstances[1]!.credential,
      bystanderInstances[1]!.holder,
    );
    expect(still).toMatchObject({ status: 'VERIFIED' });
  });

  it('deleting a credential revokes every instance too', async () => {
    const { id, link } = await offer();
    const instances = await claimBatch(t, link, await makeHolder(), 2);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/credentials/${id}`,
      headers: issuer.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    for (const instance of instances) expect(await bitOf(statusOf(instance.credential))).toBe(1);
  });
});

describe('batch issuance across status lists', () => {
  let small: TestApp;
  beforeAll(async () => {
    // Lists of 16 bits: a batch of BATCH_SIZE spills over into a second list.
    small = await startTestApp({ env: { STATUS_LIST_SIZE: '16' } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('allocates every instance a slot of its own across lists; revoking shows in each list at once', async () => {
    const org = await buildVerifiedOrganization(small, 'Small Lists', {
      name: 'Pass',
      attributes: [{ name: 'full_name', type: 'TEXT' }],
    });
    const create = async () => {
      const created = await small.app.inject({
        method: 'POST',
        url: '/api/credentials/with-recipient',
        headers: org.headers,
        payload: {
          credential: {
            name: 'Pass',
            schema_id: org.schemaRecord.schema.id,
            claims: [{ name: 'full_name', value: 'Ada' }],
          },
          recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as string;
    };
    const others = [];
    for (let i = 0; i < 12; i++) others.push(await create());
    const id = await create();
    const connect = (await small.app.inject({ url: `/api/credentials/${id}/connect` })).json();
    const instances = await claimBatch(small, connect.connection_url, await makeHolder());
    expect(instances).toHaveLength(BATCH_SIZE);
    const references = instances.map((i) => statusOf(i.credential));
    const uris = [...new Set(references.map((r) => r.uri))];
    expect(uris.length).toBeGreaterThan(1);
    expect(new Set(references.map((r) => `${r.uri}#${r.idx}`)).size).toBe(BATCH_SIZE);
    // No slot is both a credential's and an instance's.
    const rows = await small.runtime.ctx.database.db.select().from(schema.credentials);
    const taken = new Set(rows.map((r) => `${r.statusListId}#${r.statusIndex}`));
    const entries = await small.runtime.ctx.database.db
      .select()
      .from(schema.credentialStatusEntries)
      .where(eq(schema.credentialStatusEntries.credentialId, id));
    expect(entries).toHaveLength(BATCH_SIZE - 1);
    for (const entry of entries) expect(taken.has(`${entry.statusListId}#${entry.statusIndex}`)).toBe(false);

    const bit = async (reference: StatusReference) =>
      statusFromToken((await walletHttp(small)(reference.uri)).body, reference.idx).status;
    // Read (and cached) before the revocation: each list's revision must move with it.
    for (const reference of references) expect(await bit(reference)).toBe(0);
    const revoked = await small.app.inject({
      method: 'PATCH',
      url: '/api/credentials/revoke',
      headers: org.headers,
      payload: { credentials: [id] },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const reference of references) expect(await bit(reference)).toBe(1);
  });
});

// ---- the verifier ----------------------------------------------------------------------------------

async function createVerification() {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.headers,
    payload: { name: 'Diploma check', schema_id: issuer.schemaRecord.schema.id, type: 'MULTI', attributes: [] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

async function attempt(verificationId: string, credential: string, holder: HolderKey) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verificationId },
  });
  expect(created.statusCode, created.body).toBe(201);
  const individual = created.json();
  const connect = (await t.app.inject({ url: `/api/verifications/${individual.id}/connect` })).json();
  const response = await presentCredential(t, connect.connection_url, credential, holder);
  expect(response.status, response.body).toBe(200);
  const result = (await t.app.inject({ url: `/api/verifications/${individual.id}/verify` })).json();
  return { result };
}
