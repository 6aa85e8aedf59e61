import { z } from 'zod';
import { zHttpUrl } from './common.ts';

/**
 * An organization's trust anchors (the TRUST_ANCHORS trust policy of its verifications): certificate
 * authorities whose certified issuers it trusts, each added as a PEM CA certificate, or an ETSI TS 119 602
 * List of Trusted Entities (JSON LoTE, a signed JWS) read from its URL and checked with the list
 * operator's pinned signing certificate. Effective for the next presentation.
 */
export const trustAnchorKinds = ['CERTIFICATE', 'TRUSTED_LIST'] as const;
export const zTrustAnchorKind = z.enum(trustAnchorKinds);
export type TrustAnchorKind = z.infer<typeof zTrustAnchorKind>;

export const TRUST_ANCHORS_MAX = 50;
export const TRUST_ANCHOR_NAME_MAX = 120;
export const TRUST_ANCHOR_PEM_MAX = 20_000;

const zPem = z
  .string()
  .trim()
  .max(TRUST_ANCHOR_PEM_MAX)
  .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/, 'Must be one PEM certificate');

const zListUrl = zHttpUrl(2000);

export const zCreateTrustAnchorRequest = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('CERTIFICATE'),
    name: z.string().trim().min(1).max(TRUST_ANCHOR_NAME_MAX),
    /** A CA certificate (basicConstraints cA, keyCertSign when key usage is present), valid now. */
    certificate_pem: zPem,
  }),
  z.strictObject({
    kind: z.literal('TRUSTED_LIST'),
    name: z.string().trim().min(1).max(TRUST_ANCHOR_NAME_MAX),
    /** Where the signed List of Trusted Entities (`trustlist+jwt`) is published. */
    list_url: zListUrl,
    /** The list operator's signing certificate: the list must be signed by its key. */
    signer_certificate_pem: zPem,
  }),
]);
export type CreateTrustAnchorRequest = z.infer<typeof zCreateTrustAnchorRequest>;

export const zTrustAnchor = z.object({
  id: z.uuid(),
  kind: zTrustAnchorKind,
  name: z.string(),
  /** CERTIFICATE: the CA's subject DN, SHA-256 fingerprint (hex) and expiry. TRUSTED_LIST: the signer's. */
  subject: z.string().nullable(),
  fingerprint: z.string().nullable(),
  not_after: z.iso.datetime({ offset: true }).nullable(),
  certificate_pem: z.string().nullable(),
  /** TRUSTED_LIST: its URL, how many CA certificates it held when last read, when, and the last error. */
  list_url: z.string().nullable(),
  list_certificate_count: z.number().int().nullable(),
  list_fetched_at: z.iso.datetime({ offset: true }).nullable(),
  list_error: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TrustAnchor = z.infer<typeof zTrustAnchor>;

export const zTrustAnchorList = z.object({ results: z.array(zTrustAnchor), total: z.number().int() });
export type TrustAnchorList = z.infer<typeof zTrustAnchorList>;
