import { coseSignerFromPrivateJwk, MdocError, verifyIssuerSigned } from '@cp/credentials/mdoc';
import {
  createHolderKey,
  type HolderKey,
  type Issuance,
  type PresentationRequest,
  type RequestCredentialOptions,
  sameKey,
} from '@cp/holder';
import { buildMdocDeviceResponse, mdocHandover, requestMdocCredentials } from '@cp/holder/mdoc';
import { batchInstances, batchKeyMaker } from './batch.ts';
import { WalletError } from './errors.ts';
import { withHolder } from './holder.ts';
import { randomId } from './http.ts';
import { type ResolvedKey, resolveSignerKey } from './issuer-key.ts';
import type { PlatformTrust } from './platform-trust.ts';
import type {
  ClaimDisplay,
  CredentialDisplay,
  CredentialInstance,
  IssuerInfo,
  PresentationCandidate,
  StoredCredential,
} from './types.ts';

/**
 * ISO mdoc (`mso_mdoc`) in the wallet: receiving one (OpenID4VCI 1.0 Appendix A.2, @cp/holder/mdoc) bound to the
 * holder key, or a batch of them each bound to a key of its own, verifying each as the wallet verifies an SD-JWT VC
 * (issuer signature by its x5chain leaf, the chain decided by the same trust function, the doctype offered, validity,
 * device key = the key it was asked for), and answering an `mso_mdoc` DCQL query with a DeviceResponse (OpenID4VP 1.0
 * Appendix B.2) from a fresh instance. Loaded only by the receive and present
 * code paths that need it (a dynamic import), so @owf/mdoc stays out of every screen that shows no mdoc protocol.
 */

/** Clock skew allowed on `validFrom` (seconds), as the verifier allows. */
const SKEW_SECONDS = 60;

/**
 * Verifies an issued mdoc for this holder. Refuses (CREDENTIAL_INVALID) an IssuerSigned that does not verify with
 * its x5chain leaf or whose elements are not all in its MSO, a chain that does not speak for the issuer the wallet
 * received from (resolveSignerKey: a path to the platform's anchors, or self-asserted but naming the issuer), another
 * doctype than the one offered, an mdoc not valid now, or one whose device key is not the holder key.
 */
export async function verifyIssuedMdoc(
  raw: string,
  expected: {
    holderJwk: JsonWebKey;
    credentialIssuer: string;
    docType?: string;
    trust?: PlatformTrust | null;
    now?: Date;
  },
): Promise<{ verified: Awaited<ReturnType<typeof verifyIssuerSigned>>; key: ResolvedKey }> {
  let verified: Awaited<ReturnType<typeof verifyIssuerSigned>>;
  try {
    verified = await verifyIssuerSigned(raw);
  } catch (err) {
    const message = err instanceof MdocError || err instanceof Error ? err.message : String(err);
    throw new WalletError('CREDENTIAL_INVALID', `The mdoc does not verify: ${message}`);
  }
  let key: ResolvedKey;
  try {
    // The mdoc names no `iss`: its chain must name the issuer the offer came from (its leaf's SAN URI).
    key = await resolveSignerKey({ x5c: verified.x5chain }, { iss: expected.credentialIssuer }, expected.trust ?? null);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new WalletError(
      'CREDENTIAL_INVALID',
      `The mdoc's certificate chain does not speak for its issuer: ${message}`,
    );
  }
  if (!sameKey(key.jwk, verified.signerJwk)) {
    throw new WalletError('CREDENTIAL_INVALID', 'The mdoc is not signed by its issuer’s certified key');
  }
  if (expected.docType && verified.docType !== expected.docType) {
    throw new WalletError('CREDENTIAL_INVALID', 'The mdoc is not of the offered doctype');
  }
  const now = (expected.now ?? new Date()).getTime();
  if (verified.validUntil.getTime() <= now || verified.validFrom.getTime() - SKEW_SECONDS * 1000 > now) {
    throw new WalletError('CREDENTIAL_INVALID', 'The mdoc is not valid now (validityInfo)');
  }
  if (!sameKey(verified.deviceJwk ?? undefined, expected.holderJwk)) {
    throw new WalletError('CREDENTIAL_INVALID', 'The mdoc is not bound to this wallet’s key (deviceKey)');
  }
  return { verified, key };
}

/**
 * The stored form of a verified mdoc (status not checked yet: UNKNOWN). Its elements are flattened by identifier for
 * the screens (the first namespace that has one wins); the namespaces are kept as they are for DCQL.
 */
export async function storedMdocFrom(
  raw: string,
  context: {
    issuer: IssuerInfo;
    display: CredentialDisplay;
    claimDisplay: ClaimDisplay[];
    holderJwk: JsonWebKey;
    docType?: string;
    trust?: PlatformTrust | null;
  },
): Promise<StoredCredential> {
  const { verified, key } = await verifyIssuedMdoc(raw, {
    holderJwk: context.holderJwk,
    credentialIssuer: context.issuer.id,
    ...(context.docType ? { docType: context.docType } : {}),
    trust: context.trust ?? null,
  });
  const claims: Record<string, unknown> = {};
  for (const elements of Object.values(verified.namespaces)) {
    for (const [name, value] of Object.entries(elements)) if (!(name in claims)) claims[name] = value;
  }
  const claimDisplay = [
    ...context.claimDisplay.filter((c) => c.name in claims),
    ...Object.keys(claims)
      .filter((name) => !context.claimDisplay.some((c) => c.name === name))
      .map((name) => ({ name, label: { und: name } })),
  ];
  return {
    id: randomId(),
    format: 'mso_mdoc',
    raw,
    vct: verified.docType,
    issuer: { ...context.issuer, keySource: key.keySource, assurance: key.assurance },
    display: context.display,
    claimDisplay,
    claims,
    mdoc: { docType: verified.docType, namespaces: verified.namespaces, x5chain: verified.x5chain },
    issuedAt: verified.signed.toISOString(),
    expiresAt: verified.validUntil.toISOString(),
    ...(verified.status ? { statusReference: { uri: verified.status.uri, idx: verified.status.idx } } : {}),
    lastStatus: 'UNKNOWN',
    receivedAt: new Date().toISOString(),
  };
}

/**
 * Redeems an `mso_mdoc` configuration of an offer (@cp/holder/mdoc: token, nonce, key proofs, the IssuerSigned bound
 * to each) and verifies what arrives (storedMdocFrom). When the issuer issues batches (OpenID4VCI 1.0 §8.2 `proofs`,
 * HAIP 1.0), each further instance is bound to a fresh key of its own, verified as the first was (mdocBatchInstances)
 * and kept with its key's private half: one credential (one card) with its instances, as for an SD-JWT VC batch.
 */
export async function receiveMdoc(
  issuance: Issuance,
  holder: HolderKey,
  context: Omit<Parameters<typeof storedMdocFrom>[1], 'holderJwk' | 'docType'> & {
    txCode?: string;
    /** At most this many instances (default: the issuer's batch_size). */
    batchSize?: number;
    /** The DPoP key of the pushed authorization request (default: one made for this request). */
    dpopKey?: HolderKey;
    /** The authorization code flow's end: the pending request and the issuer's redirect (instead of a grant). */
    authorizationResponse?: RequestCredentialOptions['authorizationResponse'];
  },
): Promise<StoredCredential> {
  const dpopKey = context.dpopKey ?? (await createHolderKey());
  const { keys: batchKeys, createKey } = batchKeyMaker();
  const [first, ...further] = await withHolder('ISSUER_ERROR', (holderContext) =>
    requestMdocCredentials(
      issuance,
      {
        key: holder,
        dpopKey,
        createKey,
        ...(context.txCode !== undefined ? { txCode: context.txCode } : {}),
        ...(context.batchSize !== undefined ? { batchSize: context.batchSize } : {}),
        ...(context.authorizationResponse ? { authorizationResponse: context.authorizationResponse } : {}),
      },
      holderContext,
    ),
  );
  const docType = typeof issuance.configuration.doctype === 'string' ? issuance.configuration.doctype : undefined;
  const stored = await storedMdocFrom(first!.credential, {
    issuer: context.issuer,
    display: context.display,
    claimDisplay: context.claimDisplay,
    holderJwk: holder.publicJwk,
    ...(docType ? { docType } : {}),
    trust: context.trust ?? null,
  });
  if (further.length === 0) return stored;
  // Each further instance verified as the first was (issuer signature, chain and trust, doctype, validity, device
  // key = the key made for it) and holding the same elements.
  const instances = await batchInstances(further, batchKeys, async (credential, pair) => {
    const { verified } = await verifyIssuedMdoc(credential, {
      holderJwk: pair.publicJwk,
      credentialIssuer: stored.issuer.id,
      docType: stored.vct,
      trust: context.trust ?? null,
    });
    return {
      sameAsFirst: canonical(verified.namespaces) === canonical(stored.mdoc?.namespaces ?? {}),
      ...(verified.status ? { statusReference: { uri: verified.status.uri, idx: verified.status.idx } } : {}),
    };
  });
  return {
    ...stored,
    instances: [
      { raw: stored.raw, ...(stored.statusReference ? { statusReference: stored.statusReference } : {}) },
      ...instances,
    ],
  };
}

/** JSON of elements by namespace, both levels sorted: two instances' elements compared whatever their order. */
const canonical = (namespaces: Record<string, Record<string, unknown>>) =>
  JSON.stringify(
    Object.entries(namespaces)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([namespace, elements]) => [namespace, Object.entries(elements).sort(([a], [b]) => a.localeCompare(b))]),
  );

/**
 * The `vp_token` entry answering an `mso_mdoc` query with a held mdoc: a DeviceResponse disclosing exactly the
 * candidate's paths, device-signed over this request's session transcript (mdocHandover: with the thumbprint of the
 * verifier's encryption key for `direct_post.jwt`). `instance`: the one of a batch to present (chooseInstance),
 * device-signed by the key it is bound to; absent or without a key of its own, the held mdoc with the holder key.
 */
export async function mdocDeviceResponse(
  request: PresentationRequest,
  candidate: PresentationCandidate,
  holder: { cose: Parameters<typeof buildMdocDeviceResponse>[0]['signer'] },
  instance?: Pick<CredentialInstance, 'raw' | 'key'>,
): Promise<string> {
  return withHolder('CREDENTIAL_INVALID', async () =>
    buildMdocDeviceResponse({
      ...(await mdocHandover(request)),
      issuerSigned: instance?.raw ?? candidate.credential.raw,
      paths: candidate.paths ?? [],
      signer: instance?.key ? await coseSignerFromPrivateJwk(instance.key.privateJwk) : holder.cose,
    }),
  );
}
