import { schema } from '@cp/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifiedOrganization, startTestApp, type TestApp } from './harness.ts';
import { type WalletHttp, walletHttp } from './support/wallet.ts';

/**
 * The tx_code (PIN) of a pre-authorized offer may be tried 5 times, then the offer is withdrawn: under
 * concurrency too. On PostgreSQL (TEST_DATABASE_URL) the pool runs the requests really concurrently.
 */

const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const WRONG_PIN = 'The transaction code is wrong.';
const WITHDRAWN = 'This offer was withdrawn.';

let t: TestApp;
let http: WalletHttp;
beforeAll(async () => {
  // 50 concurrent token requests from one address: above the default per-address issuer limit's margin.
  t = await startTestApp({ env: { RATE_LIMIT_ISSUER_PER_MINUTE: '1000' } });
  http = walletHttp(t);
});
afterAll(async () => {
  await t?.close();
});

/** An offer with a PIN, as the holder receives it: the token endpoint, the pre-authorized code and the PIN. */
async function offerWithPin(name: string) {
  const { organization, schemaRecord, headers } = await buildVerifiedOrganization(t, name, {
    name: 'Membership',
    attributes: [{ name: 'full_name', type: 'TEXT' }],
  });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/credentials/with-recipient',
    headers,
    payload: {
      credential: {
        name: 'Membership of Ada',
        schema_id: schemaRecord.schema.id,
        claims: [{ name: 'full_name', value: 'Ada Lovelace' }],
      },
      recipient: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      tx_code: true,
    },
  });
  expect(created.statusCode).toBe(201);
  const { id: credentialId, tx_code: pin } = created.json() as { id: string; tx_code: string };
  expect(pin).toMatch(/^\d{6}$/);
  const connect = (await http(`${t.config.publicUrl}/api/credentials/${credentialId}/connect`)).json();
  const offerUri = new URL(connect.connection_url).searchParams.get('credential_offer_uri')!;
  const offer = (await http(offerUri)).json();
  const code: string = offer.grants[PRE_AUTHORIZED_GRANT]['pre-authorized_code'];
  expect(offer.grants[PRE_AUTHORIZED_GRANT].tx_code).toBeDefined();
  const tokenEndpoint = `${t.config.publicUrl}/orgs/${organization.id}/token`;
  const exchange = (txCode: string) =>
    http(tokenEndpoint, { form: { grant_type: PRE_AUTHORIZED_GRANT, 'pre-authorized_code': code, tx_code: txCode } });
  /** The i-th wrong PIN: six digits, never the right one (i < 999 999). */
  const wrongPin = (i: number) => String((Number(pin) + 1 + i) % 1_000_000).padStart(6, '0');
  const storedOffer = async () => {
    const [row] = await t.runtime.ctx.database.db
      .select()
      .from(schema.credentialOffers)
      .where(eq(schema.credentialOffers.credentialId, credentialId));
    return row!;
  };
  return { pin, exchange, wrongPin, storedOffer };
}

describe('the tx_code limit of the token endpoint', () => {
  it('compares at most 5 of 50 concurrent wrong PINs, then withdraws the offer: the right PIN is refused too', async () => {
    const { pin, exchange, wrongPin, storedOffer } = await offerWithPin('Concurrent PIN Guessers');
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => exchange(wrongPin(i))));
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.json().error).toBe('invalid_grant');
    }
    const descriptions = responses.map((response) => response.json().error_description as string);
    // "wrong" only after a comparison; every other request was refused before its PIN was looked at.
    expect(descriptions.filter((d) => d === WRONG_PIN)).toHaveLength(5);
    expect(descriptions.filter((d) => d === WITHDRAWN)).toHaveLength(45);
    const offer = await storedOffer();
    expect(offer.txCodeAttempts).toBe(5);
    expect(offer.revokedAt).toBeInstanceOf(Date);
    expect(offer.redeemedAt).toBeNull();

    const right = await exchange(pin);
    expect(right.status).toBe(400);
    expect(right.json()).toMatchObject({ error: 'invalid_grant', error_description: WITHDRAWN });
    expect((await storedOffer()).txCodeAttempts).toBe(5);
  });

  it('takes the right PIN after 4 wrong ones (once), and withdraws the offer at the 5th wrong one', async () => {
    const first = await offerWithPin('Careful Typists');
    for (let i = 0; i < 4; i++) {
      const wrong = await first.exchange(first.wrongPin(i));
      expect(wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: WRONG_PIN });
    }
    const right = await first.exchange(first.pin);
    expect(right.status).toBe(200);
    expect(right.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    const redeemed = await first.storedOffer();
    expect(redeemed.redeemedAt).toBeInstanceOf(Date);
    expect(redeemed.revokedAt).toBeNull();
    // Single use: the right PIN a second time is refused, and no PIN is compared on a redeemed offer.
    expect((await first.exchange(first.pin)).json().error).toBe('invalid_grant');
    expect((await first.exchange(first.wrongPin(9))).json().error_description).not.toBe(WRONG_PIN);
    expect((await first.storedOffer()).revokedAt).toBeNull();

    const second = await offerWithPin('Unlucky Typists');
    for (let i = 0; i < 5; i++) {
      const wrong = await second.exchange(second.wrongPin(i));
      expect(wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: WRONG_PIN });
    }
    expect((await second.storedOffer()).revokedAt).toBeInstanceOf(Date);
    expect((await second.exchange(second.pin)).json()).toMatchObject({
      error: 'invalid_grant',
      error_description: WITHDRAWN,
    });
  });
});
