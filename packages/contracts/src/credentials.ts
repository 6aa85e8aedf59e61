import { z } from 'zod';

export const credentialStatuses = ['CREATED', 'ISSUED', 'CLAIMED', 'REVOKED', 'EXPIRED'] as const;
export const zCredentialStatus = z.enum(credentialStatuses);
export type CredentialStatus = z.infer<typeof zCredentialStatus>;

const zClaimInput = z.union([z.string().max(2000), z.number(), z.boolean()]);

export const zCreateCredentialWithRecipientRequest = z.strictObject({
  credential: z.strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(1000).optional(),
    schema_id: z.uuid(),
    /** The reference product sends a list of {name, value}; an object map is accepted too. */
    claims: z.union([
      z.array(z.strictObject({ name: z.string().min(1).max(64), value: zClaimInput })).max(100),
      z.record(z.string().min(1).max(64), zClaimInput),
    ]),
  }),
  recipient: z.strictObject({
    email: z.email().max(320),
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
  }),
  /** Protect the offer with a one-time PIN (OpenID4VCI tx_code) that the recipient gets separately. */
  tx_code: z.boolean().optional(),
});
export type CreateCredentialWithRecipientRequest = z.infer<typeof zCreateCredentialWithRecipientRequest>;

export const zCredential = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  status: zCredentialStatus,
  claims: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  recipient: z.object({ first_name: z.string(), last_name: z.string(), email: z.string() }),
  organization: z.object({ id: z.uuid(), name: z.string() }),
  schema: z.object({
    /** Null if the schema row no longer exists (the credential keeps a snapshot of its name and slug). */
    id: z.uuid().nullable(),
    /** As stored when issued: platform schemas are stored in English (the console shows them in the user's language). */
    name: z.string(),
    /** The credential schema's slug (as `CredentialSchema.slug`). Optional: absent from older answers. */
    slug: z.string().optional(),
    /** False for the platform's own schemas (as `CredentialSchema.deleteable`). Optional: absent from older answers. */
    deleteable: z.boolean().optional(),
  }),
  created_at: z.iso.datetime({ offset: true }),
  issued_at: z.iso.datetime({ offset: true }).nullable(),
  claimed_at: z.iso.datetime({ offset: true }).nullable(),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  /** When the current offer (the claim link) expires. */
  expired_at: z.iso.datetime({ offset: true }).nullable(),
  emailed_at: z.iso.datetime({ offset: true }).nullable(),
  /** The holder page that shows the QR code and the wallet link. */
  connect_url: z.string(),
});
export type Credential = z.infer<typeof zCredential>;

export const zCreatedCredential = zCredential.extend({
  /** Only when tx_code was requested: the PIN, shown once, to send to the recipient separately. */
  tx_code: z.string().optional(),
});

export const zCredentialListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  t: z.string().max(32).optional(),
  'filter.status': z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(zCredentialStatus)
    .optional(),
  'filter.schema_id': z.uuid().optional(),
  'filter.search': z.string().trim().max(200).optional(),
  /** Only the credentials created by this CSV import (of the organization; another's lists nothing). */
  'filter.import_id': z.uuid().optional(),
});
export type CredentialListQuery = z.infer<typeof zCredentialListQuery>;

export const zCredentialIdsRequest = z.strictObject({ credentials: z.array(z.uuid()).min(1).max(100) });

/** The public holder page's data: nothing personal beyond the recipient's name. */
export const zCredentialConnect = z.object({
  id: z.uuid(),
  status: zCredentialStatus,
  credential_name: z.string(),
  recipient: z.object({ first_name: z.string(), last_name: z.string() }),
  issuer: z.object({ name: z.string(), logo_url: z.string().nullable(), verified: z.boolean() }),
  /** `openid-credential-offer://?credential_offer_uri=…` while the offer can be redeemed, else null. */
  connection_url: z.string().nullable(),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
  tx_code_required: z.boolean(),
});
export type CredentialConnect = z.infer<typeof zCredentialConnect>;
