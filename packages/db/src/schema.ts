import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { uuidv7 } from './ids.ts';

/** A public JSON Web Key as stored (EC P-256 in practice). */
export type PublicJwk = { kty: string; crv?: string; x?: string; y?: string; kid?: string; [key: string]: unknown };

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------------------------------------
// Platform: secrets encrypted under the master key (signing keys, cookie keys, client secrets).
// ---------------------------------------------------------------------------------------------
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  /** AES-256-GCM envelope (see secret-box.ts): never the plain value. */
  ciphertext: text('ciphertext').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------
// API: users as seen by the relying party (any OpenID Connect provider), organizations, sessions.
// ---------------------------------------------------------------------------------------------
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    /** The provider's `email_verified` at the last sign-in: only a verified address can name an administrator. */
    emailVerified: boolean('email_verified').notNull().default(false),
    username: text('username'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    jobTitle: text('job_title'),
    avatarUrl: text('avatar_url'),
    avatarMediaId: uuid('avatar_media_id'),
    /** The person's language (en, ja, es, ko): the provider's `locale` claim, then the console's choice; e-mails to them use it. */
    locale: text('locale'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_issuer_subject_key').on(t.issuer, t.subject)],
);

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    /** Identity provider the organization came from; null for organizations created in the console. */
    issuer: text('issuer'),
    externalId: text('external_id'),
    logoUrl: text('logo_url'),
    logoMediaId: uuid('logo_media_id'),
    verificationStatus: text('verification_status').notNull().default('UNDEFINED'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** The organization's brand colour (`#rrggbb`) on its e-mails, holder pages and issuer display; null: the product's. */
    brandColor: text('brand_color'),
    /** Members must have signed in with two steps (the ID token's `amr`) to act for the organization. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /**
     * Bumped by the database (triggers, migration 0025) whenever what a verifier's response reads of the
     * organization changes: its trust anchors (added, removed, certificates changed) or its webhook endpoints
     * taking events. An outcome checked against a copy kept in memory is stored only while this is unchanged.
     */
    verifierRevision: bigint('verifier_revision', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('organizations_issuer_external_id_key').on(t.issuer, t.externalId)],
);

/** A member's role: admin (members, API keys, webhooks, trust, profile, KYB) or member (schemas, issuing, verifying). */
export type MemberRole = 'admin' | 'member';

export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'provider' when the membership mirrors the identity provider's claim, 'local' otherwise. */
    source: text('source').notNull().default('local'),
    role: text('role').$type<MemberRole>().notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
    index('memberships_org_role_idx').on(t.organizationId, t.role),
  ],
);

/**
 * A member an admin removed from an organization that the identity provider still names in the person's
 * `organizations` claim: the next sign-in does not bring them back. An accepted invitation lifts it.
 */
export const membershipExclusions = pgTable(
  'membership_exclusions',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/** An invitation to join an organization, sent by e-mail; the link carries a token stored as SHA-256. */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The inviter's console language: the invitation e-mail's. */
    locale: text('locale').notNull().default('en'),
    invitedByUserId: uuid('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedByUserId: uuid('accepted_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('organization_invitations_token_key').on(t.tokenHash),
    index('organization_invitations_org_idx').on(t.organizationId, t.createdAt),
    uniqueIndex('organization_invitations_pending_email_key')
      .on(t.organizationId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL`),
  ],
);

/**
 * The activity log: one row per change an organization makes, append-only (a trigger refuses UPDATE).
 * Who (a user or an API key, with the name they had then), when, what (`action`, e.g. `credential.revoked`)
 * and the target, with a few details. Never holds secrets or claim values.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** USER | API_KEY | HOLDER | SYSTEM */
    actorType: text('actor_type').notNull(),
    actorUserId: uuid('actor_user_id'),
    actorApiKeyId: uuid('actor_api_key_id'),
    /** The actor's name or e-mail (a user) or the key's name, as it was when it acted. */
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_org_idx').on(t.organizationId, t.occurredAt, t.id),
    index('audit_events_org_action_idx').on(t.organizationId, t.action, t.occurredAt),
    index('audit_events_org_target_idx').on(t.organizationId, t.targetType, t.targetId),
    // "Made by": by actor type, and by one user or one API key (partial: most rows have only one of them).
    index('audit_events_org_actor_type_idx').on(t.organizationId, t.actorType, t.occurredAt),
    index('audit_events_org_actor_user_idx')
      .on(t.organizationId, t.actorUserId, t.occurredAt)
      .where(sql`${t.actorUserId} IS NOT NULL`),
    index('audit_events_org_actor_api_key_idx')
      .on(t.organizationId, t.actorApiKeyId, t.occurredAt)
      .where(sql`${t.actorApiKeyId} IS NOT NULL`),
  ],
);

/** One sign-in attempt: PKCE verifier, state and nonce kept server-side until the code comes back. */
export const authSessions = pgTable('auth_sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  state: text('state').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  redirectUrl: text('redirect_url').notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/** Opaque refresh tokens, stored as SHA-256; rotation keeps a family so reuse can revoke it whole. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The identity provider's session id (the ID token's `sid` at sign-in; null when it sent none), kept by
     * every token of the family: a back-channel logout token naming that sid ends only the families opened
     * from that provider session.
     */
    providerSid: text('provider_sid'),
    /** The provider said the person signed in with two steps (`amr` with `otp`/`mfa`), kept by the family. */
    twoFactor: boolean('two_factor').notNull().default(false),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_provider_sid_idx').on(t.providerSid),
  ],
);

// ---------------------------------------------------------------------------------------------
// Account center (the bundled OpenID Connect provider): its own accounts and organizations.
// ---------------------------------------------------------------------------------------------
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** scrypt$N$r$p$salt$hash (base64url) */
    passwordHash: text('password_hash').notNull(),
    locale: text('locale'),
    /**
     * When the address was vouched for: accounts an operator creates (`npm run admin -- user create`) or
     * marks (`user verify-email`); null for self sign-ups. Sent to clients as `email_verified`.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The authenticator app's TOTP secret (RFC 6238), encrypted under the master key; null: one step. */
    totpSecretCiphertext: text('totp_secret_ciphertext'),
    /** When two-step sign-in was turned on (the secret confirmed with a code); null while being set up. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last TOTP time step accepted: a code is good once (RFC 6238 §5.2). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_username_key').on(sql`lower(${t.username})`),
    uniqueIndex('accounts_email_key').on(sql`lower(${t.email})`),
  ],
);

/** Single-use recovery codes for two-step sign-in, stored as SHA-256. */
export const accountRecoveryCodes = pgTable(
  'account_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('account_recovery_codes_key').on(t.accountId, t.codeHash)],
);

/** "Forgot password?" links: single use, short-lived, the token stored as SHA-256. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_resets_token_key').on(t.tokenHash),
    index('password_resets_account_idx').on(t.accountId, t.createdAt),
  ],
);

export const accountOrganizations = pgTable('account_organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description'),
  createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const accountMemberships = pgTable(
  'account_memberships',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => accountOrganizations.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('owner'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.organizationId] })],
);

/** oidc-provider's storage (sessions, grants, codes, tokens): one row per model instance. */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.type] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
  ],
);

// ---------------------------------------------------------------------------------------------
// Organization workspace: credential schemas, media, KYB, integration API keys.
// ---------------------------------------------------------------------------------------------

/** A published credential schema. Never edited; deleting sets deleted_at (issued credentials keep theirs). */
export const credentialSchemas = pgTable(
  'credential_schemas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** null for the platform's own schemas (KYC, Educational Certificate, Work Certificate). */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Verify-only schemas (KYC) cannot be issued. */
    issueDisabled: boolean('issue_disabled').notNull().default(false),
    /** Stable slug for the SD-JWT VC `vct` and claim paths. */
    slug: text('slug').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('credential_schemas_org_idx').on(t.organizationId, t.createdAt)],
);

export const credentialSchemaAttributes = pgTable(
  'credential_schema_attributes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schemaId: uuid('schema_id')
      .notNull()
      .references(() => credentialSchemas.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** TEXT | NUMBER | BOOLEAN | URL | DATETIME | EMAIL */
    type: text('type').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('credential_schema_attributes_name_key').on(t.schemaId, t.name)],
);

/** An uploaded file: logos and avatars are public, KYB documents are private to the organization. */
export const media = pgTable(
  'media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    uploadedByUserId: uuid('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** public | private */
    visibility: text('visibility').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('media_org_idx').on(t.organizationId)],
);

/** One application for organization verification; a rejected one can be followed by a new one. */
export const kybApplications = pgTable(
  'kyb_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** PENDING | APPROVED | REJECTED */
    status: text('status').notNull().default('PENDING'),
    documentIds: jsonb('document_ids').$type<string[]>().notNull(),
    submittedByUserId: uuid('submitted_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reason: text('reason'),
  },
  (t) => [index('kyb_applications_org_idx').on(t.organizationId, t.submittedAt)],
);

/** Integration API keys: the secret is stored as SHA-256 only and shown once. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Public key identifier sent as the Basic-auth user name. */
    keyId: text('key_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    lastFour: text('last_four').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_key_id_key').on(t.keyId), index('api_keys_org_idx').on(t.organizationId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Credential engine: organization keys, credentials, offers, nonces, status lists.
// ---------------------------------------------------------------------------------------------

/** An organization's ES256 signing key; the private JWK only as ciphertext under the master key. */
export const organizationKeys = pgTable(
  'organization_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** JWK thumbprint (RFC 7638): the `kid` in headers, DID documents and issuer metadata. */
    kid: text('kid').notNull(),
    publicJwk: jsonb('public_jwk').$type<PublicJwk>().notNull(),
    privateJwkCiphertext: text('private_jwk_ciphertext').notNull(),
    /** PEM certificate for this key, issued by the platform CA (HAIP x5c). */
    certificatePem: text('certificate_pem'),
    createdAt: createdAt(),
    /** Set on rotation: the key stops signing but stays published so old credentials keep verifying. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('organization_keys_kid_key').on(t.kid),
    uniqueIndex('organization_keys_active_key').on(t.organizationId).where(sql`${t.retiredAt} is null`),
  ],
);

/**
 * An organization's Token Status Lists: as many as it needs, each with its own id and URI
 * (`/orgs/:id/status-lists/:statusListId`; list number 1 also answers at the older `/orgs/:id/status-list`).
 * The bits are read from credentials (status_list_id, status_index, revoked_at). An index is handed out by
 * advancing `next_index` (positions in the list's own shuffled order, see credentials.repository.ts
 * allocateStatusIndexes): index = random_from + shuffle(seed, size - random_from)(position - random_from).
 */
export const statusLists = pgTable(
  'status_lists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** 1, 2, 3… within the organization, in the order the lists were opened. */
    number: integer('number').notNull(),
    size: integer('size').notNull(),
    /** How many positions are handed out; the list is full at `size`. */
    nextIndex: integer('next_index').notNull().default(0),
    /**
     * Indexes below this were handed out in order before lists were shuffled (migration 0013 sets it to the
     * old counter): the shuffle covers only [random_from, size).
     */
    randomFrom: integer('random_from').notNull().default(0),
    /** The key of the list's shuffle (secret: it maps issuance order to indexes). */
    seed: text('seed').notNull().default(sql`md5(gen_random_uuid()::text)`),
    /** Bumped with every revocation in this list (same transaction): a signed list cached for an older revision is stale. */
    revision: bigint('revision', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('status_lists_org_number_key').on(t.organizationId, t.number),
    // The target of credentials' (organization_id, status_list_id) foreign key: a credential's list is its
    // organization's.
    uniqueIndex('status_lists_org_id_key').on(t.organizationId, t.id),
    // The lists that still have room (allocation picks among them).
    index('status_lists_open_idx').on(t.organizationId).where(sql`${t.nextIndex} < ${t.size}`),
  ],
);

export const credentials = pgTable(
  'credentials',
  {
    /** Time-ordered (UUIDv7, ids.ts) when the app inserts: writes stay at the indexes' right edge. */
    id: uuid('id')
      .primaryKey()
      .defaultRandom()
      .$defaultFn(() => uuidv7()),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    schemaId: uuid('schema_id').references(() => credentialSchemas.id, { onDelete: 'set null' }),
    /** What the credential needs of its schema (name, slug, attributes), kept if the schema is deleted. */
    schemaSnapshot: jsonb('schema_snapshot').$type<Record<string, unknown>>().notNull(),
    name: text('name').notNull(),
    description: text('description'),
    recipientEmail: text('recipient_email').notNull(),
    recipientFirstName: text('recipient_first_name').notNull(),
    recipientLastName: text('recipient_last_name').notNull(),
    /** Claim values typed by attribute type. */
    claims: jsonb('claims').$type<Record<string, string | number | boolean>>().notNull(),
    /** CREATED | ISSUED | CLAIMED | REVOKED (EXPIRED is derived from the offer's expiry). */
    status: text('status').notNull().default('CREATED'),
    /** The status list holding the credential's bit (of the same organization: composite foreign key). */
    statusListId: uuid('status_list_id').notNull(),
    statusIndex: integer('status_index').notNull(),
    signingKeyId: uuid('signing_key_id').references(() => organizationKeys.id, { onDelete: 'set null' }),
    holderJwk: jsonb('holder_jwk').$type<PublicJwk>(),
    /** The trusted wallet provider whose wallet attestation the holder's wallet presented at the token step. */
    walletProviderId: uuid('wallet_provider_id').references((): AnyPgColumn => walletProviders.id, {
      onDelete: 'set null',
    }),
    /** What that attestation said (kept when the provider is removed): see WalletAttestationRecord. */
    walletAttestation: jsonb('wallet_attestation').$type<WalletAttestationRecord>(),
    /** The key attestation of the holder key's proof, when the wallet sent one (OpenID4VCI 1.0 Appendix D). */
    keyAttestation: jsonb('key_attestation').$type<KeyAttestationRecord>(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    /** Set for credentials created by a CSV import: (import, row) is unique, so a re-run never duplicates. */
    importId: uuid('import_id'),
    importRow: integer('import_row'),
    /**
     * The latest offer's expiry (max of credential_offers.expires_at), kept by a trigger on
     * credential_offers (migration 0008): an ISSUED credential past it is EXPIRED. Never written by the app.
     */
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    /**
     * What `filter.search` matches, lower-cased: e-mail, "first last" (which holds each name) and the
     * credential's name, joined by U+001F so a term without that character never matches across two
     * fields. Generated by PostgreSQL; trigram-indexed (credentials_search_idx).
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower("recipient_email" || chr(31) || "recipient_first_name" || ' ' || "recipient_last_name" || chr(31) || "name")`,
    ),
  },
  (t) => [
    // The console's list: newest first within an organization, optionally by status or schema
    // (bench/credential-list.bench.ts measured them at 1,000,000 credentials).
    index('credentials_org_idx')
      .on(t.organizationId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index('credentials_org_status_idx')
      .on(t.organizationId, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    index('credentials_org_schema_idx')
      .on(t.organizationId, t.schemaId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // ISSUED and EXPIRED pages (newest first) and the EXPIRED count of the current hour (see
    // credential_counts); migration 0008 adds INCLUDE (offer_expires_at, schema_id) so both are index-only.
    index('credentials_org_issued_idx')
      .on(t.organizationId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null and ${t.status} = 'ISSUED'`),
    index('credentials_org_offer_expiry_idx')
      .on(t.organizationId, t.offerExpiresAt)
      .where(sql`${t.deletedAt} is null and ${t.status} = 'ISSUED'`),
    // sort=recipient and sort=expires_at (either way: an index scan backward), deep pages index-only.
    index('credentials_org_recipient_idx')
      .on(t.organizationId, t.recipientLastName, t.recipientFirstName, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Wallet-initiated issuance (migration 0021): an organization's claimable credentials for a proven address
    // (partial: only ISSUED credentials can be claimed, so imported CREATED rows pay nothing for it).
    index('credentials_recipient_email_idx')
      .on(t.organizationId, sql`lower(${t.recipientEmail})`)
      .where(sql`${t.deletedAt} is null and ${t.status} = 'ISSUED'`),
    index('credentials_org_expires_idx')
      .on(t.organizationId, t.offerExpiresAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // filter.search: a trigram index (pg_trgm) answers `search_text like '%term%'`.
    index('credentials_search_idx').using('gin', t.searchText.op('gin_trgm_ops')).where(sql`${t.deletedAt} is null`),
    uniqueIndex('credentials_import_row_key').on(t.importId, t.importRow),
    // Never the same (list, index) twice (Token Status List: the Issuer MUST prevent double allocation).
    uniqueIndex('credentials_status_index_key').on(t.statusListId, t.statusIndex),
    // The revoked bits of one list: what building its token reads.
    index('credentials_status_revoked_idx').on(t.statusListId, t.statusIndex).where(sql`${t.revokedAt} is not null`),
    foreignKey({
      name: 'credentials_status_list_fk',
      columns: [t.organizationId, t.statusListId],
      foreignColumns: [statusLists.organizationId, statusLists.id],
    }).onDelete('cascade'),
  ],
);

/**
 * The further instances of a credential issued as a batch (OpenID4VCI 1.0 §8.2 `proofs`, HAIP 1.0): instance
 * n ≥ 1 is bound to its own holder key and has its own status entry; instance 0 is the credential row's own
 * (`holder_jwk`, `status_list_id`, `status_index`). Their bits follow the credential's `revoked_at`. Slots come
 * from the credentials' allocator (a list's counter only moves forward): never one given to another instance
 * or credential. Migration 0018.
 */
export const credentialStatusEntries = pgTable(
  'credential_status_entries',
  {
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    instance: integer('instance').notNull(),
    organizationId: uuid('organization_id').notNull(),
    statusListId: uuid('status_list_id').notNull(),
    statusIndex: integer('status_index').notNull(),
    holderJwk: jsonb('holder_jwk').$type<PublicJwk>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'credential_status_entries_pkey', columns: [t.credentialId, t.instance] }),
    check('credential_status_entries_instance_check', sql`${t.instance} >= 1`),
    // Never the same (list, index) twice; also what building a list's token reads.
    uniqueIndex('credential_status_entries_status_index_key').on(t.statusListId, t.statusIndex),
    foreignKey({
      name: 'credential_status_entries_status_list_fk',
      columns: [t.organizationId, t.statusListId],
      foreignColumns: [statusLists.organizationId, statusLists.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Per-organization credential counts as insert-only deltas, written by statement triggers on credentials
 * (migration 0008) so the list's exact `total` is a sum over a few rows instead of a count over millions.
 * Insert-only: concurrent issuers never wait on one counter row. The list compacts an organization's
 * deltas into one row per key when they pile up. Only credentials not soft-deleted are counted; ISSUED
 * ones are keyed by the hour their latest offer expires (`expiry_hour`), so EXPIRED = the ISSUED rows of
 * past hours + an index count within the current hour. No foreign key: deleting an organization cascades
 * to its credentials, whose delete trigger writes here while the organization row is already gone.
 */
export const credentialCounts = pgTable(
  'credential_counts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id').notNull(),
    schemaId: uuid('schema_id'),
    status: text('status').notNull(),
    expiryHour: timestamp('expiry_hour', { withTimezone: true }),
    delta: bigint('delta', { mode: 'number' }).notNull(),
  },
  (t) => [index('credential_counts_org_idx').on(t.organizationId, t.status, t.schemaId)],
);

/** An OpenID4VCI pre-authorized offer for one credential: single-use, expiring after a week. */
export const credentialOffers = pgTable(
  'credential_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    preAuthorizedCodeHash: text('pre_authorized_code_hash').notNull(),
    txCodeHash: text('tx_code_hash'),
    txCodeAttempts: integer('tx_code_attempts').notNull().default(0),
    accessTokenHash: text('access_token_hash'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The code was exchanged for an access token. */
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** The credential was delivered. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('credential_offers_code_key').on(t.preAuthorizedCodeHash),
    uniqueIndex('credential_offers_token_key').on(t.accessTokenHash),
    // The list's offer-expiry subquery reads the index alone.
    index('credential_offers_credential_idx').on(t.credentialId, t.expiresAt),
  ],
);

/** Single-use nonces (OpenID4VCI c_nonce, OpenID4VP nonce), stored hashed. */
export const nonces = pgTable(
  'nonces',
  {
    nonceHash: text('nonce_hash').primaryKey(),
    purpose: text('purpose').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('nonces_expires_idx').on(t.expiresAt)],
);

/** A CSV import: a durable job that turns every valid row into a credential and reports the others. */
export const credentialImports = pgTable(
  'credential_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    schemaId: uuid('schema_id').references(() => credentialSchemas.id, { onDelete: 'set null' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Credential name and description for every row (the wizard's step 2). */
    credentialName: text('credential_name').notNull(),
    credentialDescription: text('credential_description'),
    /** Where the uploaded file is kept (storage key) until the import completes. */
    storageKey: text('storage_key').notNull(),
    /** PENDING | PROCESSING | COMPLETED | FAILED */
    status: text('status').notNull().default('PENDING'),
    totalCount: integer('total_count').notNull().default(0),
    processedCount: integer('processed_count').notNull().default(0),
    succeededCount: integer('succeeded_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    /** Row errors: [{row, column, message}] (capped). */
    errors: jsonb('errors').$type<{ row: number; column: string; message: string }[]>().notNull().default([]),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('credential_imports_org_idx').on(t.organizationId, t.createdAt)],
);

/** One e-mail delivery of a credential's claim link: at most one sent per credential and message batch. */
export const credentialDeliveries = pgTable(
  'credential_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    message: text('message'),
    /** The e-mail's language (en, ja, es, ko): the console language of whoever sent it. */
    locale: text('locale').notNull().default('en'),
    /** 1 for the first e-mail of a credential, 2, 3… for each "resend": each one sent exactly once. */
    sequence: integer('sequence').notNull().default(1),
    /** QUEUED | SENDING | SENT | FAILED */
    status: text('status').notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('credential_deliveries_credential_key').on(t.credentialId, t.sequence),
    index('credential_deliveries_org_idx').on(t.organizationId, t.status),
  ],
);

// ---------------------------------------------------------------------------------------------
// Verification: verification requests, individual attempts (OpenID4VP), webhooks.
// ---------------------------------------------------------------------------------------------

/** One rule of a verification: a schema attribute (or a claim of an external type), an operator and a value, kept by value. */
export type VerificationRuleRecord = {
  /** The schema attribute; absent for a claim of an external credential type (named by `name`). */
  attributeId?: string;
  name: string;
  type: string;
  operator: 'EQUAL' | 'NOT' | 'BIGGER' | 'SMALLER';
  value: string;
};

/** A credential type of another issuer that a verification asks for (instead of one of the platform's schemas). */
export type ExternalCredentialTypeRecord = {
  /** `dc+sd-jwt` (an SD-JWT VC, by `vct`) or `mso_mdoc` (an ISO mdoc, by doctype). */
  format: VerificationFormat;
  /** SD-JWT VC: the `vct` values asked for (empty for an mdoc). */
  vctValues: string[];
  /** mso_mdoc: the doctype asked for (DCQL `doctype_value`). */
  docType?: string;
  /**
   * Claims by name, each at a DCQL claims path (`[namespace, element]` for an mdoc), with the type its rules
   * compare by.
   */
  claims: { name: string; path: (string | number | null)[]; type: string }[];
};

/** The credential format a verification asks the wallet for. */
export type VerificationFormat = 'dc+sd-jwt' | 'mso_mdoc';

/**
 * Which issuers a verification admits: this platform's KYB-verified organizations (the default), issuers
 * named in `trusted_issuers`, the organization's trust anchors, or (by explicit choice) any issuer whose
 * key is bound to it.
 */
export type TrustPolicy = 'PLATFORM_VERIFIED' | 'NAMED_ISSUERS' | 'TRUST_ANCHORS' | 'ANY_ISSUER';
export type VerifierClientIdScheme = 'x509_hash' | 'x509_san_dns';

/** A verification request of an organization: what to ask for and the rules the answer must meet. */
export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Short public reference shown as the proof id. */
    presentId: text('present_id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** The schema asked for; null when the verification asks for an external credential type. */
    schemaId: uuid('schema_id').references(() => credentialSchemas.id, { onDelete: 'restrict' }),
    /** The external credential type asked for (another issuer's `vct`), when there is no schema. */
    credentialType: jsonb('credential_type').$type<ExternalCredentialTypeRecord>(),
    /** The format asked for: an SD-JWT VC (`dc+sd-jwt`) or an ISO mdoc (`mso_mdoc`, migration 0019). */
    format: text('format').$type<VerificationFormat>().notNull().default('dc+sd-jwt'),
    /** SINGLE | MULTI */
    type: text('type').notNull(),
    rules: jsonb('rules').$type<VerificationRuleRecord[]>().notNull().default([]),
    trustPolicy: text('trust_policy').$type<TrustPolicy>().notNull().default('PLATFORM_VERIFIED'),
    trustedIssuers: jsonb('trusted_issuers').$type<string[]>().notNull().default([]),
    /** How its requests name the verifier (OpenID4VP 1.0 §5.9.3); migration 0019. */
    clientIdScheme: text('client_id_scheme').$type<VerifierClientIdScheme>().notNull().default('x509_hash'),
    /**
     * The secret integrators sign holder links with (`customer` + `signature`), encrypted under the master
     * key: a signed customer id is one the integrator vouches for.
     */
    linkSecretCiphertext: text('link_secret_ciphertext'),
    /** Claim names to ask the wallet to disclose (the rules' claims included). */
    requestedClaims: jsonb('requested_claims').$type<string[]>().notNull().default([]),
    requestedAttributeIds: jsonb('requested_attribute_ids').$type<string[]>().notNull().default([]),
    /** SINGLE only: set when an attempt completed, in the same transaction; the link is then used. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('verifications_org_idx').on(t.organizationId, t.type, t.createdAt),
    uniqueIndex('verifications_present_id_key').on(t.presentId),
    check('verifications_client_id_scheme_check', sql`${t.clientIdScheme} in ('x509_hash', 'x509_san_dns')`),
  ],
);

/**
 * One holder's attempt at a verification (the reference product's "individual"). Storage parameters set by
 * migrations, which Drizzle's table builder cannot express: toast_tuple_target 8160 (0023) and fillfactor 40
 * (0024), so that an answered attempt is neither compressed nor moved to another page (issue 16).
 */
export const verificationIndividuals = pgTable(
  'verification_individuals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => verifications.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    /**
     * Who vouches for `customer_id`: API (the integrator created the attempt with its API key), SIGNED_LINK
     * (a holder link signed with the verification's link secret), LABEL (an unsigned `?customer=`, kept as a
     * label only) or GENERATED. Only API and SIGNED_LINK attempts answer the per-customer lookup.
     */
    customerBinding: text('customer_binding').notNull().default('LABEL'),
    /** CREATED | REQUESTED | VERIFIED | FAILED */
    status: text('status').notNull().default('CREATED'),
    /** OpenID4VP request values, fixed at creation. */
    nonce: text('nonce').notNull(),
    state: text('state').notNull(),
    /** The ephemeral ECDH-ES private JWK for direct_post.jwt, encrypted under the master key. */
    responseKeyCiphertext: text('response_key_ciphertext').notNull(),
    responseKeyPublic: jsonb('response_key_public').$type<PublicJwk>().notNull(),
    /** What the request asked for, frozen when the attempt began (edits apply to later attempts). */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    checks: jsonb('checks').$type<Record<string, unknown>[]>().notNull().default([]),
    presentedClaims: jsonb('presented_claims').$type<Record<string, unknown>>().notNull().default({}),
    issuer: text('issuer'),
    /** How the issuer's key was established and why the trust policy admitted or refused the issuer. */
    issuerTrust: jsonb('issuer_trust').$type<Record<string, unknown>>(),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    createdAt: createdAt(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    index('verification_individuals_verification_idx').on(t.verificationId, t.createdAt),
    index('verification_individuals_customer_idx').on(t.verificationId, t.customerId, t.createdAt),
  ],
);

/**
 * An organization's own trust anchors for verification (the TRUST_ANCHORS policy): CA certificates, or an
 * ETSI TS 119 602 list of trusted entities whose certificates are read from its URL. Effective at once.
 */
export const trustAnchors = pgTable(
  'trust_anchors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** CERTIFICATE | TRUSTED_LIST */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /** CERTIFICATE: the CA certificate; TRUSTED_LIST: null. */
    certificatePem: text('certificate_pem'),
    subject: text('subject'),
    /** SHA-256 of the certificate's DER, lowercase hex. */
    fingerprint: text('fingerprint'),
    notAfter: timestamp('not_after', { withTimezone: true }),
    /** TRUSTED_LIST: where the list is published, the certificates last read from it, and when. */
    listUrl: text('list_url'),
    listCertificates: jsonb('list_certificates').$type<string[]>().notNull().default([]),
    listFetchedAt: timestamp('list_fetched_at', { withTimezone: true }),
    listError: text('list_error'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('trust_anchors_org_idx').on(t.organizationId, t.createdAt),
    uniqueIndex('trust_anchors_fingerprint_key').on(t.organizationId, t.fingerprint),
  ],
);

/**
 * An organization's trusted wallet providers: a wallet attestation (OAuth 2.0 Attestation-Based Client
 * Authentication) or a key attestation (OpenID4VCI 1.0 Appendix D) is trusted when its signing certificate is
 * one of these certificates or chains to one of them. Effective at once.
 */
export const walletProviders = pgTable(
  'wallet_providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** CA: attestations signed by a certificate it issued are trusted; SIGNING: signed by this certificate. */
    kind: text('kind').$type<'CA' | 'SIGNING'>().notNull(),
    /** A CA certificate of the provider, or the provider's attestation signing certificate itself. */
    certificatePem: text('certificate_pem').notNull(),
    /** SHA-256 of the certificate's DER, lowercase hex. */
    fingerprint: text('fingerprint').notNull(),
    subject: text('subject').notNull(),
    notAfter: timestamp('not_after', { withTimezone: true }).notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('wallet_providers_org_idx').on(t.organizationId, t.createdAt),
    uniqueIndex('wallet_providers_fingerprint_key').on(t.organizationId, t.fingerprint),
  ],
);

/** The verified wallet attestation recorded on a credential (which provider vouched for the wallet). */
export interface WalletAttestationRecord {
  provider_id: string;
  provider_name: string;
  /** The attestation's `sub` (the wallet's client_id) and, when given, its `iss` and `wallet_name`. */
  client_id: string;
  issuer: string | null;
  wallet_name: string | null;
  /** The subject DN of the attestation's signing certificate. */
  certificate_subject: string;
  /** JWK SHA-256 thumbprint of the wallet instance key (`cnf.jwk`). */
  instance_key_thumbprint: string;
  expires_at: string;
  verified_at: string;
}

/** The verified key attestation recorded on a credential (OpenID4VCI 1.0 Appendix D). */
export interface KeyAttestationRecord {
  provider_id: string;
  provider_name: string;
  certificate_subject: string;
  key_storage: string[] | null;
  user_authentication: string[] | null;
  certification: string | null;
  expires_at: string | null;
  verified_at: string;
}

/** An integration's webhook endpoint. The signing secret is encrypted (it must be usable to sign). */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: jsonb('events').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretCiphertext: text('secret_ciphertext').notNull(),
    secretLastFour: text('secret_last_four').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('webhooks_org_idx').on(t.organizationId, t.createdAt)],
);

/** One event for one endpoint: sent by a job, retried with backoff, kept as the delivery log. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** PENDING | SUCCEEDED | FAILED */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_key').on(t.webhookId, t.eventId),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);

/**
 * What an organization's OpenID4VCI issuer demands of wallets (HAIP 1.0): DPoP-bound access tokens (RFC 9449)
 * and, later, wallet attestations. No row: nothing demanded (both false).
 */
export const organizationIssuerPolicies = pgTable('organization_issuer_policies', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  dpopRequired: boolean('dpop_required').notNull().default(false),
  walletAttestationRequired: boolean('wallet_attestation_required').notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * A pushed authorization request (RFC 9126) of an organization's issuer (migration 0021): 60 s, used once at the
 * authorization endpoint, by its client. `offerId`: the offer its `issuer_state` named (issuer-initiated);
 * without one, a wallet-initiated browser flow (`flowHash`, 10 min) proves the recipient's e-mail address.
 */
export const authorizationRequests = pgTable(
  'authorization_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    requestUriHash: text('request_uri_hash').notNull(),
    clientId: text('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    credentialConfigurationId: text('credential_configuration_id').notNull(),
    scope: text('scope'),
    authorizationDetails: jsonb('authorization_details').$type<unknown[]>(),
    offerId: uuid('offer_id').references(() => credentialOffers.id, { onDelete: 'cascade' }),
    state: text('state'),
    dpopJkt: text('dpop_jkt'),
    /** The wallet provider whose attestation was checked at the PAR: the authorization page names it. */
    walletProviderName: text('wallet_provider_name'),
    flowHash: text('flow_hash'),
    flowExpiresAt: timestamp('flow_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('authorization_requests_request_uri_key').on(t.requestUriHash),
    uniqueIndex('authorization_requests_flow_key').on(t.flowHash),
    index('authorization_requests_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The e-mail one-time code of a wallet-initiated flow: hashed, 10 min, 5 attempts, a new one replaces it; kept
 * after the flow ends so that the codes sent to an address can be counted.
 */
export const emailOneTimeCodes = pgTable(
  'email_one_time_codes',
  {
    authorizationRequestId: uuid('authorization_request_id')
      .primaryKey()
      .references(() => authorizationRequests.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    sentCount: integer('sent_count').notNull().default(1),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('email_one_time_codes_email_idx').on(t.organizationId, t.email, t.createdAt)],
);

/** An authorization code (RFC 6749 §4.1.2): hashed, 60 s, used once, granting one credential (its open offer). */
export const authorizationCodes = pgTable(
  'authorization_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    authorizationRequestId: uuid('authorization_request_id')
      .notNull()
      .references(() => authorizationRequests.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id')
      .notNull()
      .references(() => credentialOffers.id, { onDelete: 'cascade' }),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    dpopJkt: text('dpop_jkt'),
    /** The access token it was exchanged for: revoked if the code is replayed (RFC 6749 §4.1.2). */
    accessTokenHash: text('access_token_hash'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('authorization_codes_offer_idx').on(t.offerId)],
);
