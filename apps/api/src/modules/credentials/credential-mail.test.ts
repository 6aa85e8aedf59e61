import { describe, expect, it } from 'vitest';
import {
  credentialMail,
  credentialMailLocaleFromAcceptLanguage,
  deliveryMessageId,
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
