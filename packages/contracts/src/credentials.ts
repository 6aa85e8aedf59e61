import { z } from 'zod';
import { zTimeZone } from './common.ts';
import { zCredentialMailLocale } from './credential-imports.ts';
import { zClaimLabel, zHolderOrganization } from './holder-display.ts';
import { zCredentialKeyAttestation, zCredentialWalletAttestation } from './wallet-providers.ts';

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
  /** The trusted wallet provider that vouched for the holder's wallet when it claimed the credential. */
  wallet_attestation: zCredentialWalletAttestation.nullable().optional(),
  /** The trusted wallet provider that vouched for the holder's key (key attestation), and what it said. */
  key_attestation: zCredentialKeyAttestation.nullable().optional(),
});
export type Credential = z.infer<typeof zCredential>;

export const zCreatedCredential = zCredential.extend({
  /** Only when tx_code was requested: the PIN, shown once, to send to the recipient separately. */
  tx_code: z.string().optional(),
});

/**
 * `sort` of the credential list and its export: a field, descending with a leading `-`. `-created_at`
 * (newest first) is the default; `status` orders by the lifecycle (created, issued, expired, claimed, revoked),
 * newest first within each status; `recipient` by last name, then first name; `expires_at` by the claim
 * offer's expiry (credentials without an offer last, or first when descending). Only orders an index serves at a
 * million credentials are offered.
 */
export const credentialSorts = [
  '-created_at',
  'created_at',
  'status',
  '-status',
  'recipient',
  '-recipient',
  'expires_at',
  '-expires_at',
] as const;
export const zCredentialSort = z.enum(credentialSorts);
export type CredentialSort = z.infer<typeof zCredentialSort>;

/** A calendar day (ISO 8601 `YYYY-MM-DD`) of the years 1900-9998. */
const zCalendarDay = z.iso
  .date({ message: 'Must be a valid date (YYYY-MM-DD)' })
  .refine((day) => day >= '1900-01-01' && day <= '9998-12-31', 'Must be a date between 1900 and 9998');

/** The filters of the credential list, shared by the list and its CSV export. */
const credentialListFilters = {
  t: z.string().max(32).optional(),
  'filter.status': z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(zCredentialStatus)
    .optional(),
  'filter.schema_id': z.uuid().optional(),
  'filter.search': z.string().trim().max(200).optional(),
  /** Created on or after this day (inclusive), in `timezone`. */
  'filter.created_from': zCalendarDay.optional(),
  /** Created on or before this day (inclusive), in `timezone`. */
  'filter.created_to': zCalendarDay.optional(),
  /**
   * The IANA time zone the days of `filter.created_from`/`filter.created_to` are in (the console sends the
   * user's), and that the CSV export writes times in. Default `UTC`.
   */
  /** Only the credentials created by this CSV import (of the organization; another's lists nothing). */
  'filter.import_id': z.uuid().optional(),
  timezone: zTimeZone.default('UTC'),
  sort: zCredentialSort.default('-created_at'),
};

const createdRangeInOrder = (query: { 'filter.created_from'?: string; 'filter.created_to'?: string }) =>
  !query['filter.created_from'] ||
  !query['filter.created_to'] ||
  query['filter.created_from'] <= query['filter.created_to'];
const createdRangeError = {
  message: 'filter.created_from must not be after filter.created_to',
  path: ['filter.created_from'],
};

export const zCredentialListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    ...credentialListFilters,
  })
  .refine(createdRangeInOrder, createdRangeError);
export type CredentialListQuery = z.infer<typeof zCredentialListQuery>;

/** `GET credentials/export`: the list's filters and sort; the answer is every matching credential as CSV. */
export const zCredentialExportQuery = z.object(credentialListFilters).refine(createdRangeInOrder, createdRangeError);
export type CredentialExportQuery = z.infer<typeof zCredentialExportQuery>;

/** The columns of `GET credentials/export` (text/csv, UTF-8 with a byte order mark, times ISO 8601 in `timezone`). */
export const CREDENTIAL_EXPORT_COLUMNS = [
  'id',
  'name',
  'type',
  'recipient_first_name',
  'recipient_last_name',
  'recipient_email',
  'status',
  'created_at',
  'issued_at',
  'claimed_at',
  'expires_at',
  'revoked_at',
] as const;

export const zCredentialIdsRequest = z.strictObject({ credentials: z.array(z.uuid()).min(1).max(100) });

/** The public holder page's data: nothing personal beyond the recipient's name. */
export const zCredentialConnect = z.object({
  id: z.uuid(),
  status: zCredentialStatus,
  credential_name: z.string(),
  recipient: z.object({ first_name: z.string(), last_name: z.string() }),
  issuer: zHolderOrganization,
  /** What the credential contains, by label (never the values: the link may be forwarded). */
  claim_labels: z.array(zClaimLabel),
  /** `openid-credential-offer://?credential_offer_uri=…` while the offer can be redeemed, else null. */
  connection_url: z.string().nullable(),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
  tx_code_required: z.boolean(),
});
export type CredentialConnect = z.infer<typeof zCredentialConnect>;

export const credentialDeliveryStatuses = ['QUEUED', 'SENDING', 'SENT', 'FAILED'] as const;
export const zCredentialDeliveryStatus = z.enum(credentialDeliveryStatuses);
export type CredentialDeliveryStatus = z.infer<typeof zCredentialDeliveryStatus>;

/** One e-mail of a credential's claim link: the first one (sequence 1) and each resend. */
export const zCredentialDelivery = z.object({
  id: z.uuid(),
  /** 1 for the first e-mail, then 2, 3… for each resend. */
  sequence: z.number().int(),
  status: zCredentialDeliveryStatus,
  /** The e-mail's language. */
  locale: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  sent_at: z.iso.datetime({ offset: true }).nullable(),
});
export type CredentialDelivery = z.infer<typeof zCredentialDelivery>;

export const zCredentialDeliveryList = z.object({ results: z.array(zCredentialDelivery) });
export type CredentialDeliveryList = z.infer<typeof zCredentialDeliveryList>;

/** At most one resend of a credential's e-mail per this many seconds (else 429 with Retry-After). */
export const CREDENTIAL_RESEND_INTERVAL_SECONDS = 60;

/** `POST credentials/{id}/resend`: the claim e-mail once more (a new delivery), in the sender's language. */
export const zResendCredentialRequest = z
  .strictObject({
    /** The e-mail's language; without it, the best match of Accept-Language, else `en`. */
    locale: zCredentialMailLocale.optional(),
  })
  // No body at all is fine: an integrator's POST without one.
  .nullish();
export type ResendCredentialRequest = z.infer<typeof zResendCredentialRequest>;
