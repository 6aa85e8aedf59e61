import { z } from 'zod';
import { pageOf } from './common.ts';
import { zVerificationType } from './verifications.ts';

/**
 * The activity log: every change an organization makes, append-only (the database refuses UPDATE), with who
 * made it, when, what and on which object. This file is the one list of what can be recorded: the actions,
 * what each one targets and the `details` each one carries. Details never hold claim values, e-mail bodies,
 * secrets or keys; a target's label is a human name (a schema's name, a key's name, a webhook URL's host…).
 */

/** Who acted: a member (USER), an integration (API_KEY), a wallet claiming a credential (HOLDER), the platform (SYSTEM). */
export const auditActorTypes = ['USER', 'API_KEY', 'HOLDER', 'SYSTEM'] as const;
export const zAuditActorType = z.enum(auditActorTypes);
export type AuditActorType = z.infer<typeof zAuditActorType>;

export const auditTargetTypes = [
  'organization',
  'credential_schema',
  'credential',
  'credential_import',
  'verification',
  'api_key',
  'webhook',
  'trust_anchor',
  'wallet_provider',
  'kyb_application',
  'member',
  'invitation',
] as const;
export const zAuditTargetType = z.enum(auditTargetTypes);
export type AuditTargetType = z.infer<typeof zAuditTargetType>;

const count = z.number().int().min(0);
/** Names of the fields a change touched (never their values, unless the action says so). */
const fields = z.array(z.string().max(64)).max(20);
const none = z.strictObject({});
/** A credential as the log names it: its type (the credential's name) and its recipient's name. */
const credentialNames = { credential_name: z.string(), recipient_name: z.string() };

/**
 * Every action, the type of object it targets and its `details` (strict: a key not listed here is refused
 * when the event is recorded, so nothing else, and no secret, slips in). Action names are stable: clients
 * filter on them.
 */
export const auditActionDefinitions = {
  'organization.created': { target: 'organization', details: z.strictObject({ name: z.string() }) },
  /** `fields`: what changed (names only); `name`: the new public name when it changed. */
  'organization.updated': {
    target: 'organization',
    details: z.strictObject({ fields, name: z.string().optional() }),
  },
  'organization.logo_changed': { target: 'organization', details: z.strictObject({ media_id: z.uuid() }) },
  /** The issuer policy (HAIP 1.0) as it now stands. */
  'organization.issuer_policy_changed': {
    target: 'organization',
    details: z.strictObject({ dpop_required: z.boolean(), wallet_attestation_required: z.boolean() }),
  },
  'kyb.submitted': { target: 'kyb_application', details: z.strictObject({ document_count: count }) },
  /** By a platform administrator (USER) or the admin CLI (SYSTEM). */
  'kyb.approved': { target: 'kyb_application', details: none },
  'kyb.rejected': { target: 'kyb_application', details: z.strictObject({ reason: z.string() }) },
  'credential_schema.created': {
    target: 'credential_schema',
    details: z.strictObject({ attribute_count: count }),
  },
  'credential_schema.deleted': { target: 'credential_schema', details: none },
  /** One credential created through the API or the console (an import writes `credential_import.*` instead). */
  'credential.issued': {
    target: 'credential',
    details: z.strictObject({ ...credentialNames, schema_id: z.uuid(), tx_code: z.boolean() }),
  },
  /** Claim e-mails queued by a Send (target: the schema), `count` credentials at a time. */
  'credential.sent': { target: 'credential_schema', details: z.strictObject({ count }) },
  /** The claim e-mail of one credential sent again (`POST credentials/{id}/resend`). */
  'credential.resent': { target: 'credential', details: z.strictObject(credentialNames) },
  'credential.revoked': { target: 'credential', details: z.strictObject(credentialNames) },
  'credential.deleted': { target: 'credential', details: z.strictObject(credentialNames) },
  /** A wallet received the credential through OpenID4VCI (actor HOLDER). */
  'credential.claimed': { target: 'credential', details: z.strictObject(credentialNames) },
  'credential_import.started': {
    target: 'credential_import',
    details: z.strictObject({ schema_id: z.uuid(), total_count: count }),
  },
  /** The import job finished (actor SYSTEM): one event for the whole file, whatever its size. */
  'credential_import.completed': {
    target: 'credential_import',
    details: z.strictObject({ total_count: count, succeeded_count: count, failed_count: count }),
  },
  'credential_import.failed': { target: 'credential_import', details: z.strictObject({ reason: z.string() }) },
  'verification.created': { target: 'verification', details: z.strictObject({ type: zVerificationType }) },
  'verification.updated': { target: 'verification', details: z.strictObject({ type: zVerificationType }) },
  'verification.deleted': { target: 'verification', details: none },
  'verification.link_secret_rotated': { target: 'verification', details: none },
  'api_key.created': { target: 'api_key', details: none },
  'api_key.updated': { target: 'api_key', details: z.strictObject({ previous_name: z.string() }) },
  'api_key.deleted': { target: 'api_key', details: none },
  'webhook.created': { target: 'webhook', details: z.strictObject({ events: z.array(z.string()).max(20) }) },
  'webhook.updated': {
    target: 'webhook',
    details: z.strictObject({ fields, enabled: z.boolean().optional() }),
  },
  'webhook.deleted': { target: 'webhook', details: none },
  'trust_anchor.created': { target: 'trust_anchor', details: z.strictObject({ kind: z.string() }) },
  /** A member read a trusted list again (the hourly refresh is not an organization's change). */
  'trust_anchor.refreshed': {
    target: 'trust_anchor',
    details: z.strictObject({ succeeded: z.boolean(), certificate_count: count.nullable() }),
  },
  'trust_anchor.deleted': { target: 'trust_anchor', details: z.strictObject({ kind: z.string() }) },
  /** A trusted wallet provider added or removed (target label: the name given to it). */
  'wallet_provider.created': { target: 'wallet_provider', details: z.strictObject({ kind: z.string() }) },
  'wallet_provider.deleted': { target: 'wallet_provider', details: z.strictObject({ kind: z.string() }) },
  // Members and invitations (recorded by the members feature). Target label: the person's name or e-mail.
  'member.invited': { target: 'invitation', details: z.strictObject({ role: z.string() }) },
  'member.joined': { target: 'member', details: z.strictObject({ role: z.string() }) },
  'member.role_changed': {
    target: 'member',
    details: z.strictObject({ role: z.string(), previous_role: z.string() }),
  },
  'member.removed': { target: 'member', details: none },
  'invitation.revoked': { target: 'invitation', details: none },
} as const satisfies Record<string, { target: AuditTargetType; details: z.ZodType<Record<string, unknown>> }>;

export type AuditAction = keyof typeof auditActionDefinitions;
export const auditActions = Object.keys(auditActionDefinitions) as AuditAction[];
export const zAuditAction = z.enum(auditActions as [AuditAction, ...AuditAction[]]);
export type AuditEventDetails<A extends AuditAction> = z.infer<(typeof auditActionDefinitions)[A]['details']>;

/** Families of actions, as the console's filter offers them (`filter.action=<category>.*` selects one). */
export const auditActionCategories = {
  credentials: ['credential.', 'credential_import.'],
  credential_schemas: ['credential_schema.'],
  verifications: ['verification.'],
  integrations: ['api_key.', 'webhook.'],
  trust_anchors: ['trust_anchor.', 'wallet_provider.'],
  organization: ['organization.', 'kyb.'],
  members: ['member.', 'invitation.'],
} as const satisfies Record<string, readonly string[]>;
export type AuditActionCategory = keyof typeof auditActionCategories;
export const auditActionCategoryNames = Object.keys(auditActionCategories) as AuditActionCategory[];

export const auditActionsOfCategory = (category: AuditActionCategory): AuditAction[] =>
  auditActions.filter((action) => auditActionCategories[category].some((prefix) => action.startsWith(prefix)));

export const auditCategoryOfAction = (action: AuditAction): AuditActionCategory =>
  auditActionCategoryNames.find((category) => auditActionsOfCategory(category).includes(action)) ?? 'organization';

/**
 * `filter.action`: comma-separated action names and categories (`credentials.*`), any mix; answers the
 * distinct actions they name.
 */
const zActionFilter = z
  .string()
  .max(1000)
  .transform((value, context) => {
    const selected = new Set<AuditAction>();
    for (const raw of value.split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const category = item.endsWith('.*') ? (item.slice(0, -2) as AuditActionCategory) : null;
      if (category && Object.hasOwn(auditActionCategories, category)) {
        for (const action of auditActionsOfCategory(category)) selected.add(action);
      } else if ((auditActions as string[]).includes(item)) {
        selected.add(item as AuditAction);
      } else {
        context.addIssue({ code: 'custom', message: `Unknown action or category: ${item.slice(0, 60)}` });
        return z.NEVER;
      }
    }
    if (selected.size === 0) {
      context.addIssue({ code: 'custom', message: 'Name at least one action or category.' });
      return z.NEVER;
    }
    return [...selected];
  });

/** An instant: an ISO 8601 date-time with its offset, or a date (midnight UTC). */
const zInstant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((value) => new Date(value));

export const AUDIT_EVENTS_PAGE_SIZE_MAX = 100;
/** Pages reach this deep at most: older events are reached by narrowing the time range (`filter.to`). */
export const AUDIT_EVENTS_PAGE_MAX = 1000;
/**
 * Events are counted up to this many: beyond it `total` is this number and `total_exact` is false, so that a
 * page costs the same with a million events as with a thousand.
 */
export const AUDIT_EVENTS_TOTAL_MAX = 10_000;

/** `GET audit-events`: newest first; `from` inclusive, `to` exclusive. */
export const zAuditEventListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(AUDIT_EVENTS_PAGE_MAX).default(1),
    limit: z.coerce.number().int().min(1).max(AUDIT_EVENTS_PAGE_SIZE_MAX).default(10),
    t: z.string().max(32).optional(),
    'filter.action': zActionFilter.optional(),
    'filter.actor_type': zAuditActorType.optional(),
    /** A user's or an API key's id. */
    'filter.actor_id': z.uuid().optional(),
    'filter.target_type': zAuditTargetType.optional(),
    'filter.target_id': z.string().min(1).max(200).optional(),
    'filter.from': zInstant.optional(),
    'filter.to': zInstant.optional(),
  })
  .refine((q) => !q['filter.from'] || !q['filter.to'] || q['filter.from'] < q['filter.to'], {
    message: 'filter.from must be before filter.to',
    path: ['filter.from'],
  });
export type AuditEventListQuery = z.infer<typeof zAuditEventListQuery>;

export const zAuditEvent = z.object({
  id: z.uuid(),
  occurred_at: z.iso.datetime({ offset: true }),
  action: zAuditAction,
  actor: z.object({
    type: zAuditActorType,
    /** The user's or the API key's id (null for HOLDER and SYSTEM). */
    id: z.uuid().nullable(),
    /** The user's name or e-mail, or the key's name, as they were when it acted. */
    label: z.string().nullable(),
  }),
  target: z.object({ type: zAuditTargetType, id: z.string().nullable(), label: z.string().nullable() }),
  /** What the action's definition lists (see `auditActionDefinitions`). */
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof zAuditEvent>;

export const zAuditEventPage = pageOf(zAuditEvent).extend({
  /** False when more than AUDIT_EVENTS_TOTAL_MAX events match: `total` is then that number ("10,000 or more"). */
  total_exact: z.boolean(),
});
export type AuditEventPage = z.infer<typeof zAuditEventPage>;
