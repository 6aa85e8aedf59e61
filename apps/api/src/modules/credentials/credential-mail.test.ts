import { describe, expect, it } from 'vitest';
import { credentialMail } from './credential-mail.ts';

const input = {
  deliveryId: '00000000-0000-4000-8000-000000000001',
  to: 'ada@example.com',
  recipientFirstName: 'Ada',
  recipientLastName: 'Lovelace',
  organizationName: 'Acme <University>',
  credentialName: 'Diploma',
  message: 'Congratulations!',
  publicUrl: 'https://platform.example',
  credentialId: '00000000-0000-4000-8000-000000000002',
  connectionUrl: 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fplatform.example%2Foffer',
  offerExpiresAt: new Date('2030-01-08T00:00:00Z'),
};

describe('credential e-mail', () => {
  it('carries the logo, the message, the claim link, the QR code and a plain-text part, escaped', async () => {
    const mail = await credentialMail({ ...input, organizationLogoUrl: 'https://platform.example/api/media/logo-1' });
    expect(mail.html).toContain('<img src="https://platform.example/api/media/logo-1"');
    expect(mail.html).toContain('Acme &lt;University&gt;');
    expect(mail.html).not.toContain('Acme <University>');
    expect(mail.html).toContain('Congratulations!');
    expect(mail.html).toContain('https://platform.example/connect/credential/00000000-0000-4000-8000-000000000002');
    expect(mail.text).toContain('https://platform.example/connect/credential/00000000-0000-4000-8000-000000000002');
    expect(JSON.stringify(mail)).toContain('credential-offer-qr');
  });

  it('has no image when the organization has no logo', async () => {
    const mail = await credentialMail(input);
    expect(mail.html).not.toContain('api/media');
  });
});
