import type { DatabaseHandle, SecretBox } from '@cp/db';
import type { Config } from './config/env.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { Logger } from './lib/logger.ts';
import type { RateLimitStore } from './lib/rate-limit-store.ts';
import type { Mailbox } from './mail/mailbox.ts';
import type { AccessTokens } from './modules/auth/access-tokens.ts';
import type { OidcClient } from './modules/auth/oidc-client.ts';
import type { KeyDeps } from './modules/organization-keys/organization-keys.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { Storage } from './storage/storage.ts';

/** Everything a request handler may need, built once at boot (and by the tests) and passed in. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  /** Encrypts secrets and keys at rest under the master key. */
  secretBox: SecretBox;
  logger: Logger;
  oidc: OidcClient;
  accessTokens: AccessTokens;
  jobs: JobQueue;
  /** Organization signing keys, their store and the platform CA. */
  keys: KeyDeps;
  /** Server-side keys that never leave the process (derived codes). */
  secrets: { offerCodeKey: Buffer };
  /** Uploaded files (local disk or S3-compatible storage). */
  storage: Storage;
  /** The development mailbox (embedded mode only). */
  mailbox: Mailbox | undefined;
  /** Counters of every rate limit: process memory, or Redis shared by all processes (REDIS_URL). */
  rateLimitStore: RateLimitStore;
  /** Token that the admin CLI presents on loopback while the server holds the database. */
  adminToken: string | undefined;
  /** Every service's dependency object, built once by the composition root (`service-deps.ts`). */
  deps: ServiceDeps;
}
