import type { AuditEvent } from '@cp/contracts';
import Link from '@mui/material/Link';
import type { ReactElement } from 'react';
import { RouterLink } from '../../../components/router-link.tsx';
import { useTranslation } from '../../../i18n/index.ts';
import { renderMarkup } from '../../../i18n/react.tsx';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const number = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Where a target can be opened: only objects that have a page, and not once the event deleted them. */
export function targetPath(event: AuditEvent, organizationId: string): string | null {
  if (event.action.endsWith('.deleted') || !event.target.id) return null;
  switch (event.target.type) {
    case 'verification':
      return `/verifications/edit/${event.target.id}`;
    case 'api_key':
    case 'webhook':
      return '/integrations';
    case 'trust_anchor':
      return '/trust-anchors';
    case 'wallet_provider':
      return '/wallet-providers';
    case 'organization':
    case 'kyb_application':
      return `/organization/${organizationId}`;
    default:
      return null;
  }
}

/**
 * What happened, as a sentence in the user's language without its subject (the actor is shown beside it):
 * "revoked the credential Work Certificate of Kim Lee". Names typed by people (the target, a recipient, a
 * reason) are passed as elements, never interpolated into the message: they are shown as written, never read as
 * markup.
 */
export function ActivitySentence({ event, organizationId }: { event: AuditEvent; organizationId: string }) {
  const { t, i18n } = useTranslation();
  const details = event.details;
  const strong = (value: string) => <strong>{value}</strong>;
  const label = event.target.label ?? t('activity.unnamed');
  const path = targetPath(event, organizationId);
  const targetName = text(details.credential_name) || label;
  const target = path ? (
    <Link
      component={RouterLink}
      to={path}
      underline="hover"
      sx={{ fontWeight: 600 }}
      data-testid={`activity-target-${event.id}`}
    >
      {event.target.type === 'credential' ? targetName : label}
    </Link>
  ) : (
    <strong data-testid={`activity-target-${event.id}`}>
      {event.target.type === 'credential' ? targetName : label}
    </strong>
  );
  const role = (value: unknown) =>
    strong(i18n.exists(`activity.roles.${text(value)}`) ? t(`activity.roles.${text(value)}`) : text(value));
  const components: Record<string, ReactElement> = {
    target,
    recipient: strong(text(details.recipient_name) || t('activity.unnamed')),
    previous: strong(text(details.previous_name)),
    value: strong(text(details.name)),
    reason: <q>{text(details.reason)}</q>,
    role: role(details.role),
  };
  let key = `activity.actions.${event.action}`;
  const options: Record<string, unknown> = {};
  switch (event.action) {
    case 'organization.updated': {
      const fields = (Array.isArray(details.fields) ? details.fields : []).filter((f) => f !== 'name');
      if (text(details.name) && fields.length === 0) key = 'activity.actions.organization.renamed';
      else {
        options.fields = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
          fields.map((f) => (i18n.exists(`activity.fields.${f}`) ? t(`activity.fields.${f}`) : String(f))),
        );
        if (text(details.name)) key = 'activity.actions.organization.renamedAndUpdated';
      }
      break;
    }
    case 'organization.issuer_policy_changed':
      key =
        details.dpop_required === true
          ? 'activity.actions.organization.issuerPolicyDpopRequired'
          : 'activity.actions.organization.issuerPolicyDpopOptional';
      break;
    case 'kyb.submitted':
      options.count = number(details.document_count);
      break;
    case 'credential.sent':
      options.count = number(details.count);
      break;
    case 'credential_import.started':
      options.count = number(details.total_count);
      break;
    case 'credential_import.completed':
      options.count = number(details.succeeded_count);
      // Without failures the <errors/> tag has no element: it renders nothing.
      if (number(details.failed_count) > 0) {
        components.errors = (
          <span>{t('activity.actions.credential_import.rowErrors', { count: number(details.failed_count) })}</span>
        );
      }
      break;
    case 'webhook.updated':
      if (details.enabled === false) key = 'activity.actions.webhook.paused';
      else if (details.enabled === true) key = 'activity.actions.webhook.resumed';
      break;
    case 'trust_anchor.refreshed':
      if (details.succeeded === false) key = 'activity.actions.trust_anchor.refreshFailed';
      break;
  }
  if (!i18n.exists(key) && !i18n.exists(`${key}_other`)) {
    // An action this console does not know yet (a newer API): its stable name says what it is.
    return <span data-testid={`activity-sentence-${event.id}`}>{event.action}</span>;
  }
  return <span data-testid={`activity-sentence-${event.id}`}>{renderMarkup(t(key, options), components)}</span>;
}
