import { describe, expect, it } from 'vitest';
import {
  brandColorOf,
  buttonTextColor,
  contrastRatio,
  credentialMail,
  credentialMailLocaleFromAcceptLanguage,
  DEFAULT_BRAND_COLOR,
  deliveryMessageId,
  renderCredentialMail,
  toCredentialMailLocale,
} from './credential-mail.ts';

const input = {
  deliveryId: '00000000-0000-4000-8000-000000000001',
  locale: 'en' as const,
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
  it('carries the logo as an inline image, the message, the claim link, the QR code and a plain-text part, escaped', async () => {
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const mail = await credentialMail({ ...input, organizationLogo: { content: logo, contentType: 'image/png' } });
    expect(mail.html).toContain('<img src="cid:organization-logo"');
    expect(mail.attachments.map((a) => a.cid)).toEqual(['organization-logo', 'credential-offer-qr']);
    expect(mail.attachments[0]!.content.equals(logo)).toBe(true);
    expect(mail.html).toContain('Acme &lt;University&gt;');
    expect(mail.html).not.toContain('Acme <University>');
    expect(mail.html).toContain('Congratulations!');
    expect(mail.html).toContain('https://platform.example/connect/credential/00000000-0000-4000-8000-000000000002');
    expect(mail.text).toContain('https://platform.example/connect/credential/00000000-0000-4000-8000-000000000002');
    expect(mail.html).toContain('<meta charset="utf-8">');
  });

  it('has no logo image when the organization has no logo (or one that is not an image)', async () => {
    expect((await credentialMail(input)).html).not.toContain('organization-logo');
    const pdf = await credentialMail({
      ...input,
      organizationLogo: { content: Buffer.from('%PDF-'), contentType: 'application/pdf' },
    });
    expect(pdf.html).not.toContain('organization-logo');
    expect(pdf.attachments).toHaveLength(1);
  });

  it('links a logo too large to attach, the same in the e-mail and in the preview', async () => {
    const organizationLogo = { url: 'https://platform.example/api/media/big-logo' };
    const mail = await credentialMail({ ...input, organizationLogo });
    const preview = await renderCredentialMail(
      { ...input, organizationLogo, claimUrl: 'https://p.example/x', qrContent: 'https://p.example/x' },
      'data-uri',
    );
    for (const html of [mail.html, preview.html]) {
      expect(html).toContain('<img src="https://platform.example/api/media/big-logo"');
    }
    expect(mail.attachments.map((a) => a.cid)).toEqual(['credential-offer-qr']);
    const script = await credentialMail({ ...input, organizationLogo: { url: 'javascript:alert(1)' } });
    expect(script.html).not.toContain('javascript:');
  });

  it('embeds the images as data URIs for the preview, with no attachment', async () => {
    const logo = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const preview = await renderCredentialMail(
      {
        ...input,
        claimUrl: 'https://platform.example/connect/credential/preview',
        qrContent: 'https://platform.example/connect/credential/preview',
        organizationLogo: { content: logo, contentType: 'image/jpeg' },
      },
      'data-uri',
    );
    expect(preview.attachments).toEqual([]);
    expect(preview.html).toContain(`<img src="data:image/jpeg;base64,${logo.toString('base64')}"`);
    expect(preview.html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" width="240"/);
    expect(preview.html).not.toContain('cid:');
  });

  it("paints the button in the organization's colour with the text colour of better contrast (WCAG)", async () => {
    const button = (html: string) => /data-role="claim" style="[^"]*background:([^;]+);color:([^;]+);/.exec(html);
    expect(button((await credentialMail(input)).html)?.slice(1)).toEqual(['#004a46', '#ffffff']);
    expect(button((await credentialMail({ ...input, brandColor: '#FFD500' })).html)?.slice(1)).toEqual([
      '#ffd500',
      '#000000',
    ]);
    expect(button((await credentialMail({ ...input, brandColor: '#1e3a8a' })).html)?.slice(1)).toEqual([
      '#1e3a8a',
      '#ffffff',
    ]);
    // Not a #rrggbb value (e.g. CSS injection): the product's teal.
    expect(button((await credentialMail({ ...input, brandColor: 'red;background:url(x)' })).html)?.[1]).toBe('#004a46');
    for (const colour of ['#000000', '#ffffff', '#777777', '#767676', '#ffd500', '#004a46', '#ff0000', '#00a0a0']) {
      expect(contrastRatio(colour, buttonTextColor(colour))).toBeGreaterThanOrEqual(4.5);
    }
    expect(brandColorOf(null)).toBe(DEFAULT_BRAND_COLOR);
  });

  it('is written in English by default', async () => {
    const mail = await credentialMail(input);
    expect(mail.subject).toBe('Acme <University> sent you a credential: Diploma');
    expect(mail.text).toContain('Hello Ada Lovelace,');
    expect(mail.text).toContain('Acme <University> has issued you the credential “Diploma”.');
    expect(mail.text).toContain('The offer expires on January 8, 2030.');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain('Claim your credential</a>');
    expect(mail.html).toContain('alt="QR code of the credential offer"');
  });
});

describe('credential e-mail in the sender’s language', () => {
  const cases = [
    {
      locale: 'ja',
      subject: 'Acme <University>から証明書「Diploma」が届きました',
      greeting: 'Ada Lovelace 様',
      line: 'Acme <University>から証明書「Diploma」が発行されました。',
      claim: '証明書の受け取りはこちら：https://platform.example/connect/credential/',
      expiry: '受け取り期限は2030年1月8日です。',
      button: '証明書を受け取る',
      alt: '証明書を受け取るためのQRコード',
    },
    {
      locale: 'es',
      subject: 'Acme <University> te ha enviado una credencial: Diploma',
      greeting: 'Hola, Ada Lovelace:',
      line: 'Acme <University> te ha emitido la credencial «Diploma».',
      claim: 'Reclama tu credencial: https://platform.example/connect/credential/',
      expiry: 'La oferta caduca el 8 de enero de 2030.',
      button: 'Reclama tu credencial',
      alt: 'Código QR de la oferta de la credencial',
    },
    {
      locale: 'ko',
      subject: 'Acme <University>에서 자격 증명을 보냈습니다: Diploma',
      greeting: 'Ada Lovelace님, 안녕하세요.',
      line: 'Acme <University>에서 자격 증명 “Diploma”을(를) 발급했습니다.',
      claim: '자격 증명 받기: https://platform.example/connect/credential/',
      expiry: '수령 기한은 2030년 1월 8일입니다.',
      button: '자격 증명 받기',
      alt: '자격 증명을 받을 수 있는 QR 코드',
    },
  ] as const;

  for (const c of cases) {
    it(`is written in ${c.locale}: subject, text, HTML, alt text and expiry date`, async () => {
      const mail = await credentialMail({ ...input, locale: c.locale });
      expect(mail.subject).toBe(c.subject);
      expect(mail.text.split('\n')[0]).toBe(c.greeting);
      expect(mail.text).toContain(c.line);
      expect(mail.text).toContain(c.claim);
      expect(mail.text).toContain(c.expiry);
      expect(mail.text).not.toContain('2030-01-08');
      // The sender's message is never translated.
      expect(mail.text).toContain('Congratulations!');
      expect(mail.html).toContain(`<html lang="${c.locale}">`);
      expect(mail.html).toContain(`${c.button}</a>`);
      expect(mail.html).toContain(`alt="${c.alt}"`);
      expect(mail.html).toContain(c.expiry);
      // Names stay escaped in every language.
      expect(mail.html).toContain('Acme &lt;University&gt;');
      expect(mail.html).not.toContain('Acme <University>');
      expect(mail.html).not.toContain('Claim your credential');
      // The Message-ID does not depend on the language: a resend stays the same mail.
      expect(mail.messageId).toBe(deliveryMessageId(input.deliveryId, input.publicUrl));
    });
  }

  it('writes Japanese and Korean names family name first, and picks the Korean particle', async () => {
    const ja = await credentialMail({ ...input, locale: 'ja', recipientFirstName: '花子', recipientLastName: '山田' });
    expect(ja.text.split('\n')[0]).toBe('山田 花子 様');
    const ko = await credentialMail({
      ...input,
      locale: 'ko',
      recipientFirstName: '민준',
      recipientLastName: '김',
      credentialName: '졸업증명서',
    });
    expect(ko.text.split('\n')[0]).toBe('김민준님, 안녕하세요.');
    expect(ko.text).toContain('자격 증명 “졸업증명서”를 발급했습니다.');
    const withBatchim = await credentialMail({ ...input, locale: 'ko', credentialName: '회원증' });
    expect(withBatchim.text).toContain('자격 증명 “회원증”을 발급했습니다.');
  });

  it('maps stored values and Accept-Language to a supported language, else English', () => {
    expect(toCredentialMailLocale('ko')).toBe('ko');
    expect(toCredentialMailLocale('fr')).toBe('en');
    expect(toCredentialMailLocale(null)).toBe('en');
    expect(credentialMailLocaleFromAcceptLanguage('ja-JP,ja;q=0.9,en;q=0.8')).toBe('ja');
    expect(credentialMailLocaleFromAcceptLanguage('fr-FR,ko;q=0.8,es;q=0.9')).toBe('es');
    expect(credentialMailLocaleFromAcceptLanguage('fr-FR,de;q=0.5')).toBe('en');
    expect(credentialMailLocaleFromAcceptLanguage('ko;q=0,ja;q=0.1')).toBe('ja');
    expect(credentialMailLocaleFromAcceptLanguage('<script>,es')).toBe('es');
    expect(credentialMailLocaleFromAcceptLanguage(undefined)).toBe('en');
  });
});
