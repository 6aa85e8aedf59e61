import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateResponseKey } from './response-decryption.ts';
import { responseMemory } from './response-memory.ts';
import type * as repository from './verifications.repository.ts';

/**
 * The process's copy of the attempts it created, their response keys and their organizations' verifier side
 * (response-memory.ts): what it hands back, and when it stops handing it back. Whether a response answered from
 * it may store its outcome is the repository's condition, tested against the database in
 * test/verification-response-memory.test.ts.
 */

const MINUTE = 60_000;

function attempt(organizationId = randomUUID()) {
  const id = randomUUID();
  const individual = {
    id,
    status: 'CREATED',
    nonce: `n-${id}`,
    state: `s-${id}`,
    request: { format: 'dc+sd-jwt' },
    responseKeyCiphertext: 'sealed',
    responseKeyPublic: { kty: 'EC' },
    // Columns a response never reads: not kept.
    customerId: 'customer-1',
  } as unknown as repository.VerificationIndividualRow;
  const verification = { id: randomUUID(), organizationId, type: 'MULTI' } as repository.ResponseVerification;
  return { id, individual, verification };
}

const organizationRow = (organizationId: string, revision: number) =>
  ({
    individual: {},
    verification: { organizationId },
    anchors: [],
    notify: false,
    revision,
  }) as unknown as repository.ResponseRow;

describe('responseMemory', () => {
  it('keeps an attempt and its key until answered or 15 minutes old; the row only with its organization', async () => {
    const { privateKey } = await generateResponseKey();
    const { id, individual, verification } = attempt();
    const now = Date.now();
    responseMemory.rememberAttempt(individual, verification, privateKey, now);

    // The key serves the response even before the organization's verifier side was read once.
    expect(responseMemory.key(id, now + 14 * MINUTE)).toBe(privateKey);
    expect(responseMemory.recall(id, now)).toBeUndefined();

    responseMemory.rememberOrganization(organizationRow(verification.organizationId, 7), now);
    const recalled = responseMemory.recall(id, now + MINUTE);
    expect(recalled?.context).toEqual({ verificationId: verification.id, type: 'MULTI', revision: 7 });
    expect(recalled?.row.individual).not.toHaveProperty('customerId');
    expect(recalled?.row.individual.nonce).toBe(individual.nonce);

    // The organization's copy is younger-lived (5 minutes): the attempt's key outlives it.
    expect(responseMemory.recall(id, now + 5 * MINUTE + 1)).toBeUndefined();
    expect(responseMemory.key(id, now + 5 * MINUTE + 1)).toBe(privateKey);

    // Expired: gone, and dropped when seen.
    expect(responseMemory.key(id, now + 15 * MINUTE + 1)).toBeUndefined();
    expect(responseMemory.key(id, now)).toBeUndefined();

    responseMemory.rememberAttempt(individual, verification, privateKey, now);
    responseMemory.forget(id);
    expect(responseMemory.key(id, now)).toBeUndefined();
    expect(responseMemory.recall(id, now)).toBeUndefined();
    responseMemory.forgetOrganization(verification.organizationId);
  });

  it('drops an organization’s copy on demand, keeping its attempts', async () => {
    const { privateKey } = await generateResponseKey();
    const { id, individual, verification } = attempt();
    responseMemory.rememberAttempt(individual, verification, privateKey);
    responseMemory.rememberOrganization(organizationRow(verification.organizationId, 1));
    expect(responseMemory.recall(id)).toBeDefined();
    responseMemory.forgetOrganization(verification.organizationId);
    expect(responseMemory.recall(id)).toBeUndefined();
    expect(responseMemory.key(id)).toBe(privateKey);
    responseMemory.forget(id);
  });

  it('holds at most 8,192 attempts, the oldest out first', async () => {
    const { privateKey } = await generateResponseKey();
    const attempts = Array.from({ length: 8200 }, () => attempt());
    for (const { individual, verification } of attempts) {
      responseMemory.rememberAttempt(individual, verification, privateKey);
    }
    expect(responseMemory.size.attempts).toBeLessThanOrEqual(8192);
    expect(responseMemory.key(attempts[0]!.id)).toBeUndefined();
    expect(responseMemory.key(attempts.at(-1)!.id)).toBe(privateKey);
    for (const { id } of attempts) responseMemory.forget(id);
  });
});
