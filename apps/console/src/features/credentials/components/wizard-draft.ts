import type { RecipientDraft } from './claim-form.ts';

/**
 * What the issuing wizard has been given so far, kept in sessionStorage (this tab only, gone when it closes) so
 * that a reload on any step loses nothing: the typed recipients (with the ids of credentials already created
 * for them), the CSV imports' ids (their recipients are read back from the API), the name, description and
 * message. One draft per organization, for one schema at a time.
 */
export interface WizardDraft {
  schemaId: string;
  name: string;
  description: string;
  nameTouched: boolean;
  message: string;
  recipients: RecipientDraft[];
  importIds: string[];
}

const storageKey = (organizationId: string) => `cp.issuing-wizard.${organizationId}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isText = (value: unknown): value is string => typeof value === 'string';

function isRecipient(value: unknown): value is RecipientDraft {
  const r = value as Partial<RecipientDraft> | null;
  return Boolean(
    r &&
      typeof r.key === 'number' &&
      isText(r.email) &&
      isText(r.first_name) &&
      isText(r.last_name) &&
      r.claims &&
      typeof r.claims === 'object' &&
      Object.values(r.claims).every((v) => isText(v) || typeof v === 'boolean') &&
      (r.createdId === undefined || (isText(r.createdId) && UUID.test(r.createdId))),
  );
}

/** The stored draft of this schema, or null (none, another schema's, or unreadable). */
export function readWizardDraft(organizationId: string, schemaId: string | null): WizardDraft | null {
  if (!organizationId || !schemaId) return null;
  try {
    const raw = window.sessionStorage.getItem(storageKey(organizationId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<WizardDraft>;
    if (draft.schemaId !== schemaId) return null;
    if (![draft.name, draft.description, draft.message].every(isText)) return null;
    if (!Array.isArray(draft.recipients) || !draft.recipients.every(isRecipient)) return null;
    if (!Array.isArray(draft.importIds) || !draft.importIds.every((id) => isText(id) && UUID.test(id))) return null;
    return { ...(draft as WizardDraft), nameTouched: draft.nameTouched === true };
  } catch {
    return null;
  }
}

export function writeWizardDraft(organizationId: string, draft: WizardDraft) {
  try {
    window.sessionStorage.setItem(storageKey(organizationId), JSON.stringify(draft));
  } catch {
    // Storage full or unavailable: the wizard still works, it only forgets on reload.
  }
}

export function clearWizardDraft(organizationId: string) {
  try {
    window.sessionStorage.removeItem(storageKey(organizationId));
  } catch {
    // nothing to clear
  }
}
