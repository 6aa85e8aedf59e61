import type { AttributeDefinition, ClaimValue, StatusReference } from '@cp/credentials';
import { type CoseSigner, issueMdoc, mdocNames } from '@cp/credentials/mdoc';
import type { OrganizationSigner } from '../organization-keys/organization-keys.service.ts';
import { PROOF_ALG } from './issuer.protocol.ts';

/**
 * Every credential schema is also issued as an ISO mdoc (ISO/IEC 18013-5, OpenID4VCI 1.0 Appendix A.2):
 * a second credential configuration, `<slug>_mdoc` (slugs are `[a-z0-9-]`, so the suffix never collides),
 * next to the SD-JWT VC's `<slug>`. The doctype and the one namespace derive from the schema's `vct`
 * (mdocNames: `https://host/orgs/<id>/vct/<slug>` → `host-labels-reversed.orgs.<id>.vct.<slug>`), the data
 * element identifiers are the attribute names. An offer lists both configurations; the wallet picks one and
 * the offer still delivers one credential.
 */

export const MDOC_FORMAT = 'mso_mdoc';
const MDOC_SUFFIX = '_mdoc';
/** COSE ES256 (RFC 9053 §2.1): OpenID4VCI 1.0 A.2.2 lists mdoc signing algorithms as COSE identifiers. */
const COSE_ES256 = -7;

/**
 * How long an mdoc is valid. The SD-JWT VC of the same credential carries no `exp` (it ends by revocation in
 * the status list), but an MSO must have `validUntil` (18013-5 §9.1.2.4): a year, and revocation still works
 * through the MSO's `status`.
 */
export const MDOC_VALIDITY_MS = 365 * 24 * 60 * 60 * 1000;

export const mdocConfigurationId = (slug: string) => `${slug}${MDOC_SUFFIX}`;

/** The schema slug and format a credential configuration id names. */
export function readConfigurationId(id: string): { slug: string; format: 'dc+sd-jwt' | typeof MDOC_FORMAT } {
  return id.endsWith(MDOC_SUFFIX)
    ? { slug: id.slice(0, -MDOC_SUFFIX.length), format: MDOC_FORMAT }
    : { slug: id, format: 'dc+sd-jwt' };
}

/** One `mso_mdoc` credential configuration (OpenID4VCI 1.0 Appendix A.2.2): what a request is read against. */
export function mdocCredentialConfiguration(vct: string) {
  return {
    format: MDOC_FORMAT,
    doctype: mdocNames({ vct }).docType,
    // The holder key becomes the MSO's deviceKey, a COSE_Key.
    cryptographic_binding_methods_supported: ['cose_key'],
    credential_signing_alg_values_supported: [COSE_ES256],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: [PROOF_ALG] } },
  };
}

/** `credential_metadata.claims` of an mdoc configuration: paths `[namespace, element]` (Appendix A.2.2). */
export function mdocClaimsMetadata<D>(vct: string, attributeNames: string[], display: (name: string) => D) {
  const { namespace } = mdocNames({ vct });
  return attributeNames.map((name) => ({ path: [namespace, name] as [string, string], display: display(name) }));
}

export interface MdocIssuanceInput {
  signer: OrganizationSigner;
  vct: string;
  attributes: readonly AttributeDefinition[];
  claims: Record<string, ClaimValue>;
  holderJwk: JsonWebKey;
  /** The credential's Token Status List entry, the same its SD-JWT VC carries: revoking it revokes both. */
  status: StatusReference;
}

/**
 * The IssuerSigned (base64url CBOR, the `credential` of the credential response, Appendix A.2.4): signed by
 * the organization's key with its certificate as `x5chain` (the platform CA, acting as the IACA, is the anchor
 * and is not sent), the proof's key as deviceKey, and the credential's status list entry in the MSO.
 */
export function issueMdocCredential(input: MdocIssuanceInput): Promise<string> {
  const { docType, namespace } = mdocNames({ vct: input.vct });
  const cose: CoseSigner = { alg: 'ES256', sign: (data) => input.signer.signer.signBytes(data) };
  const signedAt = new Date();
  return issueMdoc({
    signer: cose,
    x5chain: input.signer.x5chain,
    docType,
    namespace,
    attributes: input.attributes,
    claims: input.claims,
    holderJwk: input.holderJwk,
    status: input.status,
    signedAt,
    validUntil: new Date(signedAt.getTime() + MDOC_VALIDITY_MS),
  });
}
