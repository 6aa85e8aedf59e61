import { describe, expect, it } from 'vitest';
import { classifyLink, targetPath } from './classify-link.ts';

describe('classifyLink', () => {
  it('sends offers to receive and requests to present', () => {
    const offer = 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fi.example%2Fo';
    const request = 'openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fv.example%2Fr';
    expect(classifyLink(` ${offer}\n`)).toEqual({ to: 'receive', offer });
    expect(classifyLink(request)).toEqual({ to: 'present', request });
    expect(targetPath({ to: 'present', request })).toBe(`/present?request=${encodeURIComponent(request)}`);
  });

  it('unwraps links to this wallet, e.g. the console claim page "Open in wallet" button', () => {
    const offer = 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fi.example%2Fo';
    expect(classifyLink(`https://wallet.example/receive?offer=${encodeURIComponent(offer)}`)).toEqual({
      to: 'receive',
      offer,
    });
  });

  it('rejects anything else', () => {
    expect(classifyLink('hello')).toBeNull();
    expect(classifyLink('https://example.com/page')).toBeNull();
    expect(classifyLink('javascript:alert(1)')).toBeNull();
  });
});
