import type { Verification } from '@cp/contracts';
import { generateEs256KeyPair, signerFromPrivateJwk } from '@cp/credentials';
import { type CoseSigner, coseSignerFromPrivateJwk } from '@cp/credentials/mdoc';
import { schema } from '@cp/db';
import {
  createHolderKey,
  HolderError,
  type HolderKey,
  requestCredential,
  resolveCredentialOffer,
  resolvePresentationRequest,
  type WalletAttestation,
} from '@cp/holder';
import { requestMdocCredentials } from '@cp/holder/mdoc';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.ts';
import {
  buildIssuer,
  buildWalletProvider,
  followAuthorizationRedirect,
  offerOf,
  signWalletAttestation,
  type TestIssuer,
} from './support/issuer.ts';
import { fetchOf, presentCredential, presentMdoc } from './support/wallet.ts';

/**
 * Issue 17's "done when", in one place: an organization requires DPoP and wallet attestation; a holder written
 * to HAIP 1.0 (@cp/holder) claims through the authorization code flow (PAR, PKCE S256, the offer's
 * issuer_state) with DPoP, its wallet attestation and a batch, in SD-JWT VC and in mdoc, and presents a fresh
 * instance each time to the product's verifier (x509_san_dns request objects, encrypted responses): VERIFIED;
 * once the credential is revoked, every instance is FAILED. And the same holder, one requirement short, is refused.
 */

const CLIENT_ID = 'haip-wallet.example';
const REDIRECT_URI = 'https://haip-wallet.example/callback';

let t: TestApp;
let issuer: TestIssuer;
let walletAttestation: WalletAttestation;

beforeAll(async () => {
  t = await startTestApp();
  // The wallet provider the organization trusts, and the attestation it gave this wallet instance.
  const provider = await buildWalletProvider('HAIP Wallet Provider');
  issuer = await buildIssuer(t, 'HAIP Institute', {
    policy: { dpop_required: true, wallet_attestation_required: true },
    providers: [provider.ca],
    schema: {
      name: 'Membership',
      attributes: [
        { name: 'full_name', type: 'TEXT' },
        { name: 'age', type: 'NUMBER' },
      ],
    },
  });
  const instance = await createHolderKey();
  walletAttestation = {
    key: instance,
    attestation: await signWalletAttestation(provider.signer, instance, { sub: CLIENT_ID }),
  };
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.runtime.ctx.database.db;
const context = () => ({ fetch: fetchOf(t) });

/** The browser step of an issuer-initiated request: the authorization endpoint redirects at once. */
const followRedirect = (url: string) => followAuthorizationRedirect(t)(url);

const offer = (email: string) => offerOf(t, issuer, { email, claims: { full_name: 'Ada Lovelace', age: '36' } });

/** Everything HAIP asks of the wallet at once: PAR + PKCE with issuer_state, DPoP, the attestation, a batch. */
const haipOptions = async (batchSize: number, createKey?: () => Promise<HolderKey>) => ({
  key: createKey ? await createKey() : await createHolderKey(),
  batchSize,
  dpopKey: await createHolderKey(),
  walletAttestation,
  authorizationCode: { redirectUri: REDIRECT_URI, authorize: followRedirect },
  ...(createKey ? { createKey } : {}),
});

async function createVerification(format: 'dc+sd-jwt' | 'mso_mdoc'): Promise<Verification> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verifications',
    headers: issuer.adminHeaders,
    payload: {
      name: `HAIP members (${format})`,
      schema_id: issuer.schemaId,
      format,
      client_id_scheme: 'x509_san_dns',
      type: 'MULTI',
      attributes: [{ attribute_id: issuer.attributeId('age'), operator: 'BIGGER', value: '18' }],
      requested_attribute_ids: [issuer.attributeId('full_name')],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A new attempt at the verification: its id and the wallet's link. */
async function startAttempt(verification: Verification) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/verifications/individuals',
    payload: { verification_id: verification.id },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const connect = (await t.app.inject({ url: `/api/verifications/${id}/connect` })).json();
  return { id, link: connect.connection_url as string };
}

async function outcome(verification: Verification, individualId: string) {
  const response = await t.app.inject({
    url: `/api/verifications/${verification.id}/attempts/${individualId}`,
    headers: issuer.adminHeaders,
  });
  expect(response.statusCode, response.body).toBe(200);
  const row = response.json() as {
    status: string;
    presented_claims: Record<string, unknown>;
    checks: { code: string; passed: boolean }[];
  };
  return { ...row, failed: row.checks.filter((c) => !c.passed).map((c) => c.code) };
}

async function revoke(id: string) {
  const revoked = await t.app.inject({
    method: 'PATCH',
    url: '/api/credentials/revoke',
    headers: issuer.adminHeaders,
    payload: { credentials: [id] },
  });
  expect(revoked.statusCode, revoked.body).toBe(200);
}

async function claimedRow(id: string) {
  const [row] = await db().select().from(schema.credentials).where(eq(schema.credentials.id, id));
  const entries = await db()
    .select()
    .from(schema.credentialStatusEntries)
    .where(eq(schema.credentialStatusEntries.credentialId, id));
  return { row, entries };
}

describe('a HAIP 1.0 holder against an organization requiring DPoP and wallet attestation', () => {
  it('claims an SD-JWT VC batch (PAR, PKCE, issuer_state, DPoP, attestation) and presents fresh instances', async () => {
    const { credentialId: id, link } = await offer('haip-sdjwt@example.com');
    const issuance = await resolveCredentialOffer(link, context(), { authorizationCode: true });
    expect(issuance.configuration.format).toBe('dc+sd-jwt');
    const received = await requestCredential(issuance, await haipOptions(3), context());
    expect(received.instances).toHaveLength(3);
    const keys = new Set(received.instances.map((i) => i.key.publicJwk.x));
    expect(keys.size).toBe(3);

    const { row, entries } = await claimedRow(id);
    expect(row?.status).toBe('CLAIMED');
    expect(row?.walletProviderId).toBeTruthy();
    // The first instance has the credential's own status entry, the two others one each.
    expect(entries.map((e) => e.instance).sort()).toEqual([1, 2]);

    const verification = await createVerification('dc+sd-jwt');
    const seen = new Set<string>();
    for (const instance of received.instances.slice(0, 2)) {
      const attempt = await startAttempt(verification);
      // The wallet checks the request object's x5c names the host (x509_san_dns) before it answers.
      const request = await resolvePresentationRequest(attempt.link, context());
      expect(request.clientIdPrefix).toBe('x509_san_dns');
      expect(request.responseMode).toBe('direct_post.jwt');
      const response = await presentCredential(t, attempt.link, instance.credential, instance.key);
      expect(response.status, response.body).toBe(200);
      const result = await outcome(verification, attempt.id);
      expect(result.failed).toEqual([]);
      expect(result).toMatchObject({ status: 'VERIFIED', presented_claims: { full_name: 'Ada Lovelace', age: 36 } });
      // Unlinkable: each presentation carries another instance (its own issuer signature and holder key).
      seen.add(instance.credential.split('~')[0]!);
    }
    expect(seen.size).toBe(2);

    await revoke(id);
    const last = received.instances[2]!;
    const attempt = await startAttempt(verification);
    const response = await presentCredential(t, attempt.link, last.credential, last.key);
    expect(response.status, response.body).toBe(200);
    expect(await outcome(verification, attempt.id)).toMatchObject({ status: 'FAILED', failed: ['STATUS'] });
  });

  it('claims an mdoc batch the same way and presents fresh instances to an mso_mdoc verification', async () => {
    const { credentialId: id, link } = await offer('haip-mdoc@example.com');
    const issuance = await resolveCredentialOffer(link, context(), { authorizationCode: true, format: 'mso_mdoc' });
    expect(issuance.configuration.format).toBe('mso_mdoc');
    // The holder keeps each instance's COSE signer for its device signature.
    const coseSigners = new Map<string, CoseSigner>();
    const createKey = async (): Promise<HolderKey> => {
      const { privateJwk, publicJwk } = await generateEs256KeyPair();
      coseSigners.set(String(publicJwk.x), await coseSignerFromPrivateJwk(privateJwk));
      return { signer: await signerFromPrivateJwk(privateJwk), publicJwk };
    };
    const instances = await requestMdocCredentials(issuance, await haipOptions(3, createKey), context());
    expect(instances).toHaveLength(3);
    expect(new Set(instances.map((i) => i.key.publicJwk.x)).size).toBe(3);
    const { row, entries } = await claimedRow(id);
    expect(row?.status).toBe('CLAIMED');
    expect(row?.walletProviderId).toBeTruthy();
    expect(entries.map((e) => e.instance).sort()).toEqual([1, 2]);

    const verification = await createVerification('mso_mdoc');
    for (const instance of instances.slice(0, 2)) {
      const attempt = await startAttempt(verification);
      const holder = { key: instance.key, cose: coseSigners.get(String(instance.key.publicJwk.x))! };
      const response = await presentMdoc(t, attempt.link, instance.credential, holder);
      expect(response.status, response.body).toBe(200);
      const result = await outcome(verification, attempt.id);
      expect(result.failed).toEqual([]);
      expect(result).toMatchObject({ status: 'VERIFIED', presented_claims: { full_name: 'Ada Lovelace', age: 36 } });
    }

    await revoke(id);
    const last = instances[2]!;
    const attempt = await startAttempt(verification);
    const holder = { key: last.key, cose: coseSigners.get(String(last.key.publicJwk.x))! };
    const response = await presentMdoc(t, attempt.link, last.credential, holder);
    expect(response.status, response.body).toBe(200);
    expect(await outcome(verification, attempt.id)).toMatchObject({ status: 'FAILED', failed: ['STATUS'] });
  });

  it('refuses the same holder without its wallet attestation, and the offer stays claimable', async () => {
    const { credentialId: id, link } = await offer('haip-no-attestation@example.com');
    const issuance = await resolveCredentialOffer(link, context(), { authorizationCode: true });
    const { walletAttestation: _omitted, ...withoutAttestation } = await haipOptions(1);
    const refused = await requestCredential(
      issuance,
      { ...withoutAttestation, authorizationCode: { ...withoutAttestation.authorizationCode, clientId: CLIENT_ID } },
      context(),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HolderError);
    expect((refused as HolderError).remote?.error).toBe('invalid_client');
    expect((await claimedRow(id)).row?.status).not.toBe('CLAIMED');
  });

  it('refuses a pre-authorized claim without DPoP (a downgrade from the required proof)', async () => {
    const { credentialId: id, link } = await offer('haip-bearer@example.com');
    const issuance = await resolveCredentialOffer(link, context());
    // The holder would use DPoP when the issuer announces it: a downgrading client is simulated by hiding it.
    const bearerOnly = {
      ...issuance,
      issuerMetadata: {
        ...issuance.issuerMetadata,
        authorizationServers: issuance.issuerMetadata.authorizationServers.map((server) => {
          const { dpop_signing_alg_values_supported: _hidden, ...rest } = server;
          return rest;
        }),
      },
    };
    const refused = await requestCredential(
      bearerOnly,
      { key: await createHolderKey(), batchSize: 1, walletAttestation },
      context(),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HolderError);
    expect((refused as HolderError).remote?.error).toBe('invalid_dpop_proof');
    expect((await claimedRow(id)).row?.status).not.toBe('CLAIMED');
  });
});
