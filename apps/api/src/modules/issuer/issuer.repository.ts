import type { AttributeType } from '@cp/credentials';
import {
  type Database,
  type KeyAttestationRecord,
  runStatement,
  runStatementInTransaction,
  schema,
  statement,
  type WalletAttestationRecord,
} from '@cp/db';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { credentialTargetSql } from '../audit-events/audit-events.repository.ts';
import { policyAllowsSql } from '../issuer-policy/issuer-policy.repository.ts';

const { credentialOffers, credentials } = schema;

export async function findOfferByCodeHash(db: Database, organizationId: string, codeHash: string) {
  const [row] = await db
    .select({ offer: credentialOffers, credential: credentials })
    .from(credentialOffers)
    .innerJoin(credentials, eq(credentials.id, credentialOffers.credentialId))
    .where(
      and(eq(credentialOffers.organizationId, organizationId), eq(credentialOffers.preAuthorizedCodeHash, codeHash)),
    );
  return row;
}

/**
 * Reserves one tx_code attempt before the PIN is compared: counting and the limit check are one
 * statement, so the row lock serializes racing requests and at most `maxAttempts` of them, however
 * many arrive at once, get an attempt (a read-then-compare-then-count let 50 concurrent wrong PINs
 * each be compared). Answers the attempt's number (1..maxAttempts), or undefined when the offer has
 * no attempt left or was revoked or redeemed meanwhile: then the PIN must not be compared.
 */
export async function reserveTxCodeAttempt(db: Database, offerId: string, maxAttempts: number) {
  const [row] = await db
    .update(credentialOffers)
    .set({ txCodeAttempts: sql`${credentialOffers.txCodeAttempts} + 1` })
    .where(
      and(
        eq(credentialOffers.id, offerId),
        lt(credentialOffers.txCodeAttempts, maxAttempts),
        isNull(credentialOffers.revokedAt),
        isNull(credentialOffers.redeemedAt),
      ),
    )
    .returning({ attempt: credentialOffers.txCodeAttempts });
  return row?.attempt;
}

/**
 * The last reserved attempt had a wrong PIN: the offer is withdrawn. Not when a correct PIN redeemed it
 * meanwhile (the holder's own exchange stands), nor again when already revoked (keeps the first time).
 */
export async function revokeOfferAfterTxCodeAttempts(db: Database, offerId: string) {
  await db
    .update(credentialOffers)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(credentialOffers.id, offerId), isNull(credentialOffers.revokedAt), isNull(credentialOffers.redeemedAt)),
    );
}

/** Single use: only the first exchange of a pre-authorized code succeeds. */
export async function redeemOffer(db: Database, offerId: string, accessTokenHash: string, expiresAt: Date) {
  const rows = await db
    .update(credentialOffers)
    .set({ redeemedAt: new Date(), accessTokenHash, accessTokenExpiresAt: expiresAt })
    .where(
      and(eq(credentialOffers.id, offerId), isNull(credentialOffers.redeemedAt), isNull(credentialOffers.revokedAt)),
    )
    .returning({ id: credentialOffers.id });
  return rows.length === 1;
}

/**
 * The wallet attestation verified at the token step, on the credential of the offer the access token was just
 * issued for (the offer row names it by the token's hash): which wallet provider vouched for the holder's wallet.
 */
export async function recordWalletAttestation(
  db: Database,
  organizationId: string,
  accessTokenHash: string,
  walletProviderId: string,
  record: WalletAttestationRecord,
) {
  await db
    .update(credentials)
    .set({ walletProviderId, walletAttestation: record })
    .where(
      and(
        eq(credentials.organizationId, organizationId),
        inArray(
          credentials.id,
          db
            .select({ id: credentialOffers.credentialId })
            .from(credentialOffers)
            .where(
              and(
                eq(credentialOffers.organizationId, organizationId),
                eq(credentialOffers.accessTokenHash, accessTokenHash),
              ),
            ),
        ),
      ),
    );
}

/** The key attestation verified with the holder key's proof, on the credential just claimed. */
export async function recordKeyAttestation(
  db: Database,
  organizationId: string,
  credentialId: string,
  record: KeyAttestationRecord,
) {
  await db
    .update(credentials)
    .set({ keyAttestation: record })
    .where(and(eq(credentials.organizationId, organizationId), eq(credentials.id, credentialId)));
}

// ---- the wallet's hot path: hand-written statements, one per step where the rules allow ----------------

/** The offer fetched by reference, when it is still open (not used, revoked, expired; credential not deleted). */
const openOfferStatement = statement<{ slug: string; hasTxCode: boolean }>(
  'issuer_open_offer',
  `select c.schema_snapshot->>'slug' as "slug", o.tx_code_hash is not null as "hasTxCode"
     from credential_offers o join credentials c on c.id = o.credential_id
    where o.organization_id = $1 and o.id = $2
      and o.revoked_at is null and o.redeemed_at is null and o.expires_at > $3 and c.deleted_at is null`,
);

export async function findOpenOffer(db: Database, organizationId: string, offerId: string, now: Date) {
  const [row] = await runStatement(db, openOfferStatement, [organizationId, offerId, now]);
  return row;
}

/**
 * The token step in one statement when nothing needs a closer look: the code of an open offer of this
 * organization without a PIN, whose credential is neither revoked nor deleted, is redeemed (single use: the
 * row lock makes a concurrent second exchange find `redeemed_at` set), if the organization's issuer policy, read
 * in the same statement, demands nothing the request lacks ($6: no DPoP proof, $7: no wallet attestation).
 * Answers nothing otherwise: the caller then reads the policy and the offer to say why (or to count a PIN
 * attempt).
 */
const redeemStatement = statement<{ id: string }>(
  'issuer_redeem_offer',
  `update credential_offers o
      set redeemed_at = $3, access_token_hash = $4, access_token_expires_at = $5
     from credentials c
    where o.organization_id = $1 and o.pre_authorized_code_hash = $2 and c.id = o.credential_id
      and o.redeemed_at is null and o.revoked_at is null and o.tx_code_hash is null and o.expires_at > $3
      and c.revoked_at is null and c.deleted_at is null
      and ${policyAllowsSql('$1', '$6', '$7')}
    returning o.id`,
);

export async function redeemOpenOffer(
  db: Database,
  organizationId: string,
  codeHash: string,
  accessTokenHash: string,
  expiresAt: Date,
  now: Date,
  lacks: { dpop: boolean; walletAttestation: boolean },
) {
  const rows = await runStatement(db, redeemStatement, [
    organizationId,
    codeHash,
    now,
    accessTokenHash,
    expiresAt,
    lacks.dpop,
    lacks.walletAttestation,
  ]);
  return rows.length === 1;
}

export interface TokenOffer {
  offerId: string;
  accessTokenExpiresAt: Date | null;
  offerRevokedAt: Date | null;
  id: string;
  name: string;
  recipientFirstName: string;
  recipientLastName: string;
  slug: string;
  claims: Record<string, string | number | boolean>;
  statusListId: string;
  statusIndex: number;
  revokedAt: Date | null;
  deletedAt: Date | null;
  /** The schema's attributes as the credential was created (their types shape an mdoc's values). */
  attributes: { name: string; type: AttributeType }[] | null;
}

/** What the credential step needs of the offer an access token was issued for, and of its credential. */
const tokenOfferSelect = `select o.id as "offerId", o.access_token_expires_at as "accessTokenExpiresAt",
          o.revoked_at as "offerRevokedAt", c.id, c.name, c.recipient_first_name as "recipientFirstName",
          c.recipient_last_name as "recipientLastName", c.schema_snapshot->>'slug' as "slug", c.claims,
          c.status_list_id as "statusListId", c.status_index as "statusIndex", c.revoked_at as "revokedAt",
          c.deleted_at as "deletedAt", c.schema_snapshot->'attributes' as "attributes"
     from credential_offers o join credentials c on c.id = o.credential_id
    where o.organization_id = $1 and o.access_token_hash = $2`;
const tokenOfferStatement = statement<TokenOffer>('issuer_token_offer', tokenOfferSelect);

export async function findOfferByAccessTokenHash(db: Database, organizationId: string, tokenHash: string) {
  const [row] = await runStatement(db, tokenOfferStatement, [organizationId, tokenHash]);
  return row;
}

/**
 * The audit event of a claim, as `recordAuditEvent` would store it, without its target and details: the claim
 * statement writes those of the credential it claimed itself (as `credentialTarget` makes them).
 */
export interface ClaimAuditRow {
  actorType: string;
  action: string;
  targetType: string;
}

export interface ClaimResult {
  /** The offer the access token was issued for, with its credential, as the statement found it (null: none). */
  token: TokenOffer | null;
  /** The nonce was not spent before (false: refuse the proof). Only tried for a usable token. */
  nonceFresh: boolean;
  /** This request completed the offer (false: it already delivered its credential, or was revoked). */
  offerCompleted: boolean;
  /** Set when the credential became CLAIMED (not when a revocation came first). */
  claimedAt: Date | null;
  schemaId: string | null;
  /** Some enabled webhook endpoint of the organization takes `credential.claimed`. */
  notify: boolean;
}

/**
 * The credential step's database work in one statement, so that it is one round trip and all or nothing. It
 * reads the offer the access token was issued for and its credential (answered whatever happens, for the
 * credential's signing and to explain a refusal). Only when the token is unexpired, the credential is of
 * configuration `$3` and neither it nor the offer was withdrawn: the proof's nonce is spent (its hash
 * inserted: a second use finds the row), then, only if it was fresh, the offer is completed (one credential
 * per offer: the row lock makes a concurrent second request find `completed_at` set), then, only if that
 * succeeded, the credential becomes CLAIMED with the holder's key (not when revoked meanwhile) and its audit
 * event is stored with it (its target and details as `credentialTarget` makes them). Also answers whether the organization has `credential.claimed` subscribers.
 */
const claimedTarget = credentialTargetSql('claimed');
const claimStatement = statement<ClaimRow>(
  'issuer_claim',
  `with token as (
     ${tokenOfferSelect}
   ), usable as (
     select "offerId", id from token
      where "accessTokenExpiresAt" > $4::timestamptz and slug = $3::text
        and "offerRevokedAt" is null and "revokedAt" is null and "deletedAt" is null
   ), nonce as (
     insert into nonces (nonce_hash, purpose, expires_at, consumed_at)
     select $5::text, $6::text, $7::timestamptz, $4::timestamptz from usable
     on conflict (nonce_hash) do nothing returning 1
   ), offer as (
     update credential_offers set completed_at = $4
      where id = (select "offerId" from usable) and completed_at is null and revoked_at is null
        and exists (select from nonce)
     returning 1
   ), claimed as (
     update credentials set status = 'CLAIMED', claimed_at = $4, holder_jwk = $8::jsonb, signing_key_id = $9
      where id = (select id from usable) and revoked_at is null and exists (select from offer)
     returning id, name, recipient_first_name, recipient_last_name, schema_id, claimed_at
   ), audit as (
     insert into audit_events (organization_id, actor_type, action, target_type, target_id, target_label, details)
     select $1::uuid, $10::text, $11::text, $12::text, claimed.id::text,
            ${claimedTarget.label}, ${claimedTarget.details}
       from claimed
   )
   select token.*,
          exists (select from nonce) as "nonceFresh", exists (select from offer) as "offerCompleted",
          claimed.claimed_at as "claimedAt", claimed.schema_id as "schemaId",
          exists (select from webhooks w
                   where w.organization_id = $1 and w.deleted_at is null and w.enabled
                     and w.events @> '["credential.claimed"]'::jsonb) as "notify"
     from (select) one left join token on true left join claimed on true`,
);

/** The claim statement's row: the token's offer and credential (null columns when none), then the claim's. */
type ClaimRow = { [K in keyof TokenOffer]: TokenOffer[K] | null } & Omit<ClaimResult, 'token'>;

export interface ClaimInput {
  organizationId: string;
  /** The access token's hash: the statement finds its offer and credential. */
  accessTokenHash: string;
  /** The configuration asked for: the credential's schema slug (`dc+sd-jwt`) or that of its mdoc one. */
  slug: string;
  nonceHash: string;
  noncePurpose: string;
  nonceExpiresAt: Date;
  holderJwk: Record<string, unknown>;
  signingKeyId: string;
  audit: ClaimAuditRow;
  now: Date;
}

const claimValues = (input: ClaimInput) => [
  input.organizationId,
  input.accessTokenHash,
  input.slug,
  input.now,
  input.nonceHash,
  input.noncePurpose,
  input.nonceExpiresAt,
  JSON.stringify(input.holderJwk),
  input.signingKeyId,
  input.audit.actorType,
  input.audit.action,
  input.audit.targetType,
];

/** Drivers differ in how they hand back a timestamp outside a prepared statement (a string in a transaction). */
const asDate = (value: Date | string | null) => (value === null || value instanceof Date ? value : new Date(value));

function claimResult(row: ClaimRow | undefined): ClaimResult {
  if (!row) throw new Error('The claim statement answered no row');
  const { nonceFresh, offerCompleted, claimedAt, schemaId, notify, ...token } = row;
  return {
    token:
      token.offerId === null
        ? null
        : ({
            ...token,
            accessTokenExpiresAt: asDate(token.accessTokenExpiresAt),
            offerRevokedAt: asDate(token.offerRevokedAt),
            revokedAt: asDate(token.revokedAt),
            deletedAt: asDate(token.deletedAt),
          } as TokenOffer),
    nonceFresh,
    offerCompleted,
    claimedAt: asDate(claimedAt),
    schemaId,
    notify,
  };
}

/** The claim of one credential (one key proof): one statement on the database handle. */
export async function claimCredential(db: Database, input: ClaimInput): Promise<ClaimResult> {
  const [row] = await runStatement(db, claimStatement, claimValues(input));
  return claimResult(row);
}

/**
 * The same claim statement inside a transaction (a batch's claim, whose further instances are written with it:
 * a prepared statement runs only on the handle itself). The statement's `$n` become bound parameters.
 */
export async function claimCredentialInTransaction(tx: Database, input: ClaimInput): Promise<ClaimResult> {
  const [row] = await runStatementInTransaction(tx, claimStatement, claimValues(input));
  return claimResult(row);
}
