import type * as repository from './verifications.repository.ts';

/**
 * What a response would otherwise read in its first statement (findIndividualForResponse), kept by this process
 * (issue 16: one statement and a wide row's parsing less per presentation):
 *
 * - attempts it created, as inserted (only what a response reads of them, about 2 KB each);
 * - organizations' verifier side (trust anchors, whether an endpoint takes `verification.completed`) with the
 *   organization's verifier revision, all three as one statement read them for an earlier response.
 *
 * Neither is trusted on its own. A response answered from here stores its outcome only on condition, in the same
 * statement, that the attempt is still open, its verification not deleted and of the same type, and the
 * revision unchanged (verifications.repository.ts, RememberedContext; the database bumps the revision with any
 * change of the anchors or webhooks, migration 0025). When the condition fails, the response is read and checked
 * again from the database. Bounded in number and age; another process's attempt is read as before.
 */
const ATTEMPTS_MAX = 8192;
const ATTEMPT_TTL_MS = 15 * 60_000;
const ORGANIZATIONS_MAX = 1000;
const ORGANIZATION_TTL_MS = 5 * 60_000;

type Attempt = Pick<repository.ResponseRow, 'individual' | 'verification'>;
type Organization = Pick<repository.ResponseRow, 'anchors' | 'notify' | 'revision'>;

const attempts = new Map<string, { attempt: Attempt; expires: number }>();
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
  /** An attempt this process just inserted (its verification as read to create it). */
  rememberAttempt(
    individual: repository.VerificationIndividualRow,
    verification: repository.ResponseVerification,
    now = Date.now(),
  ) {
    const { id, status, nonce, state, request, responseKeyCiphertext, responseKeyPublic } = individual;
    const attempt: Attempt = {
      individual: { id, status, nonce, state, request, responseKeyCiphertext, responseKeyPublic },
      verification: { id: verification.id, organizationId: verification.organizationId, type: verification.type },
    };
    put(attempts, id, { attempt, expires: now + ATTEMPT_TTL_MS }, ATTEMPTS_MAX);
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
  /** The attempt is answered (or its copy was found out of date). */
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
