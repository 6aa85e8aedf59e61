import QRCode from 'qrcode';

/** What the credential e-mail needs (English for now; the e-mail is not localized yet). */
export interface CredentialMailInput {
  deliveryId: string;
  to: string;
  recipientFirstName: string;
  recipientLastName: string;
  organizationName: string;
  /** Public address of the organization's logo, when it has one. */
  organizationLogoUrl?: string | null;
  credentialName: string;
  message: string | null;
  publicUrl: string;
  credentialId: string;
  /** The `openid-credential-offer://` link encoded in the QR code. */
  connectionUrl: string;
  offerExpiresAt: Date;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export const QR_CID = 'credential-offer-qr';

/** A stable Message-ID per delivery: a resend after a crash is recognizably the same mail. */
export function deliveryMessageId(deliveryId: string, publicUrl: string) {
  let host = 'credential-platform.local';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // keep the default host
  }
  return `<credential-delivery-${deliveryId}@${host}>`;
}

export async function credentialMail(input: CredentialMailInput) {
  const claimUrl = `${input.publicUrl.replace(/\/$/, '')}/connect/credential/${input.credentialId}`;
  const qr = await QRCode.toBuffer(input.connectionUrl, { type: 'png', width: 240, margin: 1 });
  const name = `${input.recipientFirstName} ${input.recipientLastName}`.trim();
  const expires = input.offerExpiresAt.toISOString().slice(0, 10);
  const subject = `${input.organizationName} sent you a credential: ${input.credentialName}`;
  const text = [
    `Hello ${name},`,
    '',
    `${input.organizationName} has issued you the credential "${input.credentialName}".`,
    ...(input.message ? ['', input.message] : []),
    '',
    `Claim your credential: ${claimUrl}`,
    '',
    `The offer expires on ${expires}.`,
  ].join('\n');
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<tr><td>
${input.organizationLogoUrl ? `<img src="${escapeHtml(input.organizationLogoUrl)}" alt="${escapeHtml(input.organizationName)}" width="48" height="48" style="display:block;border-radius:8px;margin:0 0 12px">` : ''}
<p style="font-size:14px;color:#52606d;margin:0 0 8px">${escapeHtml(input.organizationName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.credentialName)}</h1>
<p style="margin:0 0 16px">Hello ${escapeHtml(name)},</p>
<p style="margin:0 0 16px">${escapeHtml(input.organizationName)} has issued you the credential “${escapeHtml(input.credentialName)}”.</p>
${input.message ? `<p style="margin:0 0 16px;white-space:pre-line">${escapeHtml(input.message)}</p>` : ''}
<p style="margin:24px 0"><a href="${escapeHtml(claimUrl)}" style="display:inline-block;background:#1e5bd8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px">Claim your credential</a></p>
<p style="margin:0 0 8px">Or scan this QR code with your wallet:</p>
<p style="margin:0 0 16px"><img src="cid:${QR_CID}" width="240" height="240" alt="QR code of the credential offer"></p>
<p style="font-size:12px;color:#7b8794;margin:0">The offer expires on ${expires}.</p>
</td></tr></table></body></html>`;
  return {
    to: input.to,
    subject,
    text,
    html,
    messageId: deliveryMessageId(input.deliveryId, input.publicUrl),
    attachments: [{ filename: 'credential-offer-qr.png', content: qr, contentType: 'image/png', cid: QR_CID }],
  };
}
