import type { Database } from '@cp/db';
import type Provider from 'oidc-provider';
import { deleteGrants, deleteOtherAccountSessions, findAccountPayloads } from './adapter.ts';

type LogFn = (obj: object, msg?: string) => void;

export interface EndedSessions {
  sessionsEnded: number;
  grantsRevoked: number;
  /** Clients told through OpenID Connect Back-Channel Logout 1.0, and those that did not answer 200. */
  clientsNotified: string[];
  clientsFailed: string[];
}

interface SessionAuthorizations {
  authorizations?: Record<string, { grantId?: string }>;
}

/** `Client#backchannelLogout` exists in oidc-provider 9 but is missing from @types/oidc-provider. */
interface BackchannelClient {
  clientId: string;
  backchannelLogoutUri?: string;
  backchannelLogout(sub: string, sid?: string): Promise<void>;
}

/**
 * After a password change (OWASP ASVS 3.3: other sessions end): deletes every other provider session
 * of the account, revokes all its grants (codes, access and refresh tokens of every client) and sends
 * a Back-Channel Logout token to every registered client with a `backchannel_logout_uri`.
 *
 * The token names only the subject (no `sid`), so the client ends all the account's sessions, including
 * those opened from provider sessions that no longer exist: a relying party's own session (the console's
 * refresh tokens, 30 days) can outlive the provider session (14 days) and its grant, so the provider's
 * records cannot list the sids of every client session still open. For the same reason every client is
 * told, not only those of the other sessions; all are first-party, and one that never saw the account
 * ignores the token. (A sign-out, by contrast, goes through oidc-provider's end_session, which sends
 * that provider session's `sid`: only the client sessions opened from it end.)
 */
export async function endOtherSessions(
  provider: Provider,
  db: Database,
  /** `keepSessionUid` null: every session ends (a password reset, which happens outside any session). */
  input: { accountId: string; keepSessionUid: string | null; clientIds: string[]; log: LogFn },
): Promise<EndedSessions> {
  const { accountId } = input;
  const ended = (await deleteOtherAccountSessions(db, accountId, input.keepSessionUid)) as SessionAuthorizations[];
  const grantIds = new Set((await findAccountPayloads(db, 'Grant', accountId)).map((g) => g.id));
  // The ended sessions' grants too (deleting one already gone is harmless).
  for (const session of ended) {
    for (const authorization of Object.values(session.authorizations ?? {})) {
      if (authorization.grantId) grantIds.add(authorization.grantId);
    }
  }
  await deleteGrants(db, [...grantIds]);

  // One logout token per client, without a sid (see above). The clients registered
  // backchannel_logout_session_required for sign-outs, where Back-Channel Logout 1.0 §2.4 wants the sid;
  // their endpoint (the console's API) accepts a sub-only token as "every session of the account".
  const clientsNotified: string[] = [];
  const clientsFailed: string[] = [];
  await Promise.all(
    input.clientIds.map(async (clientId) => {
      const client = (await provider.Client.find(clientId)) as unknown as BackchannelClient | undefined;
      if (!client?.backchannelLogoutUri) return;
      try {
        await client.backchannelLogout(accountId);
        clientsNotified.push(clientId);
      } catch (error) {
        clientsFailed.push(clientId);
        input.log(
          { clientId, error: error instanceof Error ? error.message : String(error) },
          'back-channel logout failed',
        );
      }
    }),
  );
  return { sessionsEnded: ended.length, grantsRevoked: grantIds.size, clientsNotified, clientsFailed };
}
