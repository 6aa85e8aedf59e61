import { HolderError } from '@cp/holder';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WalletError } from './errors.ts';
import { walletErrorFrom } from './holder.ts';
import { resolvePresentationRequest } from './present.ts';
import { resolveOffer } from './receive.ts';
import { json, stubFetch, text } from './test-support.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('walletErrorFrom', () => {
  it('carries a library error over with its code, message and the remote party’s words', () => {
    const remote = { error: 'invalid_request', description: 'Already answered' };
    const error = walletErrorFrom(
      new HolderError('VERIFIER_ERROR', 'The verifier answered 400', 'invalid_request: Already answered', remote),
      'NETWORK',
    );
    expect(error).toBeInstanceOf(WalletError);
    expect(error).toMatchObject({
      code: 'VERIFIER_ERROR',
      message: 'The verifier answered 400',
      detail: 'invalid_request: Already answered',
      remote,
    });
  });

  it('keeps a WalletError, and makes anything else the fallback code', () => {
    const own = new WalletError('LOCKED');
    expect(walletErrorFrom(own, 'NETWORK')).toBe(own);
    expect(walletErrorFrom(new TypeError('boom'), 'ISSUER_ERROR')).toMatchObject({
      code: 'ISSUER_ERROR',
      message: 'boom',
    });
  });

  it('is what the core throws for the library’s failures', async () => {
    stubFetch({ 'https://issuer.example/offers/gone': () => json({ error: 'invalid_request' }, 404) });
    const gone = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent('https://issuer.example/offers/gone')}`;
    const error = await resolveOffer(gone, 'en').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WalletError);
    expect(error).toMatchObject({ code: 'OFFER_EXPIRED' });
  });
});

describe('plain http', () => {
  const offerUri = 'http://localhost:8080/offers/1';
  const offerLink = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri)}`;
  const requestUri = 'http://localhost:8080/requests/1';
  const requestLink = `openid4vp://?client_id=x&request_uri=${encodeURIComponent(requestUri)}`;

  it('is followed while the wallet page itself is served over http (development)', async () => {
    expect(globalThis.location.protocol).toBe('http:');
    const { calls } = stubFetch({
      [offerUri]: () => json({ error: 'invalid_request' }, 410),
      [requestUri]: () => text('gone', 'text/plain', 410),
    });
    // Fetched: the answers (gone) are the servers', not a refusal of the scheme.
    await expect(resolveOffer(offerLink, 'en')).rejects.toMatchObject({ code: 'OFFER_EXPIRED' });
    await expect(resolvePresentationRequest(requestLink)).rejects.toMatchObject({ code: 'REQUEST_EXPIRED' });
    expect(calls.map((c) => c.url)).toEqual([offerUri, requestUri]);
  });

  it('is refused, without a request, when the wallet is served over https', async () => {
    vi.stubGlobal('location', new URL('https://wallet.example/receive'));
    const { calls } = stubFetch({});
    await expect(resolveOffer(offerLink, 'en')).rejects.toMatchObject({ code: 'OFFER_INVALID' });
    await expect(resolvePresentationRequest(requestLink)).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
    const byValue = `openid-credential-offer://?credential_offer=${encodeURIComponent(
      JSON.stringify({
        credential_issuer: 'http://localhost:8080',
        credential_configuration_ids: ['diploma'],
        grants: { 'urn:ietf:params:oauth:grant-type:pre-authorized_code': { 'pre-authorized_code': 'c' } },
      }),
    )}`;
    await expect(resolveOffer(byValue, 'en')).rejects.toMatchObject({ code: 'OFFER_INVALID' });
    expect(calls).toEqual([]);
  });
});
