import type { KeyObject } from 'node:crypto';
import type * as repository from './verifications.repository.ts';

/**
 * What a response would otherwise read in its first statement (findIndividualForResponse) or open from it, kept by
 * this process (issue 16: one statement, a wide row's parsing and a key import less per presentation):
 *
 * - attempts it created, as inserted (only what a response reads of them, about 2 KB each), with the private key
 *   it generated for the attempt's encrypted response (a KeyObject, so the response skips opening the stored key
 *   and importing it: ≈ 8 % of a response's CPU, bench/RESULTS.md);
 * - organizations' verifier side (trust anchors, whether an endpoint takes `verification.completed`) with the
 *   organization's verifier revision, all three as one statement read them for an earlier response.
 *
 * Neither is trusted on its own. A response answered from here stores its outcome only on condition, in the same
 * statement, that the attempt is still open, its verification not deleted and of the same type, and the
 * revision unchanged (verifications.repository.ts, RememberedContext; the database bumps the revision with any
 * change of the anchors or webhooks, migration 0025). When the condition fails, the response is read and checked
 * again from the database. The key needs no such condition: it is only ever the one this process generated for the
 * attempt of that id, and a JWE that does not open with it is refused whatever else holds. Bounded in number and
 * age; another process's attempt is read, and its key opened, from the database as before.
 */
const ATTEMPTS_MAX = 8192;
const ATTEMPT_TTL_MS = 15 * 60_000;
const ORGANIZATIONS_MAX = 1000;
const ORGANIZATION_TTL_MS = 5 * 60_000;

type Attempt = Pick<repository.ResponseRow, 'individual' | 'verification'>;
type Organization = Pick<repository.ResponseRow, 'anchors' | 'notify' | 'revision'>;

const attempts = new Map<string, { attempt: Attempt; key: KeyObject; expires: number }>();
const organizations = new Map<string, { organization: Organization; expires: number }>();

function put<V>(map: Map<string, { expires: number } & V>, key: string, value: { expires: number } & V, max: number) {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as string);
}

function fresh<V extends { expires: number }>(map: Map<string, V>, key: string, now: number): V | undefined {
  const entry = map.get(key);
  if (entry && entry.expires <= now) map.delete(key);
  return entry && entry.expires > now ? entry : undefined;
}

export const responseMemory = {
  /** An attempt this process just inserted (its verification as read to create it) and its response's private key. */
  rememberAttempt(
    individual: repository.VerificationIndividualRow,
    verification: repository.ResponseVerification,
    key: KeyObject,
    now = Date.now(),
  ) {
    const { id, status, nonce, state, request, responseKeyCiphertext, responseKeyPublic } = individual;
    const attempt: Attempt = {
      individual: { id, status, nonce, state, request, responseKeyCiphertext, responseKeyPublic },
      verification: { id: verification.id, organizationId: verification.organizationId, type: verification.type },
    };
    put(attempts, id, { attempt, key, expires: now + ATTEMPT_TTL_MS }, ATTEMPTS_MAX);
  },
  /** The organization's verifier side as a response read it from the database (one statement, consistent). */
  rememberOrganization(row: repository.ResponseRow, now = Date.now()) {
    const organization: Organization = { anchors: row.anchors, notify: row.notify, revision: row.revision };
    put(
      organizations,
      row.verification.organizationId,
      { organization, expires: now + ORGANIZATION_TTL_MS },
      ORGANIZATIONS_MAX,
    );
  },
  /**
   * The row a response would read, from memory, with the condition its outcome is stored on; undefined unless
   * both the attempt and its organization are here.
   */
  recall(
    attemptId: string,
    now = Date.now(),
  ): { row: repository.ResponseRow; context: repository.RememberedContext } | undefined {
    const attempt = fresh(attempts, attemptId, now)?.attempt;
    if (!attempt) return undefined;
    const organization = fresh(organizations, attempt.verification.organizationId, now)?.organization;
    if (!organization) return undefined;
    return {
      row: { ...attempt, ...organization },
      context: {
        verificationId: attempt.verification.id,
        type: attempt.verification.type,
        revision: organization.revision,
      },
    };
  },
  /** The private key this process generated for the attempt's response, while the attempt is here. */
  key(attemptId: string, now = Date.now()): KeyObject | undefined {
    return fresh(attempts, attemptId, now)?.key;
  },
  /** The attempt is answered (or its copy was found out of date): its copy and key go. */
  forget(attemptId: string) {
    attempts.delete(attemptId);
  },
  forgetOrganization(organizationId: string) {
    organizations.delete(organizationId);
  },
  get size() {
    return { attempts: attempts.size, organizations: organizations.size };
  },
};
