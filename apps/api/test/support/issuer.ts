import type { CreateCredentialSchemaRequest } from '@cp/contracts';
import { signerFromPrivateJwk, signJwt } from '@cp/credentials';
import { makeCertificate, type TestCertificate } from '@cp/credentials/testing';
import { type HolderKey, type Issuance, resolveCredentialOffer } from '@cp/holder';
import { expect } from 'vitest';
import { buildVerifiedOrganization, type TestApp } from '../harness.ts';
import { fetchOf, walletHttp } from './wallet.ts';

/**
 * An organization's OpenID4VCI issuer as the issuance tests set it up: a verified organization with one schema,
 * its issuer policy and its trusted wallet providers; fresh offers of it; a wallet provider and the attestation
 * it gives a wallet instance.
 */

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export interface TestIssuer {
  organizationId: string;
  /** The credential issuer identifier (`<public URL>/orgs/<id>`). */
  issuer: string;
  tokenEndpoint: string;
  credentialEndpoint: string;
  adminHeaders: Record<string, string>;
  schemaId: string;
  slug: string;
  /** An attribute's id by name (for verifications). */
  attributeId: (name: string) => string;
}

export interface TestIssuerOptions {
  /** The issuer policy (both false unless said). */
  policy?: { dpop_required?: boolean; wallet_attestation_required?: boolean };
  /** Certificates added as trusted wallet providers. */
  providers?: TestCertificate[];
  schema?: CreateCredentialSchemaRequest;
}

const MEMBERSHIP: CreateCredentialSchemaRequest = {
  name: 'Membership',
  attributes: [{ name: 'full_name', type: 'TEXT' }],
};

export async function buildIssuer(t: TestApp, name: string, options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const { organization, schemaRecord, headers } = await buildVerifiedOrganization(
    t,
    name,
    options.schema ?? MEMBERSHIP,
  );
  for (const provider of options.providers ?? []) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/wallet-providers',
      headers,
      payload: { name: `Provider ${provider.subject}`, certificate_pem: provider.pem },
    });
    expect(created.statusCode, created.body).toBe(201);
  }
  if (options.policy) {
    const policy = await t.app.inject({
      method: 'PUT',
      url: `/api/organizations/${organization.id}/issuer-policy`,
      headers,
      payload: { dpop_required: false, wallet_attestation_required: false, ...options.policy },
    });
    expect(policy.statusCode, policy.body).toBe(200);
  }
  const issuer = `${t.config.publicUrl}/orgs/${organization.id}`;
  return {
    organizationId: organization.id,
    issuer,
    tokenEndpoint: `${issuer}/token`,
    credentialEndpoint: `${issuer}/credential`,
    adminHeaders: headers,
    schemaId: schemaRecord.schema.id,
    slug: schemaRecord.schema.slug,
    attributeId: (attribute) => schemaRecord.attributes.find((a) => a.name === attribute)!.id,
  };
}

export interface TestOffer {
  credentialId: string;
  /** The offer link, for @cp/holder. */
  link: string;
  /** Its pre-authorized code, for hand-made requests. */
  code: string;
  /** The offer as @cp/holder resolved it before it was redeemed (by reference, it is gone once the code is used). */
  issuance: Issuance;
  /** The PIN, when the offer was made with one (`txCode: true`). */
  txCode?: string;
}

/** A fresh credential of the issuer's schema offered to `email` (claims: `full_name` by default). */
export async function offerOf(
  t: TestApp,
  issuer: TestIssuer,
  options: { email?: string; claims?: Record<string, string>; txCode?: boolean } = {},
): Promise<TestOffer> {
  const claims = options.claims ?? { full_name: 'Ada Lovelace' };
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers: issuer.adminHeaders,
    payload: {
      credential: {
        name: 'Membership of Ada',
        schema_id: issuer.schemaId,
        claims: Object.entries(claims).map(([name, value]) => ({ name, value })),
      },
      recipient: { email: options.email ?? 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      ...(options.txCode ? { tx_code: true } : {}),
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const credentialId = created.json().id as string;
  const txCode = created.json().tx_code as string | undefined;
  const http = walletHttp(t);
  const connect = (await http(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
  const link: string = connect.connection_url;
  const offerUri = new URL(link).searchParams.get('credential_offer_uri')!;
  const code: string = (await http(offerUri)).json().grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code'];
  const issuance = await resolveCredentialOffer(link, { fetch: fetchOf(t) });
  return { credentialId, link, code, issuance, ...(txCode ? { txCode } : {}) };
}

/** A wallet provider: a CA (what an organization trusts) and the attestation signing certificate it issued. */
export async function buildWalletProvider(name: string) {
  const ca = await makeCertificate({ subject: `CN=${name} CA`, ca: true });
  const signer = await makeCertificate({ subject: `CN=${name} Attestation Signer`, issuer: ca });
  return { ca, signer };
}

export const epochSeconds = () => Math.floor(Date.now() / 1000);

/** A Client Attestation JWT, every claim and header an attacker may want to choose. */
export async function signWalletAttestation(
  signer: TestCertificate,
  instance: HolderKey,
  options: { x5c?: string[]; sub?: string; exp?: number; typ?: string; signWith?: JsonWebKey } = {},
) {
  return signJwt(
    await signerFromPrivateJwk(options.signWith ?? signer.key.privateJwk),
    { typ: options.typ ?? 'oauth-client-attestation+jwt', x5c: options.x5c ?? [signer.b64] },
    {
      iss: 'https://wallet-provider.example',
      sub: options.sub ?? 'https://wallet.example',
      iat: epochSeconds() - 60,
      exp: options.exp ?? epochSeconds() + 3600,
      wallet_name: 'Example Wallet',
      cnf: { jwk: instance.publicJwk },
    },
  );
}

/** The browser step of an issuer-initiated authorization request: the authorization endpoint redirects at once. */
export const followAuthorizationRedirect = (t: TestApp) => async (authorizationRequestUrl: string) => {
  const { pathname, search } = new URL(authorizationRequestUrl);
  const answer = await t.app.inject({ url: `${pathname}${search}` });
  expect(answer.statusCode, answer.body).toBe(302);
  return answer.headers.location as string;
};
