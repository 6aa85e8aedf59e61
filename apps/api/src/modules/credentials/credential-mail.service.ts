import type { CredentialMailLocale, CredentialMailPreviewRequest } from '@cp/contracts';
import type { Database } from '@cp/db';
import { AppError } from '../../errors/app-error.ts';
import type { Storage } from '../../storage/storage.ts';
import * as credentialSchemasService from '../credential-schemas/credential-schemas.service.ts';
import { mediaUrl } from '../media/media.presenter.ts';
import * as mediaService from '../media/media.service.ts';
import * as organizationsService from '../organizations/organizations.service.ts';
import { previewRecipientName, renderCredentialMail } from './credential-mail.ts';
import * as credentialsRepository from './credentials.repository.ts';

export interface MailBrandingDeps {
  db: Database;
  storage: Storage;
}

/** A logo up to this size goes inline in every e-mail; a larger one is linked (its public address). */
export const MAX_INLINE_LOGO_BYTES = 256 * 1024;

/**
 * What the e-mail shows of the organization: its name, its logo (inline, so the mail does not depend on a
 * remote image that mail clients block, unless it is too large to attach to every e-mail), its brand colour.
 */
export async function mailBranding(deps: MailBrandingDeps & { publicUrl: string }, organizationId: string) {
  const organization = await organizationsService.getPublicOrganization(deps.db, organizationId);
  let organizationLogo: { content: Buffer; contentType: string } | { url: string } | null = null;
  if (organization.logoMediaId) {
    try {
      const { row, bytes } = await mediaService.readMedia(deps, organization.logoMediaId, null);
      organizationLogo =
        bytes.length <= MAX_INLINE_LOGO_BYTES
          ? { content: bytes, contentType: row.contentType }
          : { url: mediaUrl(deps.publicUrl, row.id) };
    } catch (err) {
      // A logo whose file is gone: the mail goes without it. A storage outage is thrown (the job retries).
      if (!(err instanceof AppError && err.code === 'MEDIA_NOT_FOUND')) throw err;
    }
  }
  return { organizationName: organization.name, organizationLogo, brandColor: organization.brandColor };
}

export interface MailPreviewDeps extends MailBrandingDeps {
  publicUrl: string;
  offerTtlDays: number;
}

/**
 * The credential e-mail as it will be sent (`renderCredentialMail`, the delivery's renderer) for the
 * wizard's first recipient (typed, or one of the organization's credentials), else a placeholder name; the
 * claim link and QR code are placeholders and the expiry is a new offer's.
 */
export async function previewCredentialMail(
  deps: MailPreviewDeps,
  organizationId: string,
  input: CredentialMailPreviewRequest & { locale: CredentialMailLocale },
) {
  const record = await credentialSchemasService.getCredentialSchema(deps.db, { organizationId, id: input.schema_id });
  let recipient = previewRecipientName(input.locale);
  if (input.recipient?.first_name || input.recipient?.last_name) {
    recipient = { firstName: input.recipient.first_name, lastName: input.recipient.last_name };
  } else if (input.credential_id) {
    const credential = await credentialsRepository.findCredential(deps.db, organizationId, input.credential_id);
    if (!credential) throw new AppError('CREDENTIAL_NOT_FOUND');
    recipient = { firstName: credential.recipientFirstName, lastName: credential.recipientLastName };
  }
  const placeholder = `${deps.publicUrl.replace(/\/$/, '')}/connect/credential/preview`;
  const rendered = await renderCredentialMail(
    {
      locale: input.locale,
      recipientFirstName: recipient.firstName,
      recipientLastName: recipient.lastName,
      ...(await mailBranding(deps, organizationId)),
      credentialName: input.name || record.schema.name,
      credentialDescription: input.description || null,
      message: input.message || null,
      claimUrl: placeholder,
      qrContent: placeholder,
      offerExpiresAt: new Date(Date.now() + deps.offerTtlDays * 86_400_000),
    },
    'data-uri',
  );
  return { subject: rendered.subject, html: rendered.html, text: rendered.text };
}
